// D27 D60: the import's SQL apart from the customers' own rows (import-apply.ts): the duplicates by email,
// the organization's last mapping for a header row, and the new customers' locations, contacts and notes,
// each in one statement per batch (D34). Scoped by organization.
import type { ContactInput } from '../../../contract/customer-parts';
import type { Customer, ImportField } from '../../../contract/customers';
import type { CustomValues } from '../../../contract/custom-fields';
import { fold } from '../../../contract/fold';
import { seenWhere, type CustomerScope } from '../../customer-scope';
import type { Queryable } from '../../db';
import { num } from '../../db';
import { takeTurns } from '../../turns';
import { IMPORT_FIELDS } from './import-checks';
import type { LocationRow } from './import-rows';

/** The duplicate's current values, as the one duplicates query reads them. */
export type Existing = Pick<Customer, 'id' | 'name' | 'version' | ImportField> & {
  updated_at: Date;
  custom: CustomValues;
  /** D59: whether the importer sees it, and whom it is assigned to. */
  seen: boolean;
  assigned_to: number | null;
};

const EXISTING_COLUMNS = `id, version, updated_at, custom, assigned_to, ${IMPORT_FIELDS.join(', ')}`;

/** A look-up of a list (`= any(string_to_array(…))`) planned for it: a constant, found by index and hashed (a prepared plan compared each of 50,000 rows with 2,000 emails: past 5 s). */
const LIST_LOOKUP = { replan: true } as const;

/** D34: emails looked up per statement: its reply is parsed in a few milliseconds of the event loop. */
const EMAILS_PER_LOOKUP = 2_000;

/** D34: the live customers with any of these emails, in a statement per EMAILS_PER_LOOKUP. */
export async function findByEmails(db: Queryable, scope: CustomerScope, emails: string[]): Promise<Map<string, Existing>> {
  const out = new Map<string, Existing>();
  const turn = takeTurns();
  for (let i = 0; i < emails.length; i += EMAILS_PER_LOOKUP) {
    // D59: every live customer with the email (its address is the organization's to give once), marked
    // whether the importer sees it.
    const found = await db.query<ExistingRow>(
      `select ${EXISTING_COLUMNS}, ${seenWhere('', scope)} as seen from customers where org_id = $1 and deleted_at is null and email = any(string_to_array($2, chr(1)))`,
      [scope.orgId, emails.slice(i, i + EMAILS_PER_LOOKUP).join('\u0001')],
      LIST_LOOKUP,
    );
    for (const r of found) {
      await turn();
      out.set(r.email!, existing(r));
    }
  }
  return out;
}

type ExistingRow = Existing & { id: unknown; version: unknown };
/** A row of EXISTING_COLUMNS as the import uses it. */
const existing = (r: ExistingRow): Existing => ({
  ...r,
  id: num(r.id),
  version: num(r.version),
  tags: r.tags ?? [],
  custom: r.custom ?? {},
  assigned_to: r.assigned_to === null || r.assigned_to === undefined ? null : num(r.assigned_to),
});

/**
 * D67: a parts file's rows without a customer email name their customer by name: the live customers
 * without an email of these names (case folded), by folded name; one is the row's customer.
 */
export async function findByNames(db: Queryable, scope: CustomerScope, names: string[]): Promise<Map<string, Existing[]>> {
  const wanted = [...new Set(names.map((n) => n.trim().toLowerCase()).filter(Boolean))];
  const out = new Map<string, Existing[]>();
  if (!wanted.length) return out;
  const found = await db.query<ExistingRow>(
    `select ${EXISTING_COLUMNS}, ${seenWhere('', scope)} as seen from customers
      where org_id = $1 and deleted_at is null and email is null and lower(name) = any(string_to_array($2, chr(1)))`,
    [scope.orgId, wanted.join('\u0001')],
    LIST_LOOKUP,
  );
  for (const r of found.filter((x) => x.seen)) out.set(r.name.toLowerCase(), [...(out.get(r.name.toLowerCase()) ?? []), existing(r)]);
  return out;
}

/** D34: ids for the new customers before they are written, so their locations and contacts can name them. */
export async function newCustomerIds(tx: Queryable, count: number): Promise<number[]> {
  if (count === 0) return [];
  const rows = await tx.query<{ id: unknown }>(`select nextval(pg_get_serial_sequence('customers', 'id')) as id from generate_series(1, $1::int)`, [count]);
  return rows.map((r) => num(r.id));
}

export interface NewParts {
  customerId: number;
  locations: LocationRow[];
  contacts: ContactInput[];
  notes: string[];
}

const BATCH = 1_000;
const batches = <T>(rows: T[]): T[][] => Array.from({ length: Math.ceil(rows.length / BATCH) }, (_, i) => rows.slice(i * BATCH, (i + 1) * BATCH));

/**
 * D34 D60: a new customer's `parts_key` and `primary_city` as the parts' triggers (migrations 9 and 15)
 * make them, written with the customer from its JSON `locs` and `cons`, so the import's inserts of parts
 * skip those per-row triggers (migration 25: 10,000 locations and contacts took 10 s of them on PGlite).
 */
export const PARTS_COLUMNS = `
  (select string_agg(k, E'\\n' order by o, n) from (
     select crm_fold(coalesce(l ->> 'label', '') || ' ' || coalesce(l ->> 'address_line', '') || ' ' || coalesce(l ->> 'city', '') || ' ' ||
            coalesce(l ->> 'region', '') || ' ' || coalesce(l ->> 'postal_code', '') || ' ' || coalesce(l ->> 'country', '')) as k, 0 as o, n
       from json_array_elements(r.locs) with ordinality as x(l, n)
     union all
     select crm_fold((c ->> 'name') || ' ' || coalesce(c ->> 'email', '')), 1, n from json_array_elements(r.cons) with ordinality as y(c, n)) p),
  r.locs -> 0 ->> 'city'`;

/** D34: customers in batches of about BATCH locations and contacts in all (a customer is never split). */
function partBatches(all: NewParts[]): NewParts[][] {
  const out: NewParts[][] = [];
  let size = BATCH;
  for (const p of all) {
    if (size >= BATCH) out.push([]), (size = 0);
    out.at(-1)!.push(p);
    size += p.locations.length + p.contacts.length;
  }
  return out;
}

/**
 * D46 D47 D60: the new customers' locations (the first of each primary) and contacts, one statement per
 * batch of customers (both tables at once, so the triggers see a customer's parts whole), then their notes.
 */
export async function insertParts(tx: Queryable, orgId: number, userId: number, all: NewParts[], now: Date) {
  const counts = { locations: 0, contacts: 0, notes: 0 };
  // D34: the customers carry their parts' keys already (PARTS_COLUMNS): the per-row triggers may rest (migration 25).
  if (all.some((p) => p.locations.length || p.contacts.length)) await tx.query(`set local crm.parts_written = 'on'`);
  for (const batch of partBatches(all.filter((p) => p.locations.length || p.contacts.length))) {
    const locations = batch.flatMap((p) => p.locations.map((l, i) => ({ ...l, customer_id: p.customerId, is_primary: i === 0 })));
    const contacts = batch.flatMap((p) => p.contacts.map((c) => ({ ...c, customer_id: p.customerId })));
    await tx.query(
      `with l as (
         insert into customer_locations (org_id, customer_id, label, address_line, city, region, postal_code, country, access_notes, is_primary, custom, created_at, updated_at)
         select $1, r.customer_id, r.label, r.address_line, r.city, r.region, r.postal_code, r.country, r.access_notes, r.is_primary, coalesce(r.custom, '{}'::jsonb), $2, $2
           from json_to_recordset($3::text::json) as r(customer_id integer, label text, address_line text, city text, region text, postal_code text,
                country text, access_notes text, is_primary boolean, custom jsonb)
         returning 1),
       k as (
         insert into customer_contacts (org_id, customer_id, name, role, email, phone, note, created_at, updated_at)
         select $1, r.customer_id, r.name, r.role, r.email, r.phone, r.note, $2, $2
           from json_to_recordset($4::text::json) as r(customer_id integer, name text, role text, email text, phone text, note text)
         returning 1)
       select (select count(*) from l) as l, (select count(*) from k) as k`,
      [orgId, now, JSON.stringify(locations), JSON.stringify(contacts)],
    );
    counts.locations += locations.length;
    counts.contacts += contacts.length;
  }
  const notes = all.flatMap((p) => p.notes.map((body) => ({ body, customer_id: p.customerId })));
  for (const batch of batches(notes))
    await tx.query(
      `insert into customer_notes (org_id, customer_id, author_id, body, created_at, updated_at)
       select $1, r.customer_id, $3, r.body, $2, $2 from json_to_recordset($4::text::json) as r(customer_id integer, body text)`,
      [orgId, now, userId, JSON.stringify(batch)],
    );
  counts.notes = notes.length;
  return counts;
}

/** D34: the tables the parts' writes touch (the customers' through the parts' triggers). */
export const PARTS_WRITES = ['customer_locations', 'customer_contacts', 'customer_notes', 'import_mappings'];

/** D60: a location's address folded (label and notes aside): the same address is not added twice. */
export const addressKey = (l: Pick<LocationRow, 'address_line' | 'city' | 'region' | 'postal_code' | 'country'>) =>
  fold([l.address_line, l.city, l.region, l.postal_code, l.country].map((v) => (v ?? '').trim()).join('\n'));
const digits = (v: string | null) => (v ?? '').replace(/\D/g, '');

/** D60: what an updated customer has already: its addresses, its contacts' emails and phones, how many of each. */
export interface HeldParts {
  addresses: Set<string>;
  emails: Set<string>;
  phones: Set<string>;
  locations: number;
  contacts: number;
}

/** D60: the duplicates' locations and contacts, one query for the whole file. */
export async function heldParts(db: Queryable, orgId: number, ids: number[]): Promise<Map<number, HeldParts>> {
  const held = new Map<number, HeldParts>(ids.map((id) => [id, { addresses: new Set(), emails: new Set(), phones: new Set(), locations: 0, contacts: 0 }]));
  if (!ids.length) return held;
  const rows = await db.query<{ customer_id: unknown; kind: string; a: string | null; b: string | null; c: string | null; d: string | null; e: string | null }>(
    `select customer_id, 'l' as kind, address_line as a, city as b, region as c, postal_code as d, country as e
       from customer_locations where org_id = $1 and customer_id = any($2::int[])
     union all
     select customer_id, 'k', email, phone, null, null, null from customer_contacts where org_id = $1 and customer_id = any($2::int[])`,
    [orgId, `{${ids.join(',')}}`],
  );
  for (const r of rows) {
    const h = held.get(num(r.customer_id))!;
    if (r.kind === 'l') h.locations++, h.addresses.add(addressKey({ address_line: r.a, city: r.b, region: r.c, postal_code: r.d, country: r.e }));
    else {
      h.contacts++;
      if (r.a) h.emails.add(r.a.toLowerCase());
      if (digits(r.b)) h.phones.add(digits(r.b));
    }
  }
  return held;
}

/** D60: the group's locations and contacts that the customer does not have yet (nor the file twice). */
export function partsToAdd(held: HeldParts, locations: LocationRow[], contacts: ContactInput[]) {
  const addresses = new Set(held.addresses);
  const emails = new Set(held.emails);
  const phones = new Set(held.phones);
  const newLocations = locations.filter((l) => {
    const k = addressKey(l);
    return !addresses.has(k) && !!addresses.add(k);
  });
  const newContacts = contacts.filter((c) => {
    const e = (c.email ?? '').toLowerCase();
    const p = digits(c.phone);
    if ((e && emails.has(e)) || (p && phones.has(p))) return false;
    if (e) emails.add(e);
    if (p) phones.add(p);
    return true;
  });
  return { locations: newLocations, contacts: newContacts };
}

/**
 * D60: an updated customer's new locations (primary only if it had none) and contacts, one statement per
 * kind; the parts' triggers run for these (crm.parts_written off), so the customer's keys follow.
 */
export async function insertAddedParts(tx: Queryable, orgId: number, all: (NewParts & { hadLocations: boolean })[], now: Date) {
  const locations = all.flatMap((p) => p.locations.map((l, i) => ({ ...l, customer_id: p.customerId, is_primary: !p.hadLocations && i === 0 })));
  const contacts = all.flatMap((p) => p.contacts.map((c) => ({ ...c, customer_id: p.customerId })));
  if (!locations.length && !contacts.length) return { locations: 0, contacts: 0 };
  await tx.query(`set local crm.parts_written = 'off'`);
  if (locations.length)
    await tx.query(
      `insert into customer_locations (org_id, customer_id, label, address_line, city, region, postal_code, country, access_notes, is_primary, custom, created_at, updated_at)
       select $1, r.customer_id, r.label, r.address_line, r.city, r.region, r.postal_code, r.country, r.access_notes, r.is_primary, coalesce(r.custom, '{}'::jsonb), $2, $2
         from json_to_recordset($3::text::json) as r(customer_id integer, label text, address_line text, city text, region text, postal_code text,
              country text, access_notes text, is_primary boolean, custom jsonb)`,
      [orgId, now, JSON.stringify(locations)],
    );
  if (contacts.length)
    await tx.query(
      `insert into customer_contacts (org_id, customer_id, name, role, email, phone, note, created_at, updated_at)
       select $1, r.customer_id, r.name, r.role, r.email, r.phone, r.note, $2, $2
         from json_to_recordset($3::text::json) as r(customer_id integer, name text, role text, email text, phone text, note text)`,
      [orgId, now, JSON.stringify(contacts)],
    );
  return { locations: locations.length, contacts: contacts.length };
}
