// The API's rules (SPEC §7, D3, D8–D10, D16–D19), run against PGlite and against a real PostgreSQL.
// One server per backend with demo data; each test uses its own login, client address and, where it
// fails logins on purpose, its own user, so tests do not disturb each other.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { StartOptions } from '../../server/server';
import {
  client, createUser, DAY, decodeJwt, forgeJwt, MINUTE, newAddress, orgId, rawRequest, SECOND, sha256,
  startTestServer, tokens, type Clock, makeClock, type TestServer,
} from './helpers';

/** D10, in the order a reader checks them. */
const ALL = [
  'dashboard:view', 'customers:view', 'customers:create', 'customers:update', 'customers:delete', 'jobs:view',
  'sms:view', 'email:view', 'calls:view', 'team:view', 'team:manage', 'permissions:view', 'permissions:manage',
];
export const D10: Record<string, string[]> = {
  owner: ALL,
  admin: ALL.filter((p) => p !== 'permissions:manage'),
  member: ['dashboard:view', 'customers:view', 'customers:create', 'customers:update', 'jobs:view', 'sms:view', 'email:view', 'calls:view'],
  viewer: ['dashboard:view', 'customers:view'],
};
const sorted = (list: unknown) => [...(list as string[])].sort();

export const SUITE_ENV = {
  TRUST_PROXY: '1', // each test speaks from its own X-Forwarded-For address
  LOGIN_MAX_FAILURES_PER_EMAIL: '3',
  LOGIN_MAX_FAILURES_PER_CLIENT: '5',
  LOGIN_THROTTLE_WINDOW: '600',
};

const LOGIN = '/api/v1/auth/login/';
const REFRESH = '/api/v1/auth/refresh/';
const LOGOUT = '/api/v1/auth/logout/';
const ME = '/api/v1/auth/me/';
const CUSTOMERS = '/api/v1/customers/';

function expectError(r: { status: number; body: Record<string, unknown>; headers: Headers }, status: number, code?: string) {
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  expect(r.headers.get('content-type')).toMatch(/^application\/json/);
  expect(typeof r.body.detail).toBe('string');
  expect(typeof r.body.code).toBe('string');
  if (code) expect(r.body.code).toBe(code);
}

/** backend() gives the database options of one fresh database; cleanup runs after the suite. */
export function defineApiSuite(label: 'PGlite' | 'PostgreSQL', backend: () => Promise<{ options: StartOptions; cleanup: () => Promise<void> }>) {
  describe(`API (${label})`, () => {
    let server: TestServer;
    let clock: Clock;
    let cleanup: () => Promise<void> = async () => {};
    let api: ReturnType<typeof client>;

    beforeAll(async () => {
      const b = await backend();
      cleanup = b.cleanup;
      clock = makeClock();
      server = await startTestServer({ ...b.options, now: clock.now, env: SUITE_ENV });
      api = client(server.url);
    });
    afterAll(async () => {
      await server?.close();
      await cleanup();
    });

    test(`D2 the same schema and queries run on ${label}`, async () => {
      expect(server.db.kind).toBe(label === 'PGlite' ? 'pglite' : 'postgres');
      const [row] = await server.db.query<{ v: unknown }>('select max(version) as v from schema_migrations');
      expect(Number(row?.v)).toBeGreaterThanOrEqual(2);
    });

    describe('SPEC §7 login', () => {
      test('SPEC §7 login returns access_token, refresh_token, session_id and refresh_expires_at', async () => {
        const r = await api.login('owner@demo.test');
        expect(r.status).toBe(200);
        expect(Object.keys(r.body).sort()).toEqual(['access_token', 'refresh_expires_at', 'refresh_token', 'session_id']);
        const t = tokens(r);
        expect(t.access_token.split('.')).toHaveLength(3);
        expect(t.refresh_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
        expect(Number.isInteger(t.session_id)).toBe(true);
        expect(new Date(t.refresh_expires_at).toISOString()).toBe(t.refresh_expires_at);
      });

      test('D16 access token is an HS256 JWT with exp, sub and sid, valid 15 minutes', async () => {
        const t = tokens(await api.login('solo@demo.test'));
        const { header, payload } = decodeJwt(t.access_token);
        expect(header.alg).toBe('HS256');
        expect(payload.sid).toBe(t.session_id);
        expect(typeof payload.sub).toBe('string');
        expect(payload.exp).toBe(Math.floor(clock.now() / 1000) + 15 * 60);
      });

      test('D16 a session lives 30 days with remember_me, 1 day without; SPEC §9 remember_me defaults to on', async () => {
        const lifetime = async (extra: Record<string, unknown>) =>
          Date.parse(tokens(await api.login('solo@demo.test', undefined, extra)).refresh_expires_at) - clock.now();
        expect(await lifetime({ remember_me: true })).toBe(30 * DAY);
        expect(await lifetime({ remember_me: false })).toBe(1 * DAY);
        expect(await lifetime({})).toBe(30 * DAY);
      });

      test('D17 a wrong password and an unknown email get the same 401', async () => {
        const user = await createUser(server.db);
        const wrong = await api.login(user.email, 'not-the-password');
        const unknown = await api.login(`nobody-${Date.now()}@test.example`, 'whatever');
        expectError(wrong, 401, 'invalid_credentials');
        expect(unknown.status).toBe(401);
        expect(unknown.body).toEqual(wrong.body);
      });

      test('D3 emails are matched case-insensitively', async () => {
        expect((await api.login('  Owner@Demo.TEST ')).status).toBe(200);
      });

      test('D19 login without email or password is a 400 naming the field', async () => {
        for (const [body, field] of [
          [{ password: 'x' }, 'email'],
          [{ email: '', password: 'x' }, 'email'],
          [{ email: 'a@b.example' }, 'password'],
          [{ email: 'a@b.example', password: '' }, 'password'],
        ] as const) {
          const r = await api.post(LOGIN, body);
          expectError(r, 400, 'missing_field');
          expect(r.body.field).toBe(field);
          expect(r.body.detail).toContain(field);
        }
      });

      test('D19 login fields of the wrong type are a 400 naming the field', async () => {
        for (const [body, field] of [
          [{ email: 42, password: 'x' }, 'email'],
          [{ email: ['a@b.example'], password: 'x' }, 'email'],
          [{ email: 'not-an-email', password: 'x' }, 'email'],
          [{ email: 'a@b.example', password: { p: 1 } }, 'password'],
          [{ email: 'a@b.example', password: 'x', remember_me: 'yes' }, 'remember_me'],
          [{ email: 'a@b.example', password: 'x'.repeat(2000) }, 'password'],
        ] as const) {
          const r = await api.post(LOGIN, body);
          expectError(r, 400);
          expect(r.body.field).toBe(field);
        }
      });
    });

    describe('D8 D16 refresh', () => {
      test('SPEC §7 refresh returns a new access_token and refresh_token (rotation)', async () => {
        const t = tokens(await api.login('solo@demo.test'));
        clock.advance(SECOND);
        const r = await api.refresh(t.refresh_token);
        expect(r.status).toBe(200);
        expect(Object.keys(r.body).sort()).toEqual(['access_token', 'refresh_expires_at', 'refresh_token']);
        const n = tokens(r);
        expect(n.refresh_token).not.toBe(t.refresh_token);
        expect(n.access_token).not.toBe(t.access_token);
        expect(decodeJwt(n.access_token).payload.sid).toBe(t.session_id);
        expect((await api.me(n.access_token)).status).toBe(200);
      });

      test('D16 refresh tokens are stored only as SHA-256 hashes', async () => {
        const t = tokens(await api.login('solo@demo.test'));
        const rows = await server.db.query<Record<string, unknown>>('select * from refresh_tokens where session_id = $1', [t.session_id]);
        expect(rows).toHaveLength(1);
        expect(rows[0]?.token_hash).toBe(sha256(t.refresh_token));
        expect(JSON.stringify(rows)).not.toContain(t.refresh_token);
      });

      test('D8 rotated-out refresh token within 10 s gets the same successor', async () => {
        const t = tokens(await api.login('solo@demo.test'));
        const first = tokens(await api.refresh(t.refresh_token));
        clock.advance(9 * SECOND);
        const again = tokens(await api.refresh(t.refresh_token));
        expect(again.refresh_token).toBe(first.refresh_token);
        expect(again.refresh_expires_at).toBe(first.refresh_expires_at);
        expect((await api.me(again.access_token)).status).toBe(200);
        // The successor itself still rotates normally, and the session stays live.
        const next = tokens(await api.refresh(first.refresh_token));
        expect(next.refresh_token).not.toBe(first.refresh_token);
      });

      test('D8 two tabs refreshing with the same token at once both get the same successor', async () => {
        const t = tokens(await api.login('solo@demo.test'));
        const [a, b] = await Promise.all([api.refresh(t.refresh_token), api.refresh(t.refresh_token)]);
        expect(tokens(a).refresh_token).toBe(tokens(b).refresh_token);
      });

      test('D8 rotated-out refresh token after 10 s counts as reuse and revokes the session', async () => {
        const t = tokens(await api.login('solo@demo.test'));
        const next = tokens(await api.refresh(t.refresh_token));
        clock.advance(11 * SECOND);
        expectError(await api.refresh(t.refresh_token), 401, 'refresh_token_reused');
        expectError(await api.refresh(next.refresh_token), 401, 'session_revoked');
        expectError(await api.me(next.access_token), 401);
        const [session] = await server.db.query<{ revoked_at: Date | null }>('select revoked_at from sessions where id = $1', [t.session_id]);
        expect(session?.revoked_at).toBeInstanceOf(Date);
      });

      test('D16 each refresh slides the expiry, never past 90 days from login', async () => {
        const login = clock.now();
        let t = tokens(await api.login('solo@demo.test', undefined, { remember_me: true }));
        expect(Date.parse(t.refresh_expires_at)).toBe(login + 30 * DAY);
        for (const step of [20, 20, 20, 20]) {
          clock.advance(step * DAY);
          t = { ...t, ...tokens(await api.refresh(t.refresh_token)) };
          expect(Date.parse(t.refresh_expires_at)).toBe(Math.min(clock.now() + 30 * DAY, login + 90 * DAY));
        }
        expect(Date.parse(t.refresh_expires_at)).toBe(login + 90 * DAY);
        clock.advance(login + 90 * DAY - clock.now());
        expectError(await api.refresh(t.refresh_token), 401, 'session_expired');
      });

      test('D16 a session without remember me ends after 1 day without a refresh', async () => {
        const t = tokens(await api.login('solo@demo.test', undefined, { remember_me: false }));
        clock.advance(DAY - SECOND);
        const n = tokens(await api.refresh(t.refresh_token));
        expect(Date.parse(n.refresh_expires_at)).toBe(clock.now() + DAY);
        clock.advance(DAY + SECOND);
        expectError(await api.refresh(n.refresh_token), 401, 'session_expired');
        expectError(await api.me(n.access_token), 401);
      });

      test('D19 refresh without a refresh_token is a 400 naming it; an unknown one is a 401', async () => {
        const missing = await api.post(REFRESH, {});
        expectError(missing, 400, 'missing_field');
        expect(missing.body.field).toBe('refresh_token');
        const wrongType = await api.post(REFRESH, { refresh_token: 12345 });
        expectError(wrongType, 400);
        expect(wrongType.body.field).toBe('refresh_token');
        expectError(await api.refresh('not-a-token-we-issued'), 401, 'invalid_refresh_token');
      });
    });

    describe('D16 logout', () => {
      test('D16 logout revokes the session: its access and refresh tokens are refused with 401', async () => {
        const t = tokens(await api.login('owner@demo.test'));
        expect((await api.me(t.access_token)).status).toBe(200);
        const out = await api.logout({ refresh_token: t.refresh_token, session_id: t.session_id }, t.access_token);
        expect(out.status).toBe(204);
        expectError(await api.me(t.access_token), 401, 'session_ended');
        expectError(await api.refresh(t.refresh_token), 401, 'session_revoked');
        // Idempotent: logging out again with the refresh token still succeeds.
        expect((await api.logout({ refresh_token: t.refresh_token })).status).toBe(204);
      });

      test('D16 logout with only the access token revokes its session', async () => {
        const t = tokens(await api.login('owner@demo.test'));
        expect((await api.logout({}, t.access_token)).status).toBe(204);
        expectError(await api.refresh(t.refresh_token), 401, 'session_revoked');
      });

      test('D16 logout needs proof: a bare session_id revokes nothing', async () => {
        const t = tokens(await api.login('owner@demo.test'));
        expectError(await api.logout({ session_id: t.session_id }), 401, 'not_authenticated');
        expectError(await api.logout({ session_id: 'one' }), 400);
        expect((await api.me(t.access_token)).status).toBe(200);
      });
    });

    describe('D16 access tokens', () => {
      test('D16 expired access token is refused with 401', async () => {
        const t = tokens(await api.login('solo@demo.test'));
        clock.advance(15 * MINUTE);
        const r = await api.me(t.access_token);
        expectError(r, 401, 'token_expired');
        expect(r.headers.get('www-authenticate')).toMatch(/^Bearer/);
        expect((await api.me(tokens(await api.refresh(t.refresh_token)).access_token)).status).toBe(200);
      });

      test('D16 tampered access token is refused with 401', async () => {
        const t = tokens(await api.login('solo@demo.test'));
        const [h, p, s] = t.access_token.split('.') as [string, string, string];
        const payload = JSON.parse(Buffer.from(p, 'base64url').toString()) as Record<string, unknown>;
        const other = Buffer.from(JSON.stringify({ ...payload, sub: '1' })).toString('base64url');
        expectError(await api.me(`${h}.${other}.${s}`), 401, 'invalid_token');
        const flipped = s.slice(0, -2) + (s.at(-2) === 'A' ? 'B' : 'A') + s.at(-1);
        expectError(await api.me(`${h}.${p}.${flipped}`), 401, 'invalid_token');
      });

      test('D16 tokens with alg none or signed with another key are refused with 401', async () => {
        const t = tokens(await api.login('solo@demo.test'));
        const { payload } = decodeJwt(t.access_token);
        expectError(await api.me(forgeJwt({ alg: 'none', typ: 'JWT' }, payload, null)), 401, 'invalid_token');
        expectError(await api.me(forgeJwt({ alg: 'none' }, payload, null).slice(0, -1)), 401);
        expectError(await api.me(forgeJwt({ alg: 'HS512', typ: 'JWT' }, payload, 'guess')), 401, 'invalid_token');
        expectError(await api.me(forgeJwt({ alg: 'HS256', typ: 'JWT' }, payload, 'a-secret-we-do-not-use-0123456789')), 401, 'invalid_token');
      });

      test('D16 a missing or malformed Authorization header is a 401', async () => {
        expectError(await api.get(ME), 401, 'not_authenticated');
        for (const value of ['Bearer', 'Basic dXNlcjpwYXNz', 'Bearer a.b', 'Bearer a.b.c', 'Bearer ....', `Bearer ${'x'.repeat(5000)}`]) {
          expectError(await api.get(ME, { Authorization: value }), 401);
        }
      });
    });

    describe('SPEC §7 me', () => {
      test('SPEC §7 me returns user, organizations, permissions, features, role, prefs, favorite_org_id', async () => {
        const t = tokens(await api.login('solo@demo.test'));
        const r = await api.me(t.access_token);
        expect(r.status).toBe(200);
        expect(Object.keys(r.body).sort()).toEqual(['favorite_org_id', 'features', 'organizations', 'permissions', 'prefs', 'role', 'user']);
        expect(r.body.user).toEqual({ email: 'solo@demo.test', first_name: 'Sam', avatar_url: null });
        expect(r.body.organizations).toEqual([{ id: await orgId(server.db, 'Acme Plumbing'), name: 'Acme Plumbing', logo_url: '/logos/acme.svg' }]);
        expect(r.body.features).toEqual([]);
        expect(r.body.prefs).toEqual({});
        expect(r.body.favorite_org_id).toBeNull();
        expect(r.headers.get('cache-control')).toBe('no-store');
      });

      test('D3 owner@demo.test: Acme Plumbing (owner) and Beacon Electric (admin), no favorite, so no role without X-Organization-ID', async () => {
        const t = tokens(await api.login('owner@demo.test'));
        const r = await api.me(t.access_token);
        expect(r.body.organizations).toEqual([
          { id: await orgId(server.db, 'Acme Plumbing'), name: 'Acme Plumbing', logo_url: '/logos/acme.svg' },
          { id: await orgId(server.db, 'Beacon Electric'), name: 'Beacon Electric', logo_url: null },
        ]);
        expect(r.body.favorite_org_id).toBeNull();
        expect(r.body.role).toBeNull();
        expect(r.body.permissions).toEqual([]);
      });

      test('D9 D10 X-Organization-ID picks the role: owner in Acme Plumbing, admin in Beacon Electric', async () => {
        const t = tokens(await api.login('owner@demo.test'));
        const acme = await api.me(t.access_token, await orgId(server.db, 'Acme Plumbing'));
        expect(acme.body.role).toBe('owner');
        expect(sorted(acme.body.permissions)).toEqual(sorted(D10.owner));
        const beacon = await api.me(t.access_token, await orgId(server.db, 'Beacon Electric'));
        expect(beacon.body.role).toBe('admin');
        expect(sorted(beacon.body.permissions)).toEqual(sorted(D10.admin));
        expect(beacon.body.permissions).not.toContain('permissions:manage');
      });

      test('D3 D10 solo@demo.test is a member of Acme Plumbing only, chosen without a header', async () => {
        const r = await api.me(tokens(await api.login('solo@demo.test')).access_token);
        expect(r.body.role).toBe('member');
        expect(sorted(r.body.permissions)).toEqual(sorted(D10.member));
      });

      test('D3 D10 viewer@demo.test may view but not create or edit customers', async () => {
        const r = await api.me(tokens(await api.login('viewer@demo.test')).access_token);
        expect(r.body.organizations).toEqual([{ id: await orgId(server.db, 'Beacon Electric'), name: 'Beacon Electric', logo_url: null }]);
        expect(r.body.role).toBe('viewer');
        expect(sorted(r.body.permissions)).toEqual(sorted(D10.viewer));
        expect(r.body.permissions).not.toContain('customers:create');
      });

      test('D3 nobody@demo.test signs in but has no organization', async () => {
        const r = await api.me(tokens(await api.login('nobody@demo.test')).access_token);
        expect(r.status).toBe(200);
        expect(r.body.organizations).toEqual([]);
        expect(r.body.role).toBeNull();
        expect(r.body.permissions).toEqual([]);
      });

      test('D4 the favorite organization is used when no X-Organization-ID is sent', async () => {
        const user = await createUser(server.db, { memberships: [['Acme Plumbing', 'viewer'], ['Beacon Electric', 'member']], favorite: 'Beacon Electric' });
        const r = await api.me(tokens(await api.login(user.email, user.password)).access_token);
        expect(r.body.favorite_org_id).toBe(await orgId(server.db, 'Beacon Electric'));
        expect(r.body.role).toBe('member');
      });

      test('D9 a malformed X-Organization-ID is a 400', async () => {
        const t = tokens(await api.login('owner@demo.test'));
        for (const value of ['abc', '0', '-1', '1.5', '1e3', '99999999999', '', '1 2', '0x1']) {
          const r = await api.me(t.access_token, value);
          expectError(r, 400, 'invalid_organization_id');
          expect(r.body.field).toBe('X-Organization-ID');
        }
      });

      test('D9 X-Organization-ID of an organization the user is not a member of is a 403', async () => {
        const t = tokens(await api.login('viewer@demo.test'));
        expectError(await api.me(t.access_token, await orgId(server.db, 'Acme Plumbing')), 403, 'not_a_member');
        expectError(await api.me(t.access_token, 987654), 403, 'not_a_member');
      });

      test('D3 each organization has a few dozen realistic customers', async () => {
        const rows = await server.db.query<{ name: string; n: unknown; with_all: unknown }>(
          `select o.name, count(c.id)::int as n, count(*) filter (where c.email like '%@%' and c.phone <> '' and c.address <> '')::int as with_all
             from organizations o join customers c on c.org_id = o.id group by o.name order by o.name`,
        );
        expect(rows.map((r) => r.name)).toEqual(['Acme Plumbing', 'Beacon Electric']);
        for (const r of rows) {
          expect(Number(r.n)).toBeGreaterThanOrEqual(24);
          expect(Number(r.n)).toBeLessThanOrEqual(60);
          expect(Number(r.with_all)).toBe(Number(r.n));
        }
      });
    });

    describe('D9 GET /v1/customers/', () => {
      type Customer = { id: number; name: string; email: string | null; phone: string | null; address: string | null };
      /** GET /v1/customers/ with a bearer token, an organization (null: no header) and a query string. */
      const list = (token: string | null, org: number | string | null, query = '') =>
        api.get(`${CUSTOMERS}${query ? `?${query}` : ''}`, {
          ...(token === null ? {} : { Authorization: `Bearer ${token}` }),
          ...(org === null ? {} : { 'X-Organization-ID': String(org) }),
        });
      /** Every customer of an organization straight from the database, in the list's order. */
      const allOf = async (org: string): Promise<Customer[]> => {
        const rows = await server.db.query<Customer & { id: unknown }>(
          'select c.id, c.name, c.email, c.phone, c.address from customers c join organizations o on o.id = c.org_id where o.name = $1',
          [org],
        );
        const sortKey = (c: Customer) => c.name.toLowerCase();
        return rows
          .map((r) => ({ ...r, id: Number(r.id) }))
          .sort((a, b) => (sortKey(a) < sortKey(b) ? -1 : sortKey(a) > sortKey(b) ? 1 : a.id - b.id));
      };
      const results = (r: { body: Record<string, unknown> }) => r.body.results as Customer[];
      const signIn = async (email = 'owner@demo.test') => tokens(await api.login(email)).access_token;

      test('D9 lists the first page of the organization\'s customers with exactly id, name, email, phone, address, by name then id', async () => {
        const token = await signIn();
        const acme = await orgId(server.db, 'Acme Plumbing');
        const r = await list(token, acme);
        expect(r.status, r.text).toBe(200);
        expect(Object.keys(r.body).sort()).toEqual(['count', 'results']);
        const all = await allOf('Acme Plumbing');
        expect(r.body.count).toBe(all.length);
        expect(results(r)).toHaveLength(25); // the default page size
        for (const c of results(r)) expect(Object.keys(c).sort()).toEqual(['address', 'email', 'id', 'name', 'phone']);
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
          ['page=0', 'page'], ['page=-1', 'page'], ['page=abc', 'page'], ['page=1.5', 'page'], ['page=', 'page'], ['page=1e3', 'page'],
          ['page=1000001', 'page'], ['page=99999999999999999999', 'page'], ['page=1&page=2', 'page'],
          ['page_size=0', 'page_size'], ['page_size=101', 'page_size'], ['page_size=ten', 'page_size'], ['page_size=', 'page_size'],
          ['page_size=%2010', 'page_size'],
          [`q=${'x'.repeat(101)}`, 'q'], ['q=a%00b', 'q'], ['q=a%0Ab', 'q'], ['q=a&q=b', 'q'],
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
        await server.db.query("insert into role_permissions (role, permission) values ('test-dashboard-only', 'dashboard:view') on conflict do nothing");
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

      test('D19 the customers list answers GET and HEAD only; other methods are a 405', async () => {
        const token = await signIn();
        const acme = await orgId(server.db, 'Acme Plumbing');
        const head = await api.request(CUSTOMERS, { method: 'HEAD', headers: { Authorization: `Bearer ${token}`, 'X-Organization-ID': String(acme) } });
        expect([head.status, head.text]).toEqual([200, '']);
        for (const method of ['POST', 'DELETE']) {
          const r = await api.request(CUSTOMERS, { method });
          expectError(r, 405, 'method_not_allowed');
          expect(r.headers.get('allow')).toContain('GET');
        }
      });
    });

    describe('D18 login throttling', () => {
      test('D18 repeated failures for one email get 429 with Retry-After, even with the right password', async () => {
        const user = await createUser(server.db);
        for (let i = 0; i < 3; i++) expectError(await client(server.url).login(user.email, 'wrong'), 401);
        const r = await client(server.url).login(user.email, user.password);
        expectError(r, 429, 'too_many_attempts');
        const wait = Number(r.headers.get('retry-after'));
        expect(wait).toBeGreaterThan(0);
        expect(wait).toBeLessThanOrEqual(600);
      });

      test('D18 repeated failures from one client address get 429 whatever the email', async () => {
        const from = client(server.url, newAddress());
        for (let i = 0; i < 5; i++) expectError(await from.login(`stranger${i}-${Date.now()}@test.example`, 'wrong'), 401);
        const r = await from.login('solo@demo.test');
        expectError(r, 429, 'too_many_attempts');
        expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
        expect((await client(server.url).login('solo@demo.test')).status).toBe(200); // other addresses are unaffected
      });

      test('D18 the block lifts when the window has passed', async () => {
        const user = await createUser(server.db);
        for (let i = 0; i < 3; i++) await client(server.url).login(user.email, 'wrong');
        const blocked = await client(server.url).login(user.email, user.password);
        expect(blocked.status).toBe(429);
        clock.advance(Number(blocked.headers.get('retry-after')) * SECOND);
        expect((await client(server.url).login(user.email, user.password)).status).toBe(200);
      });

      test('D18 a successful login clears the failures of that email', async () => {
        const user = await createUser(server.db);
        for (let i = 0; i < 2; i++) await client(server.url).login(user.email, 'wrong');
        expect((await client(server.url).login(user.email, user.password)).status).toBe(200);
        for (let i = 0; i < 2; i++) await client(server.url).login(user.email, 'wrong');
        expect((await client(server.url).login(user.email, user.password)).status).toBe(200);
      });

      test('D18 guesses sent all at once are counted against each other: no more than the limit are checked, per email and per address', async () => {
        const user = await createUser(server.db);
        const perEmail = await Promise.all(Array.from({ length: 12 }, () => client(server.url).login(user.email, 'wrong')));
        expect(perEmail.map((r) => r.status).sort()).toEqual([...Array<number>(3).fill(401), ...Array<number>(9).fill(429)]);
        const from = client(server.url, newAddress());
        const perAddress = await Promise.all(Array.from({ length: 12 }, (_, i) => from.login(`burst${i}-${Date.now()}@test.example`, 'wrong')));
        expect(perAddress.map((r) => r.status).sort()).toEqual([...Array<number>(5).fill(401), ...Array<number>(7).fill(429)]);
        // The right password, tried next, is throttled too.
        expect((await client(server.url).login(user.email, user.password)).status).toBe(429);
      });

      test('D18 throttling state lives in the database', async () => {
        const user = await createUser(server.db);
        for (let i = 0; i < 3; i++) await client(server.url).login(user.email, 'wrong');
        const rows = await server.db.query('select 1 from login_attempts where email_key = $1 and not succeeded', [user.email]);
        expect(rows).toHaveLength(3);
      });
    });

    describe('D19 bad input never earns a 500', () => {
      test('D19 a body over the limit is a 413', async () => {
        const big = JSON.stringify({ email: 'a@b.example', password: 'x'.repeat(100_000) });
        expectError(await api.post(LOGIN, big), 413, 'payload_too_large');
        // Without Content-Length (chunked), the limit holds while reading.
        const stream = new ReadableStream<Uint8Array>({
          start(c) {
            for (let i = 0; i < 10; i++) c.enqueue(new TextEncoder().encode(' '.repeat(5000)));
            c.close();
          },
        });
        const r = await api.request(LOGIN, { method: 'POST', body: stream, headers: { 'Content-Type': 'application/json' }, duplex: 'half' } as RequestInit);
        expectError(r, 413, 'payload_too_large');
      });

      test('D19 a body that is not declared JSON is a 415', async () => {
        for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/json; charset=latin1']) {
          expectError(await api.post(LOGIN, '{"email":"a@b.example","password":"x"}', { 'Content-Type': type }), 415, 'unsupported_media_type');
        }
        const none = await api.request(LOGIN, { method: 'POST', body: new Uint8Array([123, 125]) });
        expectError(none, 415);
      });

      test('D19 malformed JSON, a non-object, or bad UTF-8 is a 400', async () => {
        for (const body of ['{"email":', '', 'null', '[1,2]', '"text"', '42', '{"email":"a@b.example",}']) {
          expectError(await api.post(LOGIN, body), 400, 'invalid_json');
        }
        const badUtf8 = await api.request(LOGIN, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
        });
        expectError(badUtf8, 400, 'invalid_json');
      });

      test('D19 unknown API paths are a 404 in JSON', async () => {
        for (const p of ['/api/', '/api/v1/', '/api/v1/auth/nope/', '/api/v2/auth/login/', '/api/v1/auth/login/extra']) {
          expectError(await api.get(p), 404, 'not_found');
        }
        const noSlash = await api.post('/api/v1/auth/login', { email: 'a@b.example', password: 'x' });
        expectError(noSlash, 404, 'not_found');
        expect(noSlash.body.detail).toContain('/api/v1/auth/login/');
      });

      test('health check answers GET and HEAD for load balancers', async () => {
        expect((await api.get('/api/health/')).body).toEqual({ status: 'ok' });
        const head = await api.request('/api/health/', { method: 'HEAD' });
        expect([head.status, head.text]).toEqual([200, '']);
      });

      test('D19 a wrong method is a 405 in JSON with Allow', async () => {
        for (const [method, p, allow] of [
          ['GET', LOGIN, 'POST'], ['PUT', REFRESH, 'POST'], ['DELETE', LOGOUT, 'POST'], ['POST', ME, 'GET'], ['PATCH', ME, 'GET'],
        ] as const) {
          const r = await api.request(p, { method });
          expectError(r, 405, 'method_not_allowed');
          expect(r.headers.get('allow')).toContain(allow);
        }
      });

      test('D19 huge headers are refused in JSON and the server keeps serving', async () => {
        const raw = await rawRequest(server.port, `GET ${ME} HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(64 * 1024)}\r\n\r\n`);
        expect(raw).toMatch(/^HTTP\/1\.1 431 /);
        expect(raw).toContain('"code":"headers_too_large"');
        expect((await api.login('solo@demo.test')).status).toBe(200);
      });

      test('D19 malformed requests and paths are a 400, never a crash', async () => {
        expect(await rawRequest(server.port, 'NONSENSE\r\n\r\n')).toMatch(/^HTTP\/1\.1 400 /);
        expect(await rawRequest(server.port, 'GET /%E0%A4%A HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')).toMatch(/^HTTP\/1\.1 400 [^]*"code":"bad_request"/);
        expect(await rawRequest(server.port, 'POST /api/v1/auth/login/ HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n')).toMatch(/^HTTP\/1\.1 400 /);
        expect((await api.login('solo@demo.test')).status).toBe(200);
      });

      test('D19 an email with a NUL or another control character is a 400 naming the field, never a 500', async () => {
        for (const email of ['a\u0000@b.example', 'a@b.example\u0000', 'a\u0007b@c.example', 'a@b\u007f.example', '\u001b[31ma@b.example']) {
          const r = await api.post(LOGIN, { email, password: 'x' });
          expectError(r, 400, 'invalid_field');
          expect(r.body.field, JSON.stringify(email)).toBe('email');
        }
        expect((await api.login('solo@demo.test')).status).toBe(200);
      });

      test('D19 requests Node would refuse by itself (no Host, an unknown Expect, CONNECT) get JSON errors with the security headers', async () => {
        const noHost = await rawRequest(server.port, `GET ${ME} HTTP/1.1\r\nConnection: close\r\n\r\n`);
        expect(noHost).toMatch(/^HTTP\/1\.1 400 [^]*\r\n\r\n\{"detail":"Host header is required","code":"bad_request"\}$/);
        expect(await rawRequest(server.port, 'GET /api/health/ HTTP/1.0\r\n\r\n')).toMatch(/^HTTP\/1\.1 200 [^]*\{"status":"ok"\}$/); // 1.0 needs no Host
        const teapot = await rawRequest(
          server.port,
          `POST ${LOGIN} HTTP/1.1\r\nHost: x\r\nExpect: teapot\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`,
        );
        expect(teapot).toMatch(/^HTTP\/1\.1 417 [^]*"code":"expectation_failed"/);
        const tunnel = await rawRequest(server.port, 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
        expect(tunnel).toMatch(/^HTTP\/1\.1 405 [^]*\r\nAllow: GET, HEAD, POST, OPTIONS\r\n[^]*"code":"method_not_allowed"/);
        const overflow = await rawRequest(server.port, `GET ${ME} HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(64 * 1024)}\r\n\r\n`);
        for (const raw of [noHost, teapot, tunnel, overflow]) {
          expect(raw).toMatch(/\r\nContent-Type: application\/json; charset=utf-8\r\n/i);
          expect(raw).toMatch(/\r\nX-Content-Type-Options: nosniff\r\n/i);
          expect(raw).toMatch(/\r\nReferrer-Policy: no-referrer\r\n/i);
          expect(raw).toMatch(/\r\nX-Frame-Options: DENY\r\n/i);
        }
        // A CONNECT whose client vanishes at once does not take the server down.
        await new Promise<void>((resolve) => {
          const socket = connect(server.port, '127.0.0.1', () => {
            socket.write('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n', () => socket.resetAndDestroy());
          });
          socket.on('error', () => {});
          socket.on('close', () => resolve());
        });
        await new Promise((r) => setTimeout(r, 50));
        expect((await api.get('/api/health/')).status).toBe(200);
      });

      test('D19 hostile bodies and headers on every endpoint never get a 500', async () => {
        const t = tokens(await api.login('solo@demo.test'));
        const bodies: unknown[] = [
          {}, { email: null, password: null }, { email: {}, password: [] }, { refresh_token: null }, { refresh_token: ['a'] },
          { refresh_token: 'x'.repeat(600) }, { session_id: -1 }, { session_id: 1.5 }, { session_id: '1' }, { remember_me: 1 },
          { email: 'a@b.example', password: '\u0000\uffff' }, { __proto__: { admin: true } }, { constructor: { prototype: {} } },
          { email: `${'a'.repeat(300)}@b.example`, password: 'x' }, { email: 'é@ü.example', password: '🔑' },
        ];
        for (const p of [LOGIN, REFRESH, LOGOUT]) {
          for (const body of bodies) {
            const r = await api.post(p, JSON.stringify(body), { Authorization: `Bearer ${t.access_token}` });
            expect(r.status, `${p} ${JSON.stringify(body)}`).toBeLessThan(500);
            expect(typeof r.body.code === 'string' || r.status === 200 || r.status === 204).toBe(true);
          }
        }
        const hostileHeaders: Record<string, string>[] = [
          { 'X-Organization-ID': '\u00e9' }, { Authorization: 'Bearer \u00ff.\u00ff.\u00ff' }, { 'Content-Type': 'application/json' },
        ];
        for (const headers of hostileHeaders) {
          const r = await api.request(ME, { headers });
          expect(r.status).toBeLessThan(500);
        }
      });
    });

    test('D16 tokens and passwords never appear in the logs', async () => {
      const user = await createUser(server.db);
      const from = client(server.url);
      const t = tokens(await from.login(user.email, user.password));
      const n = tokens(await from.refresh(t.refresh_token));
      await from.me(n.access_token);
      await from.logout({ refresh_token: n.refresh_token }, n.access_token);
      await from.login(user.email, 'a-wrong-password-attempt');
      const all = server.logs.join('\n');
      expect(all).toContain(LOGIN); // requests are logged...
      for (const secret of [user.password, 'a-wrong-password-attempt', 'demo-password', t.access_token, t.refresh_token, n.access_token, n.refresh_token]) {
        expect(all).not.toContain(secret); // ...but never what they carried
      }
    });
  });
}
