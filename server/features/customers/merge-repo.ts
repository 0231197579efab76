// D49: merging two customers, SQL only, every query scoped by organization. The merged customer leaves
// the live set as a deleted one does (deleted_at, so every list, search, count and index leaves it out)
// and is marked merged_into_id; its own fields stay as they were, so an undo gives them back exactly.
// Its notes, locations and contacts move to the survivor by id, recorded in customer_merges for the undo.
// D66: an email or phone the choices leave off the survivor becomes a contact of it, recorded there too.
import { type CustomerContact, MAX_CONTACTS, MAX_LOCATIONS } from '../../../contract/customer-parts';
import type { CustomField } from '../../../contract/custom-fields';
import { MAX_TAGS, type Customer } from '../../../contract/customers';
import { keptDetailNote, keptDetails, MERGE_FIELDS, type MergeHistory, type MergeRequest } from '../../../contract/merge';
import { customCell, listFields } from '../../custom-fields';
import type { Queryable } from '../../db';
import { num } from '../../db';
import { HttpError } from '../../http';
import { addContact } from './contacts-repo';
import { timeline } from './notes-repo';
import { emailSafe, getCustomer, notFound, type Changes } from './repo';

export const sameCustomer = () => new HttpError(400, 'same_customer', 'A customer cannot be merged with itself: choose another');
export const alreadyMerged = (name: string) => new HttpError(409, 'already_merged', `${name} was already merged into another customer`);
export const customerDeleted = (name: string) => new HttpError(409, 'customer_deleted', `${name} is deleted: restore it first`);

/** Where a customer stands: live, in the trash (D25), merged (D49), or not the organization's at all (null). */
interface Standing {
  id: number;
  name: string;
  deleted: boolean;
  merged: boolean;
}

/**
 * Both customers' standing, their rows locked in id order when `lock` (two merges of one pair in opposite
 * directions then wait for each other rather than deadlock). 404 for an id that is not the organization's;
 * 409 for one already merged, then for one deleted.
 */
export async function assertMergeable(db: Queryable, orgId: number, ids: number[], lock: boolean): Promise<void> {
  const rows = await db.query<{ id: unknown; name: string; deleted: boolean; merged: boolean }>(
    `select id, name, deleted_at is not null as deleted, merged_into_id is not null as merged from customers
      where org_id = $1 and id = any(string_to_array($2, ',')::int[]) order by id${lock ? ' for update' : ''}`,
    [orgId, ids.join(',')],
  );
  const found: Standing[] = rows.map((r) => ({ ...r, id: num(r.id) }));
  if (ids.some((id) => !found.some((s) => s.id === id))) throw notFound();
  for (const s of found) if (s.merged) throw alreadyMerged(s.name);
  for (const s of found) if (s.deleted) throw customerDeleted(s.name);
}

/** Tags first of `a`, then those of `b` it lacks (regardless of case, as D22 keeps them unique), at most MAX_TAGS. */
export function unionTags(a: string[], b: string[]): string[] {
  const seen = new Set(a.map((t) => t.toLowerCase()));
  const out = [...a];
  for (const t of b) {
    if (out.length >= MAX_TAGS) break;
    if (!seen.has(t.toLowerCase())) out.push(t), seen.add(t.toLowerCase());
  }
  return out;
}

/** The survivor's fields as the choices make them: each chosen field, do_not_service with its reason. */
export function chosenChanges(survivor: Customer, merged: Customer, fields: MergeRequest['fields']): Changes {
  const changes: Changes = {};
  const take = (key: keyof Customer) => {
    if (JSON.stringify(survivor[key]) !== JSON.stringify(merged[key])) changes[key] = { from: survivor[key], to: merged[key] };
  };
  for (const f of MERGE_FIELDS) {
    if (fields[f] !== 'merged') continue;
    take(f);
    if (f === 'do_not_service') take('do_not_service_reason');
  }
  const tags = unionTags(survivor.tags, merged.tags);
  if (tags.length !== survivor.tags.length) changes.tags = { from: survivor.tags, to: tags };
  return changes;
}

/**
 * D56: each active custom field as the choices make it, `custom.<key>` with the field's label (as an edit
 * records it): not chosen, the survivor keeps its value, or takes the merged customer's where it has none.
 */
export function customChanges(survivor: Customer, merged: Customer, defs: CustomField[], fields: MergeRequest['fields']): Changes {
  const active = new Map(defs.filter((f) => !f.archived).map((f) => [`custom.${f.key}`, f]));
  const unknown = Object.keys(fields).filter((k) => k.startsWith('custom.') && !active.has(k));
  if (unknown.length) {
    const errors = unknown.map((k) => ({ field: `fields.${k}`, detail: 'is not a custom field of this organization' }));
    throw new HttpError(400, 'validation_error', errors.map((e) => `${e.field}: ${e.detail}`).join('; '), {}, { field: errors[0]?.field, errors });
  }
  const changes: Changes = {};
  for (const [k, f] of active) {
    const [mine, theirs] = [survivor.custom[f.key] ?? null, merged.custom[f.key] ?? null];
    const choice = fields[k as `custom.${string}`] ?? (mine === null ? 'merged' : 'survivor');
    if (choice === 'merged' && theirs !== null && JSON.stringify(mine) !== JSON.stringify(theirs))
      changes[k] = {
        from: mine,
        to: theirs,
        label: f.label,
        ...(f.options.length ? { shown: { from: customCell(f, mine ?? undefined), to: customCell(f, theirs) } } : {}),
      } as Changes[string];
  }
  return changes;
}

/** What the merged customer brings (the preview's `moves`): its notes, locations, contacts, and the tags the survivor gains. */
export async function countMoves(db: Queryable, orgId: number, survivor: Customer, merged: Customer) {
  const [row] = await db.query<{ n: unknown }>('select count(*) as n from customer_notes where org_id = $1 and customer_id = $2', [orgId, merged.id]);
  const tags = unionTags(survivor.tags, merged.tags).slice(survivor.tags.length);
  return { notes: num(row?.n ?? 0), locations: merged.locations.length, contacts: merged.contacts.length, tags };
}

/** D66: a customer's history, as its timeline shows it (D24: with what was merged into it): its notes and the other entries. */
export async function historyOf(db: Queryable, orgId: number, customerId: number): Promise<MergeHistory> {
  const [row] = await db.query<{ n: unknown }>('select count(*) as n from customer_notes where org_id = $1 and customer_id = $2', [orgId, customerId]);
  const notes = num(row?.n ?? 0);
  return { notes, entries: (await timeline(db, orgId, customerId, 1, 1)).count - notes };
}

/** D46 D47: 409, nothing changed, when the survivor would have more locations or contacts than a customer may (D66: with those kept). */
export function assertRoom(survivor: Customer, merged: Customer, keptContacts = 0): void {
  const over = (noun: string, n: number, max: number) =>
    n > max ? new HttpError(409, `too_many_${noun}s`, `Together they have ${n} ${noun}s; a customer has at most ${max}: remove some first`, {}, { limit: max }) : null;
  const refusal =
    over('location', survivor.locations.length + merged.locations.length, MAX_LOCATIONS) ??
    over('contact', survivor.contacts.length + merged.contacts.length + keptContacts, MAX_CONTACTS);
  if (refusal) throw refusal;
}

/** A customer's field values written with a new version (D31), as one change by `userId`; D56 `custom.<key>` into its values (null clears). */
export async function writeFields(db: Queryable, orgId: number, id: number, changes: Changes, userId: number, now: Date, to: 'from' | 'to'): Promise<void> {
  const keys = Object.keys(changes).filter((k) => !k.startsWith('custom.'));
  const custom = Object.entries(changes).flatMap(([k, c]) => (k.startsWith('custom.') ? [[k.slice(7), c[to] ?? null] as const] : []));
  const n = keys.length;
  await db.query(
    `update customers set ${keys.map((k, i) => `${k} = $${i + 3}, `).join('')}custom = (custom - string_to_array($${n + 5}, ',')) || $${n + 6}::text::jsonb,
            version = version + 1, updated_at = $${n + 3}, updated_by = $${n + 4}
      where org_id = $1 and id = $2`,
    [
      orgId,
      id,
      ...keys.map((k) => changes[k]?.[to]),
      now,
      userId,
      custom
        .filter(([, v]) => v === null)
        .map(([k]) => k)
        .join(','),
      JSON.stringify(Object.fromEntries(custom.filter(([, v]) => v !== null))),
    ] as never,
  );
}

export interface Merged {
  mergeId: number;
  survivor: Customer;
  merged: Customer;
  changes: Changes;
  moved: { notes: number; locations: number; contacts: number };
  /** D66: the contacts made on the survivor for the emails and phones it would otherwise lose. */
  kept: CustomerContact[];
}

/** D49: merges `merged` into `survivor` (both locked, checked, room checked); the caller writes the audit entries. */
export async function mergeCustomers(db: Queryable, orgId: number, userId: number, req: MergeRequest, now: Date): Promise<Merged> {
  await assertMergeable(db, orgId, [req.survivor_id, req.merged_id], true);
  const survivor = await getCustomer(db, orgId, req.survivor_id);
  const merged = await getCustomer(db, orgId, req.merged_id);
  const details = keptDetails(survivor, merged, req.fields);
  assertRoom(survivor, merged, details.length);
  const changes = { ...chosenChanges(survivor, merged, req.fields), ...customChanges(survivor, merged, await listFields(db, orgId, 'customer'), req.fields) };
  const [s, m] = [survivor.id, merged.id];
  // First out of the live set, so the survivor may take its email (the live-email index).
  await db.query('update customers set deleted_at = $3, deleted_by = $4, merged_into_id = $5 where org_id = $1 and id = $2', [orgId, m, now, userId, s]);
  const move = async (table: string, extra = '') =>
    (await db.query<{ id: unknown }>(`update ${table} set customer_id = $3${extra} where org_id = $1 and customer_id = $2 returning id`, [orgId, m, s])).map((r) =>
      num(r.id),
    );
  const survivorPrimary = survivor.locations.find((l) => l.primary)?.id ?? null;
  const noteIds = await move('customer_notes');
  const contactIds = await move('customer_contacts');
  // D46: the survivor's primary stays primary; without one, the merged customer's becomes its primary.
  const locationIds = await move('customer_locations', survivorPrimary === null ? '' : ', is_primary = false');
  await emailSafe(db, orgId, (changes.email?.to as string | null) ?? null, s, () => writeFields(db, orgId, s, changes, userId, now, 'to'));
  const kept: CustomerContact[] = [];
  for (const d of details)
    kept.push(await addContact(db, orgId, s, { name: d.name, role: null, email: d.email, phone: d.phone, note: keptDetailNote(merged.name) }, now));
  const [row] = await db.query<{ id: unknown }>(
    `insert into customer_merges (org_id, survivor_id, merged_id, fields, changes, merged_snapshot, note_ids, location_ids, contact_ids,
                                  survivor_primary_location_id, merged_primary_location_id, created_at, created_by, kept_contact_ids)
     values ($1, $2, $3, $4::text::jsonb, $5::text::jsonb, $6::text::jsonb, string_to_array($7, ',')::int[], string_to_array($8, ',')::int[], string_to_array($9, ',')::int[], $10, $11, $12, $13,
             string_to_array($14, ',')::int[]) returning id`,
    [
      orgId,
      s,
      m,
      JSON.stringify(req.fields),
      JSON.stringify(changes),
      JSON.stringify(merged),
      noteIds.join(','),
      locationIds.join(','),
      contactIds.join(','),
      survivorPrimary,
      merged.locations.find((l) => l.primary)?.id ?? null,
      now,
      userId,
      kept.map((c) => c.id).join(','),
    ],
  );
  return {
    mergeId: num(row?.id),
    survivor: await getCustomer(db, orgId, s),
    merged,
    changes,
    moved: { notes: noteIds.length, locations: locationIds.length, contacts: contactIds.length },
    kept,
  };
}
