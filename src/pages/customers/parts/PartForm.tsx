// D46 D47 D15 D41: the small form that adds or changes a location or a contact inside its section. Focus
// moves into it when it opens; Escape or Cancel closes it (the section puts the focus back). A refusal
// shows next to its field or above the form, and what was typed stays: through a 400, a 409, a network
// error and offline, and as a draft should the form go without the person choosing (a reload).
import { useEffect, useRef, useSyncExternalStore, type ReactNode } from 'react';
import { isPermissionDenied, useDraft } from '../../../drafts/context';
import { HttpError } from '../../../http/errors';
import { Field, FormError, useForm, type Form, type FormErrors, type FormValues } from '../../../ui/form';
import { connectivity } from '../../../http/connectivity';
import { formFailure } from './values';
import { useCustomerGone } from '../detail/gone';

export const MSG_PART_OFFLINE = "You're offline — what you typed is kept; save when the connection is back";

interface PartFormOptions<V extends FormValues> {
  /** D41: which form, for its draft ('location:7:new', 'contact:7:12'). */
  draftKey: string;
  /** D59: the customer the part belongs to (a 404 may mean the customer is gone for this person). */
  customerId: number;
  initial: V;
  labels: Record<keyof V, string>;
  noun: string;
  validate: (v: V) => FormErrors<V>;
  save: (v: V) => Promise<unknown>;
  onSaved: () => void;
}

/** The form hook with its draft: saving removes the draft, `discard` (Cancel) too. */
export function usePartForm<V extends FormValues>({ draftKey, customerId, initial, labels, noun, validate, save, onSaved }: PartFormOptions<V>) {
  const gone = useCustomerGone(customerId);
  const form = useForm<V>({
    initial,
    validate,
    async submit(v) {
      try {
        await save(v);
      } catch (error) {
        // D41: permissions changed under the person: the draft is written now and the form stays open.
        if (isPermissionDenied(error)) throw new HttpError(403, { detail: draft.lost(`change ${noun}s`) }, error.path);
        gone(error); // D59
        throw formFailure(error, labels, noun);
      }
      draft.saved();
      onSaved();
    },
  });
  const draft = useDraft<V>({
    form: draftKey,
    data: form.values,
    dirty: JSON.stringify(form.values) !== JSON.stringify(initial),
    onRestore: (d) => {
      // D56: several choices are a list of option ids.
      for (const name of Object.keys(initial) as (keyof V)[]) if (typeof d?.[name] === 'string' || Array.isArray(d?.[name])) form.set(name, d[name]);
    },
  });
  return { form, draft };
}

export function PartForm<V extends FormValues>({
  label,
  form,
  offer,
  saveLabel,
  onCancel,
  children,
}: {
  /** The form's accessible name ('New location', 'Edit Rental on Oak St'). */
  label: string;
  form: Form<V>;
  offer: ReactNode;
  saveLabel: string;
  onCancel: () => void;
  children: ReactNode;
}) {
  // Read here rather than through form/use-online.ts, which would become a chunk of its own in every form's page.
  const online = useSyncExternalStore(connectivity.subscribe, connectivity.getState, connectivity.getState);
  const ref = useRef<HTMLFormElement>(null);
  // D15: the first box takes the focus when the form opens.
  useEffect(() => ref.current?.querySelector<HTMLElement>('input, textarea, select')?.focus(), []);
  return (
    <form
      ref={ref}
      className="part-form"
      aria-label={label}
      noValidate
      onSubmit={(e) => void form.onSubmit(e)}
      onKeyDown={(e) => e.key === 'Escape' && !e.defaultPrevented && (e.preventDefault(), onCancel())}
    >
      {offer}
      <FormError text={form.formError} className="write-error" />
      {children}
      <p className="muted part-offline" role="status">
        {online ? '' : MSG_PART_OFFLINE}
      </p>
      <div className="part-actions">
        {/* D15: busy saving, it keeps the focus (aria-disabled; the form ignores a second press). */}
        <button type="submit" className="btn btn-primary btn-sm" aria-disabled={form.submitting || undefined}>
          {form.submitting ? 'Saving…' : saveLabel}
        </button>
        <button type="button" className="btn btn-sm" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** A text box (or a multi-line one) of a part's form, with the contract's limit. */
export function PartField<V extends FormValues>({
  form,
  name,
  label,
  max,
  multiline,
  type,
}: {
  form: Form<V>;
  name: keyof V & string;
  label: string;
  max: number;
  multiline?: boolean;
  type?: string;
}) {
  return <Field form={form} name={name} label={label} as={multiline ? 'textarea' : 'input'} maxLength={max} autoComplete="off" type={type} />;
}
