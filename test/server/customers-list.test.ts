// D9 GET /v1/customers/: one organization's customers, searched and paged; D9 D10 D16 D19 its refusals.
import { beforeAll, describe, expect, test } from 'vitest';
import type { CustomerListItem } from '../../contract/customers';
import { CUSTOMERS, expectError } from './api-common';
import { forEachBackend, type Api } from './backends';
import { LIST_ITEM_KEYS } from './customers-common';
import { createUser, MINUTE, orgId, tokens, type Clock, type TestServer } from './helpers';

forEachBackend('API customers list', (backend) => {
  let server: TestServer;
  let clock: Clock;
  let api: Api;
  beforeAll(() => {
    ({ server, clock, api } = backend());
  });

  describe('D9 GET /v1/customers/', () => {
    type Customer = Omit<CustomerListItem, 'deleted_at' | 'deleted_by'>;
    /** GET /v1/customers/ with a bearer token, an organization (null: no header) and a query string. */
    const list = (token: string | null, org: number | string | null, query = '') =>
      api.get(`${CUSTOMERS}${query ? `?${query}` : ''}`, {
        ...(token === null ? {} : { Authorization: `Bearer ${token}` }),
        ...(org === null ? {} : { 'X-Organization-ID': String(org) }),
      });
    /** Every customer of an organization straight from the database, in the list's order. */
    const allOf = async (org: string): Promise<Customer[]> => {
      const rows = await server.db.query<Customer & { id: unknown }>(
        `select c.id, c.name, c.company, c.email, c.phone, coalesce(c.primary_city, c.city) as city, c.status, c.tags, c.type, c.do_not_service, c.created_at, c.updated_at, c.custom,
                (select json_build_object('id', u.id, 'name', u.first_name) from users u where u.id = c.assigned_to) as assigned_to
           from customers c join organizations o on o.id = c.org_id where o.name = $1 and c.deleted_at is null`,
        [org],
      );
      const sortKey = (c: Customer) => c.name.toLowerCase();
      return rows
        .map((r) => ({ ...r, id: Number(r.id), created_at: new Date(r.created_at).toISOString(), updated_at: new Date(r.updated_at).toISOString() }))
        .sort((a, b) => (sortKey(a) < sortKey(b) ? -1 : sortKey(a) > sortKey(b) ? 1 : a.id - b.id));
    };
    const results = (r: { body: Record<string, unknown> }) => r.body.results as Customer[];
    const signIn = async (email = 'owner@demo.test') => tokens(await api.login(email)).access_token;

    test("D9 D26 lists the first page of the organization's live customers with the list's fields, by name then id", async () => {
      const token = await signIn();
      const acme = await orgId(server.db, 'Acme Plumbing');
      const r = await list(token, acme);
      expect(r.status, r.text).toBe(200);
      expect(Object.keys(r.body).sort()).toEqual(['count', 'results']);
      const all = await allOf('Acme Plumbing');
      expect(r.body.count).toBe(all.length);
      expect(results(r)).toHaveLength(25); // the default page size
      for (const c of results(r)) expect(Object.keys(c).sort()).toEqual(LIST_ITEM_KEYS);
      expect(results(r)).toEqual(all.slice(0, 25));
      expect(r.headers.get('cache-control')).toBe('no-store');
    });

    test("D9 a list is scoped to the organization named: Acme Plumbing's customers never appear in Beacon Electric's", async () => {
      const token = await signIn();
      const acmeIds = new Set((await allOf('Acme Plumbing')).map((c) => c.id));
      const beacon = await list(token, await orgId(server.db, 'Beacon Electric'), 'page_size=100');
      expect(beacon.status).toBe(200);
      expect(results(beacon)).toEqual(await allOf('Beacon Electric'));
      expect(results(beacon).filter((c) => acmeIds.has(c.id))).toEqual([]);
      // A viewer (D10: customers:view) of Beacon Electric sees the same list.
      const viewer = await list(await signIn('viewer@demo.test'), await orgId(server.db, 'Beacon Electric'), 'page_size=100');
      expect(viewer.body).toEqual(beacon.body);
    });

    test('D9 q searches name, email and phone case-insensitively; LIKE characters are taken literally', async () => {
      const token = await signIn();
      const acme = await orgId(server.db, 'Acme Plumbing');
      const all = await allOf('Acme Plumbing');
      const matching = (text: string) => all.filter((c) => [c.name, c.email, c.phone].some((v) => v?.toLowerCase().includes(text.toLowerCase())));
      const someone = all.find((c) => c.name.includes(' ')) ?? all[0]!;
      const lastName = someone.name.split(' ').at(-1)!;
      for (const q of [lastName.toUpperCase(), lastName.toLowerCase(), 'example.org', someone.email!, someone.phone!, '555-01']) {
        const r = await list(token, acme, `q=${encodeURIComponent(q)}&page_size=100`);
        expect(r.status, q).toBe(200);
        expect(results(r), q).toEqual(matching(q));
        expect(r.body.count, q).toBe(matching(q).length);
        expect(results(r).length, q).toBeGreaterThan(0);
      }
      // A phone number typed with other punctuation, or as bare digits, still finds it.
      const digits = someone.phone!.replace(/\D/g, '');
      const byDigits = await list(token, acme, `q=${digits.slice(-7)}`);
      expect(results(byDigits).map((c) => c.id)).toContain(someone.id);
      // Surrounding spaces do not count; %, _ and \ match only themselves (none are in the data).
      expect(results(await list(token, acme, `q=${encodeURIComponent(`  ${lastName}  `)}&page_size=100`))).toEqual(matching(lastName));
      for (const q of ['%', '_', '\\', 'a%e', 'zzzz-no-such-customer']) {
        const r = await list(token, acme, `q=${encodeURIComponent(q)}`);
        expect(r.body, q).toEqual({ count: 0, results: [] });
      }
      // An empty q is no search at all.
      expect((await list(token, acme, 'q=')).body.count).toBe(all.length);
    });

    test('D26 one or two characters find names that begin with them; three or more find the text anywhere', async () => {
      const token = await signIn();
      const acme = await orgId(server.db, 'Acme Plumbing');
      const all = await allOf('Acme Plumbing');
      const someone = all.find((c) => c.name.includes(' '))!;
      for (const q of [someone.name.slice(0, 1), someone.name.slice(0, 2).toUpperCase()]) {
        const r = await list(token, acme, `q=${encodeURIComponent(q)}&page_size=100`);
        expect(
          results(r).map((c) => c.id),
          q,
        ).toEqual(all.filter((c) => c.name.toLowerCase().startsWith(q.toLowerCase())).map((c) => c.id));
      }
      const inside = someone.name.split(' ').at(-1)!.slice(1, 4); // three letters from inside the last name
      const r = await list(token, acme, `q=${encodeURIComponent(inside)}&page_size=100`);
      expect(results(r).map((c) => c.id)).toContain(someone.id);
    });

    test('D9 page and page_size: pages follow on without overlap; past the end is an empty page with the count', async () => {
      const token = await signIn();
      const acme = await orgId(server.db, 'Acme Plumbing');
      const all = await allOf('Acme Plumbing');
      const pages: Customer[] = [];
      for (let page = 1; page <= Math.ceil(all.length / 10); page++) {
        const r = await list(token, acme, `page=${page}&page_size=10`);
        expect(r.body.count).toBe(all.length);
        pages.push(...results(r));
      }
      expect(pages).toEqual(all);
      expect(results(await list(token, acme, 'page=2'))).toEqual(all.slice(25, 50));
      expect(results(await list(token, acme, 'page_size=100'))).toEqual(all.slice(0, 100));
      expect(results(await list(token, acme, 'page_size=1'))).toEqual(all.slice(0, 1));
      expect((await list(token, acme, 'page=99')).body).toEqual({ count: all.length, results: [] });
      expect((await list(token, acme, 'page=1000000&page_size=100')).body).toEqual({ count: all.length, results: [] });
      expect((await list(token, acme, 'q=zzzz-none&page=3')).body).toEqual({ count: 0, results: [] });
    });

    test('D19 a bad q, page or page_size is a 400 naming the parameter', async () => {
      const token = await signIn();
      const acme = await orgId(server.db, 'Acme Plumbing');
      const cases: [string, string][] = [
        ['page=0', 'page'],
        ['page=-1', 'page'],
        ['page=abc', 'page'],
        ['page=1.5', 'page'],
        ['page=', 'page'],
        ['page=1e3', 'page'],
        ['page=1000001', 'page'],
        ['page=99999999999999999999', 'page'],
        ['page=1&page=2', 'page'],
        ['page_size=0', 'page_size'],
        ['page_size=101', 'page_size'],
        ['page_size=ten', 'page_size'],
        ['page_size=', 'page_size'],
        ['page_size=%2010', 'page_size'],
        [`q=${'x'.repeat(101)}`, 'q'],
        ['q=a%00b', 'q'],
        ['q=a%0Ab', 'q'],
        ['q=a&q=b', 'q'],
      ];
      for (const [query, field] of cases) {
        const r = await list(token, acme, query);
        expectError(r, 400, 'invalid_field');
        expect(r.body.field, query).toBe(field);
        expect(r.body.detail, query).toContain(field);
      }
      expect((await list(token, acme, `q=${'x'.repeat(100)}`)).status).toBe(200); // the limit itself is fine
      expect((await list(token, acme, `q=${encodeURIComponent('é 🔑 \u00ff')}`)).status).toBe(200);
    });

    test('D9 X-Organization-ID is required here: missing or malformed is a 400 naming the header', async () => {
      const token = await signIn();
      const missing = await list(token, null);
      expectError(missing, 400, 'missing_organization_id');
      expect(missing.body.field).toBe('X-Organization-ID');
      expect(missing.body.detail).toContain('X-Organization-ID');
      for (const value of ['abc', '0', '', '1.5']) {
        const r = await list(token, value);
        expectError(r, 400, 'invalid_organization_id');
        expect(r.body.field).toBe('X-Organization-ID');
      }
    });

    test('D16 SPEC §7 an absent, invalid, expired or revoked token is a 401 from authentication, before any other check', async () => {
      const acme = await orgId(server.db, 'Acme Plumbing');
      expectError(await list(null, acme), 401, 'not_authenticated');
      expectError(await list('not.a.token', acme), 401, 'invalid_token');
      const t = tokens(await api.login('solo@demo.test'));
      expect((await list(t.access_token, acme)).status).toBe(200);
      expect((await api.logout({ refresh_token: t.refresh_token }, t.access_token)).status).toBe(204);
      // Revoked: 401 (so the client refreshes, fails and shows Session Expired), even with a bad header or query.
      expectError(await list(t.access_token, acme), 401, 'session_ended');
      expectError(await list(t.access_token, null), 401, 'session_ended');
      expectError(await list(t.access_token, 987654, 'page=0'), 401, 'session_ended');
      const old = tokens(await api.login('solo@demo.test'));
      clock.advance(15 * MINUTE);
      expectError(await list(old.access_token, acme), 401, 'token_expired');
    });

    test('D9 an organization the user is not a member of is a 403', async () => {
      const token = await signIn('viewer@demo.test');
      expectError(await list(token, await orgId(server.db, 'Acme Plumbing')), 403, 'not_a_member');
      expectError(await list(token, 987654), 403, 'not_a_member');
    });

    test('D9 D10 a role that does not grant customers:view is a 403 {detail, code}', async () => {
      // Every D10 role may view customers, so a role without it is made for this test: the server
      // reads permissions from role_permissions, never from code.
      await server.db.query("insert into roles (name) values ('test-dashboard-only') on conflict do nothing");
      await server.db.query(
        "insert into role_permissions (org_id, role, permission) select id, 'test-dashboard-only', 'dashboard:view' from organizations on conflict do nothing",
      );
      const user = await createUser(server.db, { memberships: [['Acme Plumbing', 'viewer']] });
      const token = tokens(await api.login(user.email, user.password)).access_token;
      const acme = await orgId(server.db, 'Acme Plumbing');
      expect((await list(token, acme)).status).toBe(200);
      await server.db.query("update memberships set role = 'test-dashboard-only' where user_id = $1", [user.id]);
      const r = await list(token, acme);
      expectError(r, 403, 'permission_denied');
      expect(r.body.detail).toContain('customers:view');
      expect(Object.keys(r.body).sort()).toEqual(['code', 'detail']);
    });

    test('D19 the customers list answers GET, HEAD and POST (create); other methods are a 405', async () => {
      const token = await signIn();
      const acme = await orgId(server.db, 'Acme Plumbing');
      const head = await api.request(CUSTOMERS, { method: 'HEAD', headers: { Authorization: `Bearer ${token}`, 'X-Organization-ID': String(acme) } });
      expect([head.status, head.text]).toEqual([200, '']);
      for (const method of ['PUT', 'PATCH', 'DELETE']) {
        const r = await api.request(CUSTOMERS, { method });
        expectError(r, 405, 'method_not_allowed');
        expect(r.headers.get('allow')).toBe('GET, POST, HEAD, OPTIONS');
      }
    });
  });
});
