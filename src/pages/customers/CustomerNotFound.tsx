// D12: shown for /customers/{id} when {id} is not a positive integer (or no such customer). D59: a 404 for
// a customer this tab had shown (its page, or a list it was in) means it went away meanwhile: for a person
// who sees only their own customers, it was assigned to someone else; either way the lists are read again.
import { useEffect, useState } from 'react';
import type { CustomerListItem, Page } from '../../../contract/customers';
import { customerKeys } from '../../api/customers';
import { useQueryCache } from '../../query/use-query';
import { useSession } from '../../session/use-session';
import { NotFound } from '../../ui/not-found';

export const MSG_NOT_FOUND = 'This customer does not exist, or the link is not right.';
export const MSG_NO_LONGER_ASSIGNED = 'This customer is no longer assigned to you.';

/** `id`: the customer asked for; `shown`: this page had shown it before the 404. */
export function CustomerNotFound({ id, shown = false }: { id?: number; shown?: boolean }) {
  const cache = useQueryCache();
  const { currentOrg, customersScope } = useSession();
  const lists = customerKeys.list(currentOrg?.id ?? null);
  const [seen] = useState(() => id !== undefined && (shown || cache.someData(lists, (d) => (d as Page<CustomerListItem>).results?.some((c) => c.id === id) === true)));
  useEffect(() => {
    if (seen) cache.invalidate(lists);
  }, [seen]);
  const gone = seen && customersScope === 'assigned';
  return <NotFound title="Customer not found" message={gone ? MSG_NO_LONGER_ASSIGNED : MSG_NOT_FOUND} backTo="/customers" backLabel="Back to Customers" />;
}
