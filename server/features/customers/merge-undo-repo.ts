// D49: undoing a merge within MERGE_UNDO_DAYS, SQL only, scoped by organization. The merged customer comes
// back as it was (its row was never changed but for the merge's marks) with the rows that moved, by id;
// the survivor gets back the values the merge gave it, except those changed since, and keeps what was
// added since. D66: the contacts the merge made on the survivor for the details it left off go again.
import type { Customer } from '../../../contract/customers';
import { MERGE_UNDO_DAYS } from '../../../contract/merge';
import { DAY_MS } from '../../../contract/time';
import { mayBeSeen, type CustomerScope } from '../../customer-scope';
import type { Queryable } from '../../db';
import { num } from '../../db';
import { HttpError } from '../../http';
import { assertMergeable, writeFields } from './merge-repo';
import { assertEmailFree, emailSafe, getCustomer, type Changes } from './repo';

const noMerge = () => new HttpError(404, 'not_found', 'No such merge');

type MergeRow = {
  survivor_id: unknown;
  merged_id: unknown;
  changes: unknown;
  created_at: Date;
  undone_at: Date | null;
  survivor_primary_location_id: unknown;
  merged_primary_location_id: unknown;
};

/** D66: a contact the merge had kept on the survivor, as the undo removed it. */
export type KeptContact = { id: number; name: string; email: string | null; phone: string | null };

export interface Undone {
  survivor: Customer;
  merged: Customer;
  /** The survivor's fields given back: { from: as it was before the undo, to: as before the merge }. */
  restored: Changes;
  /** The survivor's fields the merge changed and someone changed again since: kept as they are. */
  kept: string[];
  /** D66: the contacts the merge made on the survivor, removed. */
  removedContacts: KeptContact[];
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The survivor's values to give back: each field the merge set and nobody changed since; tags less those the merge added. */
function toRestore(current: Customer, changes: Changes): { restored: Changes; kept: string[] } {
  const restored: Changes = {};
  const kept: string[] = [];
  for (const [field, c] of Object.entries(changes)) {
    const now = field.startsWith('custom.') ? (current.custom[field.slice(7)] ?? null) : current[field as keyof Customer]; // D56
    if (field === 'tags') {
      const before = new Set((c.from as string[]).map((t) => t.toLowerCase()));
      const added = new Set((c.to as string[]).filter((t) => !before.has(t.toLowerCase())));
      const tags = current.tags.filter((t) => !added.has(t));
      if (tags.length !== current.tags.length) restored.tags = { from: current.tags, to: tags };
    } else if (same(now, c.to))
      restored[field] = { ...c, from: now, to: c.from }; // a custom field's label stays with it (D56)
    else kept.push(field);
  }
  return { restored, kept };
}

/** D46: a customer with locations and no primary gets `preferred` back if it is still its, else its oldest. */
async function ensurePrimary(db: Queryable, orgId: number, customerId: number, preferred: number | null): Promise<void> {
  await db.query(
    `update customer_locations set is_primary = true
      where id = (select id from customer_locations where org_id = $1 and customer_id = $2 order by (id = $3) desc, id limit 1)
        and not exists (select 1 from customer_locations where org_id = $1 and customer_id = $2 and is_primary)`,
    [orgId, customerId, preferred],
  );
}

/** D49: undoes merge `mergeId`; refusals: 404, 409 merge_undone, 410 merge_expired, 409 for a survivor deleted or merged since. */
export async function undoMerge(db: Queryable, scope: CustomerScope, userId: number, mergeId: number, now: Date): Promise<Undone> {
  const orgId = scope.orgId;
  const [m] = await db.query<MergeRow>(
    `select survivor_id, merged_id, changes, created_at, undone_at, survivor_primary_location_id, merged_primary_location_id
       from customer_merges where org_id = $1 and id = $2 for update`,
    [orgId, mergeId],
  );
  if (!m) throw noMerge();
  if (m.undone_at) throw new HttpError(409, 'merge_undone', 'This merge was already undone');
  if (m.created_at.getTime() < now.getTime() - MERGE_UNDO_DAYS * DAY_MS)
    throw new HttpError(410, 'merge_expired', `A merge can be undone for ${MERGE_UNDO_DAYS} days; this one is older`);
  const [s, mid] = [num(m.survivor_id), num(m.merged_id)];
  for (const id of [s, mid]) if (!(await mayBeSeen(db, scope, id))) throw noMerge(); // D59: both, or 404 as another organization's merge
  await assertMergeable(db, orgId, [s], true); // the survivor, deleted or merged since: 409
  const current = await getCustomer(db, orgId, s, { lock: true });
  const { restored, kept } = toRestore(current, (typeof m.changes === 'string' ? JSON.parse(m.changes) : m.changes) as Changes);
  // D23: neither may take an email another live customer has now (the survivor's first, then the merged one's).
  const survivorEmail = restored.email ? (restored.email.to as string | null) : null;
  await assertEmailFree(db, orgId, survivorEmail, s);
  const moveBack = (table: string, column: string, extra = '') =>
    db.query(
      `update ${table} set customer_id = $3${extra}
        where org_id = $1 and customer_id = $2 and id in (select unnest(${column}) from customer_merges where org_id = $1 and id = $4)`,
      [orgId, s, mid, mergeId, ...(extra ? [m.merged_primary_location_id as number | null] : [])],
    );
  await moveBack('customer_notes', 'note_ids');
  await moveBack('customer_contacts', 'contact_ids');
  await moveBack('customer_locations', 'location_ids', ', is_primary = (id is not distinct from $5::int)');
  // D66: exactly the contacts the merge made (by id), as they are now: the survivor is as it was before.
  const removed = await db.query<{ id: unknown; name: string; email: string | null; phone: string | null }>(
    `delete from customer_contacts where org_id = $1 and customer_id = $2
        and id in (select unnest(kept_contact_ids) from customer_merges where org_id = $1 and id = $3) returning id, name, email, phone`,
    [orgId, s, mergeId],
  );
  await ensurePrimary(db, orgId, s, m.survivor_primary_location_id === null ? null : num(m.survivor_primary_location_id));
  await ensurePrimary(db, orgId, mid, m.merged_primary_location_id === null ? null : num(m.merged_primary_location_id));
  await emailSafe(db, orgId, survivorEmail, s, () => writeFields(db, orgId, s, restored, userId, now, 'to'));
  const [back] = await db.query<{ email: string | null }>('select email from customers where org_id = $1 and id = $2', [orgId, mid]);
  const email = back?.email ?? null;
  await assertEmailFree(db, orgId, email, mid);
  await emailSafe(db, orgId, email, mid, () =>
    db.query('update customers set deleted_at = null, deleted_by = null, merged_into_id = null where org_id = $1 and id = $2', [orgId, mid]),
  );
  await db.query('update customer_merges set undone_at = $3, undone_by = $4 where org_id = $1 and id = $2', [orgId, mergeId, now, userId]);
  const removedContacts = removed.map((r) => ({ ...r, id: num(r.id) })).sort((a, b) => a.id - b.id);
  return { survivor: await getCustomer(db, orgId, s), merged: await getCustomer(db, orgId, mid), restored, kept, removedContacts };
}
