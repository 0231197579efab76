// D58: a bulk action's one undo, SQL only: the customers it wrote put back as they were, unless changed since.
import { BULK_NAMES_SHOWN } from '../../../contract/bulk';
import type { PersonRef } from '../../../contract/customers';
import type { CustomField } from '../../../contract/custom-fields';
import { valueTaken } from '../../custom-fields';
import { seen, type CustomerScope } from '../../customer-scope';
import type { Queryable } from '../../db';
import { num } from '../../db';
import { BULK_BATCH, type BulkRow } from './bulk-repo';

/**
 * D58: puts back every item whose customer is still as the action left it (same version; a deleted one still
 * deleted, its email and unique values free); the others keep their later change. One statement.
 */
export async function undoBulk(
  tx: Queryable,
  /** D59: only customers the caller sees are put back and named. */
  scope: CustomerScope,
  bulk: BulkRow,
  actorId: number,
  now: Date,
  back: (add: (x: unknown) => string) => [column: string, value: string][],
  uniqueFields: Pick<CustomField, 'key' | 'type'>[],
): Promise<{ restored: number; changedSince: number; names: PersonRef[] }> {
  const orgId = scope.orgId;
  const isDelete = bulk.action === 'delete';
  const params: unknown[] = [orgId, bulk.id];
  const free = isDelete
    ? [
        `not exists (select 1 from customers x where x.org_id = $1 and x.deleted_at is null and x.email = c.email)`,
        // D56: a unique value as the rule compares it (text regardless of case), found in the values index.
        ...uniqueFields.map((f) => `not ${valueTaken(f, `$${params.push(f.key)}`, 'c')}`),
      ]
    : [];
  const state = isDelete ? 'c.deleted_at is not null' : 'c.deleted_at is null';
  // Found and locked in one statement, then put back BULK_BATCH at a time (D34, as the action was written).
  const ok = await tx.query<{ id: unknown }>(
    `select c.id from customers c join bulk_action_items i on i.org_id = $1 and i.bulk_id = $2 and i.customer_id = c.id
      where c.org_id = $1${seen('c', scope)} and c.version = i.version and ${[state, ...free].join(' and ')} order by c.id for update of c`,
    params as never,
  );
  const ids = ok.map((r) => num(r.id));
  let restored = 0;
  for (let i = 0; i < ids.length; i += BULK_BATCH) {
    // Each customer of the batch is found by its key and reads its own item by the item's key (a sub-select
    // per row, no join for the planner to choose): right after an action wrote 10,000 items, before any
    // analyze, a join took them for one row and compared each with every customer put back (2.5 s a batch
    // on PostgreSQL). The batch's customers are locked above and still as the action left them: each is
    // put back, and its item marked.
    const batch: unknown[] = [orgId, bulk.id, now, actorId];
    const pairs = back((x) => `$${batch.push(x)}`);
    const list = `$${batch.push(ids.slice(i, i + BULK_BATCH))}::int[]`;
    const [row] = await tx.query<{ n: unknown }>(
      `with put as (update customers c
                       set (${pairs.map(([col]) => col).join(', ')}) =
                           (select ${pairs.map(([, value]) => value).join(', ')} from bulk_action_items i where i.bulk_id = $2 and i.customer_id = c.id),
                           version = c.version + 1, updated_at = $3, updated_by = $4
                     where c.org_id = $1 and c.id = any(${list}) returning c.id),
            marked as (update bulk_action_items set restored = true where bulk_id = $2 and customer_id = any(${list}))
       select count(*) as n from put`, // marked runs to its end unread, as every data-modifying WITH does
      batch as never,
    );
    restored += num(row!.n);
  }
  await tx.query('update bulk_actions set undone_at = $3, undone_by = $4 where org_id = $1 and id = $2', [orgId, bulk.id, now, actorId]);
  const left = await tx.query<{ id: unknown; name: string; total: unknown }>(
    `select c.id, c.name, count(*) over () as total from bulk_action_items i join customers c on c.id = i.customer_id and c.org_id = $1
      where i.org_id = $1 and i.bulk_id = $2 and not i.restored${seen('c', scope)} order by lower(c.name), c.id limit ${BULK_NAMES_SHOWN}`,
    [orgId, bulk.id],
  );
  return { restored, changedSince: left.length ? num(left[0]!.total) : 0, names: left.map((r) => ({ id: num(r.id), name: r.name })) };
}
