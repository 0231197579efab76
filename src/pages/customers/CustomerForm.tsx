// SPEC §2: Add Customer and Edit Customer share this one form. D22: every field, checked with the
// contract's limits before sending; the server's field errors land on their fields. D23: possible
// duplicates while typing, and a taken email on save, as links. D31: an edit sends only what changed,
// with the version it was based on; a conflict shows what the other person changed. Nothing typed is
// lost: not on an error, not offline (Save waits), not by leaving (the person is asked first). D41: what
// was typed is kept as a draft should the form go without the person choosing (a lost permission, a
// reload, a crash); an edit's draft remembers the version it was typed against, so D31 still applies.
// D48: type, lead source and the do-not-service flag (form/ServiceFields.tsx, loaded apart). D56 custom fields (custom/).
import { useRef, useState } from 'react';
import type { Customer, CustomerTextField, PersonRef } from '../../../contract/customers';
import { CUSTOMER_STATUS_LABELS, CUSTOMER_STATUSES } from '../../../contract/customers';
import { customerKeys, useCustomersApi } from '../../api/customers';
import { isPermissionDenied, useDraft } from '../../drafts/context';
import { HttpError, isHttpError, isNetworkError } from '../../http/errors';
import { useMutation, useQueryCache } from '../../query/use-query';
import { Link } from '../../router/Link';
import { navigate } from '../../router/location';
import { useSession } from '../../session/use-session';
import { customerHref, PAGES } from '../../router/paths';
import { Field, FormError, useForm, type Form } from '../../ui/form';
import { useLeaveGuard } from '../../ui/leave-guard';
import { toast } from '../../ui/toast';
import { Conflict, preloadConflict } from './form/conflict';
import { Duplicates } from './form/duplicates';
import { Service } from './form/service';
import { TagInput } from './form/TagInput';
import { useOnline } from './form/use-online';
import { CustomSection, customInput, customName, draftCustom, fieldRefusal, onField, toFormValue, toFormValues } from './custom/customer-form';
import { leavingArchived, useCustomFields, validateCustom, withCustom, withCustomChanges, type CustomerBase } from './custom/customer-form';
import { changedFields, duplicateFieldsChanged, EMPTY_VALUES, FIELD_LABELS, toInput, toValues, validateCustomer, withDraft, type CustomerValues } from './form/values';

export const MSG_ADDED = 'Customer saved';
export const MSG_EDITED = 'Changes saved';
export const MSG_OFFLINE = "You're offline — your changes are kept and you can save when the connection is back";
export const MSG_GONE = 'This customer no longer exists (it may have been deleted). Your changes are still in the form.';
export const MSG_NOT_YOURS = 'This customer is no longer assigned to you. Your changes are still in the form.'; // D59: the same 404, scoped
export { RECONNECT_CHECK_MS } from './form/use-online';

export type CustomerFormProps = { mode: 'add' } | { mode: 'edit'; customer: Customer };

/** D41: a customer form's draft; an edit's also has the record and version the typing started from. */
type CustomerDraft = { values: CustomerValues; tagDraft: string; base?: CustomerBase; version?: number };

const takenMessage = (who: PersonRef) => `${who.name} already has this email`;

export function CustomerForm(props: CustomerFormProps) {
  const editing = props.mode === 'edit' ? props.customer : null;
  const api = useCustomersApi();
  const online = useOnline(() => api.duplicates({}).fetch(new AbortController().signal));
  const defs = useCustomFields('customer');
  const fields = defs.fields ?? [];
  // D31: the record the person started from (diffs and the conflict view), and the version a save carries.
  const [base, setBase] = useState<CustomerBase>(() => ({ ...toInput(editing ? toValues(editing) : EMPTY_VALUES), custom: editing?.custom ?? {} }));
  const version = useRef(editing?.version ?? 0);
  const [tagDraft, setTagDraft] = useState('');
  const [conflict, setConflict] = useState<Customer | null>(null);
  const [taken, setTaken] = useState<PersonRef | null>(null);
  const create = useMutation(api.create);
  const update = useMutation(api.update(editing?.id ?? 0));
  const cache = useQueryCache();
  const scoped = useSession().customersScope === 'assigned';

  const form: Form<CustomerValues> = useForm<CustomerValues>({
    // D56: the custom fields after the others (D15: the first invalid one in this order takes the focus).
    initial: { ...(editing ? toValues(editing) : EMPTY_VALUES), ...toFormValues(fields, editing?.custom) },
    validate: (v) => ({ ...validateCustomer(v, tagDraft), ...validateCustom(fields, v, editing ? (base.custom ?? {}) : null) }),
    async submit(v) {
      setConflict(null);
      setTaken(null);
      const values = { ...v, tags: withDraft(v.tags, tagDraft) };
      if (editing) preloadConflict();
      try {
        // D56: a field archived since the form opened is left out, the rest saved, and the toast says so.
        const { saved, leftOut } = editing
          ? await leavingArchived(changes(values), (c) => update.mutate({ changes: c, version: version.current }), fields)
          : await leavingArchived(withCustom(toInput(values), fields, values), (b) => create.mutate(b), fields);
        if (leftOut) void defs.query.refetch?.();
        guard.allowLeave();
        draft.saved();
        toast.success(`${editing ? MSG_EDITED : MSG_ADDED}${leftOut}`);
        navigate(customerHref(saved.id));
      } catch (error) {
        // A lost connection is said by the offline notice (the client marked it), the values stay.
        if (isNetworkError(error)) return;
        if (isPermissionDenied(error)) {
          guard.allowLeave(); // D41: nothing is lost by leaving now, the draft keeps it
          throw new HttpError(403, { detail: draft.lost(editing ? 'edit customers' : 'add customers') }, error.path);
        }
        const current = isHttpError(error, 409) && error.code === 'conflict' && (error.data as { current?: Customer }).current;
        if (current) return setConflict(current);
        if (isHttpError(error, 409) && error.code === 'duplicate_email') {
          const existing = (error.data as { existing?: PersonRef }).existing;
          if (existing) setTaken(existing);
          throw onField(error, 'email', existing ? takenMessage(existing) : (error.detail ?? 'Another customer already has this email'));
        }
        const onItsField = fieldRefusal(error, fields); // D19 D56
        if (onItsField) throw onItsField;
        if (isHttpError(error, 404) && editing) {
          cache.invalidate(customerKeys.list(api.orgId)); // D59: the lists showed it
          throw new HttpError(404, { detail: scoped ? MSG_NOT_YOURS : MSG_GONE }, error.path);
        }
        throw error;
      }
    },
  });

  const changes = (values: CustomerValues) => withCustomChanges(changedFields(values, base), fields, values, base.custom); // D31 D56
  const changed = Object.keys(changes(form.values)).length > 0;
  const guard = useLeaveGuard(changed || tagDraft.trim() !== '', () => draft.discard());
  const draft = useDraft<CustomerDraft>({
    form: editing ? `customer-edit:${editing.id}` : 'customer-new',
    data: { values: form.values, tagDraft, ...(editing && { base, version: version.current }) },
    dirty: changed || tagDraft.trim() !== '',
    onRestore: restoreDraft,
  });

  /** D41: the draft back in the form; an edit's against the version it was typed on (D31 on save). */
  function restoreDraft(d: CustomerDraft): void {
    for (const name of Object.keys(EMPTY_VALUES) as (keyof CustomerValues)[]) {
      if (d.values?.[name] !== undefined) form.set(name, d.values[name]);
    }
    for (const [name, value] of draftCustom(d.values)) form.set(name as keyof CustomerValues, value as never); // D56
    setTagDraft(typeof d.tagDraft === 'string' ? d.tagDraft : '');
    if (editing && d.base && typeof d.version === 'number') {
      setBase(d.base);
      version.current = d.version;
    }
  }

  function loadTheirs(current: Customer): void {
    const values = toValues(current);
    for (const name of Object.keys(values) as (keyof CustomerValues)[]) form.set(name, values[name]);
    for (const f of fields) form.set(customName(f) as keyof CustomerValues, toFormValue(f, current.custom?.[f.key]) as never);
    setBase({ ...toInput(values), custom: current.custom ?? {} });
    version.current = current.version;
    setConflict(null);
  }

  const text = (name: CustomerTextField, extra: { type?: string; required?: boolean } = {}) => (
    <Field form={form} name={name} label={FIELD_LABELS[name]} autoComplete="off" {...extra} />
  );
  const emailControl = form.field('email');
  const emailError = form.errors.email;

  return (
    <>
      {draft.offer}
      <form className="cf" onSubmit={(e) => (online ? form.onSubmit(e) : e.preventDefault())} noValidate aria-label="Customer">
        {conflict && (
          <Conflict
            current={conflict}
            base={base}
            mine={{ ...toInput({ ...form.values, tags: withDraft(form.values.tags, tagDraft) }), custom: customInput(fields, form.values, base.custom) }}
            fields={fields}
            saveDisabled={!online}
            saving={form.submitting}
            onKeepMine={() => (version.current = conflict.version)}
            onUseTheirs={() => loadTheirs(conflict)}
          />
        )}
        <FormError text={form.formError} className="cf-error" />
        <fieldset className="cf-section">
          <legend>Contact</legend>
          <div className="cf-grid">
            {text('name', { required: true })}
            {text('company')}
            <div className="field">
              <label htmlFor={emailControl.id}>{FIELD_LABELS.email}</label>
              <input {...emailControl} type="email" autoComplete="off" />
              {emailError && (
                <p id={emailControl['aria-describedby']} className="field-error">
                  {taken && emailError === takenMessage(taken) ? (
                    <>
                      <Link to={customerHref(taken.id)}>{taken.name}</Link> already has this email
                    </>
                  ) : (
                    emailError
                  )}
                </p>
              )}
            </div>
            {text('phone', { type: 'tel' })}
          </div>
          <Duplicates
            email={form.values.email}
            phone={form.values.phone}
            name={form.values.name}
            exclude={editing?.id}
            enabled={!editing || duplicateFieldsChanged(form.values, base)}
          />
        </fieldset>
        <fieldset className="cf-section">
          <legend>Billing address</legend>
          <div className="cf-grid">
            <div className="cf-wide">{text('address_line')}</div>
            {text('city')}
            {text('region')}
            {text('postal_code')}
            {text('country')}
          </div>
        </fieldset>
        <fieldset className="cf-section">
          <legend>Details</legend>
          <div className="cf-grid">
            <Field form={form} name="status" label={FIELD_LABELS.status} as="select">
              {CUSTOMER_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {CUSTOMER_STATUS_LABELS[s]}
                </option>
              ))}
            </Field>
            <div className="cf-wide">
              <TagInput
                control={form.field('tags')}
                label={FIELD_LABELS.tags}
                tags={form.values.tags}
                draft={tagDraft}
                error={form.errors.tags}
                onTags={(tags) => form.set('tags', tags)}
                onDraft={setTagDraft}
              />
            </div>
          </div>
        </fieldset>
        <Service form={form} />
        <CustomSection form={form} defs={defs} saved={base.custom} />
        <div className="cf-actions">
          <p id="cf-offline" className="cf-offline" role="status">
            {online ? '' : MSG_OFFLINE}
          </p>
          <Link to={editing ? customerHref(editing.id) : PAGES.customers} className="btn">
            Cancel
          </Link>
          {/* D15: busy saving, it keeps the focus (aria-disabled; the form ignores a second press). */}
          <button
            type="submit"
            className="btn btn-primary"
            disabled={!online}
            aria-disabled={form.submitting || undefined}
            aria-describedby={online ? undefined : 'cf-offline'}
          >
            {form.submitting ? 'Saving…' : 'Save'}
          </button>
        </div>
      </form>
      {guard.prompt}
    </>
  );
}
