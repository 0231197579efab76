// D32: the dashboard's figures in one call. Each part is there only with the permission its page needs.
import type { CustomerStatus, DashboardData } from '../../../contract/customers';
import { CUSTOMER_STATUSES } from '../../../contract/customers';
import { num } from '../../db';
import { defineRoute } from '../../route';
import { listAudit } from '../../audit';
import { listCustomers } from '../customers/repo';

const DAY_MS = 86_400_000;
/** D32 "this week" and "this month": the last 7 and 30 days (an organization has no time zone of its own). */
const WEEK_DAYS = 7;
const MONTH_DAYS = 30;
const RECENT = 5;

const dashboard = defineRoute({
  method: 'GET', path: '/v1/dashboard/', access: 'org', permission: 'dashboard:view',
  async handler({ tx, ctx, caller }): Promise<DashboardData> {
    const org = caller.org.id;
    const can = (p: string) => caller.org.permissions.has(p);
    let customers: DashboardData['customers'] = null;
    if (can('customers:view')) {
      const now = ctx.now();
      const [counts, fresh, recent] = await Promise.all([
        tx.query<{ status: CustomerStatus; n: unknown }>('select status, n from customer_counts where org_id = $1', [org]),
        tx.query<{ week: unknown; month: unknown }>(
          `select count(*) filter (where created_at >= $2) as week, count(*) as month
             from customers where org_id = $1 and deleted_at is null and created_at >= $3`,
          [org, new Date(now - WEEK_DAYS * DAY_MS), new Date(now - MONTH_DAYS * DAY_MS)],
        ),
        listCustomers(tx, org, { q: null, status: null, tag: null, sort: '-updated_at', page: 1, pageSize: RECENT }),
      ]);
      const by_status = Object.fromEntries(CUSTOMER_STATUSES.map((s) => [s, 0])) as Record<CustomerStatus, number>;
      for (const c of counts) if (c.status in by_status) by_status[c.status] = num(c.n);
      customers = {
        total: Object.values(by_status).reduce((a, b) => a + b, 0),
        by_status,
        new_this_week: num(fresh[0]?.week ?? 0),
        new_this_month: num(fresh[0]?.month ?? 0),
        recently_updated: recent.results,
      };
    }
    const activity = can('audit:view') ? (await listAudit(tx, org, { actorId: null, action: null, targetType: null, targetId: null }, 1, RECENT)).results : null;
    return { customers, activity };
  },
});

export const dashboardRoutes = [dashboard];
