// D48's section of the form loads apart from it (ServiceFields.tsx; each form page ≤ 10 KB gzip): its
// import starts when the form's module loads (on Edit, beside the customer's data call). Until it is
// there the section shows its heading; a failed load is D40's, as the conflict panel's.
import { lazy, Suspense } from 'react';
import type { Form } from '../../../ui/form';
import { FIELD_LABELS, type CustomerValues } from './values';

const load = () => import('./ServiceFields');
const Fields = lazy(() => load().then((m) => ({ default: m.ServiceFields })));
void load().catch(() => undefined);

export function Service({ form }: { form: Form<CustomerValues> }) {
  return (
    <Suspense
      fallback={
        <fieldset className="cf-section" aria-busy="true">
          <legend>Service</legend>
        </fieldset>
      }
    >
      <Fields form={form} labels={FIELD_LABELS} />
    </Suspense>
  );
}
