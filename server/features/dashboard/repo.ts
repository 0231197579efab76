// D32: the dashboard's own figures, SQL only, scoped by organization (its lists come from the shared
// modules: server/customer-list.ts, and the activity log's).
import type { CustomerStatus } from '../../../contract/customers';
import type { Queryable } from '../../db';
import { num } from '../../db';

/** Live customers per status, from customer_counts (kept by triggers), not by counting. */
export async function statusCounts(tx: Queryable, orgId: number): Promise<{ status: CustomerStatus; n: number }[]> {
  const rows = await tx.query<{ status: CustomerStatus; n: unknown }>('select status, n from customer_counts where org_id = $1', [orgId]);
  return rows.map((r) => ({ status: r.status, n: num(r.n) }));
}

/** Live customers created since `weekFrom` and since `monthFrom`. */
export async function newCustomers(tx: Queryable, orgId: number, weekFrom: Date, monthFrom: Date): Promise<{ week: number; month: number }> {
  const [row] = await tx.query<{ week: unknown; month: unknown }>(
    `select count(*) filter (where created_at >= $2) as week, count(*) as month
       from customers where org_id = $1 and deleted_at is null and created_at >= $3`,
    [orgId, weekFrom, monthFrom],
  );
  return { week: num(row?.week ?? 0), month: num(row?.month ?? 0) };
}
