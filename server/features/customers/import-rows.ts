// D60: one row of a mapped file: its cells gathered by target (the name from its parts, the first email
// and phone the customer's and the others contacts', tags from every tags column), then checked as the
// forms check them. An error names the target (`email`, `cf.gate_code`, `location.city`, `contact.phone`).
import type { CustomerScope } from '../../customer-scope';
import { CONTACT_TEXT_LIMITS, type ContactInput } from '../../../contract/customer-parts';
import { IMPORT_PREVIEW_CELL_MAX, NOTE_MAX_LENGTH, type ImportField } from '../../../contract/customers';
import type { CustomField, CustomValue, CustomValues } from '../../../contract/custom-fields';
import type { ImportTarget } from '../../../contract/import-mapping';
import { fold } from '../../../contract/fold';
import { valueCheck } from '../../custom-values';
import { HttpError } from '../../http';
import { text } from '../../schema';
import { FLAG_WORDS, IMPORT_FIELDS, importChecks } from './import-checks';
import { contactBody, locationBody } from './parts-schema';

/** D43: export puts ' before a cell a spreadsheet would run (D27); reading it back takes exactly that off. */
const GUARDED = /^'[=+\-@\t\r]/;
export const unguard = (cell: string) => (GUARDED.test(cell) ? cell.slice(1) : cell);

/** Google Contacts puts several values in one cell with ' ::: ' between them. */
const GOOGLE_SEPARATOR = ':::';
/** D60: Google's own groups, which are not the business's tags. */
const SYSTEM_GROUPS = new Set(['mycontacts', 'starred', 'other contacts']);

export interface RowCells {
  /** The row's cells by target as the preview shows them. */
  values: Record<string, string>;
  /** The cells of targets one column fills (and the joined ones), by target. */
  one: Record<string, string>;
  emails: string[];
  phones: string[];
  tags: string[] | undefined;
}

const filled = (list: string[]) => list.map((v) => v.trim()).filter(Boolean);

/** D60: the cells of one row gathered by the column's targets. */
export function rowCells(cells: readonly string[], targets: readonly (ImportTarget | null)[]): RowCells {
  const by = new Map<ImportTarget, string[]>();
  targets.forEach((t, i) => {
    if (t === null) return;
    const list = by.get(t) ?? [];
    list.push(unguard(cells[i] ?? ''));
    by.set(t, list);
  });
  const one: Record<string, string> = {};
  const values: Record<string, string> = {};
  for (const [t, list] of by) {
    const joined = t === 'note' ? filled(list).join('\n\n') : t.endsWith('address_line') ? filled(list).join(', ') : (list.find((v) => v.trim()) ?? list[0]!);
    one[t] = list.length === 1 ? list[0]! : joined;
    values[t] = one[t]!;
  }
  const split = (t: ImportTarget) => filled((by.get(t) ?? []).flatMap((v) => v.split(GOOGLE_SEPARATOR)));
  // D22 D60: the name as written, else its parts put together, else the company (a business's own card).
  if (!(one.name ?? '').trim()) {
    const parts = filled(['first_name', 'middle_name', 'last_name'].map((t) => one[t] ?? ''));
    const name = parts.length ? parts.join(' ') : (one.company ?? '').trim();
    if (name || 'name' in one) one.name = values.name = name;
  }
  let tags: string[] | undefined;
  if (by.has('tags')) {
    const seen = new Set<string>();
    tags = [];
    for (const raw of (by.get('tags') ?? []).flatMap((v) => v.split(/[;,]|:::/))) {
      const tag = raw.trim().replace(/^\*\s*/, '');
      const key = fold(tag);
      if (!tag || SYSTEM_GROUPS.has(key) || seen.has(key)) continue;
      seen.add(key);
      tags.push(tag);
    }
  }
  for (const [k, v] of Object.entries(values)) if (v.length > IMPORT_PREVIEW_CELL_MAX) values[k] = `${v.slice(0, IMPORT_PREVIEW_CELL_MAX)}…`;
  return { values, one, emails: split('email'), phones: split('phone'), tags };
}

/** D60 D46: a location of the row as the commit inserts it. */
export type LocationRow = Record<'label' | 'address_line' | 'city' | 'region' | 'postal_code' | 'country' | 'access_notes', string | null> & { custom: CustomValues };

export interface CheckedParts {
  input: Record<string, unknown>;
  custom: CustomValues;
  location: LocationRow | null;
  contacts: ContactInput[];
  note: string | null;
  errors: { field: string; detail: string }[];
}

/** D56 D60: a custom field's value from its cell: a number, yes/no in words, a choice by its label. */
function customValue(f: CustomField, cell: string): unknown {
  const byLabel = (s: string) => f.options.find((o) => fold(o.label) === fold(s.trim()) || o.id === s.trim())?.id ?? s.trim();
  switch (f.type) {
    case 'number':
      return /^-?\d+(\.\d+)?$/.test(cell.trim()) ? Number(cell.trim()) : cell;
    case 'yes_no':
      return FLAG_WORDS[cell.trim().toLowerCase()] ?? cell;
    case 'choice':
      return byLabel(cell);
    case 'choices':
      return filled(cell.split(/[;,]/)).map(byLabel);
    default:
      return cell;
  }
}

const noteCheck = text({ max: NOTE_MAX_LENGTH, multiline: true });

/** D22 D46 D47 D56 D60: the row's customer fields, custom values, location, contacts and note, checked. */
export function checkRow(cells: RowCells, fields: readonly CustomField[]): CheckedParts {
  const errors: CheckedParts['errors'] = [];
  const attempt = <T>(field: string, run: () => T): T | undefined => {
    try {
      return run();
    } catch (err) {
      if (!(err instanceof HttpError)) throw err;
      errors.push({ field, detail: err.detail.replace(`${field}: `, '') });
      return undefined;
    }
  };
  const { one } = cells;
  const input: Record<string, unknown> = {};
  for (const field of IMPORT_FIELDS) {
    const raw: unknown =
      field === 'tags' ? cells.tags : field === 'email' ? cells.emails[0] : field === 'phone' ? cells.phones[0] : one[field] === '' ? undefined : one[field];
    input[field] = attempt(field, () => importChecks[field as ImportField](raw, field));
  }
  const customOf = (prefix: string, kind: CustomField['record_kind']) => {
    const out: CustomValues = {};
    for (const f of fields.filter((f) => f.record_kind === kind)) {
      const cell = (one[`${prefix}${f.key}`] ?? '').trim();
      if (!cell) continue;
      const field = `${prefix}${f.key}`;
      const v = attempt(field, () => {
        if (f.archived) throw new HttpError(400, 'invalid_field', 'is archived: restore the field to import its values');
        return valueCheck(f)(customValue(f, cell), field);
      });
      if (v !== undefined) out[f.key] = v as CustomValue;
    }
    return out;
  };
  const custom = customOf('cf.', 'customer');

  let location: LocationRow | null = null;
  const loc = (f: string) => (one[`location.${f}`] ?? '').trim() || null;
  const locationCustom = customOf('location.cf.', 'location');
  const locFields = ['label', 'address_line', 'city', 'region', 'postal_code', 'country', 'access_notes'] as const;
  if (locFields.some((f) => loc(f)) || Object.keys(locationCustom).length) {
    const row = { custom: locationCustom } as LocationRow;
    for (const f of locFields) row[f] = (attempt(`location.${f}`, () => locationBody[f](loc(f), `location.${f}`)) as string | null) ?? null;
    if (!row.label && !row.address_line && !row.city && !row.region && !row.postal_code && !row.country)
      errors.push({ field: 'location.address_line', detail: 'a location needs an address or at least a label' });
    location = row;
  }

  const contacts: ContactInput[] = [];
  const customerName = typeof input.name === 'string' ? input.name.slice(0, CONTACT_TEXT_LIMITS.name) : '';
  const con = (f: string) => (one[`contact.${f}`] ?? '').trim() || null;
  if (['name', 'role', 'email', 'phone', 'note'].some((f) => con(f))) {
    const c = { name: con('name') ?? customerName } as Record<string, unknown>;
    for (const f of ['name', 'role', 'email', 'phone', 'note'] as const)
      c[f] = attempt(`contact.${f}`, () => contactBody[f](f === 'name' ? c.name : con(f), `contact.${f}`)) ?? null;
    contacts.push(c as unknown as ContactInput);
  }
  // D60: the row's other emails and phones (a second email column, Google's ' ::: '), a contact each pair.
  const [extraEmails, extraPhones] = [cells.emails.slice(1), cells.phones.slice(1)];
  for (let i = 0; i < Math.max(extraEmails.length, extraPhones.length); i++) {
    const c: ContactInput = { name: customerName || 'Other contact', role: null, email: null, phone: null, note: null };
    if (extraEmails[i]) c.email = attempt('email', () => contactBody.email(extraEmails[i], 'email')) ?? null;
    if (extraPhones[i]) c.phone = attempt('phone', () => contactBody.phone(extraPhones[i], 'phone')) ?? null;
    contacts.push(c);
  }
  const note = one.note?.trim() ? (attempt('note', () => noteCheck(one.note, 'note')) ?? null) : null;
  return { input, custom, location, contacts, note, errors };
}

/** D59: a row's assignee, or its refusal on the row (a scoped importer assigns to themselves alone). */
export function assignRow(parts: CheckedParts, found: number | string, scope: CustomerScope) {
  if (typeof found === 'string') parts.errors.push({ field: 'assigned_to', detail: found });
  else if (scope.assignedTo !== null && found !== scope.assignedTo)
    parts.errors.push({ field: 'assigned_to', detail: 'can only be you: your role sees only the customers assigned to you' });
  else parts.input.assigned_to = found;
}
