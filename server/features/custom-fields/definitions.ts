// D56: the rules of an organization's field definitions (no SQL: repo.ts and values-repo.ts hold it).
// Every change runs under the organization's definitions lock, so limits and labels hold under concurrency.
import {
  CHOICE_TYPES,
  CUSTOM_FIELD_LIMITS,
  CUSTOM_FIELD_TYPE_LABELS,
  CUSTOM_TEXT_MAX,
  keyFromLabel,
  TYPE_CHANGES,
  UNIQUE_TYPES,
  type CustomField,
  type CustomFieldKind,
  type CustomFieldOption,
  type CustomFieldType,
} from '../../../contract/custom-fields';
import type { Queryable } from '../../db';
import { fieldError, HttpError } from '../../http';
import { getField, insertField, keysInUse, listFields, lockFields, markDeleted, reorderFields, setArchived, updateField, type FieldPatch } from './repo';
import type { OptionInput } from './schema';
import { choiceToChoices, countValues, hasDuplicateValues, optionUse, valuesTooLongForText } from './values-repo';

const KIND_WORDS: Record<CustomFieldKind, string> = { customer: 'customer', location: 'service location' };

const conflict = (code: string, detail: string, extra: Record<string, unknown> = {}) => new HttpError(409, code, detail, {}, extra);

function assertLabelFree(fields: CustomField[], label: string, except: number | null): void {
  const other = fields.find((f) => f.id !== except && f.label.toLowerCase() === label.toLowerCase());
  if (other) throw conflict('duplicate_label', `Another ${KIND_WORDS[other.record_kind]} field is called “${other.label}”`, { field: 'label' });
}

/** D56: option ids are kept (renaming keeps values); new options get the next free `o<n>`. */
function withIds(input: OptionInput[], existing: CustomFieldOption[]): CustomFieldOption[] {
  const known = new Set(existing.map((o) => o.id));
  let next = Math.max(0, ...existing.map((o) => Number(/^o(\d+)$/.exec(o.id)?.[1] ?? 0))) + 1;
  return input.map((o, i) => {
    if (o.id !== null && !known.has(o.id)) throw fieldError(`options[${i}].id`, 'is not an option of this field (leave it out for a new one)');
    return { id: o.id ?? `o${next++}`, label: o.label };
  });
}

function assertShape(type: CustomFieldType, options: CustomFieldOption[], unique: boolean): void {
  const choice = CHOICE_TYPES.includes(type);
  if (!choice && options.length) throw fieldError('options', 'only choice fields have options');
  if (choice && !options.length) throw fieldError('options', 'a choice field needs at least one option');
  if (unique && !UNIQUE_TYPES.includes(type)) throw fieldError('unique', 'only text and number fields can be unique');
}

export interface FieldInput {
  record_kind: CustomFieldKind;
  key: string | null;
  label: string;
  type: CustomFieldType;
  help: string | null;
  required: boolean;
  unique: boolean;
  options: OptionInput[];
}

export async function createField(tx: Queryable, orgId: number, input: FieldInput, now: Date): Promise<CustomField> {
  await lockFields(tx, orgId, 'change');
  const fields = await listFields(tx, orgId, input.record_kind);
  const limit = CUSTOM_FIELD_LIMITS[input.record_kind];
  if (fields.length >= limit)
    throw conflict('too_many_custom_fields', `An organization can have at most ${limit} ${KIND_WORDS[input.record_kind]} fields (archived ones count until deleted)`, {
      limit,
    });
  assertLabelFree(fields, input.label, null);
  const keys = await keysInUse(tx, orgId, input.record_kind);
  if (input.key !== null && keys.has(input.key)) {
    const gone = !fields.some((f) => f.key === input.key);
    throw conflict(
      'duplicate_key',
      gone ? `A deleted field’s values still use the key ${input.key}; try again in a few minutes` : `Another field has the key ${input.key}`,
      { field: 'key' },
    );
  }
  let key = input.key ?? keyFromLabel(input.label);
  for (let n = 2; keys.has(key); n++) key = `${keyFromLabel(input.label).slice(0, 36)}_${n}`;
  const options = withIds(input.options, []);
  assertShape(input.type, options, input.unique);
  return insertField(tx, orgId, { ...input, key, options }, now);
}

type Change = Record<string, { from: unknown; to: unknown }>;

/** D56: a type change loses no value (text ↔ long text when every value fits, one choice → several), or 409 says why. */
async function assertTypeChange(tx: Queryable, orgId: number, f: CustomField, to: CustomFieldType): Promise<void> {
  const words = `A ${CUSTOM_FIELD_TYPE_LABELS[f.type]} field cannot become ${CUSTOM_FIELD_TYPE_LABELS[to]}`;
  if (!TYPE_CHANGES[f.type]?.includes(to)) throw conflict('type_change_refused', `${words}: its values would be lost. Add a new field instead.`, { field: 'type' });
  if (to === 'text') {
    const n = await valuesTooLongForText(tx, orgId, f, CUSTOM_TEXT_MAX);
    if (n > 0)
      throw conflict('type_change_refused', `${words}: ${n === 1 ? '1 value is' : `${n} values are`} longer than ${CUSTOM_TEXT_MAX} characters or with line breaks.`, {
        field: 'type',
      });
  }
}

/** D56: an option removed while records hold it is refused, naming it (its values are never dropped silently). */
async function assertOptionsFree(tx: Queryable, orgId: number, f: CustomField, kept: CustomFieldOption[]): Promise<void> {
  const removed = f.options.filter((o) => !kept.some((k) => k.id === o.id));
  if (!removed.length) return;
  const use = await optionUse(
    tx,
    orgId,
    f,
    removed.map((o) => o.id),
  );
  const held = removed.find((o) => (use.get(o.id) ?? 0) > 0);
  if (held) {
    const n = use.get(held.id) ?? 0;
    const noun = KIND_WORDS[f.record_kind];
    throw conflict('option_in_use', `${n === 1 ? `1 ${noun} has` : `${n} ${noun}s have`} the option “${held.label}”: change them first`, {
      field: 'options',
      option: held,
    });
  }
}

export async function changeField(tx: Queryable, orgId: number, id: number, input: Partial<Omit<FieldInput, 'record_kind' | 'key'>>) {
  await lockFields(tx, orgId, 'change');
  const f = await getField(tx, orgId, id);
  const patch: FieldPatch = {};
  const changes: Change = {};
  const note = <K extends keyof FieldPatch>(k: K, to: FieldPatch[K], from = f[k]) => {
    if (JSON.stringify(from) === JSON.stringify(to)) return;
    patch[k] = to;
    changes[k] = { from, to };
  };
  if (input.label !== undefined) {
    if (input.label !== f.label) assertLabelFree(await listFields(tx, orgId, f.record_kind), input.label, f.id);
    note('label', input.label);
  }
  if (input.help !== undefined) note('help', input.help);
  if (input.required !== undefined) note('required', input.required);
  const type = input.type ?? f.type;
  if (type !== f.type) await assertTypeChange(tx, orgId, f, type);
  note('type', type);
  const options = input.options ? withIds(input.options, f.options) : f.options;
  if (input.options) await assertOptionsFree(tx, orgId, f, options);
  const unique = input.unique ?? f.unique;
  assertShape(type, options, unique);
  if (unique && !f.unique && (await hasDuplicateValues(tx, orgId, f)))
    throw conflict('duplicate_custom_values', `Some customers share a value of “${f.label}”: make them different first`, { field: 'unique' });
  note('unique', unique);
  note('options', options);
  if (changes.options) changes.options = { from: f.options.map((o) => o.label), to: options.map((o) => o.label) };
  const after = await updateField(tx, orgId, id, patch);
  if (f.type === 'choice' && type === 'choices') await choiceToChoices(tx, orgId, f);
  return { before: f, after, changes };
}

export async function archiveField(tx: Queryable, orgId: number, id: number, at: Date | null): Promise<CustomField> {
  await lockFields(tx, orgId, 'change');
  const f = await getField(tx, orgId, id);
  if (at && f.archived) throw conflict('already_archived', `“${f.label}” is archived already`);
  if (!at && !f.archived) throw conflict('not_archived', `“${f.label}” is not archived`);
  return setArchived(tx, orgId, id, at);
}

/** D56: only an archived field is deleted, with its values on every record, in one transaction. */
/**
 * D56 D34: an archived field goes at once (no answer shows its values, its label is free); its values are
 * then removed a few hundred records at a time by purgeDeletedFields, after the commit.
 */
export async function removeField(tx: Queryable, orgId: number, id: number, now: Date): Promise<{ field: CustomField; records: number }> {
  await lockFields(tx, orgId, 'change');
  const field = await getField(tx, orgId, id);
  if (!field.archived) throw conflict('field_not_archived', `Archive “${field.label}” before deleting it`);
  const records = await countValues(tx, orgId, field);
  await markDeleted(tx, orgId, id, now);
  return { field, records };
}

/** D56: a field with how many records hold a value (what deleting it would remove). */
export async function fieldWithCount(db: Queryable, orgId: number, id: number) {
  const field = await getField(db, orgId, id);
  return { ...field, records_with_value: await countValues(db, orgId, field) };
}

export async function reorder(tx: Queryable, orgId: number, kind: CustomFieldKind, ids: number[]): Promise<CustomField[]> {
  await lockFields(tx, orgId, 'change');
  const fields = await listFields(tx, orgId, kind);
  const same = ids.length === fields.length && new Set(ids).size === ids.length && fields.every((f) => ids.includes(f.id));
  if (!same) throw fieldError('ids', `must list every ${KIND_WORDS[kind]} field once (${fields.length})`);
  await reorderFields(tx, orgId, kind, ids);
  return listFields(tx, orgId, kind);
}
