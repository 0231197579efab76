// D12: a customer id in the URL is a positive integer; anything else is a not-found state.
import { isPositiveId, useParams } from '../../router/params';

/** The {id} of /customers/{id} or /customers/{id}/edit, or null when it is not a positive integer. */
export function useCustomerId(): number | null {
  const { id } = useParams();
  return isPositiveId(id) ? Number(id) : null;
}
