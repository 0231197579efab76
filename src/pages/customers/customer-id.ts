// D12: a customer id in the URL is a positive integer; anything else is a not-found state.
import { isPositiveId } from '../../router/match';
import { useLocation } from '../../router/location';

/** The id in /customers/{id} or /customers/{id}/edit, or null when it is not a positive integer. */
export function customerIdFrom(pathname: string): number | null {
  const raw = /^\/customers\/([^/]+)(?:\/edit)?\/?$/.exec(pathname)?.[1];
  return isPositiveId(raw) ? Number(raw) : null;
}

export function useCustomerId(): number | null {
  return customerIdFrom(useLocation().pathname);
}
