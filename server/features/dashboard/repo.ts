// D32: the dashboard's own figures, SQL only, scoped by organization (its lists come from the shared
// modules: server/customer-list.ts, and the activity log's).
import { seen, type CustomerScope } from '../../customer-scope';
import type { CustomerStatus } from '../../../contract/customers';
import type { Queryable } from '../../db';
import { num } from '../../db';

/** Live customers per status, from customer_counts (kept by triggers), not by counting. */
export async function statusCounts(tx: Queryable, scope: CustomerScope): Promise<{ status: CustomerStatus; n: number }[]> {
  // D59: a scoped member's figures count their own customers (a few thousand at most, by the assignment's index).
  const rows = await tx.query<{ status: CustomerStatus; n: unknown }>(
    scope.assignedTo === null
      ? 'select status, n from customer_counts where org_id = $1'
      : `select status, count(*) as n from customers where org_id = $1${seen('', scope)} and deleted_at is null group by status`,
    [scope.orgId],
  );
  return rows.map((r) => ({ status: r.status, n: num(r.n) }));
}

/** Live customers created since `weekFrom` and since `monthFrom`. */
export async function newCustomers(tx: Queryable, scope: CustomerScope, weekFrom: Date, monthFrom: Date): Promise<{ week: number; month: number }> {
  const [row] = await tx.query<{ week: unknown; month: unknown }>(
    `select count(*) filter (where created_at >= $2) as week, count(*) as month
       from customers where org_id = $1${seen('', scope)} and deleted_at is null and created_at >= $3`,
    [scope.orgId, weekFrom, monthFrom],
  );
  return { week: num(row?.week ?? 0), month: num(row?.month ?? 0) };
}
