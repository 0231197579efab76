// D49: 'Merge with…' on the customer page (customers:merge): a customer search in a dialog (MergePicker.tsx),
// loaded once the browser is idle after the page (lazyPart), whose results lead to the merge screen for
// the two (D66: it proposes which is kept).
import { Suspense, useState } from 'react';
import type { Customer } from '../../../../contract/customers';
import { lazyPart, usePreloadWhenIdle } from '../../../ui/early-module';

const MergePicker = lazyPart(() => import('./MergePicker'));
const PICKER = [MergePicker];

export function MergeWith({ customer }: { customer: Pick<Customer, 'id' | 'name' | 'email' | 'phone'> }) {
  usePreloadWhenIdle(true, PICKER);
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
