// D56: the add / edit form of a custom field as data, React-free: what it starts from, the checks made
// before sending (the server's own limits), the body it sends, and where a server refusal lands.
import {
  CHOICE_TYPES,
  CUSTOM_FIELD_TYPES,
  CUSTOM_KEY_SHAPE,
  CUSTOM_OPTIONS_MAX,
  keyFromLabel,
  TYPE_CHANGES,
  UNIQUE_TYPES,
  type CustomField,
  type CustomFieldKind,
  type CustomFieldType,
} from '../../../../contract/custom-fields';
import type { CustomFieldChanges, NewCustomField } from '../../../api/custom-fields';
import { isHttpError } from '../../../http/errors';

/** An option as the form holds it: `id` once the server has given one (kept, so values survive a rename). */
export interface OptionDraft {
  uid: number;
  id?: string;
  label: string;
}

export interface FieldDraft {
  label: string;
  key: string;
  /** The person typed a key: the label no longer suggests it. */
  keyEdited: boolean;
  type: CustomFieldType;
  help: string;
  required: boolean;
  unique: boolean;
  options: OptionDraft[];
}

export type FieldName = 'label' | 'key' | 'type' | 'help' | 'required' | 'unique' | 'options';
/** Errors by field, and by option (its `uid`). */
export interface DraftErrors {
  fields: Partial<Record<FieldName, string>>;
  options: Record<number, string>;
}
export const NO_ERRORS: DraftErrors = { fields: {}, options: {} };
export const hasErrors = (e: DraftErrors) => Object.values(e.fields).some(Boolean) || Object.keys(e.options).length > 0;

export const FIELD_WORDS: Record<FieldName, string> = {
  label: 'Label',
  key: 'Key',
  type: 'Type',
  help: 'Help text',
  required: 'Required',
  unique: 'Unique',
  options: 'Options',
};
export const MSG_LABEL_REQUIRED = 'Label is required';
export const MSG_KEY_SHAPE = 'Key must be lower-case letters, digits and _, starting with a letter';
export const MSG_NEEDS_OPTION = 'Add at least one option';
export const MSG_OPTION_EMPTY = 'Give this option a label, or remove it';
export const labelTaken = (label: string) => `Another field is called “${label}”`;
export const optionTwice = (label: string) => `“${label}” is listed twice`;

let nextUid = 1;
export const newOption = (label = '', id?: string): OptionDraft => ({ uid: nextUid++, label, ...(id ? { id } : {}) });

export const isChoice = (t: CustomFieldType) => CHOICE_TYPES.includes(t);
export const canBeUnique = (t: CustomFieldType) => UNIQUE_TYPES.includes(t);

/** The types offered: any for a new field; for an existing one its own and those that lose no value (D56). */
export const typesFor = (field: CustomField | null): readonly CustomFieldType[] => (field ? [field.type, ...(TYPE_CHANGES[field.type] ?? [])] : CUSTOM_FIELD_TYPES);

export function startDraft(field: CustomField | null): FieldDraft {
  if (!field) return { label: '', key: '', keyEdited: false, type: 'text', help: '', required: false, unique: false, options: [newOption()] };
  return {
    label: field.label,
    key: field.key,
    keyEdited: true,
    type: field.type,
    help: field.help ?? '',
    required: field.required,
    unique: field.unique,
    options: field.options.map((o) => newOption(o.label, o.id)),
  };
}

/** D41: what a draft keeps (the options without the form's own ids for its rows). */
export type KeptDraft = Omit<FieldDraft, 'options'> & { options: Omit<OptionDraft, 'uid'>[] };
export const keptDraft = (d: FieldDraft): KeptDraft => ({ ...d, options: d.options.map(({ uid: _uid, ...o }) => o) });
/** D41: a kept draft back in the form; an edit keeps its key and offers only the types it may take. */
export function restoreDraft(kept: KeptDraft, field: CustomField | null): FieldDraft {
  const d = { ...startDraft(field), ...kept, options: (kept.options ?? []).map((o) => newOption(String(o.label ?? ''), o.id)) };
  if (field) d.key = field.key;
  if (!typesFor(field).includes(d.type)) d.type = field?.type ?? 'text';
  return d;
}

/** A label typed: the key follows it until the person edits the key (new fields only). */
export const withLabel = (d: FieldDraft, label: string): FieldDraft => ({ ...d, label, key: d.keyEdited ? d.key : keyFromLabel(label) });

/** D56: checked as the server checks; `others` are the kind's other fields (labels unique regardless of case, archived ones too). */
export function checkDraft(d: FieldDraft, others: readonly CustomField[], isNew: boolean): DraftErrors {
  const fields: DraftErrors['fields'] = {};
  const options: DraftErrors['options'] = {};
  const label = d.label.trim();
  if (!label) fields.label = MSG_LABEL_REQUIRED;
  else {
    const same = others.find((f) => f.label.toLowerCase() === label.toLowerCase());
    if (same) fields.label = labelTaken(same.label);
  }
  if (isNew && d.key.trim() && !CUSTOM_KEY_SHAPE.test(d.key.trim())) fields.key = MSG_KEY_SHAPE;
  if (isChoice(d.type)) {
    const kept = d.options.filter((o) => o.label.trim());
    if (!kept.length) fields.options = MSG_NEEDS_OPTION;
    const seen = new Set<string>();
    for (const o of d.options) {
      const l = o.label.trim();
      if (!l) {
        if (kept.length) options[o.uid] = MSG_OPTION_EMPTY;
      } else if (seen.has(l.toLowerCase())) options[o.uid] = optionTwice(l);
      seen.add(l.toLowerCase());
    }
    if (d.options.length > CUSTOM_OPTIONS_MAX) fields.options = `At most ${CUSTOM_OPTIONS_MAX} options`;
  }
  return { fields, options };
}

const optionsOf = (d: FieldDraft) => (isChoice(d.type) ? d.options.filter((o) => o.label.trim()) : []);

export function createBody(d: FieldDraft, kind: CustomFieldKind): NewCustomField {
  return {
    record_kind: kind,
    label: d.label.trim(),
    ...(d.key.trim() ? { key: d.key.trim() } : {}),
    type: d.type,
    help: d.help.trim() || null,
    required: d.required,
    unique: canBeUnique(d.type) && d.unique,
    options: optionsOf(d).map((o) => ({ label: o.label.trim() })),
  };
}

/** PATCH: only what changed; options by id (a new one without), so the server keeps each option's values. */
export function changesOf(d: FieldDraft, f: CustomField): CustomFieldChanges {
  const out: CustomFieldChanges = {};
  if (d.label.trim() !== f.label) out.label = d.label.trim();
  if ((d.help.trim() || null) !== f.help) out.help = d.help.trim() || null;
  if (d.required !== f.required) out.required = d.required;
  const unique = canBeUnique(d.type) && d.unique;
  if (unique !== f.unique) out.unique = unique;
  if (d.type !== f.type) out.type = d.type;
  const options = optionsOf(d).map((o) => (o.id ? { id: o.id, label: o.label.trim() } : { label: o.label.trim() }));
  if (isChoice(d.type) && JSON.stringify(options) !== JSON.stringify(f.options)) out.options = options;
  return out;
}

const OPTION_FIELD = /^options\[(\d+)\]/;

/**
 * A refusal the server tied to one field (a 400 naming it, a 409 duplicate label or key, a type change
 * refused, an option in use) on that field, in the form's words; null when it names none (then the form's).
 */
export function placeRefusal(error: unknown, d: FieldDraft): DraftErrors | null {
  if (!(isHttpError(error, 400) || isHttpError(error, 409)) || !error.field) return null;
  const field = error.field;
  const detail = error.detail ?? '';
  const words = (name: string) => (detail.startsWith(`${field}: `) ? `${name} ${detail.slice(field.length + 2)}` : detail);
  const option = OPTION_FIELD.exec(field);
  if (option) {
    const i = Number(option[1]);
    const o = optionsOf(d)[i];
    if (o) return { fields: {}, options: { [o.uid]: words(`Option ${i + 1}`) } };
    return { fields: { options: words('Options') }, options: {} };
  }
  const name = field.split('.')[0] as FieldName;
  if (!(name in FIELD_WORDS)) return null;
  return { fields: { [name]: words(FIELD_WORDS[name]) }, options: {} };
}
