// D56: add or edit a custom field in a dialog: label, key (suggested from the label, fixed once made), type,
// options for the choice types, help text, required and unique (text and number). Checked as the server
// checks before sending; a refusal lands on the field it names (field-form.ts). What was typed stays
// through a 400, a 409, a network error and offline: only Save or Cancel closes the dialog; D41 it is kept
// as a draft (a reload, a lost permission), offered back when the same dialog opens again.
// Loaded the first time it is needed, apart from the page (FieldsPage.tsx).
import { useId, useLayoutEffect, useRef, useState, useSyncExternalStore, type ReactNode } from 'react';
import { CUSTOM_FIELD_TYPE_LABELS, CUSTOM_HELP_MAX, CUSTOM_KEY_MAX, CUSTOM_LABEL_MAX, type CustomField, type CustomFieldKind } from '../../../../contract/custom-fields';
import { useCustomFieldsApi } from '../../../api/custom-fields';
import { connectivity } from '../../../http/connectivity';
import { isPermissionDenied, useDraft } from '../../../drafts/context';
import { isAbortError } from '../../../http/errors';
import { useMutation } from '../../../query/use-query';
import { Dialog } from '../../../ui/dialog';
import { errorWords } from '../../../ui/error-words';
import {
  canBeUnique,
  changesOf,
  checkDraft,
  createBody,
  hasErrors,
  isChoice,
  keptDraft,
  NO_ERRORS,
  placeRefusal,
  restoreDraft,
  startDraft,
  typesFor,
  withLabel,
  type DraftErrors,
  type FieldDraft,
  type FieldName,
} from './field-form';
import { OptionsEditor } from './OptionsEditor';

export const MSG_OFFLINE = 'You are offline. What you typed stays here; save once the connection is back.';
const ORDER: FieldName[] = ['label', 'key', 'type', 'options', 'help', 'required', 'unique'];
const KIND_WORDS: Record<CustomFieldKind, string> = { customer: 'customer', location: 'location' };

export interface FieldDialogProps {
  kind: CustomFieldKind;
  /** The field edited; null to add one. */
  field: CustomField | null;
  /** The kind's other fields (their labels are taken). */
  others: readonly CustomField[];
  onCancel: () => void;
  onSaved: (field: CustomField, added: boolean) => void;
}

export default function FieldDialog({ kind, field, others, onCancel, onSaved }: FieldDialogProps) {
  const api = useCustomFieldsApi();
  const create = useMutation(api.create);
  const update = useMutation(api.update(field?.id ?? 0));
  const online = useSyncExternalStore(connectivity.subscribe, connectivity.getState, connectivity.getState);
  const id = useId();
  const [d, setDraft] = useState<FieldDraft>(() => startDraft(field));
  const [errors, setErrors] = useState<DraftErrors>(NO_ERRORS);
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const sending = useRef(false);
  const isNew = field === null;
  const [start] = useState(() => JSON.stringify(keptDraft(startDraft(field))));
  const draft = useDraft({
    form: isNew ? `custom-field-new:${kind}` : `custom-field-edit:${field.id}`,
    data: keptDraft(d),
    dirty: JSON.stringify(keptDraft(d)) !== start,
    onRestore: (kept) => setDraft(restoreDraft(kept, field)),
  });
  const cancel = () => {
    draft.discard(); // the person chose to drop it
    onCancel();
  };

  // D15: the first field in error takes the focus once its error is drawn and tied to it.
  const focusFirst = useRef(false);
  useLayoutEffect(() => {
    if (!focusFirst.current) return;
    focusFirst.current = false;
    const name = ORDER.find((n) => errors.fields[n]);
    const option = d.options.find((o) => errors.options[o.uid]);
    const target = name && name !== 'options' ? `${id}-${name}` : option ? `${id}-o${option.uid}` : name ? `${id}-o${d.options[0]?.uid}` : null;
    if (target) document.getElementById(target)?.focus();
  });

  const set = (patch: Partial<FieldDraft>, name?: FieldName) => {
    setDraft((v) => ({ ...v, ...patch }));
    if (name) setErrors((e) => ({ ...e, fields: { ...e.fields, [name]: undefined } }));
  };

  async function submit(e: { preventDefault: () => void }) {
    e.preventDefault();
    if (sending.current) return;
    const found = checkDraft(d, others, isNew);
    setErrors(found);
    setFormError(null);
    if (hasErrors(found)) return void (focusFirst.current = true);
    sending.current = true;
    setBusy(true);
    try {
      const saved = isNew ? await create.mutate(createBody(d, kind)) : Object.keys(changesOf(d, field)).length ? await update.mutate(changesOf(d, field)) : field;
      draft.saved();
      onSaved(saved, isNew);
    } catch (error) {
      if (!isAbortError(error)) {
        const placed = placeRefusal(error, d);
        if (placed) {
          setErrors(placed);
          focusFirst.current = true;
        } else setFormError(isPermissionDenied(error) ? draft.lost('change custom fields') : errorWords(error));
      }
    }
    sending.current = false;
    setBusy(false);
  }

  const hints: Partial<Record<FieldName, string>> = {
    key: isNew ? 'The name records and the API use for it. It cannot change once the field is made.' : 'Keys never change, so values stay with the field.',
    type: isNew ? undefined : 'Only types that keep every value are offered. For another type, add a new field.',
    unique: `No two ${kind === 'customer' ? 'customers' : 'service locations'} may hold the same value.`,
  };
  const control = (name: FieldName) => ({
    id: `${id}-${name}`,
    'aria-invalid': errors.fields[name] ? true : undefined,
    'aria-describedby': [errors.fields[name] && `${id}-${name}-e`, hints[name] && `${id}-${name}-h`].filter(Boolean).join(' ') || undefined,
  });
  const note = (name: FieldName): ReactNode => (
    <>
      {hints[name] && (
        <p id={`${id}-${name}-h`} className="field-hint">
          {hints[name]}
        </p>
      )}
      {errors.fields[name] && (
        <p id={`${id}-${name}-e`} className="field-error">
          {errors.fields[name]}
        </p>
      )}
    </>
  );

  return (
    <Dialog
      title={isNew ? `Add ${KIND_WORDS[kind]} field` : `Edit “${field.label}”`}
      onCancel={cancel}
      actions={
        <>
          <button type="button" className="btn" onClick={cancel}>
            Cancel
          </button>
          <button type="submit" form={`${id}-form`} className="btn btn-primary" aria-disabled={busy || undefined} aria-busy={busy || undefined}>
            {busy ? 'Saving…' : isNew ? 'Add field' : 'Save'}
          </button>
        </>
      }
    >
      <form id={`${id}-form`} className="fd-form" onSubmit={(e) => void submit(e)} noValidate>
        {draft.offer}
        <div className="field">
          <label htmlFor={`${id}-label`}>Label</label>
          <input
            {...control('label')}
            value={d.label}
            maxLength={CUSTOM_LABEL_MAX}
            autoComplete="off"
            data-autofocus
            onChange={(e) => set(isNew ? withLabel(d, e.target.value) : { label: e.target.value }, 'label')}
          />
          {note('label')}
        </div>
        <div className="field">
          <label htmlFor={`${id}-key`}>Key</label>
          {isNew ? (
            <input
              {...control('key')}
              value={d.key}
              maxLength={CUSTOM_KEY_MAX}
              autoComplete="off"
              spellCheck={false}
              onChange={(e) => set({ key: e.target.value, keyEdited: true }, 'key')}
            />
          ) : (
            <input {...control('key')} value={d.key} readOnly />
          )}
          {note('key')}
        </div>
        <div className="field">
          <label htmlFor={`${id}-type`}>Type</label>
          <select {...control('type')} value={d.type} onChange={(e) => set({ type: e.target.value as FieldDraft['type'] }, 'type')}>
            {typesFor(field).map((t) => (
              <option key={t} value={t}>
                {CUSTOM_FIELD_TYPE_LABELS[t]}
              </option>
            ))}
          </select>
          {note('type')}
        </div>
        {isChoice(d.type) && (
          <OptionsEditor
            idBase={id}
            options={d.options}
            errors={errors.options}
            error={errors.fields.options}
            onChange={(options) => {
              set({ options }, 'options');
              setErrors((e) => ({ ...e, options: {} }));
            }}
          />
        )}
        <div className="field">
          <label htmlFor={`${id}-help`}>Help text (optional)</label>
          <input {...control('help')} value={d.help} maxLength={CUSTOM_HELP_MAX} onChange={(e) => set({ help: e.target.value }, 'help')} />
          {note('help')}
        </div>
        <label className="check">
          <input type="checkbox" {...control('required')} checked={d.required} onChange={(e) => set({ required: e.target.checked }, 'required')} />
          Required
        </label>
        {note('required')}
        {canBeUnique(d.type) && (
          <>
            <label className="check">
              <input type="checkbox" {...control('unique')} checked={d.unique} onChange={(e) => set({ unique: e.target.checked }, 'unique')} />
              Unique
            </label>
            {note('unique')}
          </>
        )}
        {!online && <p className="notice fd-offline">{MSG_OFFLINE}</p>}
        {formError && (
          <p className="write-error" role="alert">
            {formError}
          </p>
        )}
      </form>
    </Dialog>
  );
}
