// D49: what the merge screen chooses between, in words: the fields whose values differ, whose value each
// keeps (by customer, so a swap keeps what was chosen), and the request body those choices make. D66: why
// the kept customer is proposed, and what is kept as a contact.
import type { CustomField } from '../../../../contract/custom-fields';
import { CUSTOMER_STATUS_LABELS, type Customer } from '../../../../contract/customers';
import {
  historySize,
  type KeptDetail,
  MERGE_FIELDS,
  type MergeField,
  type MergeHistory,
  type MergePreview,
  type MergeRequest,
  proposedSurvivor,
} from '../../../../contract/merge';
import { customText } from '../custom/text';

export const MERGE_FIELD_LABELS: Readonly<Record<MergeField, string>> = {
  name: 'Name',
  company: 'Company',
  email: 'Email',
  phone: 'Phone',
  address_line: 'Street address',
  city: 'City',
  region: 'State / region',
  postal_code: 'Postal code',
  country: 'Country',
  status: 'Status',
  type: 'Type',
  lead_source: 'Lead source',
  do_not_service: 'Do not service',
};

const TYPE_WORDS: Readonly<Record<Customer['type'], string>> = { residential: 'Residential', commercial: 'Commercial' };

/** A field's value as the screen shows it; null when empty. D49: the flag carries its reason. */
export function valueWords(c: Customer, field: MergeField): string | null {
  if (field === 'status') return CUSTOMER_STATUS_LABELS[c.status];
  if (field === 'type') return TYPE_WORDS[c.type] ?? c.type;
  if (field === 'do_not_service') return c.do_not_service ? `Yes${c.do_not_service_reason ? `: ${c.do_not_service_reason}` : ''}` : 'No';
  const v = c[field];
  return v === null || v === '' ? null : String(v);
}

/** What the person chooses between: a built-in field, or D56 a custom field (`custom.<key>`), with its label and its value in words. */
export interface Choice {
  key: MergeField | `custom.${string}`;
  label: string;
  words: (c: Customer) => string | null;
}
export const BUILT_IN: readonly Choice[] = MERGE_FIELDS.map((f) => ({ key: f, label: MERGE_FIELD_LABELS[f], words: (c: Customer) => valueWords(c, f) }));
/** D56: the organization's active customer fields as choices, after the built-in ones. */
export const withCustom = (defs: readonly CustomField[] | undefined): readonly Choice[] => [
  ...BUILT_IN,
  ...(defs ?? []).map((f): Choice => ({ key: `custom.${f.key}`, label: f.label, words: (c) => customText(f, c.custom?.[f.key]) || null })),
];

/** The choices whose values differ between the two: only these are asked about. */
export const differingFields = (a: Customer, b: Customer, choices: readonly Choice[] = BUILT_IN): Choice[] => choices.filter((f) => f.words(a) !== f.words(b));

/** Which customer's value each field keeps, by customer id: what the person chose so far. */
export type Picks = Partial<Record<Choice['key'], number>>;

/**
 * The customer whose value a field keeps: the person's pick, else the survivor's value, unless the
 * survivor has none and the other has one (behaviour.md: an empty value never wins by default).
 */
export function keptFrom(field: Choice, picks: Picks, survivor: Customer, merged: Customer): number {
  const picked = picks[field.key];
  if (picked === survivor.id || picked === merged.id) return picked;
  return field.words(survivor) === null && field.words(merged) !== null ? merged.id : survivor.id;
}

/** D49 the request: every field asked about, named 'survivor' or 'merged' (others keep the survivor's). */
export function mergeRequest(survivor: Customer, merged: Customer, picks: Picks, choices: readonly Choice[] = BUILT_IN): MergeRequest {
  const fields: MergeRequest['fields'] = {};
  for (const f of differingFields(survivor, merged, choices)) fields[f.key] = keptFrom(f, picks, survivor, merged) === merged.id ? 'merged' : 'survivor';
  return { survivor_id: survivor.id, merged_id: merged.id, fields };
}

/** "3 notes", "1 location": a count with its noun. */
export const counted = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/** D66: a customer's history in words: "12 notes and 5 other timeline entries". */
export const historyWords = (h: MergeHistory): string => `${counted(h.notes, 'note')} and ${counted(h.entries, 'other timeline entry', 'other timeline entries')}`;

/**
 * D66: why the kept customer is the one proposed ('Proposed to keep: it has more history (12 notes and 5
 * other entries against 1 and 1).'), or, after a swap, that the other one would have been.
 */
export function proposalWords({ survivor, merged, history }: Pick<MergePreview, 'survivor' | 'merged' | 'history'>): string {
  const proposed = proposedSurvivor(survivor, history.survivor, merged, history.merged);
  const [mine, theirs] = proposed === survivor ? [history.survivor, history.merged] : [history.merged, history.survivor];
  const more = historySize(mine) > historySize(theirs);
  const against = `${counted(mine.notes, 'note')} and ${counted(mine.entries, 'other entry', 'other entries')} against ${theirs.notes} and ${theirs.entries}`;
  if (proposed === survivor) return more ? `Proposed to keep: it has more history (${against}).` : 'Proposed to keep: it is the older record, with as much history.';
  return more
    ? `${proposed.name} has more history (${against}); you chose to keep ${survivor.name}.`
    : `${proposed.name} is the older record, with as much history; you chose to keep ${survivor.name}.`;
}

/** D66: an email or phone kept as a contact, in words: "Kept as a contact named Anna Lee: anna@example.com". */
export const keptWords = (k: KeptDetail): string => `Kept as a contact named ${k.name}: ${[k.email, k.phone].filter(Boolean).join(' and ')}`;
