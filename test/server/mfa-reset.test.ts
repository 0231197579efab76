// D54 D53 resetting another member's two-step sign-in (team:manage): allowed for a member of this
// organization only, an owner's only by an owner, and a member who belongs to other organizations only
// by someone who owns every one of them; audited in this organization; never oneself.
import { beforeAll, describe, expect, test } from 'vitest';
import { expectError } from './api-common';
import { forEachBackend, type Api } from './backends';
import type { TestServer } from './helpers';
import { enrol } from './mfa-common';
import { people, tablesSnapshot, type Person } from './people';

const resetPath = (id: number) => `/api/v1/team/members/${id}/mfa/`;

forEachBackend('API two-step sign-in: a reset by the team', (backend) => {
  let server: TestServer;
  let api: Api;
  beforeAll(() => {
    ({ server, api } = backend());
  });
  const { newOrg, person, team } = people(backend, 'MFA Reset Org');
  const isOn = async (p: Person) => (await api.login(p.email, p.password)).status === 202;
  const snapshot = () => tablesSnapshot(server.db, ['user_mfa', 'mfa_recovery_codes', 'audit_log']);

  describe('D53 D54 allowed', () => {
    test('D54 the team list says who has two-step sign-in on (the reset is offered only for them)', async () => {
      const {
        people: [admin, on, off],
      } = await team('admin', 'member', 'member');
      await enrol(backend(), on!);
      const r = await admin!.call('GET', '/api/v1/team/members/');
      expect(r.status, r.text).toBe(200);
      const flags = new Map((r.body.results as { user_id: number; mfa_enabled: boolean }[]).map((m) => [m.user_id, m.mfa_enabled]));
      expect([flags.get(admin!.id), flags.get(on!.id), flags.get(off!.id)]).toEqual([false, true, false]);
    });

    test('D54 D30 an admin resets a member: 204, the member signs in with the password alone, one account.mfa_reset entry naming them', async () => {
      const {
        org,
        people: [admin, member],
      } = await team('admin', 'member');
      await enrol(backend(), member!);
      const r = await admin!.call('DELETE', resetPath(member!.id));
      expect(r.status, r.text).toBe(204);
      expect(await isOn(member!)).toBe(false);
      const logged = await server.db.query<{ actor_id: unknown; target_type: string; target_id: unknown; target_label: string }>(
        "select actor_id, target_type, target_id, target_label from audit_log where org_id = $1 and action = 'account.mfa_reset'",
        [org.id],
      );
      expect(logged.map((e) => [Number(e.actor_id), e.target_type, Number(e.target_id), e.target_label])).toEqual([[admin!.id, 'member', member!.id, member!.name]]);
      expect(await server.db.query('select 1 from mfa_recovery_codes where user_id = $1', [member!.id])).toEqual([]);
    });

    test('D53 an owner resets an owner; an owner of every organization the member is in resets them', async () => {
      const [a, b] = [await newOrg(), await newOrg()];
      const boss = await person(a, 'owner', [b, 'owner']);
      const coOwner = await person(a, 'owner');
      const both = await person(a, 'member', [b, 'viewer']);
      await enrol(backend(), coOwner);
      await enrol(backend(), both);
      expect((await boss.call('DELETE', resetPath(coOwner.id))).status).toBe(204);
      expect((await boss.call('DELETE', resetPath(both.id))).status).toBe(204);
      expect([await isOn(coOwner), await isOn(both)]).toEqual([false, false]);
    });
  });

  describe('D53 D54 refused', () => {
    test("D53 an admin resetting an owner's is 403 forbidden; nothing changes", async () => {
      const {
        people: [owner, admin],
      } = await team('owner', 'admin');
      await enrol(backend(), owner!);
      const before = await snapshot();
      expectError(await admin!.call('DELETE', resetPath(owner!.id)), 403, 'forbidden');
      expect(await snapshot()).toBe(before);
      expect(await isOn(owner!)).toBe(true);
    });

    test('D53 a member who is also in another organization, where the caller is not an owner: 403 forbidden, saying why', async () => {
      const [a, b] = [await newOrg(), await newOrg()];
      const owner = await person(a, 'owner', [b, 'admin']);
      const member = await person(a, 'member', [b, 'member']);
      await enrol(backend(), member);
      const before = await snapshot();
      const r = await owner.call('DELETE', resetPath(member.id));
      expectError(r, 403, 'forbidden');
      expect(r.body.detail).toMatch(/another organization/);
      expect(await snapshot()).toBe(before);
    });

    test('D53 an unknown member or one of another organization is 404; oneself is 400; without team:manage 403; not on is 409', async () => {
      const {
        people: [admin, member, plain],
      } = await team('admin', 'member', 'member');
      const outsider = await person(await newOrg(), 'member');
      await enrol(backend(), outsider);
      await enrol(backend(), admin!);
      expectError(await admin!.call('DELETE', resetPath(outsider.id)), 404, 'not_found');
      expectError(await admin!.call('DELETE', resetPath(2_000_000_000)), 404, 'not_found');
      expectError(await admin!.call('DELETE', resetPath(admin!.id)), 400, 'own_account');
      expectError(await member!.call('DELETE', resetPath(admin!.id)), 403, 'permission_denied');
      expectError(await admin!.call('DELETE', resetPath(plain!.id)), 409, 'mfa_not_enabled');
      expect(await isOn(outsider)).toBe(true);
    });
  });
});
