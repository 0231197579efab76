// D32: the dashboard's figures in one call. Each part is there only with the permission its page needs.
import { scopeOf } from '../../customer-scope';
import type { CustomerStatus, DashboardData } from '../../../contract/customers';
import { CUSTOMER_STATUSES, NEW_THIS_MONTH_DAYS as MONTH_DAYS, NEW_THIS_WEEK_DAYS as WEEK_DAYS } from '../../../contract/customers';
import { DAY_MS } from '../../../contract/time';
import { defineRoute } from '../../route';
import { listAudit } from '../../audit';
import { listCustomers } from '../../customer-list';
import { newCustomers, statusCounts } from './repo';

const RECENT = 5;

const dashboard = defineRoute({
  method: 'GET',
  path: '/v1/dashboard/',
  access: 'org',
  permission: 'dashboard:view',
  async handler({ tx, ctx, caller }): Promise<DashboardData> {
    const can = (p: string) => caller.org.permissions.has(p);
    let customers: DashboardData['customers'] = null;
    if (can('customers:view')) {
      const now = ctx.now();
      const [counts, fresh, recent] = await Promise.all([
        statusCounts(tx, scopeOf(caller)),
        newCustomers(tx, scopeOf(caller), new Date(now - WEEK_DAYS * DAY_MS), new Date(now - MONTH_DAYS * DAY_MS)),
        listCustomers(tx, scopeOf(caller), { q: null, status: null, tag: null, sort: '-updated_at', page: 1, pageSize: RECENT }),
      ]);
      const by_status = Object.fromEntries(CUSTOMER_STATUSES.map((s) => [s, 0])) as Record<CustomerStatus, number>;
      for (const c of counts) if (c.status in by_status) by_status[c.status] = c.n;
      customers = {
        total: Object.values(by_status).reduce((a, b) => a + b, 0),
        by_status,
        new_this_week: fresh.week,
        new_this_month: fresh.month,
        recently_updated: recent.results,
      };
    }
    const activity = can('audit:view')
      ? (await listAudit(tx, scopeOf(caller), { actorId: null, action: null, targetType: null, targetId: null }, 1, RECENT)).results
      : null;
    return { customers, activity };
  },
});

export const dashboardRoutes = [dashboard];
