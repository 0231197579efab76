// D25: restoring a customer from the Deleted view, and the words when a restore is refused. Loaded when
// Restore is first pressed (CustomersPage.tsx): most visits to the list never restore anyone.
import type { CustomerListItem, PersonRef } from '../../../contract/customers';
import { CUSTOMER_RESTORED_EVENT } from '../../api/customers';
import { isHttpError } from '../../http/errors';
import { Link } from '../../router/Link';
import { customerHref } from '../../router/paths';
import { errorWords, MSG_TRY_AGAIN } from '../../ui/error-words';
import { toast } from '../../ui/toast';

/** D25: a restore refused because the customer's email now belongs to another live customer. */
export interface Conflict {
  customer: CustomerListItem;
  existing: PersonRef | null;
}

/** Restores `customer` with `run` and says so in a toast; a refusal for its email is returned, to show. */
export async function restoreCustomer(run: (id: number) => Promise<unknown>, customer: CustomerListItem): Promise<Conflict | null> {
  try {
    await run(customer.id);
    // D25: the delete toast goes, and this one says what its Undo says (one restore, one toast).
    window.dispatchEvent(new CustomEvent(CUSTOMER_RESTORED_EVENT, { detail: customer.id }));
    toast.success(
      <>
        <Link to={customerHref(customer.id)}>{customer.name}</Link> restored
      </>,
    );
  } catch (error) {
    if (isHttpError(error, 409) && error.code === 'duplicate_email') {
      return { customer, existing: (error.data as { existing?: PersonRef }).existing ?? null };
    }
    toast.error(`Could not restore ${customer.name}. ${errorWords(error, { fallback: MSG_TRY_AGAIN })}`);
  }
  return null;
}

/** D25: why a restore was refused, naming and linking the customer who has the email now. */
export function RestoreConflict({ conflict, onDismiss }: { conflict: Conflict; onDismiss: () => void }) {
  return (
    <div className="card notice" role="alert">
      <p>
        {conflict.customer.name} could not be restored: their email{conflict.customer.email ? `, ${conflict.customer.email},` : ''} now belongs to{' '}
        {conflict.existing ? (
          <>
            another customer, <Link to={customerHref(conflict.existing.id)}>{conflict.existing.name}</Link>.
          </>
        ) : (
          'another customer.'
        )}{' '}
        Change that customer’s email first, then restore this one.
      </p>
      <button type="button" className="btn btn-sm" onClick={onDismiss}>
        Dismiss
      </button>
    </div>
  );
}
