// D58: one bulk action's dialog: what it needs, then the question naming the count; confirming sends it
// for exactly what the person saw. A 409 selection_changed says the new count and asks again with it; a
// 400 is said on its field or in the dialog; what the person chose stays through every refusal.
import { useState } from 'react';
import { EXPORT_IDS_MAX, type BulkResult } from '../../../../contract/bulk';
import type { CustomerStatus, CustomerType } from '../../../../contract/customers';
import type { CustomField } from '../../../../contract/custom-fields';
import { type BulkChange, useBulkApi } from '../../../api/bulk';
import { useCustomersApi } from '../../../api/customers';
import { isHttpError } from '../../../http/errors';
import { useMutation, useQuery } from '../../../query/use-query';
import { Dialog } from '../../../ui/dialog';
import { errorWords, MSG_TRY_AGAIN } from '../../../ui/error-words';
import { FormError, SubmitButton, useForm } from '../../../ui/form';
import { customMessage, customName, isCustomName, toCustomValue } from '../custom/values';
import { useCustomFields } from '../../../api/custom-fields';
import { type BulkKind, changedWords, type Choice, confirmLabel, customers, question, TITLES } from './bulk-words';
import { BulkFields, type BulkValues, EMPTY_VALUES, settable, UNASSIGNED } from './BulkFields';
import { useAssignees } from '../../../api/assignees';
import type { Selection } from './selection';

const DELETE_NOTE = 'Undo in the message that follows puts them back; so can Restore in the Deleted view for 30 days.';

/** The fields each dialog shows, where a 400 naming one is said. */
const SHOWN: Record<BulkKind, string[]> = {
  add_tag: ['tag'],
  remove_tag: ['tag'],
  status: ['status'],
  type: ['type'],
  dns: ['reason'],
  custom: ['field'],
  assign: ['assigned_to'],
  export: [],
  delete: [],
};

/** A custom value as the question shows it: an option's label, Yes or No, or as typed. */
function valueText(f: CustomField | undefined, held: unknown): string {
  if (!f) return '';
  const v = toCustomValue(f, (held as string | string[] | undefined) ?? '');
  const label = (id: unknown) => f.options.find((o) => o.id === id)?.label ?? String(id);
  if (v === null) return '';
  if (Array.isArray(v)) return v.map(label).join(', ');
  if (typeof v === 'boolean') return v ? 'Yes' : 'No';
  return f.type === 'choice' ? label(v) : String(v);
}

/** The change a dialog's values ask for (delete and export have none). */
function changeOf(kind: BulkKind, v: BulkValues, field: CustomField | undefined): BulkChange | null {
  const set = v.set === 'set';
  switch (kind) {
    case 'add_tag':
    case 'remove_tag':
      return { action: kind, tag: v.tag.trim() };
    case 'status':
      return { action: 'set_status', status: v.status as CustomerStatus };
    case 'type':
      return { action: 'set_type', type: v.type as CustomerType };
    case 'dns':
      return set ? { action: 'set_do_not_service', reason: v.reason.trim() || null } : { action: 'clear_do_not_service' };
    case 'assign': // D59: as set_status passes its value, beside the selection
      return { action: 'assign', assigned_to: v.assigned_to === UNASSIGNED ? null : Number(v.assigned_to) };
    case 'custom':
      if (!field) return null;
      return set
        ? { action: 'set_custom', custom: { [field.key]: toCustomValue(field, v[customName(field)] ?? '') } }
        : { action: 'clear_custom', custom: { [field.key]: null } };
    default:
      return null;
  }
}

export interface BulkDialogProps {
  kind: BulkKind;
  selection: Selection;
  onCancel: () => void;
  /** The action's answer (null for an export). */
  onDone: (result: BulkResult | null) => void;
}

export function BulkDialog({ kind, selection, onCancel, onDone }: BulkDialogProps) {
  const bulk = useMutation(useBulkApi().run);
  const customersApi = useCustomersApi();
  const defs = useCustomFields('customer');
  const people = useQuery(useAssignees(), { enabled: kind === 'assign' }).data ?? []; // D59
  const [changed, setChanged] = useState<string | null>(null);
  const n = selection.count;
  const all = selection.picked.kind === 'all';

  const fieldOf = (v: BulkValues) => settable(defs.fields).find((f) => f.key === v.field);
  const validate = (v: BulkValues) => {
    const e: Partial<Record<keyof BulkValues, string>> = {};
    if ((kind === 'add_tag' || kind === 'remove_tag') && !v.tag.trim()) e.tag = 'Enter a tag';
    if (kind === 'status' && !v.status) e.status = 'Choose a status';
    if (kind === 'type' && !v.type) e.type = 'Choose a type';
    if (kind === 'assign' && !v.assigned_to) e.assigned_to = 'Choose a member, or Unassigned';
    if (kind === 'custom' && !v.field) e.field = 'Choose a field';
    const f = fieldOf(v);
    if (kind === 'custom' && f && v.set === 'set' && toCustomValue(f, v[customName(f)] ?? '') === null) e[customName(f)] = `Enter ${f.label}`;
    if (kind === 'custom' && f && v.set === 'clear' && f.required) e.field = `${f.label} is required, so it cannot be cleared`;
    return e;
  };

  async function exportSelection() {
    const picked = selection.picked;
    const ids = picked.kind === 'ids' ? [...picked.ids.keys()] : null;
    if (ids && ids.length > EXPORT_IDS_MAX)
      return setChanged(`Export at most ${EXPORT_IDS_MAX.toLocaleString('en-US')} customers picked one by one; select all matching instead.`);
    try {
      const [csv, { saveFile }] = await Promise.all([customersApi.exportCsv({ ...selection.exportQuery, ids: ids?.join(',') }), import('../../../lib/save-file')]);
      saveFile(csv, `customers-${new Date().toISOString().slice(0, 10)}.csv`);
    } catch (e) {
      return setChanged(`Could not export the customers. ${errorWords(e, { fallback: MSG_TRY_AGAIN })}`);
    }
    onDone(null);
  }

  const form = useForm<BulkValues>({
    initial: { ...EMPTY_VALUES },
    validate,
    submit: async (v) => {
      setChanged(null);
      if (kind === 'export') return exportSelection();
      const body = selection.body();
      const change = changeOf(kind, v, fieldOf(v));
      try {
        onDone(await bulk.mutate(kind === 'delete' ? { selection: body, delete: true } : { selection: body, change: change! }));
      } catch (e) {
        // A 400 about a field this dialog does not show (or a custom value's) is said in the dialog.
        if (isHttpError(e, 400) && e.field && isCustomName(e.field)) return void setChanged(customMessage(defs.fields ?? [], e.field, e.data, e.detail));
        if (isHttpError(e, 400) && !(e.field && SHOWN[kind].includes(e.field))) return void setChanged(errorWords(e));
        if (!isHttpError(e, 409) || e.code !== 'selection_changed') throw e;
        // D58: the selection moved since the person looked: say the new count and ask again with it.
        const { count, ids } = e.data as { count?: unknown; ids?: unknown };
        const now = Number(count);
        if (all && Number.isInteger(now)) selection.selectAll(now);
        // Rows picked one by one: the ones still there stay picked, and the button goes on with them.
        const still = !all && Array.isArray(ids) && ids.every(Number.isInteger) ? (ids as number[]) : null;
        if (still?.length) selection.keep(still);
        setChanged(changedWords(now, all, still !== null && still.length > 0));
      }
    },
  });

  const f = fieldOf(form.values);
  const choice: Choice = {
    tag: form.values.tag.trim(),
    status: form.values.status as Choice['status'],
    type: form.values.type as Choice['type'],
    set: form.values.set === 'set',
    field: f?.label ?? '',
    value: valueText(f, f && form.values[customName(f)]),
    assignee: form.values.assigned_to === UNASSIGNED ? null : (people.find((p) => String(p.id) === form.values.assigned_to)?.name ?? ''),
  };
  const asked = question(kind, n, choice);
  const formId = `${form.field('tag').id}f`;
  return (
    <Dialog
      title={TITLES[kind]}
      onCancel={onCancel}
      actions={
        <>
          <button type="button" className="btn" onClick={onCancel} data-autofocus={kind === 'export' || kind === 'delete' || undefined}>
            Cancel
          </button>
          <SubmitButton
            formId={formId}
            focusable
            busy={form.submitting}
            label={confirmLabel(kind, n, choice)}
            busyLabel="Working…"
            className={kind === 'delete' ? 'btn btn-danger' : 'btn btn-primary'}
          />
        </>
      }
    >
      <form id={formId} className="bulk-form" onSubmit={(e) => void form.onSubmit(e)} noValidate>
        <BulkFields kind={kind} form={form} fields={defs.fields} people={people} />
        <p className="bulk-question">{asked ?? `For ${customers(n)}.`}</p>
        {kind === 'delete' && <p className="muted">{DELETE_NOTE}</p>}
        {changed && (
          <p className="write-error" role="alert">
            {changed}
          </p>
        )}
        <FormError text={form.formError} className="write-error" />
      </form>
    </Dialog>
  );
}
