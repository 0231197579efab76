// D49: what the merge screen chooses between, in words: the fields whose values differ, whose value each
// keeps (by customer, so a swap keeps what was chosen), and the request body those choices make. D66: why
// the kept customer is proposed, and what is kept as a contact.
import { CUSTOMER_STATUS_LABELS, type Customer } from '../../../../contract/customers';
import {
  historySize,
  type KeptDetail,
  MERGE_FIELDS,
  type MergeChoice,
  type MergeField,
  type MergeHistory,
  type MergePreview,
  type MergeRequest,
  proposedSurvivor,
} from '../../../../contract/merge';

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

/** The fields whose values differ between the two: only these are asked about. */
export const differingFields = (a: Customer, b: Customer): MergeField[] => MERGE_FIELDS.filter((f) => valueWords(a, f) !== valueWords(b, f));

/** Which customer's value each field keeps, by customer id: what the person chose so far. */
export type Picks = Partial<Record<MergeField, number>>;

/**
 * The customer whose value a field keeps: the person's pick, else the survivor's value, unless the
 * survivor has none and the other has one (behaviour.md: an empty value never wins by default).
 */
export function keptFrom(field: MergeField, picks: Picks, survivor: Customer, merged: Customer): number {
  const picked = picks[field];
  if (picked === survivor.id || picked === merged.id) return picked;
  return valueWords(survivor, field) === null && valueWords(merged, field) !== null ? merged.id : survivor.id;
}

/** D49 the request: every field asked about, named 'survivor' or 'merged' (others keep the survivor's). */
export function mergeRequest(survivor: Customer, merged: Customer, picks: Picks): MergeRequest {
  const fields: Partial<Record<MergeField, MergeChoice>> = {};
  for (const f of differingFields(survivor, merged)) fields[f] = keptFrom(f, picks, survivor, merged) === merged.id ? 'merged' : 'survivor';
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
