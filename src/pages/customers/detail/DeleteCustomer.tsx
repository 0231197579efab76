// D25: Delete asks first, then goes to the list and confirms with a toast that offers Undo (a restore).
// The toast outlives this page, so its Undo holds the calls and the cache, not hooks.
import { Suspense, useRef, useState } from 'react';
import { lazyPart, usePreloadWhenIdle } from '../../../ui/early-module';
import type { Customer } from '../../../../contract/customers';
import { CUSTOMER_RESTORED_EVENT, useCustomersApi, type CustomersApi } from '../../../api/customers';
import type { QueryCache } from '../../../query/cache';
import { useMutation, useQueryCache } from '../../../query/use-query';
import { isHttpError } from '../../../http/errors';
import { Link } from '../../../router/Link';
import { navigate } from '../../../router/location';
import { customerHref, PAGES } from '../../../router/paths';
import { dismissToast, toast } from '../../../ui/toast';
import { failedWords } from '../../../ui/failed-words';

// The question's dialog (Confirm.tsx) loads once the browser is idle after the page (lazyPart), where it is offered.
const Confirm = lazyPart(() => import('./Confirm'));
const QUESTION = [Confirm];

/** D25: how long a deleted customer can be restored, as the dialog tells it. */
export const RESTORE_DAYS = 30;

/** D25: "{name} restored", the name a link; the same words wherever the restore was done. */
const restoredMessage = (customer: Pick<Customer, 'id' | 'name'>) => (
  <>
    <Link to={customerHref(customer.id)}>{customer.name}</Link> restored
  </>
);

/** D25: "Jane Doe deleted" with an Undo button; Undo restores and says so (or why not). */
export function showDeletedToast(customer: Pick<Customer, 'id' | 'name'>, api: Pick<CustomersApi, 'restore'>, cache: QueryCache): void {
  let id = 0;
  let undone = false;
  // Restored from the 'Deleted' view meanwhile: this toast and its Undo go (one restore, one toast).
  const restoredElsewhere = (e: Event) => (e as CustomEvent<number>).detail === customer.id && stop();
  const stop = () => {
    undone = true;
    dismissToast(id);
    window.removeEventListener(CUSTOMER_RESTORED_EVENT, restoredElsewhere);
  };
  const undo = async () => {
    if (undone) return; // a second press while the first is on its way
    stop();
    try {
      await api.restore.run(customer.id);
    } catch (error) {
      // A 404 here means the customer is not deleted any more: restored meanwhile (another tab, another
      // person; housekeeping takes 30 days), which is what Undo asked for.
      if (!isHttpError(error, 404)) return void toast.error(failedWords(error, `restore ${customer.name}`));
    }
    for (const key of api.restore.invalidates) cache.invalidate(key);
    toast.success(restoredMessage(customer));
  };
  id = toast.success(
    <>
      {customer.name} deleted{' '}
      <button type="button" className="toast-action" onClick={() => void undo()}>
        Undo
      </button>
    </>,
  );
  window.addEventListener(CUSTOMER_RESTORED_EVENT, restoredElsewhere);
}

export function DeleteCustomer({ customer }: { customer: Customer }) {
  usePreloadWhenIdle(true, QUESTION);
  const api = useCustomersApi();
  const cache = useQueryCache();
  const remove = useMutation(api.remove);
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const busy = useRef(false);

  const close = () => {
    if (busy.current) return;
    setOpen(false);
    setError(null);
  };
  const confirm = async () => {
    if (busy.current) return;
    busy.current = true;
    setError(null);
    try {
      await remove.mutate(customer.id);
    } catch (e) {
      busy.current = false;
      setError(failedWords(e, `delete ${customer.name}`));
      return;
    }
    navigate(PAGES.customers);
    showDeletedToast(customer, api, cache);
  };

  return (
    <>
      <button type="button" className="btn btn-danger" onClick={() => setOpen(true)}>
        Delete
      </button>
      {open && (
        <Suspense fallback={null}>
          <Confirm
            title={`Delete ${customer.name}?`}
            confirm="Delete customer"
            busy={remove.status === 'pending'}
            error={error}
            onConfirm={() => void confirm()}
            onCancel={close}
          >
            <p>You can restore it from Deleted for {RESTORE_DAYS} days.</p>
          </Confirm>
        </Suspense>
      )}
    </>
  );
}
