// D30 the activity log as the API shows it: the organization's entries, newest first, filtered and
// paged, for audit:view only (D10); D9 never another organization's; read-only through the API; and
// never a password, token or hash in what it shows.
import { beforeAll, describe, expect, test } from 'vitest';
import type { AuditEntryView } from '../../contract/audit';
import type { IssuedInvitation } from '../../contract/team';
import { CUSTOMERS, D10, expectError } from './api-common';
import { forEachBackend, type Api } from './backends';
import type { Clock, TestServer } from './helpers';
import { people, type Person } from './people';

const AUDIT = '/api/v1/audit/';
const MEMBERS = '/api/v1/team/members/';
const INVITATIONS = '/api/v1/team/invitations/';

forEachBackend('API audit log', (backend) => {
  let server: TestServer;
  let api: Api;
  let clock: Clock;
  beforeAll(() => {
    ({ server, api, clock } = backend());
  });
  const { team } = people(backend, 'Audit Org');
  let counter = 0;
  /** GET /v1/audit/ with a query string; fails the test unless 200. */
  const log = async (who: Person, query = '') => {
    const r = await who.call('GET', `${AUDIT}${query ? `?${query}` : ''}`);
    expect(r.status, r.text).toBe(200);
    return r.body as unknown as { count: number; results: AuditEntryView[] };
  };
  const customer = async (who: Person) => {
    const r = await who.call('POST', CUSTOMERS, { name: `Customer ${++counter}` });
    expect(r.status, r.text).toBe(201);
    return r.body.id as number;
  };
  const auditRows = async () => {
    const [row] = await server.db.query<{ h: string | null; n: unknown }>("select md5(string_agg(a::text, '|' order by a.id)) as h, count(*) as n from audit_log a");
    return `${String(row?.n)}:${row?.h ?? ''}`;
  };

  describe('D30 reading the log', () => {
    test("D30 GET lists the organization's entries newest first with id, at, actor, action, target and changes", async () => {
      const {
        org,
        people: [owner, member],
      } = await team('owner', 'member');
      expect((await owner!.call('PATCH', `${MEMBERS}${member!.id}/`, { role: 'viewer' })).status).toBe(200);
      const invited = (await owner!.call('POST', INVITATIONS, { email: `audit${counter}@example.test`, role: 'member' })).body as unknown as IssuedInvitation;
      const permissions = await owner!.call('PUT', '/api/v1/permissions/', { matrix: { ...D10, viewer: ['dashboard:view'] } });
      expect(permissions.status, permissions.text).toBe(200);
      const customerId = await customer(owner!);
      const r = await log(owner!);
      expect(r.count).toBe(4);
      expect(r.results.map((e) => e.action)).toEqual(['customer.created', 'permissions.changed', 'invitation.created', 'member.role_changed']);
      const ids = r.results.map((e) => e.id);
      expect(ids).toEqual([...ids].sort((a, b) => b - a));
      const at = new Date(clock.now()).toISOString();
      const actor = { id: owner!.id, name: owner!.name };
      expect(r.results[3]).toEqual({
        id: ids[3],
        at,
        actor,
        action: 'member.role_changed',
        target: { type: 'member', id: member!.id, label: member!.name },
        changes: { role: { from: 'member', to: 'viewer' } },
      });
      expect(r.results[2]).toMatchObject({ actor, target: { type: 'invitation', id: invited.id, label: invited.email } });
      expect(r.results[1]).toMatchObject({ actor, target: { type: 'permissions' }, changes: { viewer: { added: [], removed: ['customers:view'] } } });
      expect(r.results[0]).toMatchObject({ actor, target: { type: 'customer', id: customerId } });
      const rows = await server.db.query<{ id: unknown }>('select id from audit_log where org_id = $1 order by id desc', [org.id]);
      expect(rows.map((x) => Number(x.id))).toEqual(ids);
    });

    test('D10 D30 audit:view: an admin may read the log; a member and a viewer get 403 permission_denied', async () => {
      const {
        people: [admin, member, viewer],
      } = await team('admin', 'member', 'viewer');
      expect((await admin!.call('GET', AUDIT)).status).toBe(200);
      expectError(await member!.call('GET', AUDIT), 403, 'permission_denied');
      expectError(await viewer!.call('GET', AUDIT), 403, 'permission_denied');
    });

    test("D9 D30 only the caller's organization's entries: another's never appear, and its header is 403 not_a_member", async () => {
      const {
        people: [mine],
      } = await team('owner');
      const {
        people: [theirs],
      } = await team('owner');
      await customer(mine!);
      const theirCustomer = await customer(theirs!);
      const r = await log(mine!, 'page_size=100');
      expect(r.count).toBe(1);
      expect(r.results.map((e) => e.target.id)).not.toContain(theirCustomer);
      expect((await log(mine!, `target_type=customer&target_id=${theirCustomer}`)).count).toBe(0);
      expect((await log(mine!, `actor=${theirs!.id}`)).count).toBe(0);
      expectError(await mine!.call('GET', AUDIT, undefined, theirs!.org), 403, 'not_a_member');
      const demo = await server.db.query<{ n: unknown }>('select count(*) as n from audit_log where org_id <> $1', [mine!.org]);
      expect(Number(demo[0]!.n)).toBeGreaterThan(0); // there were others' entries to leave out
    });
  });

  describe('D30 filters and pages', () => {
    test('D30 filters by actor, action, target type and target id narrow the list and its count, and combine', async () => {
      const {
        people: [owner, admin, member],
      } = await team('owner', 'admin', 'member');
      expect((await owner!.call('PATCH', `${MEMBERS}${member!.id}/`, { role: 'viewer' })).status).toBe(200);
      expect((await admin!.call('PATCH', `${MEMBERS}${member!.id}/`, { role: 'member' })).status).toBe(200);
      const c1 = await customer(admin!);
      await customer(owner!);
      const byAdmin = await log(owner!, `actor=${admin!.id}`);
      expect([byAdmin.count, byAdmin.results.every((e) => e.actor?.id === admin!.id)]).toEqual([2, true]);
      const roles = await log(owner!, 'action=member.role_changed');
      expect(roles.results.map((e) => e.changes)).toEqual([{ role: { from: 'viewer', to: 'member' } }, { role: { from: 'member', to: 'viewer' } }]);
      expect((await log(owner!, 'target_type=customer')).count).toBe(2);
      const one = await log(owner!, `target_type=customer&target_id=${c1}`);
      expect(one.results.map((e) => [e.action, e.target.id])).toEqual([['customer.created', c1]]);
      expect((await log(owner!, `target_type=member&target_id=${member!.id}&actor=${owner!.id}`)).count).toBe(1);
      expect((await log(owner!, 'action=member.removed')).count).toBe(0);
    });

    test('D30 page and page_size walk the list newest first without gaps or repeats; count is the total', async () => {
      const {
        people: [owner],
      } = await team('owner');
      for (let i = 0; i < 7; i++) await customer(owner!);
      const all = await log(owner!, 'page_size=100');
      expect(all.count).toBe(7);
      const pages: AuditEntryView[][] = [];
      for (let page = 1; page <= 4; page++) {
        const r = await log(owner!, `page=${page}&page_size=3`);
        expect(r.count).toBe(7);
        pages.push(r.results);
      }
      expect(pages.map((p) => p.length)).toEqual([3, 3, 1, 0]);
      expect(pages.flat()).toEqual(all.results);
    });

    test('D19 bad filter and paging values are a 400 naming the parameter', async () => {
      const {
        people: [owner],
      } = await team('owner');
      const bad: [string, string][] = [
        ['actor=abc', 'actor'],
        ['actor=0', 'actor'],
        ['actor=-1', 'actor'],
        ['actor=99999999999', 'actor'],
        ['target_id=1.5', 'target_id'],
        ['action=Member%20Removed', 'action'],
        ['action=a%27%3Bdrop', 'action'],
        ['action=' + 'a'.repeat(61), 'action'],
        ['target_type=Customer-1', 'target_type'],
        ['page=0', 'page'],
        ['page=x', 'page'],
        ['page_size=0', 'page_size'],
        ['page_size=101', 'page_size'],
      ];
      for (const [query, field] of bad) {
        const r = await owner!.call('GET', `${AUDIT}?${query}`);
        expectError(r, 400);
        expect(r.body.field, query).toBe(field);
      }
    });
  });

  describe('D24 D30 D32 one audit view', () => {
    test('D24 D30 D32 an entry about a customer reads the same in the activity log, in its timeline and on the dashboard', async () => {
      const {
        people: [owner],
      } = await team('owner');
      const id = await customer(owner!);
      expect((await owner!.call('DELETE', `${CUSTOMERS}${id}/`)).status).toBe(204);
      expect((await owner!.call('POST', `${CUSTOMERS}${id}/restore/`)).status).toBe(200);
      const logged = (await log(owner!, `target_type=customer&target_id=${id}`)).results;
      expect(logged.map((e) => e.action)).toEqual(['customer.restored', 'customer.deleted', 'customer.created']);
      const timeline = await owner!.call('GET', `${CUSTOMERS}${id}/timeline/`);
      expect(timeline.status, timeline.text).toBe(200);
      const items = (timeline.body.results as ({ kind: string } & AuditEntryView)[]).map(({ kind: _kind, ...e }) => e);
      expect(items).toEqual(logged);
      const dashboard = await owner!.call('GET', '/api/v1/dashboard/');
      expect((dashboard.body.activity as AuditEntryView[]).slice(0, 3)).toEqual(logged);
    });

    test('D24 D30 an import reads the same in the activity log and in the timeline of a customer it created, without its list of customers', async () => {
      const {
        people: [owner],
      } = await team('owner');
      const r = await owner!.raw('POST', `${CUSTOMERS}import/`, `name\r\nImported ${++counter}\r\nImported ${++counter}\r\n`, 'text/csv');
      expect(r.status, r.text).toBe(200);
      const [imported] = (await log(owner!, 'action=customers.imported')).results;
      expect(imported!.changes).not.toHaveProperty('customer_ids');
      const [created] = (await owner!.call('GET', `${CUSTOMERS}?page_size=25`)).body.results as { id: number }[];
      const timeline = await owner!.call('GET', `${CUSTOMERS}${created!.id}/timeline/`);
      const { kind, ...entry } = (timeline.body.results as ({ kind: string } & AuditEntryView)[])[0]!;
      expect([kind, entry]).toEqual(['audit', imported]);
    });
  });

  describe('D30 append-only and secret-free', () => {
    test('D30 nothing in the API changes or deletes an entry: PUT, PATCH, DELETE and POST on /v1/audit/ are 405 and the log is as it was', async () => {
      const {
        people: [owner],
      } = await team('owner');
      await customer(owner!);
      const [entry] = (await log(owner!)).results;
      const before = await auditRows();
      for (const method of ['PUT', 'PATCH', 'DELETE', 'POST']) {
        const r = await owner!.call(method, AUDIT, method === 'DELETE' ? undefined : { action: 'forged' });
        expectError(r, 405, 'method_not_allowed');
        expect(r.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
      }
      for (const method of ['GET', 'PUT', 'PATCH', 'DELETE'])
        expectError(await owner!.call(method, `${AUDIT}${entry!.id}/`, method === 'PUT' || method === 'PATCH' ? {} : undefined), 404);
      expect(await auditRows()).toBe(before);
    });

    test('D30 a refused change writes no entry: 403 owner_required and 409 last_owner leave the log as it was', async () => {
      const {
        people: [owner, admin],
      } = await team('owner', 'admin');
      const before = await auditRows();
      expectError(await admin!.call('PATCH', `${MEMBERS}${owner!.id}/`, { role: 'member' }), 403, 'owner_required');
      expectError(await owner!.call('DELETE', `${MEMBERS}${owner!.id}/`), 409, 'last_owner');
      expectError(await admin!.call('POST', INVITATIONS, { email: `owner${counter}@example.test`, role: 'owner' }), 403, 'owner_required');
      expect(await auditRows()).toBe(before);
    });

    test('D30 the log as the API shows it never holds an invitation token, a password or a hash', async () => {
      const {
        org,
        people: [owner],
      } = await team('owner');
      const email = `secret${++counter}@example.test`;
      const first = (await owner!.call('POST', INVITATIONS, { email, role: 'member' })).body as unknown as IssuedInvitation;
      const renewed = await owner!.call('POST', `${INVITATIONS}${first.id}/renew/`);
      expect(renewed.status, renewed.text).toBe(201);
      const token = renewed.body.token as string;
      const password = 'correct-horse-battery-staple';
      expect((await api.post(`/api/v1/invitations/${token}/accept/`, { first_name: 'Newcomer', password })).status).toBe(200);
      const [user] = await server.db.query<{ password_hash: string }>('select password_hash from users where email = $1', [email]);
      const hashes = (await server.db.query<{ token_hash: string }>('select token_hash from invitations where org_id = $1', [org.id])).map((h) => h.token_hash);
      const r = await owner!.call('GET', `${AUDIT}?page_size=100`);
      expect((r.body.results as AuditEntryView[]).map((e) => e.action)).toEqual(['invitation.accepted', 'invitation.renewed', 'invitation.created']);
      for (const secret of [first.token, token, password, user!.password_hash, '$scrypt$', ...hashes]) expect(r.text).not.toContain(secret);
      expect(r.text).not.toMatch(/"(password|token|hash)[a-z_]*"\s*:/i);
    });
  });
});
