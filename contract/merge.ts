// D49: merging two customers and undoing a merge, shared by the app and the server.
import type { Customer } from './customers';
import { samePhone, splitPhone } from './matching';

/** D49: fields the person chooses between when merging; everything else is combined. */
export const MERGE_FIELDS = [
  'name',
  'company',
  'email',
  'phone',
  'address_line',
  'city',
  'region',
  'postal_code',
  'country',
  'status',
  'type',
  'lead_source',
  'do_not_service',
] as const; // do_not_service carries do_not_service_reason with it
export type MergeField = (typeof MERGE_FIELDS)[number];
export type MergeChoice = 'survivor' | 'merged';
/** D56: a custom field chosen in a merge, `custom.<key>`; not chosen, the survivor's value stays, or the merged customer's fills an empty one. */
export const CUSTOM_MERGE_KEY = /^custom\.[a-z][a-z0-9_]{0,39}$/;
export interface MergeRequest {
  survivor_id: number;
  merged_id: number;
  fields: Partial<Record<MergeField | `custom.${string}`, MergeChoice>>;
} // missing field = 'survivor'

/** D66: a customer's history as the merge screen weighs it: its notes and the other entries of its timeline (D24). */
export interface MergeHistory {
  notes: number;
  entries: number;
}

export interface MergePreview {
  survivor: Customer;
  merged: Customer;
  moves: { notes: number; locations: number; contacts: number; tags: string[] };
  /** D66: each customer's history, for the proposal and its words. */
  history: { survivor: MergeHistory; merged: MergeHistory };
}
export const MERGE_UNDO_DAYS = 30;

/** D66: a history's weight: every item of the timeline, notes included. */
export const historySize = (h: MergeHistory): number => h.notes + h.entries;

/**
 * D66: the customer to keep: the one with more history (its timeline's notes and entries: what people
 * wrote and did about it); with as much, the older record (the first one entered), then the lower id.
 */
export function proposedSurvivor<C extends Pick<Customer, 'id' | 'created_at'>>(a: C, ha: MergeHistory, b: C, hb: MergeHistory): C {
  const by = historySize(hb) - historySize(ha) || Date.parse(a.created_at) - Date.parse(b.created_at) || a.id - b.id;
  return by > 0 ? b : a;
}

/** D66: an email or phone the survivor will not have, kept as a contact named after the customer it was. */
export interface KeptDetail {
  /** Whose it was: 'merged', or 'survivor' when the person chose the merged customer's value instead. */
  from: MergeChoice;
  name: string;
  email: string | null;
  phone: string | null;
}

/** The same phone: the same number (D45) with the same extension. */
const samePhoneNumber = (a: string, b: string) => samePhone(a, b) && splitPhone(a).extension === splitPhone(b).extension;

/**
 * D66: the emails and phones that the merge's choices leave off the survivor (its own replaced, or the
 * merged customer's not taken), one contact per customer they were, unless the survivor keeps them
 * already (as its own value or a contact's, its own or moving over).
 */
export function keptDetails(survivor: Customer, merged: Customer, fields: MergeRequest['fields']): KeptDetail[] {
  const contacts = [...survivor.contacts, ...merged.contacts];
  const pick = (f: 'email' | 'phone') => (fields[f] === 'merged' ? merged : survivor)[f];
  const [email, phone] = [pick('email'), pick('phone')];
  const kept: KeptDetail[] = [];
  for (const [from, c] of [
    ['merged', merged],
    ['survivor', survivor],
  ] as const) {
    const lostEmail = c.email && c.email !== email && !contacts.some((k) => k.email?.toLowerCase() === c.email) ? c.email : null;
    const lostPhone = c.phone && !(phone && samePhoneNumber(c.phone, phone)) && !contacts.some((k) => k.phone && samePhoneNumber(k.phone, c.phone!)) ? c.phone : null;
    if (lostEmail || lostPhone) kept.push({ from, name: c.name, email: lostEmail, phone: lostPhone });
  }
  return kept;
}

/** D66: the note of a contact a merge kept, saying where it came from. */
export const keptDetailNote = (mergedName: string): string => `Kept when ${mergedName} was merged into this customer`;
