// The server's foundation for the CRM: the route table's rules, the caller in one query, claims that
// name no row, per-organization permissions (D10 D29) and the append-only audit log (D30).
import { beforeAll, describe, expect, test } from 'vitest';
import { DEFAULT_ROLE_PERMISSIONS } from '../../contract/permissions';
import { CUSTOMERS, expectError, ME } from './api-common';
import { forEachBackend, type Api } from './backends';
import { createUser, forgeJwt, orgId, tokens, type TestServer } from './helpers';
import { statementsDuring } from './statements';

forEachBackend('API foundation', (backend) => {
  let server: TestServer;
  let api: Api;
  let secret: string;
  beforeAll(async () => {
    ({ server, api } = backend());
    const [row] = await server.db.query<{ value: string }>("select value from app_settings where key = 'jwt_secret'");
    secret = row!.value;
  });
  const auth = (token: string, org?: number) => ({ Authorization: `Bearer ${token}`, ...(org ? { 'X-Organization-ID': String(org) } : {}) });

  describe('routes as data', () => {
    test('D19 OPTIONS lists the methods of a path, HEAD runs GET, and any other method is a 405 with Allow', async () => {
      const options = await api.request(CUSTOMERS, { method: 'OPTIONS' });
      expect(options.status).toBe(204);
      expect(options.headers.get('allow')).toBe('GET, POST, HEAD, OPTIONS');
      for (const method of ['PUT', 'PATCH', 'DELETE']) {
        const r = await api.request(ME, { method });
        expectError(r, 405, 'method_not_allowed');
        expect(r.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
      }
    });

    test('D19 a path is matched exactly: no missing trailing slash, no doubled slash, no extra segment', async () => {
      for (const path of ['/api/v1/auth/me', '/api/v1//auth/me/', '/api/v1/auth/me/x/', '/api/v1/customers/x/y/']) {
        expectError(await api.get(path), 404, 'not_found');
      }
      expect((await api.get('/api/v1/auth/me')).body.detail).toContain('/api/v1/auth/me/');
    });
  });

  /** D52: a session's first call also writes its last activity (then at most once a minute): made before counting. */
  const lastActivityWritten = async (accessToken: string) => expect((await api.me(accessToken)).status).toBe(200);

  describe('the caller in one query', () => {
    test('D9 GET /me is answered with one query: session, user, organizations, role and permissions', async () => {
      const t = tokens(await api.login('owner@demo.test'));
      const acme = await orgId(server.db, 'Acme Plumbing');
      await lastActivityWritten(t.access_token);
      const { result, texts: queries } = await statementsDuring(server, () => api.me(t.access_token, acme));
      expect(result.status).toBe(200);
      expect(queries).toHaveLength(1);
      const again = await statementsDuring(server, () => api.me(t.access_token, acme));
      expect(again.result.body).toEqual(result.body);
      expect(again.texts).toHaveLength(1); // nothing is kept between requests: each asks the database once
    });

    test('D9 an organization route checks session, membership and permission in one query before its own', async () => {
      const t = tokens(await api.login('owner@demo.test'));
      const acme = await orgId(server.db, 'Acme Plumbing');
      await lastActivityWritten(t.access_token);
      const { result, texts: queries } = await statementsDuring(server, () => api.get(CUSTOMERS, auth(t.access_token, acme)));
      expect(result.status).toBe(200);
      expect(queries[0]).toMatch(/from sessions s/);
      expect(queries.length).toBeLessThanOrEqual(2); // the caller, then the page with its total
      const refused = await statementsDuring(server, () => api.get(CUSTOMERS, auth(t.access_token, 987_654)));
      expectError(refused.result, 403, 'not_a_member');
      expect(refused.texts).toHaveLength(1);
    });

    test('D2 a page of the customers list is read afresh each time: a new customer is on the next page asked for', async () => {
      const t = tokens(await api.login('owner@demo.test'));
      const acme = await orgId(server.db, 'Acme Plumbing');
      const first = await api.get(`${CUSTOMERS}?sort=-created_at`, auth(t.access_token, acme));
      const made = await api.post(CUSTOMERS, { name: `Fresh ${Date.now()}` }, auth(t.access_token, acme));
      expect(made.status).toBe(201);
      const after = await api.get(`${CUSTOMERS}?sort=-created_at`, auth(t.access_token, acme));
      expect(after.body.count).toBe((first.body.count as number) + 1);
      expect((after.body.results as { id: number }[])[0]!.id).toBe(made.body.id);
    });

    test('D34 case variants of a search get the same answer', async () => {
      const t = tokens(await api.login('owner@demo.test'));
      const acme = await orgId(server.db, 'Acme Plumbing');
      const first = await api.get(`${CUSTOMERS}?q=example&page_size=50`, auth(t.access_token, acme));
      expect(first.body.count).toBeGreaterThan(0);
      for (const q of ['EXAMPLE', 'Example', 'eXaMpLe']) {
        const variant = await api.get(`${CUSTOMERS}?q=${q}&page_size=50`, auth(t.access_token, acme));
        expect(variant.body, q).toEqual(first.body); // the search is case-insensitive
      }
    });

    test('D16 logout takes effect on the very next request, on every route', async () => {
      const t = tokens(await api.login('owner@demo.test'));
      const acme = await orgId(server.db, 'Acme Plumbing');
      expect((await api.get(CUSTOMERS, auth(t.access_token, acme))).status).toBe(200);
      expect((await api.logout({ refresh_token: t.refresh_token })).status).toBe(204);
      expectError(await api.get(CUSTOMERS, auth(t.access_token, acme)), 401, 'session_ended');
      expectError(await api.me(t.access_token), 401, 'session_ended');
    });
  });

  describe('D16 claims are checked', () => {
    // Every value a claim could take that names no row, or is of the wrong type: a 401, never a 500.
    const subs: unknown[] = ['0', '-1', '2147483648', '9007199254740993', '99999999999999999999', '1e3', '01', ' 1', '1.0', 1, null, true, [], {}, ''];
    const sids: unknown[] = [0, -1, 1.5, 2 ** 53, '1', null, [], 1e308, Number.MAX_SAFE_INTEGER];
    const exps: unknown[] = ['9999999999', null, -1, 0, [], {}];

    test('D16 a correctly signed token whose sub, sid or exp is out of range or of the wrong type is a 401 on every route', async () => {
      const t = tokens(await api.login('solo@demo.test'));
      const acme = await orgId(server.db, 'Acme Plumbing');
      const now = Math.floor(Date.now() / 1000);
      const base = { sub: '1', sid: t.session_id, iat: now, exp: now + 600 };
      const payloads = [
        ...subs.map((sub) => ({ ...base, sub })),
        ...sids.map((sid) => ({ ...base, sid })),
        ...exps.map((exp) => ({ ...base, exp })),
        { ...base, iat: 'now' },
      ];
      for (const payload of payloads) {
        const token = forgeJwt({ alg: 'HS256', typ: 'JWT' }, payload, secret);
        for (const r of [await api.me(token, acme), await api.get(CUSTOMERS, auth(token, acme))]) {
          expect(r.status, JSON.stringify(payload)).toBe(401);
          expect(r.body.code).toMatch(/^(invalid_token|token_expired|session_ended)$/);
        }
      }
    });

    test("D16 a well-formed token naming a session that is not the user's is a 401", async () => {
      const t = tokens(await api.login('solo@demo.test'));
      const other = await createUser(server.db);
      const now = Math.floor(Date.now() / 1000);
      const token = forgeJwt({ alg: 'HS256', typ: 'JWT' }, { sub: String(other.id), sid: t.session_id, iat: now, exp: now + 600 }, secret);
      expectError(await api.me(token), 401, 'session_ended');
    });
  });

  describe('D10 D29 permissions per organization', () => {
    test("D10 the database holds the contract's defaults, including customers:export and audit:view", async () => {
      const rows = await server.db.query<{ role: string; permission: string }>('select role, permission from default_role_permissions');
      for (const [role, permissions] of Object.entries(DEFAULT_ROLE_PERMISSIONS)) {
        expect(
          rows
            .filter((r) => r.role === role)
            .map((r) => r.permission)
            .sort(),
          role,
        ).toEqual([...permissions].sort());
      }
      const t = tokens(await api.login('owner@demo.test'));
      const me = await api.me(t.access_token, await orgId(server.db, 'Acme Plumbing'));
      expect(me.body.permissions).toEqual(expect.arrayContaining(['customers:export', 'audit:view', 'permissions:manage']));
    });

    test("D29 a new organization starts with D10's matrix", async () => {
      const [org] = await server.db.query<{ id: number }>("insert into organizations (name) values ('Fresh Org') returning id");
      const rows = await server.db.query<{ role: string; permission: string }>('select role, permission from role_permissions where org_id = $1', [org!.id]);
      expect(
        rows
          .filter((r) => r.role === 'viewer')
          .map((r) => r.permission)
          .sort(),
      ).toEqual([...DEFAULT_ROLE_PERMISSIONS.viewer].sort());
      expect(rows).toHaveLength(Object.values(DEFAULT_ROLE_PERMISSIONS).flat().length);
    });

    test("D29 one organization's matrix never changes another's, and a change applies to the next request", async () => {
      const user = await createUser(server.db, {
        memberships: [
          ['Acme Plumbing', 'viewer'],
          ['Beacon Electric', 'viewer'],
        ],
      });
      const t = tokens(await api.login(user.email, user.password));
      const [acme, beacon] = [await orgId(server.db, 'Acme Plumbing'), await orgId(server.db, 'Beacon Electric')];
      expect((await api.get(CUSTOMERS, auth(t.access_token, acme))).status).toBe(200);
      await server.db.query("delete from role_permissions where org_id = $1 and role = 'viewer' and permission = 'customers:view'", [acme]);
      try {
        expectError(await api.get(CUSTOMERS, auth(t.access_token, acme)), 403, 'permission_denied');
        expect((await api.get(CUSTOMERS, auth(t.access_token, beacon))).status).toBe(200);
        expect((await api.me(t.access_token, acme)).body.permissions).toEqual(['dashboard:view']);
      } finally {
        await server.db.query("insert into role_permissions (org_id, role, permission) values ($1, 'viewer', 'customers:view')", [acme]);
      }
    });
  });

  describe('D30 the audit log', () => {
    test('D30 entries cannot be changed or deleted, even by the database owner', async () => {
      const acme = await orgId(server.db, 'Acme Plumbing');
      await server.db.query("insert into audit_log (org_id, actor_label, action, target_type, target_label) values ($1, 'test', 'test.made', 'test', 'x')", [acme]);
      await expect(server.db.query("update audit_log set action = 'changed' where action = 'test.made'")).rejects.toThrow(/append-only/);
      await expect(server.db.query("delete from audit_log where action = 'test.made'")).rejects.toThrow(/append-only/);
      const [row] = await server.db.query<{ n: number }>("select count(*)::int as n from audit_log where action = 'test.made'");
      expect(row!.n).toBe(1);
    });
  });
});
