// D46 D47: the calls that change a customer's service locations and contacts. They are read with the
// customer (GET /v1/customers/{id}/ includes both), so a change makes the customer stale, with its
// timeline (each change is an entry), the list (the primary location's city, search) and the dashboard.
import { useMemo } from 'react';
import type { ContactInput, CustomerContact, CustomerLocation, LocationInput } from '../../contract/customer-parts';
import type { MutationDef } from '../query/cache';
import { useSession, useSessionActions } from '../session/use-session';
import { type ApiContext, CUSTOMERS_PATH, customerKeys } from './customers';

/** PATCH of one location or contact: its id and the fields that changed. */
export interface PartUpdate<I> {
  id: number;
  changes: Partial<I>;
}

/** Add, change and remove of one kind of part, as the section that edits it uses them. */
export interface PartCalls<T, I> {
  add: MutationDef<I, T>;
  update: MutationDef<PartUpdate<I>, T>;
  remove: MutationDef<number, null>;
}

export function customerPartsApi({ client, orgId }: ApiContext, customerId: number) {
  const written = [customerKeys.all(orgId), customerKeys.dashboard(orgId)];
  const calls = <T, I>(plural: 'locations' | 'contacts'): PartCalls<T, I> => {
    const base = `${CUSTOMERS_PATH}${customerId}/${plural}/`;
    return {
      add: { run: (input) => client.post<T>(base, input), invalidates: written },
      update: { run: ({ id, changes }) => client.patch<T>(`${base}${id}/`, changes), invalidates: written },
      remove: { run: (id) => client.delete<null>(`${base}${id}/`), invalidates: written },
    };
  };
  return {
    locations: calls<CustomerLocation, LocationInput>('locations'),
    contacts: calls<CustomerContact, ContactInput>('contacts'),
  };
}

export type CustomerPartsApi = ReturnType<typeof customerPartsApi>;

/** A customer's locations and contacts calls, in the organization this tab shows (D21). */
export function useCustomerPartsApi(customerId: number): CustomerPartsApi {
  const { client } = useSessionActions();
  const orgId = useSession().currentOrg?.id ?? null;
  return useMemo(() => customerPartsApi({ client, orgId }, customerId), [client, orgId, customerId]);
}
