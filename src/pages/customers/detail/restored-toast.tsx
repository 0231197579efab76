// D25: one restore, one toast, wherever it was done (the delete toast's Undo, or Restore in the
// 'Deleted' view). Restoring also takes away that customer's delete toast, whose Undo would now be a lie.
import type { Customer } from '../../../../contract/customers';
import { Link } from '../../../router/Link';
import { dismissToast, toast } from '../../../ui/toast';

/** Customer id → the toast "{name} deleted" with its Undo, while it shows. */
const deleteToasts = new Map<number, number>();

/** Remembers the delete toast of a customer, so a restore elsewhere can take it away. */
export function rememberDeleteToast(customerId: number, toastId: number): void {
  deleteToasts.set(customerId, toastId);
}

/** "{name} restored" (the name links to the customer); the customer's delete toast goes. */
export function restoredToast(customer: Pick<Customer, 'id' | 'name'>): void {
  const pending = deleteToasts.get(customer.id);
  if (pending !== undefined) dismissToast(pending);
  deleteToasts.delete(customer.id);
  toast.success(
    <>
      <Link to={`/customers/${customer.id}`}>{customer.name}</Link> restored
    </>,
  );
}
