// D56: the organization's fields of one record kind as controls of a form, in their order: text an input,
// long text a textarea, a number a text box that keeps what was typed, a date a date input, yes/no and one
// choice a select with 'Not set', several choices a group of checkboxes. The help text and the error are
// tied to the control (aria-describedby); required as the form's other required fields are.
import { CUSTOM_LONG_TEXT_MAX, CUSTOM_TEXT_MAX, type CustomField, type CustomValues } from '../../../../contract/custom-fields';
import type { Form, FormValues } from '../../../ui/form';
import type { useCustomFields } from '../../../api/custom-fields';
import { customName, heldValue } from './values';

export { validateCustom } from './checks';

export const NOT_SET = 'Not set';
/** D56: the organization's own fields could not be read; the rest of the form works. */
export const MSG_FIELDS_FAILED = 'Your organization’s own fields could not be loaded.';

export interface InputsProps<V extends FormValues> {
  form: Form<V>;
  fields: readonly CustomField[];
  /** The record's saved values (what the form shows for a field it does not hold yet). */
  saved: CustomValues | undefined;
  /** The class of a field that takes the whole row (long text, several choices). */
  wide?: string;
}

export function CustomInputs<V extends FormValues>({ form, fields, saved, wide }: InputsProps<V>) {
  return fields.map((f) => <CustomInput key={f.id} form={form} field={f} saved={saved} wide={wide} />);
}

function CustomInput<V extends FormValues>({ form, field: f, saved, wide }: Omit<InputsProps<V>, 'fields'> & { field: CustomField }) {
  const name = customName(f) as keyof V & string;
  const control = form.field(name);
  const held = heldValue(f, form.values, saved);
  const set = (value: string | string[]) => form.set(name, value as V[keyof V & string]);
  const errorId = control['aria-describedby'];
  const helpId = f.help ? `${control.id}h` : undefined;
  const describedBy = [helpId, errorId].filter(Boolean).join(' ') || undefined;
  const words = (
    <>
      {f.help && (
        <p id={helpId} className="field-hint">
          {f.help}
        </p>
      )}
      {errorId && (
        <p id={errorId} className="field-error">
          {form.errors[name]}
        </p>
      )}
    </>
  );
  const wideClass = wide && (f.type === 'long_text' || f.type === 'choices') ? ` ${wide}` : '';

  if (f.type === 'choices') {
    const chosen = held as readonly string[];
    return (
      <fieldset className={`field cf-choice${wideClass}`} aria-describedby={describedBy} aria-invalid={control['aria-invalid']}>
        <legend>
          {f.label}
          {f.required && <span className="sr-only"> (required)</span>}
        </legend>
        {f.options.map((o, i) => (
          <label key={o.id} className="check">
            <input
              type="checkbox"
              id={i === 0 ? control.id : undefined}
              checked={chosen.includes(o.id)}
              // Kept in the options' order, so a save compares them as the server keeps them.
              onChange={(e) => set(f.options.filter((x) => (x.id === o.id ? e.target.checked : chosen.includes(x.id))).map((x) => x.id))}
            />
            {o.label}
          </label>
        ))}
        {words}
      </fieldset>
    );
  }

  const props = {
    id: control.id,
    name: control.name,
    value: held as string,
    onChange: (e: { target: { value: string } }) => set(e.target.value),
    required: f.required || undefined,
    'aria-invalid': control['aria-invalid'],
    'aria-describedby': describedBy,
  };
  const choose = (options: { id: string; label: string }[]) => (
    <select {...props}>
      <option value="">{NOT_SET}</option>
      {options.map((o) => (
        <option key={o.id} value={o.id}>
          {o.label}
        </option>
      ))}
    </select>
  );
  return (
    <div className={`field${wideClass}`}>
      <label htmlFor={control.id}>{f.label}</label>
      {f.type === 'long_text' ? (
        <textarea {...props} maxLength={CUSTOM_LONG_TEXT_MAX} rows={3} />
      ) : f.type === 'yes_no' ? (
        choose([
          { id: 'yes', label: 'Yes' },
          { id: 'no', label: 'No' },
        ])
      ) : f.type === 'choice' ? (
        choose(f.options)
      ) : f.type === 'number' ? (
        <input {...props} type="text" inputMode="decimal" autoComplete="off" />
      ) : f.type === 'date' ? (
        <input {...props} type="date" />
      ) : (
        <input {...props} type="text" maxLength={CUSTOM_TEXT_MAX} autoComplete="off" />
      )}
      {words}
    </div>
  );
}

/** D56: the customer form's section of custom fields, or why they are missing (with Try again). */
export interface SectionProps<V extends FormValues> {
  form: Form<V>;
  defs: ReturnType<typeof useCustomFields>;
  saved: CustomValues | undefined;
}

export function CustomSection<V extends FormValues>({ form, defs, saved }: SectionProps<V>) {
  if (defs.fields?.length)
    return (
      <fieldset className="cf-section">
        <legend>More details</legend>
        <div className="cf-grid">
          <CustomInputs form={form} fields={defs.fields} saved={saved} wide="cf-wide" />
        </div>
      </fieldset>
    );
  if (defs.query.status !== 'error' || defs.fields) return null;
  return (
    <p className="cf-error" role="status">
      {MSG_FIELDS_FAILED}{' '}
      <button type="button" className="link-btn" onClick={() => void defs.query.refetch().catch(() => undefined)}>
        Try again
      </button>
    </p>
  );
}
