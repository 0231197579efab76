// D25: Delete asks first, then goes to the list and confirms with a toast that offers Undo (a restore).
// The toast outlives this page, so its Undo holds the calls and the cache, not hooks.
import { useRef, useState } from 'react';
import type { Customer } from '../../../../contract/customers';
import { useCustomersApi, type CustomersApi } from '../../../api/customers';
import type { QueryCache } from '../../../query/cache';
import { useMutation, useQueryCache } from '../../../query/use-query';
import { isHttpError } from '../../../http/errors';
import { navigate } from '../../../router/location';
import { dismissToast, toast } from '../../../ui/toast';
import { failureMessage } from './failure';
import { Confirm } from './Confirm';
import { rememberDeleteToast, restoredToast } from './restored-toast';

/** D25: how long a deleted customer can be restored, as the dialog tells it. */
export const RESTORE_DAYS = 30;
export const LIST_PATH = '/customers';

/** D25: "Jane Doe deleted" with an Undo button; Undo restores and says so (or why not). */
export function showDeletedToast(customer: Pick<Customer, 'id' | 'name'>, api: Pick<CustomersApi, 'restore' | 'get'>, cache: QueryCache): void {
  let id = 0;
  let undone = false;
  const undo = async () => {
    if (undone) return; // a second press while the first is on its way
    undone = true;
    dismissToast(id);
    try {
      await api.restore.run(customer.id);
      for (const key of api.restore.invalidates) cache.invalidate(key);
      restoredToast(customer);
    } catch (error) {
      // A 404 also answers a customer restored meanwhile (another tab, another person): if it is
      // there, it is restored, which is what Undo asked for.
      if (isHttpError(error, 404) && (await api.get(customer.id).fetch(new AbortController().signal).then(() => true, () => false))) {
        for (const key of api.restore.invalidates) cache.invalidate(key);
        return restoredToast(customer);
      }
      toast.error(failureMessage(error, `restore ${customer.name}`));
    }
  };
  id = toast.success(
    <>
      {customer.name} deleted{' '}
      <button type="button" className="toast-action" onClick={() => void undo()}>
        Undo
      </button>
    </>,
  );
  rememberDeleteToast(customer.id, id);
}

export function DeleteCustomer({ customer }: { customer: Customer }) {
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
      setError(failureMessage(e, `delete ${customer.name}`));
      return;
    }
    navigate(LIST_PATH);
    showDeletedToast(customer, api, cache);
  };

  return (
    <>
      <button type="button" className="btn btn-delete" onClick={() => setOpen(true)}>
        Delete
      </button>
      {open && (
        <Confirm title={`Delete ${customer.name}?`} confirm="Delete customer" busy={remove.status === 'pending'} error={error} onConfirm={() => void confirm()} onCancel={close}>
          <p>You can restore it from Deleted for {RESTORE_DAYS} days.</p>
        </Confirm>
      )}
    </>
  );
}
