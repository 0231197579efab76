// D56: a record's custom values, shared by every feature whose records hold them: the body's `custom`
// object, then each value checked by type against the organization's fields with the input checks of
// every other field (schema.ts); a refusal is a 400 naming `custom.<key>`, every refused key under
// `errors`. Unique values (text, number) are checked inside the organization under the field's lock.
import {
  CUSTOM_FIELD_LIMITS,
  CUSTOM_KEY_MAX,
  CUSTOM_KEY_SHAPE,
  CUSTOM_LONG_TEXT_MAX,
  CUSTOM_OPTIONS_MAX,
  CUSTOM_TEXT_MAX,
  type CustomField,
  type CustomFieldKind,
  type CustomValue,
  type CustomValues,
} from '../contract/custom-fields';
import type { Queryable } from './db';
import { fieldError, HttpError } from './http';
import { bool, type Check, describeCheck, list, text } from './schema';
import { customCell, listFields, valueHolder } from './custom-fields';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const MAX_VALUE_ITEMS = CUSTOM_OPTIONS_MAX;
const scalar = (v: unknown) => v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';

/**
 * D56: a record's `custom` object before the organization's definitions are known: keys in the key's form,
 * values JSON scalars or lists of text (choices). Each value is then checked by its field's type.
 */
export const customObject: Check<Record<string, unknown> | null> = describeCheck(
  (value, field) => {
    if (value === undefined || value === null) return null;
    if (!isObject(value)) throw fieldError(field, 'must be an object of field keys and values');
    const keys = Object.keys(value);
    if (keys.length > CUSTOM_FIELD_LIMITS.customer) throw fieldError(field, `must have at most ${CUSTOM_FIELD_LIMITS.customer} fields`);
    for (const key of keys) {
      const v = value[key];
      if (!CUSTOM_KEY_SHAPE.test(key)) throw fieldError(`${field}.${key.slice(0, CUSTOM_KEY_MAX)}`, 'is not a custom field', 'unknown_field');
      const fine = scalar(v) || (Array.isArray(v) && v.length <= MAX_VALUE_ITEMS && v.every((x) => typeof x === 'string'));
      if (!fine) throw fieldError(`${field}.${key}`, 'must be text, a number, true or false, or a list of choices');
    }
    return value;
  },
  { kind: 'object', keys: [], required: false },
);

const DATE_SHAPE = /^\d{4}-\d{2}-\d{2}$/;

const number: Check<number> = (value, field) => {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw fieldError(field, 'must be a number');
  return value;
};
const dateText = text({ max: 10, pattern: DATE_SHAPE, patternMessage: 'must be a date (YYYY-MM-DD)' });
const date: Check<string> = (value, field) => {
  const s = dateText(value, field);
  const at = new Date(`${s}T00:00:00Z`);
  // Year 0000 is no year people write (the calendar goes from 1 BC to AD 1), and a date field cannot show it.
  if (Number.isNaN(at.getTime()) || at.toISOString().slice(0, 10) !== s || s.startsWith('0000')) throw fieldError(field, 'is not a date of the calendar');
  return s;
};
const choiceOf = (f: CustomField): Check<string> => {
  const ids = new Set(f.options.map((o) => o.id));
  return (value, field) => {
    if (typeof value !== 'string' || !ids.has(value)) throw fieldError(field, 'is not an option of this field');
    return value;
  };
};
const choicesOf = (f: CustomField): Check<string[]> => {
  const each = list(choiceOf(f), { max: CUSTOM_OPTIONS_MAX });
  return (value, field) => {
    const all = each(value, field);
    if (new Set(all).size !== all.length) throw fieldError(field, 'names an option twice');
    return all;
  };
};

/** D56: each type's check, with the limits of D56 (text ≤ 500, long text ≤ 5,000). */
export function valueCheck(f: CustomField): Check<CustomValue> {
  switch (f.type) {
    case 'text':
      return text({ max: CUSTOM_TEXT_MAX });
    case 'long_text':
      return text({ max: CUSTOM_LONG_TEXT_MAX, multiline: true });
    case 'number':
      return number;
    case 'date':
      return date;
    case 'yes_no':
      return bool();
    case 'choice':
      return choiceOf(f);
    case 'choices':
      return choicesOf(f);
  }
}

/** No value: absent, null, blank text or an empty list. */
const empty = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '') || (Array.isArray(v) && v.length === 0);

/** What a write does to a record's values: keys to set, keys to clear, and the audit's changes. */
export interface CustomPatch {
  set: CustomValues;
  unset: string[];
  /** `custom.<key>` → { from, to, label, shown? }: part of the record's own change entry (D56 the timeline's label; a choice's option labels as they were). */
  changes: Record<string, { from: unknown; to: unknown; label: string; shown?: { from: string; to: string } }>;
}

/** D56: a choice's change also in words, by its options' labels at the time (the timeline says 'Gold', not 'o1'); yes/no as Yes and No. */
const yesNo = (v: unknown) => (v === true ? 'Yes' : v === false ? 'No' : '');
const shownOf = (f: CustomField, from: unknown, to: unknown) =>
  f.type === 'choice' || f.type === 'choices'
    ? { shown: { from: customCell(f, from as CustomValue), to: customCell(f, to as CustomValue) } }
    : f.type === 'yes_no'
      ? { shown: { from: yesNo(from), to: yesNo(to) } } // as the form and the page say it
      : {};

/**
 * D56: `input` checked against the fields. `before` is the record's visible values, null for a new record
 * (whose required fields must then all be given). Archived fields are refused (their values stay).
 */
export function checkCustom(fields: CustomField[], input: Record<string, unknown> | null, before: CustomValues | null): CustomPatch {
  const errors: Record<string, string> = {};
  const codes: string[] = [];
  const refuse = (key: string, words: string, code = 'invalid_field') => {
    errors[`custom.${key}`] = words;
    codes.push(code);
  };
  const out: CustomPatch = { set: {}, unset: [], changes: {} };
  const byKey = new Map(fields.map((f) => [f.key, f]));
  for (const [key, raw] of Object.entries(input ?? {})) {
    const f = byKey.get(key);
    if (!f) refuse(key, 'is not a custom field of this organization', 'unknown_field');
    else if (f.archived) refuse(key, 'is archived: restore the field to change its values', 'field_archived');
    else if (empty(raw)) {
      if (f.required) refuse(key, 'is required', 'missing_field');
      else if (before?.[key] !== undefined) {
        out.unset.push(key);
        out.changes[`custom.${key}`] = { from: before[key], to: null, label: f.label, ...shownOf(f, before[key], null) };
      }
    } else {
      try {
        const value = valueCheck(f)(raw, `custom.${key}`);
        const from = before?.[key] ?? null;
        if (JSON.stringify(from) !== JSON.stringify(value)) {
          out.set[key] = value;
          out.changes[`custom.${key}`] = { from, to: value, label: f.label, ...shownOf(f, from, value) };
        }
      } catch (err) {
        if (!(err instanceof HttpError)) throw err;
        // The words without the field's name (the error names it): 'item 2 is not an option…' for one of several.
        const words = err.detail.replace(new RegExp(`^custom\\.${key}(?:\\[(\\d+)\\])?: `), (_, i?: string) => (i === undefined ? '' : `item ${Number(i) + 1} `));
        refuse(key, words, err.code);
      }
    }
  }
  if (before === null) for (const f of fields) if (f.required && !f.archived && !(f.key in out.set) && !(f.key in errors)) refuse(f.key, 'is required', 'missing_field');
  const [first] = Object.keys(errors);
  if (first) {
    const detail = Object.entries(errors)
      .map(([k, w]) => `${k}: ${w}`)
      .join(' ');
    // D56: the fields archived meanwhile, apart, so a form open since can save the rest and say what it left out.
    const archived = Object.keys(errors).filter((_, i) => codes[i] === 'field_archived');
    throw new HttpError(400, codes[0] ?? 'invalid_field', detail, {}, { field: first, errors, ...(archived.length ? { archived } : {}) });
  }
  return out;
}

/** D56: names the holder (`existing`; D59 only to a caller who sees it: customer-scope.ts withoutUnseen). */
export const duplicateCustomValue = (f: CustomField, holder: { id: number; name: string }) =>
  new HttpError(
    409,
    'duplicate_custom_value',
    `${holder.name} already has this ${f.label}: it must be unique`,
    {},
    {
      field: `custom.${f.key}`,
      label: f.label,
      existing: holder,
    },
  );

/** D56: each unique field's value in `values` held by no other live customer (409 duplicate_custom_value). */
async function assertUnique(tx: Queryable, orgId: number, fields: CustomField[], values: CustomValues, except: number | null): Promise<void> {
  // Field by field in id order, so two writes of two unique fields never wait on each other in turn.
  for (const f of fields.filter((f) => f.unique && !f.archived && f.key in values).sort((a, b) => a.id - b.id)) {
    const holder = await valueHolder(tx, orgId, f, values[f.key]!, except);
    if (holder) throw duplicateCustomValue(f, holder);
  }
}

/**
 * D56: a record's write of `input`, checked against the definitions; each unique value then against the
 * organization's other live customers. The caller takes lockFields(…, 'use') first, before the record's
 * own lock (a definition's change takes them in that order too).
 */
export async function customWrite(
  tx: Queryable,
  orgId: number,
  kind: CustomFieldKind,
  input: Record<string, unknown> | null,
  before: CustomValues | null,
  except: number | null,
) {
  const fields = await listFields(tx, orgId, kind);
  const patch = checkCustom(fields, input, before);
  await assertUnique(tx, orgId, fields, patch.set, except);
  return patch;
}

/** D56: a customer back among the live ones (restored from the trash) keeps its unique values only while nobody took them. */
export async function assertCustomerValuesFree(tx: Queryable, orgId: number, customer: { id: number; custom: CustomValues }): Promise<void> {
  await assertUnique(tx, orgId, await listFields(tx, orgId, 'customer'), customer.custom, customer.id);
}
