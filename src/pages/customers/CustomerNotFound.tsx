import { NotFound } from '../../ui/not-found';

/** D12: shown for /customers/{id} when {id} is not a positive integer (or no such customer). */
export function CustomerNotFound() {
  return <NotFound title="Customer not found" message="This customer does not exist, or the link is not right." backTo="/customers" backLabel="Back to Customers" />;
}
