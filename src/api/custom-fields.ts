// D56: the organization's custom field definitions, as /settings/fields manages them and the customer and
// location forms, the customer page and the list read them. Definitions live under ['custom-fields', orgId];
// a definition change also makes customer data stale (archived values leave every answer).
import { useMemo } from 'react';
import type { CustomField, CustomFieldKind, CustomFieldOption, CustomFieldType } from '../../contract/custom-fields';
import type { MutationDef, QueryDef, QueryKey } from '../query/cache';
import { useQuery } from '../query/use-query';
import { useSession, useSessionActions } from '../session/use-session';
import type { Client } from '../http/client';
import { customerKeys } from './customers';

export const CUSTOM_FIELDS_PATH = '/v1/custom-fields/';

export const customFieldKeys = {
  all: (orgId: number | null): QueryKey => ['custom-fields', orgId],
  /** Apart from `all`'s: a definition's change must not ask again for a field just deleted (a 404). Its count is for an archived field, whose values no write changes. */
  one: (orgId: number | null, id: number): QueryKey => ['custom-field', orgId, id],
};

/** POST /v1/custom-fields/: a new definition (the key is made from the label when not given). */
export interface NewCustomField {
  label: string;
  type: CustomFieldType;
  record_kind: CustomFieldKind;
  key?: string;
  help?: string | null;
  required?: boolean;
  unique?: boolean;
  options?: { label: string }[];
}

/** PATCH: any of these; an option without an id is new, one left out is removed (409 option_in_use if held). */
export interface CustomFieldChanges {
  label?: string;
  help?: string | null;
  required?: boolean;
  unique?: boolean;
  type?: CustomFieldType;
  options?: (Partial<Pick<CustomFieldOption, 'id'>> & Pick<CustomFieldOption, 'label'>)[];
}

export type CustomFieldDetail = CustomField & { records_with_value: number };

/** A list answer `{results: [field]}`; another shape is an error here, not a crash in a form later. */
function parseFields(data: unknown): CustomField[] {
  const results = (data as { results?: unknown } | null)?.results;
  if (!Array.isArray(results)) throw new TypeError('Unexpected answer from the server');
  return results as CustomField[];
}

/** The fields of one kind that a form or a page shows: not archived, in their order. */
export const activeFields = (fields: readonly CustomField[] | undefined, kind: CustomFieldKind): CustomField[] =>
  (fields ?? []).filter((f) => f.record_kind === kind && !f.archived).sort((a, b) => a.position - b.position);

export function customFieldsApi({ client, orgId }: { client: Pick<Client, 'get' | 'post' | 'put' | 'patch' | 'delete'>; orgId: number | null }) {
  const path = (id: number) => `${CUSTOM_FIELDS_PATH}${id}/`;
  /** A definition change shows in every customer answer (values of archived fields leave them). */
  const written = [customFieldKeys.all(orgId), customerKeys.all(orgId)];
  return {
    /** Customer fields then location fields, each in its order; archived ones included. */
    list: (): QueryDef<CustomField[]> => ({
      key: customFieldKeys.all(orgId),
      fetch: async (signal) => parseFields(await client.get(CUSTOM_FIELDS_PATH, { signal })),
    }),
    /** The field with how many records hold a value (what deleting it would remove). */
    get: (id: number): QueryDef<CustomFieldDetail> => ({
      key: customFieldKeys.one(orgId, id),
      fetch: (signal) => client.get<CustomFieldDetail>(path(id), { signal }),
    }),
    create: { run: (body: NewCustomField) => client.post<CustomField>(CUSTOM_FIELDS_PATH, body), invalidates: written } satisfies MutationDef<
      NewCustomField,
      CustomField
    >,
    update: (id: number): MutationDef<CustomFieldChanges, CustomField> => ({
      run: (changes) => client.patch<CustomField>(path(id), changes),
      invalidates: written,
    }),
    archive: { run: (id: number) => client.post<CustomField>(`${path(id)}archive/`), invalidates: written } satisfies MutationDef<number, CustomField>,
    restore: { run: (id: number) => client.post<CustomField>(`${path(id)}restore/`), invalidates: written } satisfies MutationDef<number, CustomField>,
    /** Only an archived field; the answer says how many records held a value. */
    remove: {
      run: (id: number) => client.delete<{ id: number; label: string; records_with_value: number }>(path(id)),
      invalidates: written,
    } satisfies MutationDef<number, { id: number; label: string; records_with_value: number }>,
    /** Every field of the kind once, in the new order. */
    reorder: {
      run: ({ kind, ids }: { kind: CustomFieldKind; ids: number[] }) => client.put<{ results: CustomField[] }>(`${CUSTOM_FIELDS_PATH}order/`, { record_kind: kind, ids }),
      invalidates: written,
    } satisfies MutationDef<{ kind: CustomFieldKind; ids: number[] }, { results: CustomField[] }>,
  };
}

export type CustomFieldsApi = ReturnType<typeof customFieldsApi>;

/** The custom field calls of the organization this tab shows, for a screen. */
export function useCustomFieldsApi(): CustomFieldsApi & { orgId: number | null } {
  const { client } = useSessionActions();
  const orgId = useSession().currentOrg?.id ?? null;
  return useMemo(() => ({ ...customFieldsApi({ client, orgId }), orgId }), [client, orgId]);
}

/**
 * D56: the organization's active fields of one record kind, read once through the query cache and shared by
 * the forms and the customer page (an organization without fields is asked once too: `[]` is cached). Here
 * rather than in a module of its own: the forms' chunks then carry one shared file less (each ≤ 10 KB gzip).
 */
export function useCustomFields(kind: CustomFieldKind) {
  const query = useQuery(useCustomFieldsApi().list());
  const fields = useMemo(() => (query.data ? activeFields(query.data, kind) : undefined), [query.data, kind]);
  return { fields, query };
}
