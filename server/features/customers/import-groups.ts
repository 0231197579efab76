// D60: rows that share an email (or the value of a column the person picks) become one customer: the
// group's first row is the customer, each field taken from the first row of the group that fills it, tags
// put together; every row adds its service location and contacts, up to D46's and D47's limits.
import { MAX_CONTACTS, MAX_LOCATIONS, type ContactInput } from '../../../contract/customer-parts';
import type { FieldChanges, ImportPreviewRow } from '../../../contract/customers';
import type { ImportGroupBy, ImportTarget } from '../../../contract/import-mapping';
import { fold } from '../../../contract/fold';
import type { CustomField, CustomValues } from '../../../contract/custom-fields';
import { valueHolders } from '../../custom-fields';
import type { Queryable } from '../../db';
import { fieldError } from '../../http';
import { IMPORT_FIELDS } from './import-checks';
import type { CheckedParts, LocationRow } from './import-rows';
import type { Existing } from './import-repo';
import type { Members } from '../../customer-scope';

/** A checked row before grouping: its cells' parts, and the value it is grouped by. */
export interface GroupedRow extends ImportPreviewRow {
  parts: CheckedParts;
  /** The fields its cells fill (D44: an update writes only those). */
  filled: Set<string>;
  key: string | null;
  cells: readonly string[];
  /** D60: on a duplicate's first row, what an update adds (the preview's 'adds 1 location'). */
  adds?: { locations: number; contacts: number };
}

/** D60: a customer the file makes: its first row, every row of it, and what they add up to. */
export interface Group {
  lead: GroupedRow;
  rows: GroupedRow[];
  input: Record<string, unknown>;
  custom: CustomValues;
  filled: Set<string>;
  locations: LocationRow[];
  contacts: ContactInput[];
  notes: string[];
}

/** D60: `group_by` as the query gives it: email, none, or a column's number (0 = the first). */
export function parseGroupBy(param: string | null, header: readonly string[]): ImportGroupBy | null {
  if (param === null || param === '') return null;
  if (param === 'email' || param === 'none') return param;
  const n = /^\d{1,3}$/.test(param) ? Number(param) : -1;
  if (n < 0 || n >= header.length) throw fieldError('group_by', `must be email, none or a column's number from 0 to ${header.length - 1}`);
  return n;
}

/** D60: without a choice, rows are grouped by email when the file carries locations or contacts (one row per property). */
export const defaultGroupBy = (targets: readonly (ImportTarget | null)[]): ImportGroupBy =>
  targets.some((t) => t?.startsWith('location.') || t?.startsWith('contact.')) ? 'email' : 'none';

/** The value a row is grouped by (folded), or null: a customer of its own. */
export function groupKey(by: ImportGroupBy, row: { parts: CheckedParts; cells: readonly string[] }): string | null {
  if (by === 'none') return null;
  if (by === 'email') return typeof row.parts.input.email === 'string' ? row.parts.input.email : null;
  const v = fold((row.cells[by] ?? '').trim());
  return v || null;
}

const isEmpty = (v: unknown) => v === null || v === undefined || v === '' || (Array.isArray(v) && v.length === 0);

/** D60: the rows as customers, in the file's order; a later row names the line it joins (`joins`). */
export function groupRows(rows: GroupedRow[]): Group[] {
  const byKey = new Map<string, Group>();
  const groups: Group[] = [];
  for (const row of rows) {
    const existing = row.key === null ? undefined : byKey.get(row.key);
    if (!existing) {
      const g: Group = {
        lead: row,
        rows: [row],
        input: { ...row.parts.input },
        custom: { ...row.parts.custom },
        filled: new Set(row.filled),
        locations: [],
        contacts: [],
        notes: [],
      };
      groups.push(g);
      if (row.key !== null) byKey.set(row.key, g);
      addParts(g, row);
      continue;
    }
    row.joins = existing.lead.line;
    existing.rows.push(row);
    for (const f of IMPORT_FIELDS) {
      const v = row.parts.input[f];
      if (f === 'tags' && Array.isArray(v)) existing.input.tags = unite(existing.input.tags as string[], v as string[]);
      else if (isEmpty(existing.input[f]) && !isEmpty(v) && row.filled.has(f)) existing.input[f] = v;
    }
    for (const [k, v] of Object.entries(row.parts.custom)) existing.custom[k] ??= v;
    for (const f of row.filled) existing.filled.add(f);
    addParts(existing, row);
  }
  return groups;
}

function unite(a: string[] = [], b: string[]): string[] {
  const seen = new Set(a.map(fold));
  return [...a, ...b.filter((t) => !seen.has(fold(t)) && seen.add(fold(t)))];
}

/** D46 D47: a row's location and contacts added to its customer, refused past the limits (naming the row). */
function addParts(g: Group, row: GroupedRow): void {
  const { location, contacts, note } = row.parts;
  if (location) {
    if (g.locations.length >= MAX_LOCATIONS)
      row.errors.push({ field: 'location.label', detail: `would be location ${MAX_LOCATIONS + 1}; a customer has at most ${MAX_LOCATIONS}` });
    else g.locations.push(location);
  }
  if (g.contacts.length + contacts.length > MAX_CONTACTS)
    row.errors.push({ field: 'contact.name', detail: `would give the customer more than ${MAX_CONTACTS} contacts` });
  else g.contacts.push(...contacts);
  if (note) g.notes.push(note);
}

/** D27: a customer's email once in the file (rows grouped by it join instead): a second is an error naming the first line. */
export function sameEmailErrors(groups: Group[]): string[] {
  const firstLineOf = new Map<string, number>();
  for (const g of groups) {
    const email = typeof g.input.email === 'string' ? g.input.email : null;
    if (!email) continue;
    const first = firstLineOf.get(email);
    if (first !== undefined) g.lead.errors.push({ field: 'email', detail: `is the same as on line ${first}` });
    else firstLineOf.set(email, g.lead.line);
  }
  return [...firstLineOf.keys()];
}

/**
 * D56 D60: a unique custom field's value once among the file's customers, and held by no other live
 * customer (a duplicate may keep its own), checked for the whole file in one query per field.
 */
export async function uniqueValueErrors(
  db: Queryable,
  orgId: number,
  fields: readonly CustomField[],
  groups: (Group & { existing: { id: number } | null })[],
  /** D59: false for an importer who sees only their own customers: the holder is then named by no name. */
  named = true,
) {
  const found: { group: Group; field: string; detail: string }[] = [];
  for (const f of fields.filter((f) => f.record_kind === 'customer' && f.unique && !f.archived)) {
    const withValue = groups.filter((g) => g.custom[f.key] !== undefined);
    if (!withValue.length) continue;
    const keyOf = (v: unknown) => (f.type === 'number' ? String(v) : String(v).toLowerCase());
    const holders = await valueHolders(
      db,
      orgId,
      f,
      withValue.map((g) => g.custom[f.key]!),
    );
    const firstLine = new Map<string, number>();
    for (const g of withValue) {
      const key = keyOf(g.custom[f.key]);
      const first = firstLine.get(key);
      const holder = holders.get(key);
      if (holder && holder.id !== g.existing?.id)
        found.push({ group: g, field: `cf.${f.key}`, detail: `is ${named ? `${holder.name}'s` : "another customer's"} already: it must be unique` });
      else if (first !== undefined) found.push({ group: g, field: `cf.${f.key}`, detail: `is the same as on line ${first}: it must be unique` });
      else firstLine.set(key, g.lead.line);
    }
  }
  return found;
}

/**
 * D44: what an update writes: only the fields the file fills in (an empty cell never wipes what the
 * customer has), and of those only the ones that differ, before → after, as an edit records them.
 */
export function updateOf(existing: Existing, g: Group, fields: CustomField[], members: Members | null): { merged: Record<string, unknown>; changes: FieldChanges } {
  const merged: Record<string, unknown> = Object.fromEntries(IMPORT_FIELDS.map((f) => [f, existing[f]]));
  const changes: FieldChanges = {};
  for (const field of IMPORT_FIELDS) {
    if (!g.filled.has(field)) continue;
    const to = g.input[field];
    if (JSON.stringify(to) === JSON.stringify(existing[field])) continue;
    changes[field] = { from: existing[field], to };
    merged[field] = to;
  }
  // D59: a filled 'Assigned to' that names someone else; an empty cell leaves it (D44).
  const to = g.input.assigned_to;
  if (members && typeof to === 'number' && to !== existing.assigned_to) {
    changes.assigned_to = { from: members.ref(existing.assigned_to), to: members.ref(to) };
    merged.assigned_to = to;
  }
  const custom: Record<string, unknown> = {};
  for (const [key, to] of Object.entries(g.custom)) {
    const from = existing.custom[key] ?? null;
    if (JSON.stringify(from) === JSON.stringify(to)) continue;
    const label = fields.find((f) => f.record_kind === 'customer' && f.key === key)?.label ?? key;
    (changes as Record<string, { from: unknown; to: unknown; label?: string }>)[`custom.${key}`] = { from, to, label };
    custom[key] = to;
  }
  merged.custom = custom;
  return { merged, changes };
}
