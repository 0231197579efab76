// D29 the permission matrix: read with permissions:view, replaced as a whole or reset to D10's
// defaults with permissions:manage; the owner row is fixed; a change applies to every member's next
// request and to no other organization (D9); D30 each change is audited with what was added and removed.
import { beforeAll, describe, expect, test } from 'vitest';
import { PERMISSIONS, type Permission, type Role } from '../../contract/permissions';
import { CUSTOMERS, D10, expectError, sorted } from './api-common';
import { forEachBackend, type Api } from './backends';
import type { TestServer } from './helpers';
import { people } from './people';

const MATRIX = '/api/v1/permissions/';
const RESET = '/api/v1/permissions/reset/';
type Matrix = Record<Role, Permission[]>;

forEachBackend('API permissions', (backend) => {
  let server: TestServer;
  let api: Api;
  beforeAll(() => {
    ({ server, api } = backend());
  });
  const { team } = people(backend, 'Matrix Org');
  /** A fresh organization (D10's matrix by trigger) with one person per role given. */
  /** D10 as a matrix body, changed by `edit`. */
  const d10 = (edit: (m: Matrix) => void = () => {}): Matrix => {
    const m = Object.fromEntries(Object.entries(D10).map(([r, ps]) => [r, [...ps]])) as Matrix;
    edit(m);
    return m;
  };
  const stored = async (org: number) => {
    const rows = await server.db.query<{ role: string; permission: string }>('select role, permission from role_permissions where org_id = $1', [org]);
    return Object.fromEntries(['owner', 'admin', 'member', 'viewer'].map((r) => [r, sorted(rows.filter((x) => x.role === r).map((x) => x.permission))]));
  };
  const asStored = (m: Matrix) => Object.fromEntries(Object.entries(m).map(([r, ps]) => [r, sorted(ps)]));
  const auditOf = async (org: number) =>
    (
      await server.db.query<{ action: string; actor_id: unknown; target_type: string; changes: unknown }>(
        "select action, actor_id, target_type, changes from audit_log where org_id = $1 and action like 'permissions.%' order by id",
        [org],
      )
    ).map((r) => ({
      action: r.action,
      actor_id: Number(r.actor_id),
      target_type: r.target_type,
      changes: typeof r.changes === 'string' ? (JSON.parse(r.changes) as unknown) : r.changes,
    }));
  const snapshot = async () => {
    const [row] = await server.db.query<{ h: string | null }>(
      "select md5(string_agg(t::text, '|' order by t::text)) || (select count(*) from audit_log)::text as h from role_permissions t",
    );
    return row?.h ?? '';
  };

  describe('D29 reading the matrix', () => {
    test("D29 GET answers the roles, the permissions, the organization's matrix (D10 at first) and the fixed owner row", async () => {
      const {
        people: [owner],
      } = await team('owner');
      const r = await owner!.call('GET', MATRIX);
      expect(r.status, r.text).toBe(200);
      expect(Object.keys(r.body).sort()).toEqual(['fixed', 'matrix', 'permissions', 'roles', 'scopes']);
      expect(r.body.roles).toEqual(['owner', 'admin', 'member', 'viewer']);
      expect(sorted(r.body.permissions)).toEqual(sorted(PERMISSIONS));
      expect(r.body.fixed).toEqual(['owner']);
      expect(r.body.scopes).toEqual({ owner: 'all', admin: 'all', member: 'all', viewer: 'all' }); // D59: every role sees all at first
      expect(asStored(r.body.matrix as Matrix)).toEqual(asStored(d10()));
    });

    test('D10 D29 permissions:view: an admin may read the matrix; a member and a viewer get 403 permission_denied', async () => {
      const {
        people: [admin, member, viewer],
      } = await team('admin', 'member', 'viewer');
      expect((await admin!.call('GET', MATRIX)).status).toBe(200);
      expectError(await member!.call('GET', MATRIX), 403, 'permission_denied');
      expectError(await viewer!.call('GET', MATRIX), 403, 'permission_denied');
    });
  });

  describe('D29 changing the matrix', () => {
    test('D10 D29 an admin does not have permissions:manage by default: PUT and reset are 403 permission_denied, nothing changes', async () => {
      const {
        people: [admin],
      } = await team('admin');
      const before = await snapshot();
      expectError(await admin!.call('PUT', MATRIX, { matrix: d10((m) => void m.viewer.push('jobs:view')) }), 403, 'permission_denied');
      expectError(await admin!.call('POST', RESET), 403, 'permission_denied');
      expect(await snapshot()).toBe(before);
    });

    test('D29 PUT replaces the whole matrix: the answer and the database hold it, and the owner row may be left out', async () => {
      const {
        org,
        people: [owner],
      } = await team('owner');
      const { owner: _owner, ...body } = d10((m) => {
        m.viewer = ['dashboard:view', 'customers:view', 'jobs:view'];
        m.member = m.member.filter((p) => p !== 'customers:update');
        m.admin = ['team:view'];
      });
      const r = await owner!.call('PUT', MATRIX, { matrix: body });
      expect(r.status, r.text).toBe(200);
      const expected = { ...body, owner: [...PERMISSIONS] } as Matrix;
      expect(asStored(r.body.matrix as Matrix)).toEqual(asStored(expected));
      expect(await stored(org.id)).toEqual(asStored(expected));
      expect(asStored((await owner!.call('GET', MATRIX)).body.matrix as Matrix)).toEqual(asStored(expected));
    });

    test('D29 the owner row always has everything: a PUT that takes anything from it is 400 naming matrix.owner', async () => {
      const {
        people: [owner],
      } = await team('owner');
      const before = await snapshot();
      for (const row of [PERMISSIONS.filter((p) => p !== 'audit:view'), [], null]) {
        const r = await owner!.call('PUT', MATRIX, { matrix: { ...d10(), owner: row } });
        expectError(r, 400);
        expect(r.body.field).toBe('matrix.owner');
      }
      expect(await snapshot()).toBe(before);
      expect((await owner!.call('PUT', MATRIX, { matrix: d10() })).status).toBe(200); // all of it is fine
    });

    test('D19 D29 an unknown role or permission, a missing role or a matrix that is not an object is a 400, nothing changes', async () => {
      const {
        people: [owner],
      } = await team('owner');
      const before = await snapshot();
      const bad: [unknown, string][] = [
        [{ ...d10(), superuser: ['dashboard:view'] }, 'matrix.superuser'],
        [d10((m) => void m.viewer.push('customers:fly' as Permission)), 'matrix.viewer'],
        [d10((m) => void (m.member = 'customers:view' as unknown as Permission[])), 'matrix.member'],
        [(({ admin: _a, ...rest }) => rest)(d10()), 'matrix.admin'],
        [['owner'], 'matrix'],
        ['everything', 'matrix'],
      ];
      for (const [matrix, field] of bad) {
        const r = await owner!.call('PUT', MATRIX, { matrix });
        expectError(r, 400);
        expect(r.body.field, JSON.stringify(matrix)).toBe(field);
      }
      expectError(await owner!.call('PUT', MATRIX, {}), 400);
      expect(await snapshot()).toBe(before);
    });

    test("D29 a change applies to every member's next request: without customers:create a member's POST is 403 at once and /me no longer lists it", async () => {
      const {
        org,
        people: [owner, member],
      } = await team('owner', 'member');
      const created = await member!.call('POST', CUSTOMERS, { name: 'Before the change' });
      expect(created.status, created.text).toBe(201);
      const r = await owner!.call('PUT', MATRIX, { matrix: d10((m) => void (m.member = m.member.filter((p) => p !== 'customers:create'))) });
      expect(r.status, r.text).toBe(200);
      expectError(await member!.call('POST', CUSTOMERS, { name: 'After the change' }), 403, 'permission_denied');
      const me = await api.me(member!.token, org.id);
      expect(me.body.permissions).not.toContain('customers:create');
      expect(sorted(me.body.permissions)).toEqual(sorted(D10.member!.filter((p) => p !== 'customers:create')));
      expect((await member!.call('GET', CUSTOMERS)).status).toBe(200); // what it kept still works
    });

    test('D29 a permission granted by the matrix works at once: admins given permissions:manage may edit it', async () => {
      const {
        people: [owner, admin],
      } = await team('owner', 'admin');
      expect((await owner!.call('PUT', MATRIX, { matrix: d10((m) => void m.admin.push('permissions:manage')) })).status).toBe(200);
      const r = await admin!.call('PUT', MATRIX, { matrix: d10((m) => void m.admin.push('permissions:manage', 'customers:delete')) });
      expect(r.status, r.text).toBe(200);
    });

    test("D9 D29 one organization's PUT and reset leave every other organization's matrix untouched", async () => {
      const [mine, theirs] = [await team('owner'), await team('owner')];
      const before = await stored(theirs.org.id);
      const acme = await server.db.query<{ id: unknown }>("select id from organizations where name = 'Acme Plumbing'");
      const acmeBefore = await stored(Number(acme[0]!.id));
      expect((await mine.people[0]!.call('PUT', MATRIX, { matrix: d10((m) => void (m.viewer = [])) })).status).toBe(200);
      expect(await stored(theirs.org.id)).toEqual(before);
      expect((await mine.people[0]!.call('POST', RESET)).status).toBe(200);
      expect(await stored(theirs.org.id)).toEqual(before);
      expect(await stored(Number(acme[0]!.id))).toEqual(acmeBefore);
    });

    test("D29 reset brings back D10's defaults", async () => {
      const {
        org,
        people: [owner],
      } = await team('owner');
      expect((await owner!.call('PUT', MATRIX, { matrix: d10((m) => void ((m.viewer = ['jobs:view']), (m.admin = []))) })).status).toBe(200);
      const r = await owner!.call('POST', RESET);
      expect(r.status, r.text).toBe(200);
      expect(asStored(r.body.matrix as Matrix)).toEqual(asStored(d10()));
      expect(await stored(org.id)).toEqual(asStored(d10()));
    });
  });

  describe("D30 the matrix's audit entries", () => {
    test('D30 a PUT writes permissions.changed with, per role, the permissions added and removed', async () => {
      const {
        org,
        people: [owner],
      } = await team('owner');
      const r = await owner!.call('PUT', MATRIX, { matrix: d10((m) => ((m.viewer = ['dashboard:view', 'jobs:view']), (m.member = [...m.member, 'customers:export']))) });
      expect(r.status, r.text).toBe(200);
      expect(await auditOf(org.id)).toEqual([
        {
          action: 'permissions.changed',
          actor_id: owner!.id,
          target_type: 'permissions',
          changes: { viewer: { added: ['jobs:view'], removed: ['customers:view'] }, member: { added: ['customers:export'], removed: [] } },
        },
      ]);
    });

    test('D30 a PUT that changes nothing writes nothing and no entry', async () => {
      const {
        org,
        people: [owner],
      } = await team('owner');
      const before = await snapshot();
      const r = await owner!.call('PUT', MATRIX, { matrix: d10((m) => void m.viewer.reverse()) });
      expect(r.status, r.text).toBe(200);
      expect(await snapshot()).toBe(before);
      expect(await auditOf(org.id)).toEqual([]);
    });

    test('D30 a reset writes permissions.reset with what it added and removed', async () => {
      const {
        org,
        people: [owner],
      } = await team('owner');
      expect((await owner!.call('PUT', MATRIX, { matrix: d10((m) => void (m.viewer = ['jobs:view'])) })).status).toBe(200);
      expect((await owner!.call('POST', RESET)).status).toBe(200);
      const entries = await auditOf(org.id);
      expect(entries.map((e) => e.action)).toEqual(['permissions.changed', 'permissions.reset']);
      expect(entries[1]!.actor_id).toBe(owner!.id);
      const { viewer } = entries[1]!.changes as Record<string, { added: string[]; removed: string[] }>;
      expect(Object.keys(entries[1]!.changes as object)).toEqual(['viewer']);
      expect([sorted(viewer!.added), viewer!.removed]).toEqual([sorted(['dashboard:view', 'customers:view']), ['jobs:view']]);
    });
  });

  describe("D9 another organization's matrix", () => {
    test("D9 an owner of one organization cannot read, replace or reset another's matrix: 403 not_a_member, nothing changes", async () => {
      const {
        people: [owner],
      } = await team('owner');
      const { org: theirs } = await team('member');
      const before = await snapshot();
      expectError(await owner!.call('GET', MATRIX, undefined, theirs.id), 403, 'not_a_member');
      expectError(await owner!.call('PUT', MATRIX, { matrix: d10((m) => void (m.viewer = [])) }, theirs.id), 403, 'not_a_member');
      expectError(await owner!.call('POST', RESET, undefined, theirs.id), 403, 'not_a_member');
      expect(await snapshot()).toBe(before);
    });
  });
});
