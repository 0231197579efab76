// D32 GET /v1/dashboard/: customers by status, new this week and month, the most recently updated and
// (with audit:view) the latest activity; D9 D10 each part only with its permission, one organization only.
import { beforeAll, describe, expect, test } from 'vitest';
import type { CustomerListItem, DashboardData } from '../../contract/customers';
import { CUSTOMERS, expectError } from './api-common';
import { forEachBackend, type Backend } from './backends';
import {
  ACME,
  BEACON,
  customerPath,
  LIST_ITEM_KEYS,
  customRole,
  expectClientError,
  inOrg,
  newActor,
  ownerOfNewOrg,
  signIn,
  unique,
  warmedUp,
  type Actor,
} from './customers-common';
import { newOrg } from './people';
import { createUser, DAY, MINUTE } from './helpers';

const DASHBOARD = '/api/v1/dashboard/';
const AUDIT_KEYS = ['action', 'actor', 'at', 'changes', 'id', 'target'];

forEachBackend('API dashboard', (backend) => {
  let b: Backend;
  beforeAll(async () => (b = await warmedUp(backend)));
  const owner = () => signIn(b, 'owner@demo.test', ACME);
  const dashboard = async (who: Actor): Promise<DashboardData> => {
    const r = await who.get(DASHBOARD);
    expect(r.status, r.text).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(['activity', 'customers']);
    return r.body as unknown as DashboardData;
  };
  /** What the dashboard's customer figures should be, straight from the database at the server's time. */
  const expected = async (org: number) => {
    const now = b.clock.now();
    const rows = await b.server.db.query<{ status: string; n: unknown; week: unknown; month: unknown }>(
      `select status, count(*) as n, count(*) filter (where created_at >= $2) as week, count(*) filter (where created_at >= $3) as month
         from customers where org_id = $1 and deleted_at is null group by status`,
      [org, new Date(now - 7 * DAY), new Date(now - 30 * DAY)],
    );
    const by_status = { lead: 0, active: 0, inactive: 0 };
    for (const r of rows) by_status[r.status as keyof typeof by_status] = Number(r.n);
    const sum = (k: 'n' | 'week' | 'month') => rows.reduce((a, r) => a + Number(r[k]), 0);
    return { total: sum('n'), by_status, new_this_week: sum('week'), new_this_month: sum('month') };
  };
  const figures = (d: DashboardData) => {
    const { recently_updated: _recent, ...rest } = d.customers!;
    return rest;
  };

  describe('D32 customers', () => {
    test("D32 the customers by status, the total and the new this week and month are the organization's live customers", async () => {
      const who = await owner();
      const d = await dashboard(who);
      expect(Object.keys(d.customers!).sort()).toEqual(['by_status', 'new_this_month', 'new_this_week', 'recently_updated', 'total']);
      expect(figures(d)).toEqual(await expected(who.org));
      expect(d.customers!.total).toBeGreaterThan(0);
      expect(d.customers!.new_this_month).toBeLessThan(d.customers!.total); // the demo data spans months
      const beacon = await signIn(b, 'owner@demo.test', BEACON);
      expect(figures(await dashboard(beacon))).toEqual(await expected(beacon.org));
    });

    test('D32 the figures follow every change: create, status change, delete, restore, import', async () => {
      const who = await ownerOfNewOrg(b, 'Dash Org');
      const zero = { total: 0, by_status: { lead: 0, active: 0, inactive: 0 }, new_this_week: 0, new_this_month: 0 };
      expect(figures(await dashboard(who))).toEqual(zero);
      const c = await who.create({ status: 'lead' });
      expect(figures(await dashboard(who))).toEqual({ total: 1, by_status: { lead: 1, active: 0, inactive: 0 }, new_this_week: 1, new_this_month: 1 });
      expect((await who.patch(customerPath(c.id), { version: 1, status: 'inactive' })).status).toBe(200);
      expect((await dashboard(who)).customers!.by_status).toEqual({ lead: 0, active: 0, inactive: 1 });
      expect((await who.del(customerPath(c.id))).status).toBe(204);
      expect(figures(await dashboard(who))).toEqual(zero);
      expect((await who.post(customerPath(c.id, 'restore/'))).status).toBe(200);
      expect((await dashboard(who)).customers!.by_status).toEqual({ lead: 0, active: 0, inactive: 1 });
      const csv = `name,email,status\r\nOne,${unique()}@example.test,\r\nTwo,${unique()}@example.test,lead\r\nThree,${c.email!},active\r\n`;
      const imported = await who.send('POST', `${CUSTOMERS}import/?on_duplicate=update`, csv, { 'Content-Type': 'text/csv' });
      expect(imported.body, imported.text).toEqual({ created: 2, updated: 1, unchanged: 0, skipped: 0, changed_since_preview: [] });
      const d = await dashboard(who);
      expect(figures(d)).toEqual({ total: 3, by_status: { lead: 1, active: 2, inactive: 0 }, new_this_week: 3, new_this_month: 3 });
      expect(figures(d)).toEqual(await expected(who.org));
    });

    test('D32 recently_updated is the five most recently updated live customers, newest first, as list items', async () => {
      const who = await owner();
      b.clock.advance(MINUTE);
      const made = [];
      for (let i = 0; i < 6; i++) {
        b.clock.advance(MINUTE);
        made.push(await who.create({ name: `Recent ${i} ${unique()}`, city: 'Bend', tags: ['r'] }));
      }
      b.clock.advance(MINUTE);
      expect((await who.patch(customerPath(made[1]!.id), { version: 1, city: 'Salem' })).status).toBe(200);
      b.clock.advance(MINUTE);
      expect((await who.del(customerPath(made[5]!.id))).status).toBe(204);
      const recent = (await dashboard(who)).customers!.recently_updated;
      expect(recent.map((c) => c.id)).toEqual([made[1]!, made[4]!, made[3]!, made[2]!, made[0]!].map((c) => c.id));
      for (const item of recent) expect(Object.keys(item).sort()).toEqual(LIST_ITEM_KEYS);
      expect(recent[0]).toMatchObject({ name: made[1]!.name, email: made[1]!.email, city: 'Salem', status: 'active', tags: ['r'] });
      const list = await who.get(`${CUSTOMERS}?sort=-updated_at&page_size=25`);
      expect(recent).toEqual((list.body.results as CustomerListItem[]).slice(0, 5));
    });

    test("D32 this week is the last 7 days and this month the last 30, by the server's clock", async () => {
      const org = (await newOrg(b.server.db, 'Dash Org')).name;
      const user = await createUser(b.server.db, { memberships: [[org, 'owner']] });
      await (await signIn(b, user.email, org, user.password)).create();
      const at = async (advance: number) => {
        b.clock.advance(advance); // past the access token's life: sign in again each time
        const d = await dashboard(await signIn(b, user.email, org, user.password));
        return [d.customers!.total, d.customers!.new_this_week, d.customers!.new_this_month];
      };
      expect(await at(0)).toEqual([1, 1, 1]);
      expect(await at(7 * DAY - MINUTE)).toEqual([1, 1, 1]);
      expect(await at(2 * MINUTE)).toEqual([1, 0, 1]);
      expect(await at(23 * DAY - 2 * MINUTE)).toEqual([1, 0, 1]);
      expect(await at(2 * MINUTE)).toEqual([1, 0, 0]);
    });
  });

  describe('D32 activity', () => {
    test("D32 activity is the organization's five newest audit entries for those with audit:view, and null for those without", async () => {
      const who = await owner();
      const c = await who.create();
      await who.patch(customerPath(c.id), { version: 1, city: 'Bend' });
      const d = await dashboard(who);
      const newest = await b.server.db.query<{ id: unknown }>('select id from audit_log where org_id = $1 order by id desc limit 5', [who.org]);
      expect(d.activity!.map((e) => e.id)).toEqual(newest.map((r) => Number(r.id)));
      for (const e of d.activity!) expect(Object.keys(e).sort()).toEqual(AUDIT_KEYS);
      expect(d.activity![0]).toMatchObject({
        action: 'customer.updated',
        actor: { id: who.userId, name: 'Olivia' },
        target: { type: 'customer', id: c.id, label: c.name },
        changes: { city: { from: null, to: 'Bend' } },
      });
      // Beacon's admin sees Beacon's entries only; a member and a viewer see none, but do see the customers.
      const beacon = await dashboard(await signIn(b, 'owner@demo.test', BEACON));
      const acmeIds = new Set((await b.server.db.query<{ id: unknown }>('select id from audit_log where org_id = $1', [who.org])).map((r) => Number(r.id)));
      expect(beacon.activity!.filter((e) => acmeIds.has(e.id))).toEqual([]);
      for (const [email, org] of [
        ['solo@demo.test', ACME],
        ['viewer@demo.test', BEACON],
      ] as const) {
        const other = await dashboard(await signIn(b, email, org));
        expect(other.activity, email).toBeNull();
        expect(other.customers, email).not.toBeNull();
      }
    });

    test('D32 without customers:view the customers part is null; with only audit:view the activity still shows', async () => {
      const role = await customRole(b.server.db, ACME, ['dashboard:view', 'audit:view']);
      const d = await dashboard(await newActor(b, ACME, role));
      expect(d.customers).toBeNull();
      expect(Array.isArray(d.activity)).toBe(true);
      const bare = await dashboard(await newActor(b, ACME, await customRole(b.server.db, ACME, ['dashboard:view'])));
      expect(bare).toEqual({ customers: null, activity: null });
    });
  });

  describe('D9 D10 refusals', () => {
    test('D10 the dashboard needs dashboard:view (403 permission_denied); a non-member is a 403 not_a_member; no token a 401', async () => {
      const who = await owner();
      const noDashboard = await newActor(b, ACME, await customRole(b.server.db, ACME, ['customers:view', 'audit:view']));
      const r = await noDashboard.get(DASHBOARD);
      expectError(r, 403, 'permission_denied');
      expect(r.body.detail).toContain('dashboard:view');
      expectError(await inOrg(b, await newActor(b, BEACON, 'owner'), who.org).get(DASHBOARD), 403, 'not_a_member');
      expectError(await b.api.get(DASHBOARD, { 'X-Organization-ID': String(who.org) }), 401, 'not_authenticated');
      expectError(await b.api.get(DASHBOARD, { Authorization: 'Bearer not.a.token', 'X-Organization-ID': String(who.org) }), 401);
    });

    test("D32 one organization's changes never show on another's dashboard", async () => {
      const acme = await owner();
      const before = figures(await dashboard(acme));
      const beacon = await signIn(b, 'owner@demo.test', BEACON);
      const c = await beacon.create({ status: 'lead' });
      const after = await dashboard(acme);
      expect(figures(after)).toEqual(before);
      expect(after.customers!.recently_updated.map((i) => i.id)).not.toContain(c.id);
      expect(after.activity!.map((e) => e.target.id)).not.toContain(c.id);
    });

    test('D19 the dashboard answers GET and HEAD only, ignores unknown query parameters, and never answers a 500', async () => {
      const who = await owner();
      for (const method of ['POST', 'PATCH', 'DELETE', 'PUT']) expectError(await who.send(method, DASHBOARD, {}), 405, 'method_not_allowed');
      expect((await who.send('HEAD', DASHBOARD)).status).toBe(200);
      for (const query of ['?page=-1', '?x=%00', `?q=${'x'.repeat(5000)}`, '?customers=null&activity[]=1'])
        expect((await who.get(`${DASHBOARD}${query}`)).status, query).toBe(200);
      for (const org of ['0', 'abc', '99999999999', '-1', '1,2'])
        expectClientError(await b.api.get(DASHBOARD, { Authorization: `Bearer ${who.token}`, 'X-Organization-ID': org }), org);
    });
  });
});
