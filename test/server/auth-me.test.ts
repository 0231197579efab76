// SPEC §7 me: the user, organizations, role and permissions (D3 D4 D9 D10), and D3's demo data.
import { beforeAll, describe, expect, test } from 'vitest';
import { D10, expectError, sorted } from './api-common';
import { forEachBackend, type Api } from './backends';
import { createUser, orgId, tokens, type TestServer } from './helpers';

forEachBackend('API me', (backend) => {
  let server: TestServer;
  let api: Api;
  beforeAll(() => {
    ({ server, api } = backend());
  });

  describe('SPEC §7 me', () => {
    test('SPEC §7 me returns user, organizations, permissions, features, role, prefs, favorite_org_id', async () => {
      const t = tokens(await api.login('solo@demo.test'));
      const r = await api.me(t.access_token);
      expect(r.status).toBe(200);
      expect(Object.keys(r.body).sort()).toEqual(['customers_scope', 'favorite_org_id', 'features', 'organizations', 'permissions', 'prefs', 'role', 'user']);
      expect(r.body.user).toEqual({ email: 'solo@demo.test', first_name: 'Sam', avatar_url: null, mfa_enabled: false });
      expect(r.body.organizations).toEqual([{ id: await orgId(server.db, 'Acme Plumbing'), name: 'Acme Plumbing', logo_url: '/logos/acme.svg', require_mfa: false }]);
      expect(r.body.features).toEqual([]);
      expect(r.body.prefs).toEqual({});
      expect(r.body.favorite_org_id).toBeNull();
      expect(r.headers.get('cache-control')).toBe('no-store');
    });

    test('D3 owner@demo.test: Acme Plumbing (owner) and Beacon Electric (admin), no favorite, so no role without X-Organization-ID', async () => {
      const t = tokens(await api.login('owner@demo.test'));
      const r = await api.me(t.access_token);
      expect(r.body.organizations).toEqual([
        { id: await orgId(server.db, 'Acme Plumbing'), name: 'Acme Plumbing', logo_url: '/logos/acme.svg', require_mfa: false },
        { id: await orgId(server.db, 'Beacon Electric'), name: 'Beacon Electric', logo_url: null, require_mfa: false },
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
      expect(r.body.organizations).toEqual([{ id: await orgId(server.db, 'Beacon Electric'), name: 'Beacon Electric', logo_url: null, require_mfa: false }]);
      expect(r.body.role).toBe('viewer');
      expect(sorted(r.body.permissions)).toEqual(sorted(D10.viewer));
      expect(r.body.permissions).not.toContain('customers:create');
    });

    test('D3 beacon@demo.test owns Beacon Electric: every organization has an owner, who may change its permissions', async () => {
      const r = await api.me(tokens(await api.login('beacon@demo.test')).access_token);
      expect(r.body.organizations).toEqual([{ id: await orgId(server.db, 'Beacon Electric'), name: 'Beacon Electric', logo_url: null, require_mfa: false }]);
      expect(r.body.role).toBe('owner');
      expect(r.body.permissions).toContain('permissions:manage');
      const owners = await server.db.query<{ name: string }>(
        "select o.name from organizations o where not exists (select 1 from memberships m where m.org_id = o.id and m.role = 'owner')",
      );
      expect(owners).toEqual([]);
    });

    test('D3 nobody@demo.test signs in but has no organization', async () => {
      const r = await api.me(tokens(await api.login('nobody@demo.test')).access_token);
      expect(r.status).toBe(200);
      expect(r.body.organizations).toEqual([]);
      expect(r.body.role).toBeNull();
      expect(r.body.permissions).toEqual([]);
    });

    test('D4 the favorite organization is used when no X-Organization-ID is sent', async () => {
      const user = await createUser(server.db, {
        memberships: [
          ['Acme Plumbing', 'viewer'],
          ['Beacon Electric', 'member'],
        ],
        favorite: 'Beacon Electric',
      });
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

    test('SPEC §7 me is compact JSON, byte for byte as JSON.stringify writes it, whatever its text holds', async () => {
      // The database writes this answer (features/auth/repo.ts): escapes, order and spacing must match.
      const user = await createUser(server.db, { memberships: [['Acme Plumbing', 'member']] });
      const name = 'Zoë "Q" \\ \n\t\u0001 ✓';
      const prefs = { list: [1, 'a, b: c', { x: null, 'k": v': [] }], theme: 'dark', 'quote"key': true };
      await server.db.query('update users set first_name = $2, avatar_url = $3, prefs = $4::text::jsonb where id = $1', [
        user.id,
        name,
        '/a"b.png',
        JSON.stringify(prefs),
      ]);
      const [org] = await server.db.query<{ id: unknown }>(`insert into organizations (name, logo_url, features) values ($1, null, $2::text::jsonb) returning id`, [
        `Zeta "${user.id}", Co: \\`,
        JSON.stringify(['sms', 3, 'e\n', null, { a: 1 }, 'calls']),
      ]);
      const zeta = Number(org?.id);
      await server.db.query(`insert into memberships (user_id, org_id, role) values ($1, $2, 'owner')`, [user.id, zeta]);
      const t = tokens(await api.login(user.email, user.password));
      const acme = await orgId(server.db, 'Acme Plumbing');
      const organizations = [
        { id: acme, name: 'Acme Plumbing', logo_url: '/logos/acme.svg', require_mfa: false },
        { id: zeta, name: `Zeta "${user.id}", Co: \\`, logo_url: null, require_mfa: false },
      ];
      const common = { user: { email: user.email, first_name: name, avatar_url: '/a"b.png', mfa_enabled: false }, organizations };
      const inZeta = await api.me(t.access_token, zeta);
      expect(inZeta.text).toBe(
        JSON.stringify({
          ...common,
          permissions: sorted(D10.owner),
          features: ['sms', 'e\n', 'calls'],
          role: 'owner',
          customers_scope: 'all',
          prefs,
          favorite_org_id: null,
        }),
      );
      const inAcme = await api.me(t.access_token, acme);
      expect(inAcme.text).toBe(
        JSON.stringify({ ...common, permissions: sorted(D10.member), features: [], role: 'member', customers_scope: 'all', prefs, favorite_org_id: null }),
      );
      const none = await api.me(t.access_token);
      expect(none.text).toBe(JSON.stringify({ ...common, permissions: [], features: [], role: null, customers_scope: null, prefs, favorite_org_id: null }));
      expect(none.headers.get('content-length')).toBe(String(Buffer.byteLength(none.text)));
    });

    test('D3 each organization has a few dozen realistic customers', async () => {
      const rows = await server.db.query<{ name: string; n: unknown; with_all: unknown }>(
        `select o.name, count(c.id)::int as n, count(*) filter (where c.email like '%@%' and c.phone <> '' and c.address_line <> '')::int as with_all
           from organizations o join customers c on c.org_id = o.id group by o.name order by o.name`,
      );
      expect(rows.map((r) => r.name)).toEqual(['Acme Plumbing', 'Beacon Electric']);
      for (const r of rows) {
        expect(Number(r.n)).toBeGreaterThanOrEqual(24);
        expect(Number(r.n)).toBeLessThanOrEqual(60);
        // Every one but the demo's duplicate, a lead from a web form that gave no street (D23 D49), has all.
        expect(Number(r.with_all)).toBe(Number(r.n) - 1);
      }
    });
  });
});
