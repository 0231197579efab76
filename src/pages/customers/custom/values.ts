// D56: the organization's custom fields in a form and on a page. A form holds each value as typed: text,
// a number and a date as strings, yes/no as '', 'yes' or 'no' (so 'not set' stays expressible), one
// choice as an option id, several as a list of them; checked as the server checks it; a save sends
// each value by type, null for one cleared (a number that is not one as typed, for the server to refuse).
import type { CustomField, CustomValue, CustomValues } from '../../../../contract/custom-fields';

/** A field's name in a form, as the server's 400 names it: `custom.<key>`. */
export const customName = (f: Pick<CustomField, 'key'>): string => `custom.${f.key}`;
export const isCustomName = (name: string): boolean => name.startsWith('custom.');

export type CustomFormValue = string | readonly string[];

/** A saved value as the form holds it. */
export function toFormValue(f: CustomField, v: CustomValue | null | undefined): CustomFormValue {
  if (f.type === 'choices') return Array.isArray(v) ? v : [];
  if (f.type === 'yes_no') return v === true ? 'yes' : v === false ? 'no' : '';
  if (f.type === 'number') return typeof v === 'number' ? String(v) : '';
  return typeof v === 'string' ? v : '';
}

/** Each field's saved value as the form holds it, under its form name. */
export const toFormValues = (fields: readonly CustomField[], saved: CustomValues | undefined): Record<string, CustomFormValue> =>
  Object.fromEntries(fields.map((f) => [customName(f), toFormValue(f, saved?.[f.key])]));

/** What the form holds for a field: what was typed, else (the fields came after the form opened) the saved value. */
export const heldValue = (f: CustomField, values: Readonly<Record<string, unknown>>, saved: CustomValues | undefined): CustomFormValue =>
  (values[customName(f)] as CustomFormValue | undefined) ?? toFormValue(f, saved?.[f.key]);

const NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i;
const THOUSANDS = /^[-+]?\d{1,3}(,\d{3})+(\.\d*)?$/;

/** A number as typed ('1,250.5', ' 12 '); null when it is not one. */
export function parseNumber(typed: string): number | null {
  const s = typed.trim();
  const plain = THOUSANDS.test(s) ? s.replace(/,/g, '') : s;
  if (!NUMBER.test(plain)) return null;
  const n = Number(plain);
  return Number.isFinite(n) ? n : null;
}

/** The value a save sends for what the form holds; null when empty. */
export function toCustomValue(f: CustomField, held: CustomFormValue): CustomValue | null {
  if (Array.isArray(held)) return held.length > 0 ? [...held] : null;
  const s = (held as string).trim();
  if (!s) return null;
  if (f.type === 'number') return parseNumber(s) ?? s; // not a number: sent as typed, the server's 400 says so
  if (f.type === 'yes_no') return s === 'yes';
  return s;
}

const same = (a: CustomValue | null, b: CustomValue | null) =>
  JSON.stringify(Array.isArray(a) ? [...a].sort() : a) === JSON.stringify(Array.isArray(b) ? [...b].sort() : b);

/** A new record's values (or, with `saved`, all a record would have after a save): the ones set. */
export function customInput(fields: readonly CustomField[], values: Readonly<Record<string, unknown>>, saved?: CustomValues): CustomValues {
  const out: CustomValues = {};
  for (const f of fields) {
    const v = toCustomValue(f, heldValue(f, values, saved));
    if (v !== null) out[f.key] = v;
  }
  return out;
}

/** D31: an edit's values that differ from the saved ones; a cleared one as null (the server clears it). */
export function customChanges(
  fields: readonly CustomField[],
  values: Readonly<Record<string, unknown>>,
  saved: CustomValues | undefined,
): Record<string, CustomValue | null> {
  const out: Record<string, CustomValue | null> = {};
  for (const f of fields) {
    const v = toCustomValue(f, heldValue(f, values, saved));
    if (!same(v, saved?.[f.key] ?? null)) out[f.key] = v;
  }
  return out;
}

/** A kept draft's custom values: only ones a form can hold (text, or a list of text). */
export function draftCustom(kept: Readonly<Record<string, unknown>> | undefined): [string, CustomFormValue][] {
  return Object.entries(kept ?? {}).filter(
    (e): e is [string, CustomFormValue] => isCustomName(e[0]) && (typeof e[1] === 'string' || (Array.isArray(e[1]) && e[1].every((x) => typeof x === 'string'))),
  );
}

/**
 * D56: a server refusal naming `custom.<key>` in the form's words: its `errors` entry (every refused key is
 * there) after the field's label ('Gate code must be at most 500 characters').
 */
export function customMessage(fields: readonly CustomField[], name: string, data: unknown, detail: string | null): string {
  const f = fields.find((x) => customName(x) === name);
  const words = (data as { errors?: Record<string, unknown> } | null)?.errors?.[name];
  const rest = typeof words === 'string' ? words : (detail ?? 'is not valid').replace(/^[\w.[\]]+:\s*/, '');
  return `${f?.label ?? name.slice('custom.'.length)} ${rest}`;
}
