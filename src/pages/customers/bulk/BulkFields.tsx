// D58: what a bulk action's dialog asks beside the question: the tag, the status, the type, the
// do-not-service flag with its reason (as the customer form asks it), or a custom field set or cleared with
// the control of its type (the form's own controls, custom/CustomInputs).
import {
  CUSTOMER_STATUS_LABELS,
  CUSTOMER_STATUSES,
  CUSTOMER_TYPE_LABELS,
  CUSTOMER_TYPES,
  DO_NOT_SERVICE_REASON_MAX_LENGTH,
  TAG_MAX_LENGTH,
} from '../../../../contract/customers';
import { useEffect, useId, useState } from 'react';
import type { CustomField } from '../../../../contract/custom-fields';
import { useCustomersApi } from '../../../api/customers';
import { useQuery } from '../../../query/use-query';
import { Field, type Form } from '../../../ui/form';
import { CustomInputs } from '../custom/CustomInputs';
import type { PersonRef } from '../../../../contract/customers';
import type { BulkKind } from './bulk-words';

/** What every bulk dialog's form holds (a custom field's value under its own `custom.<key>` name). */
export type BulkValues = { tag: string; status: string; type: string; set: string; reason: string; field: string; assigned_to: string } & Record<
  string,
  string | readonly string[]
>;

export const EMPTY_VALUES: BulkValues = { tag: '', status: '', type: '', set: 'set', reason: '', field: '', assigned_to: '' };

/** D59: the assign dialog's value for 'Unassigned' (a member is their user id). */
export const UNASSIGNED = 'none';

/** D56 D58: the fields a bulk action may set: active, not unique (one value on many customers cannot be). */
export const settable = (fields: readonly CustomField[] | undefined): CustomField[] => (fields ?? []).filter((f) => !f.unique);

/** D45: the organization's tags are suggested as one types (asked this long after the last keystroke). */
const TAG_SUGGEST_MS = 150;

function TagField({ form }: { form: Form<BulkValues> }) {
  const api = useCustomersApi();
  const listId = useId();
  const typed = form.values.tag.trim();
  const [asked, setAsked] = useState(typed);
  useEffect(() => {
    const timer = setTimeout(() => setAsked(typed), TAG_SUGGEST_MS);
    return () => clearTimeout(timer);
  }, [typed]);
  const found = useQuery(api.tags(asked), { keepPrevious: true });
  return (
    <>
      <Field form={form} name="tag" label="Tag" maxLength={TAG_MAX_LENGTH} autoComplete="off" spellCheck={false} list={listId} data-autofocus />
      <datalist id={listId}>
        {(found.data?.results ?? []).map((t) => (
          <option key={t} value={t} />
        ))}
      </datalist>
    </>
  );
}

function SetOrClear({ form, what }: { form: Form<BulkValues>; what: string }) {
  const choice = (value: 'set' | 'clear', label: string) => (
    <label className="check">
      <input type="radio" name={`${form.field('set').id}r`} value={value} checked={form.values.set === value} onChange={() => form.set('set', value)} />
      {label}
    </label>
  );
  return (
    <fieldset className="field bulk-set">
      <legend>{what}</legend>
      {choice('set', 'Set')}
      {choice('clear', 'Clear')}
    </fieldset>
  );
}

/** D59: a member or Unassigned. */
function AssignField({ form, people }: { form: Form<BulkValues>; people: readonly PersonRef[] }) {
  return (
    <Field form={form} name="assigned_to" label="Assign to" as="select" data-autofocus>
      <option value="">Choose a member</option>
      <option value={UNASSIGNED}>Unassigned</option>
      {people.map((p) => (
        <option key={p.id} value={String(p.id)}>
          {p.name}
        </option>
      ))}
    </Field>
  );
}

export function BulkFields({
  kind,
  form,
  fields,
  people = [],
}: {
  kind: BulkKind;
  form: Form<BulkValues>;
  fields: readonly CustomField[] | undefined;
  /** D59: the members the assign dialog offers. */
  people?: readonly PersonRef[];
}) {
  if (kind === 'add_tag' || kind === 'remove_tag') return <TagField form={form} />;
  if (kind === 'assign') return <AssignField form={form} people={people} />;
  if (kind === 'status')
    return (
      <Field form={form} name="status" label="Status" as="select" data-autofocus>
        <option value="">Choose a status</option>
        {CUSTOMER_STATUSES.map((s) => (
          <option key={s} value={s}>
            {CUSTOMER_STATUS_LABELS[s]}
          </option>
        ))}
      </Field>
    );
  if (kind === 'type')
    return (
      <Field form={form} name="type" label="Type" as="select" data-autofocus>
        <option value="">Choose a type</option>
        {CUSTOMER_TYPES.map((t) => (
          <option key={t} value={t}>
            {CUSTOMER_TYPE_LABELS[t]}
          </option>
        ))}
      </Field>
    );
  if (kind === 'dns')
    return (
      <>
        <SetOrClear form={form} what="Do not service" />
        {form.values.set === 'set' && <Field form={form} name="reason" label="Reason not to service" maxLength={DO_NOT_SERVICE_REASON_MAX_LENGTH} autoComplete="off" />}
      </>
    );
  if (kind !== 'custom') return null;
  const choices = settable(fields);
  if (fields && !choices.length) return <p className="muted">Your organization has no custom fields that can be set on many customers at once.</p>;
  const chosen = choices.find((f) => f.key === form.values.field);
  return (
    <>
      <Field form={form} name="field" label="Field" as="select" data-autofocus>
        <option value="">Choose a field</option>
        {choices.map((f) => (
          <option key={f.key} value={f.key}>
            {f.label}
          </option>
        ))}
      </Field>
      {chosen && <SetOrClear form={form} what={chosen.label} />}
      {chosen && form.values.set === 'set' && <CustomInputs form={form} fields={[chosen]} saved={undefined} />}
    </>
  );
}
