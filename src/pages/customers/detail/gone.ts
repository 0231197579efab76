// D59: a 404 from a part of a customer's page (its notes, timeline, a note's save) may mean the customer
// itself is gone for this person (assigned to someone else, or deleted): the record is asked again, and
// the page then says so (CustomerNotFound) instead of a part failing on its own.
import { useCallback, useRef } from 'react';
import { customerKeys } from '../../../api/customers';
import { isHttpError } from '../../../http/errors';
import { useQueryCache } from '../../../query/use-query';
import { useSession } from '../../../session/use-session';

export function useCustomerGone(customerId: number): (error: unknown) => void {
  const cache = useQueryCache();
  const orgId = useSession().currentOrg?.id ?? null;
  // Once per part: the record's key covers the part's own, whose refetch may answer 404 again.
  const asked = useRef(false);
  return useCallback(
    (error: unknown) => {
      if (asked.current || !isHttpError(error, 404) || error.code === 'merged') return;
      asked.current = true;
      cache.invalidate(customerKeys.detail(orgId, customerId));
    },
    [cache, orgId, customerId],
  );
}
