// D56: the custom fields' controls load apart from the form that shows them (each form page ≤ 10 KB gzip),
// starting when the form's module loads; until they are there the section shows its heading.
import { lazy, Suspense } from 'react';
import type { FormValues } from '../../../ui/form';
import type { InputsProps, SectionProps } from './CustomInputs';

let loaded: typeof import('./CustomInputs') | null = null;
const load = () => import('./CustomInputs').then((m) => (loaded = m));
const Inputs = lazy(() => load().then((m) => ({ default: m.CustomInputs })));
const Section = lazy(() => load().then((m) => ({ default: m.CustomSection })));
void load().catch(() => undefined);

/** D56: the checks come with the controls; before those are drawn nothing was typed in them (the server checks anyway). */
export const validateCustom: typeof import('./CustomInputs').validateCustom = (...args) => loaded?.validateCustom(...args) ?? {};

export function LazyCustomInputs<V extends FormValues>(props: InputsProps<V>) {
  return (
    <Suspense fallback={<p className="muted" aria-busy="true" />}>
      <Inputs {...(props as unknown as InputsProps<FormValues>)} />
    </Suspense>
  );
}

/** D56: the customer form's section of custom fields (nothing until its code and the fields are there). */
export function CustomSection<V extends FormValues>(props: SectionProps<V>) {
  return (
    <Suspense fallback={null}>
      <Section {...(props as unknown as SectionProps<FormValues>)} />
    </Suspense>
  );
}
