// D25: the 'Deleted' view and its housekeeping, scoped by organization like every customers query (STYLE).
import { seen, type CustomerScope } from '../../customer-scope';
import { RESTORE_WINDOW_DAYS, type CustomerListItem } from '../../../contract/customers';
import { DAY_MS } from '../../../contract/time';
import { ITEM_COLUMNS, toItem, type ItemRow } from '../../customer-list';
import type { Queryable } from '../../db';
import { num } from '../../db';
import { person } from './repo';

/** D25: the 'Deleted' view, most recently deleted first, within the restore window. */
export async function listDeleted(
  db: Queryable,
  scope: CustomerScope,
  page: number,
  pageSize: number,
  now: Date,
): Promise<{ count: number; results: CustomerListItem[] }> {
  const orgId = scope.orgId;
  const since = new Date(now.getTime() - RESTORE_WINDOW_DAYS * DAY_MS);
  const rows = await db.query<ItemRow & { deleted_at: Date; deleted_by: unknown; deleted_by_name: unknown }>(
    `select ${ITEM_COLUMNS}, c.deleted_at, c.deleted_by, u.first_name as deleted_by_name, count(*) over () as total
       from customers c left join users u on u.id = c.deleted_by
      where c.org_id = $1${seen('c', scope)} and c.deleted_at is not null and c.deleted_at > $2 and c.merged_into_id is null
      order by c.deleted_at desc, c.id desc limit $3 offset $4`,
    [orgId, since, pageSize, (page - 1) * pageSize],
  );
  let count = rows.length ? num(rows[0]?.total) : 0;
  if (!rows.length && page > 1) {
    const [row] = await db.query<{ n: unknown }>(
      `select count(*) as n from customers where org_id = $1${seen('', scope)} and deleted_at > $2 and merged_into_id is null`,
      [orgId, since],
    );
    count = num(row?.n ?? 0);
  }
  return {
    count,
    results: rows.map(({ deleted_at, deleted_by, deleted_by_name, ...r }) => ({
      ...toItem(r),
      deleted_at: deleted_at.toISOString(),
      deleted_by: person(deleted_by, deleted_by_name),
    })),
  };
}

/**
 * D25: housekeeping removes customers deleted longer ago than the window, with their notes. D49: a merged
 * customer is not in the trash: it stays (its old address leads to the survivor) until the survivor goes.
 */
export async function purgeDeleted(db: Queryable, nowMs: number): Promise<number> {
  const rows = await db.query('delete from customers where deleted_at < $1 and merged_into_id is null returning id', [new Date(nowMs - RESTORE_WINDOW_DAYS * DAY_MS)]);
  return rows.length;
}
