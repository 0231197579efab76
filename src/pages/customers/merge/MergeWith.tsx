// D49: 'Merge with…' on the customer page (customers:merge): a customer search in a dialog, loaded the
// first time it opens (MergePicker.tsx), whose results lead to the merge screen with this customer kept.
import { lazy, Suspense, useState } from 'react';
import type { Customer } from '../../../../contract/customers';

const MergePicker = lazy(() => import('./MergePicker'));

export function MergeWith({ customer }: { customer: Pick<Customer, 'id' | 'name'> }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="btn" onClick={() => setOpen(true)}>
        Merge with…
      </button>
      {open && (
        <Suspense fallback={null}>
          <MergePicker customer={customer} onCancel={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
