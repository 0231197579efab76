// STYLE "Forms and data in the app": one small form hook and one Field for every form. The login
// form uses them, so they load before it (bundle budget, bench/bundle.mjs): keep them tiny.
import { useId, useLayoutEffect, useRef, useState, type FormEvent, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes } from 'react';
import { busyMessage, isAbortError, isBusy, isHttpError, type HttpError } from '../http/errors';

/** Shown for a failed submit the server did not explain (a network error, a 500). */
export const MSG_SUBMIT_FAILED = 'Could not save. Please try again.';

/** Text and choices as strings, checkboxes as booleans, lists (a customer's tags) as string arrays. */
export type FormValues = Record<string, string | boolean | readonly string[]>;
export type FormErrors<V> = { [K in keyof V]?: string };

export interface FormOptions<V extends FormValues> {
  initial: V;
  /** Client-side checks; the first field (in `initial`'s order) with an error gets the focus, nothing is sent. */
  validate?: (values: V) => FormErrors<V>;
  /** Sends the values. A rejection goes to setServerError; what the person typed stays either way. */
  submit: (values: V) => unknown;
}

/** What `field(name)` spreads on a control; D15: its error text is tied to it by aria-describedby. */
export interface FieldControl {
  id: string;
  name: string;
  value: string;
  onChange: (e: { target: { value: string } }) => void;
  'aria-invalid'?: true;
  'aria-describedby'?: string;
}

export function useForm<V extends FormValues>({ initial, validate, submit }: FormOptions<V>) {
  const id = useId();
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<FormErrors<V>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const busy = useRef(false); // a second press before the re-render must not send twice

  const focus = (name: keyof V & string) => document.getElementById(id + name)?.focus();
  // D15: an invalid field takes the focus once its error is drawn and tied to it, so a screen reader
  // reads the field with its error (focused before the render, it would be read without).
  const focusNext = useRef<string | null>(null);
  useLayoutEffect(() => {
    const name = focusNext.current;
    focusNext.current = null;
    if (name) focus(name);
  });

  /** Sets a value; editing a field clears its error. */
  const set = <K extends keyof V>(name: K, value: V[K]) => {
    setValues((v) => ({ ...v, [name]: value }));
    setErrors((e) => ({ ...e, [name]: undefined }));
  };

  /** STYLE: a 400 naming one of this form's fields lands on that field; anything else is the form's. */
  const setServerError = (error: unknown) => {
    const name = isHttpError(error, 400) && error.field;
    if (name && name in initial) {
      setErrors({ [name]: (error as HttpError).detail } as FormErrors<V>);
      focusNext.current = name;
    } else if (isBusy(error))
      setFormError(busyMessage(error)); // D35: a 429 like a 503: wait, then try again
    else setFormError((isHttpError(error) && error.detail) || MSG_SUBMIT_FAILED);
  };

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy.current) return;
    const found: FormErrors<V> = validate?.(values) ?? {};
    setErrors(found);
    setFormError(null);
    const first = Object.keys(initial).find((k) => found[k as keyof V]);
    if (first) {
      focusNext.current = first;
      return;
    }
    busy.current = true;
    setSubmitting(true);
    try {
      await submit(values);
    } catch (error) {
      if (!isAbortError(error)) setServerError(error);
    }
    busy.current = false;
    setSubmitting(false);
  };

  const field = (name: keyof V & string): FieldControl => {
    const error = errors[name];
    return {
      id: id + name,
      name,
      value: values[name] as string,
      onChange: (e) => set(name, e.target.value as V[typeof name]),
      'aria-invalid': error ? true : undefined,
      'aria-describedby': error && id + name + 'e',
    };
  };

  return { values, errors, formError, submitting, field, set, focus, setServerError, onSubmit };
}

export type Form<V extends FormValues> = ReturnType<typeof useForm<V>>;

type ControlProps = Omit<InputHTMLAttributes<HTMLInputElement> & SelectHTMLAttributes<HTMLSelectElement>, 'form' | 'name' | 'value' | 'onChange'>;

/** A label, its input (or select, or textarea), and the field's error text tied to it. */
export function Field<V extends FormValues>({
  form,
  name,
  label,
  as: Control = 'input',
  ...rest
}: ControlProps & { form: Form<V>; name: keyof V & string; label: ReactNode; as?: 'input' | 'select' | 'textarea' }) {
  const f = form.field(name);
  return (
    <div className="field">
      <label htmlFor={f.id}>{label}</label>
      <Control {...(rest as object)} {...f} />
      {f['aria-describedby'] && (
        <p id={f['aria-describedby']} className="field-error">
          {form.errors[name]}
        </p>
      )}
    </div>
  );
}

/** SPEC §5: what refused the form as a whole, announced at once; nothing while there is none. */
export function FormError({ text, className = 'field-error' }: { text: string | null | undefined; className?: string }) {
  return text ? (
    <p className={className} role="alert">
      {text}
    </p>
  ) : null;
}

/** The form's submit button, busy while it submits; `focusable` keeps it reachable meanwhile (aria-disabled, not disabled). */
export function SubmitButton({
  busy,
  label,
  busyLabel,
  className = 'btn btn-primary',
  focusable = false,
  formId,
}: {
  busy: boolean;
  label: ReactNode;
  busyLabel: ReactNode;
  className?: string;
  focusable?: boolean;
  formId?: string;
}) {
  return (
    <button
      type="submit"
      form={formId}
      className={className}
      disabled={focusable ? undefined : busy}
      aria-disabled={focusable ? busy || undefined : undefined}
      aria-busy={busy || undefined}
    >
      {busy ? busyLabel : label}
    </button>
  );
}
