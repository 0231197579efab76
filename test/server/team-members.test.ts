// D28 the team's members: listing, changing roles and removing, with their refusals (only an owner
// touches an owner, nobody changes their own role, the last owner stays); D9 another organization's
// members are out of reach; D30 every change leaves its audit entry.
import { beforeAll, describe, expect, test } from 'vitest';
import type { Member } from '../../contract/team';
import { CUSTOMERS, expectError } from './api-common';
import { forEachBackend, type Api } from './backends';
import type { TestServer } from './helpers';
import { failedLines, people, tablesSnapshot } from './people';

const MEMBERS = '/api/v1/team/members/';
const memberPath = (id: number | string) => `${MEMBERS}${id}/`;

forEachBackend('API team members', (backend) => {
  let server: TestServer;
  let api: Api;
  beforeAll(() => {
    ({ server, api } = backend());
  });
  const { newOrg, person, team } = people(backend, 'Team Org');
  /** A fresh organization with one person per role given, in that order. */
  const roleOf = async (org: number, userId: number) =>
    (await server.db.query<{ role: string }>('select role from memberships where org_id = $1 and user_id = $2', [org, userId]))[0]?.role ?? null;
  const audit = async (org: number, action: string) =>
    (
      await server.db.query<{ actor_id: unknown; target_type: string; target_id: unknown; target_label: string; changes: unknown }>(
        'select actor_id, target_type, target_id, target_label, changes from audit_log where org_id = $1 and action = $2 order by id',
        [org, action],
      )
    ).map((r) => ({
      ...r,
      actor_id: Number(r.actor_id),
      target_id: Number(r.target_id),
      changes: typeof r.changes === 'string' ? (JSON.parse(r.changes) as unknown) : r.changes,
    }));
  /** Everything a refused call must leave as it was: memberships and audit entries of every organization. */
  const snapshot = () => tablesSnapshot(server.db, ['memberships', 'audit_log']);

  /** The server's last error lines: why a 500 happened. */
  const failures = () => failedLines(server.logs);

  describe('D28 the member list', () => {
    test("D28 team:view lists the organization's members with name, email, role and joined date, and no one else", async () => {
      const {
        org,
        people: [owner, admin, member],
      } = await team('owner', 'admin', 'member');
      const r = await admin!.call('GET', MEMBERS);
      expect(r.status, r.text).toBe(200);
      const results = r.body.results as Member[];
      const joined = await server.db.query<{ user_id: unknown; created_at: Date }>('select user_id, created_at from memberships where org_id = $1', [org.id]);
      const expected = [
        [owner!, 'owner'],
        [admin!, 'admin'],
        [member!, 'member'],
      ] as const;
      expect(results).toHaveLength(3);
      for (const [p, role] of expected) {
        const at = joined.find((j) => Number(j.user_id) === p.id)!.created_at;
        expect(results).toContainEqual({ user_id: p.id, name: p.name, email: p.email, role, joined_at: new Date(at).toISOString(), mfa_enabled: false });
      }
    });

    test('D10 D28 without team:view the list is 403 permission_denied: a member and a viewer', async () => {
      const {
        people: [member, viewer],
      } = await team('member', 'viewer');
      expectError(await member!.call('GET', MEMBERS), 403, 'permission_denied');
      expectError(await viewer!.call('GET', MEMBERS), 403, 'permission_denied');
    });
  });

  describe('D28 changing a role', () => {
    test("D28 D30 an admin changes a member's role: 200 with the member, the membership holds it, one member.role_changed entry", async () => {
      const {
        org,
        people: [admin, member],
      } = await team('admin', 'member');
      const r = await admin!.call('PATCH', memberPath(member!.id), { role: 'viewer' });
      expect(r.status, r.text).toBe(200);
      expect(r.body).toMatchObject({ user_id: member!.id, name: member!.name, email: member!.email, role: 'viewer' });
      expect(await roleOf(org.id, member!.id)).toBe('viewer');
      expect(await audit(org.id, 'member.role_changed')).toEqual([
        { actor_id: admin!.id, target_type: 'member', target_id: member!.id, target_label: member!.name, changes: { role: { from: 'member', to: 'viewer' } } },
      ]);
    });

    test('D28 D30 setting the role a member already has changes nothing and writes no audit entry', async () => {
      const {
        org,
        people: [admin, member],
      } = await team('admin', 'member');
      const before = await snapshot();
      const r = await admin!.call('PATCH', memberPath(member!.id), { role: 'member' });
      expect(r.status, r.text).toBe(200);
      expect(r.body.role).toBe('member');
      expect(await snapshot()).toBe(before);
      expect(await audit(org.id, 'member.role_changed')).toEqual([]);
    });

    test('D28 only an owner may promote a member to owner: an admin gets 403 owner_required', async () => {
      const {
        org,
        people: [, admin, member],
      } = await team('owner', 'admin', 'member');
      const before = await snapshot();
      expectError(await admin!.call('PATCH', memberPath(member!.id), { role: 'owner' }), 403, 'owner_required');
      expect(await snapshot()).toBe(before);
      expect(await roleOf(org.id, member!.id)).toBe('member');
    });

    test('D28 only an owner may demote an owner: an admin gets 403 owner_required', async () => {
      const {
        org,
        people: [owner, , admin],
      } = await team('owner', 'owner', 'admin');
      const before = await snapshot();
      expectError(await admin!.call('PATCH', memberPath(owner!.id), { role: 'member' }), 403, 'owner_required');
      expect(await snapshot()).toBe(before);
      expect(await roleOf(org.id, owner!.id)).toBe('owner');
    });

    test('D28 an owner promotes a member to owner and demotes another owner', async () => {
      const {
        org,
        people: [owner, member],
      } = await team('owner', 'member');
      expect((await owner!.call('PATCH', memberPath(member!.id), { role: 'owner' })).status).toBe(200);
      expect(await roleOf(org.id, member!.id)).toBe('owner');
      expect((await owner!.call('PATCH', memberPath(member!.id), { role: 'admin' })).status).toBe(200);
      expect(await roleOf(org.id, member!.id)).toBe('admin');
      expect((await audit(org.id, 'member.role_changed')).map((e) => e.changes)).toEqual([
        { role: { from: 'member', to: 'owner' } },
        { role: { from: 'owner', to: 'admin' } },
      ]);
    });

    test('D28 nobody changes their own role: 403 own_role for an admin and for an owner beside another owner', async () => {
      const {
        org,
        people: [owner, , admin],
      } = await team('owner', 'owner', 'admin');
      const before = await snapshot();
      expectError(await admin!.call('PATCH', memberPath(admin!.id), { role: 'viewer' }), 403, 'own_role');
      expectError(await owner!.call('PATCH', memberPath(owner!.id), { role: 'admin' }), 403, 'own_role');
      expect(await snapshot()).toBe(before);
      expect([await roleOf(org.id, owner!.id), await roleOf(org.id, admin!.id)]).toEqual(['owner', 'admin']);
    });

    test('D28 the last owner is never demoted: two owners demoting each other at once leave one owner, the other refused, never a 500', async () => {
      for (let round = 0; round < 5; round++) {
        const {
          org,
          people: [a, b],
        } = await team('owner', 'owner');
        const replies = await Promise.all([a!.call('PATCH', memberPath(b!.id), { role: 'admin' }), b!.call('PATCH', memberPath(a!.id), { role: 'admin' })]);
        const statuses = replies.map((r) => r.status).sort();
        expect(statuses, [...replies.map((r) => r.text), ...failures()].join(' | ')).toEqual([200, statuses[1] === 403 ? 403 : 409]);
        const refused = replies.find((r) => r.status !== 200)!;
        expect(['last_owner', 'owner_required']).toContain(refused.body.code);
        const owners = await server.db.query("select 1 from memberships where org_id = $1 and role = 'owner'", [org.id]);
        expect(owners).toHaveLength(1);
      }
    });

    test("D28 a non-member or another organization's user is 404 not_found, and nothing changes", async () => {
      const {
        people: [admin],
      } = await team('admin');
      const {
        people: [stranger],
      } = await team('member');
      const before = await snapshot();
      for (const id of [stranger!.id, 2_000_000_000]) {
        expectError(await admin!.call('PATCH', memberPath(id), { role: 'viewer' }), 404, 'not_found');
        expectError(await admin!.call('DELETE', memberPath(id)), 404, 'not_found');
      }
      expect(await snapshot()).toBe(before);
    });

    test('D19 a role that is not owner, admin, member or viewer, or a malformed user id, is a 400 naming the field', async () => {
      const {
        people: [admin, member],
      } = await team('admin', 'member');
      for (const role of ['superuser', '', 'Owner', null, 1]) {
        const r = await admin!.call('PATCH', memberPath(member!.id), { role });
        expectError(r, 400);
        expect(r.body.field).toBe('role');
      }
      for (const id of ['abc', '0', '-1', '1.5']) {
        const r = await admin!.call('PATCH', memberPath(id), { role: 'viewer' });
        expectError(r, 400);
        expect(r.body.field).toBe('user_id');
      }
    });

    test('D10 without team:manage a member cannot change roles or remove anyone: 403 permission_denied', async () => {
      const {
        people: [member, viewer],
      } = await team('member', 'viewer');
      const before = await snapshot();
      expectError(await member!.call('PATCH', memberPath(viewer!.id), { role: 'admin' }), 403, 'permission_denied');
      expectError(await member!.call('DELETE', memberPath(viewer!.id)), 403, 'permission_denied');
      expect(await snapshot()).toBe(before);
    });
  });

  describe('D28 removing a member', () => {
    test('D28 D30 removing a member: 204, the membership is gone and member.removed is written', async () => {
      const {
        org,
        people: [admin, member],
      } = await team('admin', 'member');
      const r = await admin!.call('DELETE', memberPath(member!.id));
      expect(r.status, r.text).toBe(204);
      expect(await roleOf(org.id, member!.id)).toBeNull();
      const [entry, ...more] = await audit(org.id, 'member.removed');
      expect(more).toEqual([]);
      expect(entry).toMatchObject({ actor_id: admin!.id, target_type: 'member', target_id: member!.id, target_label: member!.name });
      expect(((await admin!.call('GET', MEMBERS)).body.results as Member[]).map((m) => m.user_id)).toEqual([admin!.id]);
    });

    test("D28 a removed member's next request in that organization is 403 not_a_member while their other organizations still work", async () => {
      const {
        org,
        people: [admin],
      } = await team('admin');
      const other = await newOrg();
      const member = await person(org, 'member', [other, 'member']);
      expect((await member.call('GET', CUSTOMERS)).status).toBe(200);
      expect((await admin!.call('DELETE', memberPath(member.id))).status).toBe(204);
      expectError(await member.call('GET', CUSTOMERS), 403, 'not_a_member');
      expectError(await member.call('POST', CUSTOMERS, { name: 'After removal' }), 403, 'not_a_member');
      expect((await member.call('GET', CUSTOMERS, undefined, other.id)).status).toBe(200);
      const me = await api.me(member.token);
      expect((me.body.organizations as { id: number }[]).map((o) => o.id)).toEqual([other.id]);
    });

    test('D28 only an owner may remove an owner: an admin gets 403 owner_required', async () => {
      const {
        org,
        people: [owner, , admin],
      } = await team('owner', 'owner', 'admin');
      const before = await snapshot();
      expectError(await admin!.call('DELETE', memberPath(owner!.id)), 403, 'owner_required');
      expect(await snapshot()).toBe(before);
      expect(await roleOf(org.id, owner!.id)).toBe('owner');
    });

    test('D28 the last owner cannot leave: removing yourself as the only owner is 409 last_owner', async () => {
      const {
        org,
        people: [owner],
      } = await team('owner', 'admin');
      const before = await snapshot();
      const r = await owner!.call('DELETE', memberPath(owner!.id));
      expectError(r, 409, 'last_owner');
      expect(r.body.detail).toMatch(/leave/);
      expect(await snapshot()).toBe(before);
      expect(await roleOf(org.id, owner!.id)).toBe('owner');
    });

    test('D28 an owner may leave while another owner remains, and may remove another owner', async () => {
      const {
        org,
        people: [a, b, c],
      } = await team('owner', 'owner', 'owner');
      expect((await a!.call('DELETE', memberPath(b!.id))).status).toBe(204);
      expect((await a!.call('DELETE', memberPath(a!.id))).status).toBe(204);
      expectError(await a!.call('GET', MEMBERS), 403, 'not_a_member');
      expect((await server.db.query('select user_id from memberships where org_id = $1', [org.id])).map((r) => Number(r.user_id))).toEqual([c!.id]);
    });

    test('D28 the last owner is never removed: two owners removing each other at once leave one owner, never a 500', async () => {
      for (let round = 0; round < 5; round++) {
        const {
          org,
          people: [a, b],
        } = await team('owner', 'owner');
        const replies = await Promise.all([a!.call('DELETE', memberPath(b!.id)), b!.call('DELETE', memberPath(a!.id))]);
        const statuses = replies.map((r) => r.status).sort();
        expect(statuses, [...replies.map((r) => r.text), ...failures()].join(' | ')).toEqual([204, statuses[1] === 403 ? 403 : 409]);
        const owners = await server.db.query("select 1 from memberships where org_id = $1 and role = 'owner'", [org.id]);
        expect(owners).toHaveLength(1);
      }
    });
  });

  describe("D9 another organization's members", () => {
    test("D9 an admin of one organization cannot list, change or remove another's members: 403 not_a_member, nothing changes", async () => {
      const {
        people: [admin],
      } = await team('admin');
      const {
        org: theirs,
        people: [owner, member],
      } = await team('owner', 'member');
      const before = await snapshot();
      expectError(await admin!.call('GET', MEMBERS, undefined, theirs.id), 403, 'not_a_member');
      expectError(await admin!.call('PATCH', memberPath(member!.id), { role: 'admin' }, theirs.id), 403, 'not_a_member');
      expectError(await admin!.call('PATCH', memberPath(admin!.id), { role: 'owner' }, theirs.id), 403, 'not_a_member');
      expectError(await admin!.call('DELETE', memberPath(owner!.id), undefined, theirs.id), 403, 'not_a_member');
      // Their ids under one's own header name nobody here.
      expectError(await admin!.call('PATCH', memberPath(owner!.id), { role: 'viewer' }), 404, 'not_found');
      expectError(await admin!.call('DELETE', memberPath(member!.id)), 404, 'not_found');
      expect(await snapshot()).toBe(before);
    });

    test("D9 a role changed in one organization leaves the person's role in another as it was", async () => {
      const [one, two] = [await newOrg(), await newOrg()];
      const admin = await person(one, 'admin', [two, 'admin']);
      const both = await person(one, 'member', [two, 'member']);
      expect((await admin.call('PATCH', memberPath(both.id), { role: 'viewer' })).status).toBe(200);
      expect([await roleOf(one.id, both.id), await roleOf(two.id, both.id)]).toEqual(['viewer', 'member']);
      const me = await api.me(both.token, two.id);
      expect(me.body.role).toBe('member');
      expect((await api.me(both.token, one.id)).body.role).toBe('viewer');
    });
  });
});
