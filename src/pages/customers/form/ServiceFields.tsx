// D48: the customer's type (a radio pair, residential unless chosen), lead source (the organization's
// earlier sources suggested as one types: a native datalist, keyboard- and screen-reader-operable), and
// the do-not-service flag with its reason, whose field shows while the flag is on (what was typed in it
// stays while the flag is toggled; a save with the flag off sends it empty, values.ts). Loaded apart from
// the form (service.tsx), so its labels come from the form: importing values.ts would cut it into a file
// of its own. D59: the assignee (AssignedField.tsx) is asked here too.
import { useEffect, useState } from 'react';
import { CUSTOMER_TYPE_LABELS, CUSTOMER_TYPES, LEAD_SOURCE_MAX_LENGTH } from '../../../../contract/customers';
import { useCustomersApi } from '../../../api/customers';
import { useQuery } from '../../../query/use-query';
import { Field, type Form } from '../../../ui/form';
import { AssignedField } from './AssignedField';
import type { CustomerValues, FormField } from './values';

/** D48: sources are asked for this long after the last keystroke. */
export const LEAD_SOURCE_DEBOUNCE_MS = 150;
export const DO_NOT_SERVICE_HINT = 'Shown as a warning on the customer’s page and as a marker in the list.';

export interface ServiceFieldsProps {
  form: Form<CustomerValues>;
  labels: Record<FormField, string>;
}

export function ServiceFields({ form, labels }: ServiceFieldsProps) {
  const api = useCustomersApi();
  const { type, lead_source, do_not_service } = form.values;
  const typeControl = form.field('type');
  const flag = form.field('do_not_service');
  const source = form.field('lead_source');
  // Asked once the person works in the field (not for every form shown), a moment after each keystroke.
  const [asked, setAsked] = useState<string | null>(null);
  const typed = lead_source.trim().slice(0, LEAD_SOURCE_MAX_LENGTH);
  useEffect(() => {
    if (asked === null) return;
    const timer = setTimeout(() => setAsked(typed), LEAD_SOURCE_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [typed]);
  const found = useQuery(api.leadSources(asked ?? ''), { enabled: asked !== null, keepPrevious: true });
  const options = (asked !== null && found.data?.results) || [];

  return (
    <fieldset className="cf-section">
      <legend>Service</legend>
      <div className="cf-grid">
        <fieldset className="field cf-choice" aria-describedby={typeControl['aria-describedby']}>
          <legend>{labels.type}</legend>
          {CUSTOMER_TYPES.map((t, i) => (
            <label key={t} className="check">
              <input type="radio" id={i === 0 ? typeControl.id : undefined} name={typeControl.id} value={t} checked={type === t} onChange={() => form.set('type', t)} />
              {CUSTOMER_TYPE_LABELS[t]}
            </label>
          ))}
          {form.errors.type && (
            <p id={typeControl['aria-describedby']} className="field-error">
              {form.errors.type}
            </p>
          )}
        </fieldset>
        <AssignedField form={form} label={labels.assigned_to} />
        <div className="field">
          <label htmlFor={source.id}>{labels.lead_source}</label>
          <input {...source} autoComplete="off" list={`${source.id}l`} onFocus={() => setAsked((a) => a ?? typed)} />
          <datalist id={`${source.id}l`}>
            {options.map((o) => (
              <option key={o} value={o} />
            ))}
          </datalist>
          {source['aria-describedby'] && (
            <p id={source['aria-describedby']} className="field-error">
              {form.errors.lead_source}
            </p>
          )}
        </div>
        <div className="cf-wide">
          <label className="check cf-flag">
            <input
              type="checkbox"
              id={flag.id}
              checked={do_not_service}
              aria-describedby={`${flag.id}h`}
              onChange={(e) => form.set('do_not_service', e.target.checked)}
            />
            {labels.do_not_service}
          </label>
          <p id={`${flag.id}h`} className="field-hint cf-flag-hint">
            {DO_NOT_SERVICE_HINT}
          </p>
          {do_not_service && <Field form={form} name="do_not_service_reason" label={labels.do_not_service_reason} autoComplete="off" />}
        </div>
      </div>
    </fieldset>
  );
}
