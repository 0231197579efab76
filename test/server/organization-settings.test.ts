// D54 the organization's settings: any member reads require_mfa, only an owner changes it (audited);
// with it on, a member without two-step sign-in is refused every organization call (403
// mfa_enrolment_required) while their account, `me` and the settings stay reachable, until they enrol.
import { beforeAll, describe, expect, test } from 'vitest';
import { CUSTOMERS, expectError, ME } from './api-common';
import { forEachBackend } from './backends';
import type { TestServer } from './helpers';
import { enrol, SETTINGS, SETUP } from './mfa-common';
import { people, tablesSnapshot } from './people';

forEachBackend('API organization settings', (backend) => {
  let server: TestServer;
  beforeAll(() => {
    ({ server } = backend());
  });
  const { newOrg, person, team } = people(backend, 'Settings Org');

  describe('D54 reading and changing', () => {
    test('D54 every member reads the settings: require_mfa off by default', async () => {
      const { people: members } = await team('owner', 'admin', 'member', 'viewer');
      for (const m of members) {
        const r = await m.call('GET', SETTINGS);
        expect(r.status, r.text).toBe(200);
        expect(r.body).toEqual({ require_mfa: false });
      }
    });

    test('D54 require_mfa by a non-owner is 403 owner_required and changes nothing; the header is required; another organization is 403', async () => {
      const {
        org,
        people: [admin, member],
      } = await team('admin', 'member');
      const other = await newOrg();
      const before = await tablesSnapshot(server.db, ['organizations', 'audit_log']);
      expectError(await admin!.call('PATCH', SETTINGS, { require_mfa: true }), 403, 'owner_required');
      expectError(await member!.call('PATCH', SETTINGS, { require_mfa: true }), 403, 'owner_required');
      expectError(await admin!.call('GET', SETTINGS, undefined, other.id), 403, 'not_a_member');
      expectError(await admin!.call('PATCH', SETTINGS, { require_mfa: true }, other.id), 403, 'not_a_member');
      expectError(await admin!.call('PATCH', SETTINGS, { require_mfa: 'yes' }), 400);
      const noHeader = await backend().api.request(SETTINGS, { method: 'GET', headers: { Authorization: `Bearer ${admin!.token}` } });
      expectError(noHeader, 400, 'missing_organization_id');
      expect(await tablesSnapshot(server.db, ['organizations', 'audit_log'])).toBe(before);
      expect((await admin!.call('GET', SETTINGS, undefined, org.id)).body).toEqual({ require_mfa: false });
    });

    test('D54 D30 the owner turns it on: 200, one organization.settings_updated entry; the same value again writes nothing', async () => {
      const {
        org,
        people: [owner],
      } = await team('owner');
      const r = await owner!.call('PATCH', SETTINGS, { require_mfa: true });
      expect(r.status, r.text).toBe(200);
      expect(r.body).toEqual({ require_mfa: true });
      await owner!.call('PATCH', SETTINGS, { require_mfa: true });
      const logged = await server.db.query<{ action: string; target_type: string; changes: unknown }>(
        "select action, target_type, changes from audit_log where org_id = $1 and action = 'organization.settings_updated'",
        [org.id],
      );
      expect(logged).toHaveLength(1);
      const changes = typeof logged[0]!.changes === 'string' ? JSON.parse(logged[0]!.changes) : logged[0]!.changes;
      expect(changes).toEqual({ require_mfa: { from: false, to: true } });
      const me = await owner!.call('GET', ME);
      expect((me.body.organizations as { id: number; require_mfa: boolean }[]).find((o) => o.id === org.id)?.require_mfa).toBe(true);
    });
  });

  describe('D54 enforcement', () => {
    test('D54 with require_mfa on, a member without it gets 403 mfa_enrolment_required on organization calls; me, the account and the settings stay reachable; enrolled, all is open', async () => {
      const {
        people: [owner, member],
      } = await team('owner', 'member');
      expect((await member!.call('GET', CUSTOMERS)).status).toBe(200);
      await enrol(backend(), owner!);
      expect((await owner!.call('PATCH', SETTINGS, { require_mfa: true })).status).toBe(200);
      expectError(await member!.call('GET', CUSTOMERS), 403, 'mfa_enrolment_required');
      expectError(await member!.call('POST', CUSTOMERS, { name: 'Blocked' }), 403, 'mfa_enrolment_required');
      expect((await member!.call('GET', ME)).status).toBe(200);
      expect((await member!.call('GET', SETTINGS)).body).toEqual({ require_mfa: true });
      expect((await owner!.call('GET', CUSTOMERS)).status).toBe(200); // the owner has it on
      await enrol(backend(), member!);
      expect((await member!.call('GET', CUSTOMERS)).status).toBe(200);
      expect((await member!.call('POST', CUSTOMERS, { name: 'Allowed' })).status).toBe(201);
    });

    test('D54 only that organization: the same person elsewhere is not held back; an owner without it may still turn it off', async () => {
      const [strict, relaxed] = [await newOrg(), await newOrg()];
      const owner = await person(strict, 'owner', [relaxed, 'member']);
      expect((await owner.call('PATCH', SETTINGS, { require_mfa: true })).status).toBe(200);
      expectError(await owner.call('GET', CUSTOMERS), 403, 'mfa_enrolment_required');
      expect((await owner.call('GET', CUSTOMERS, undefined, relaxed.id)).status).toBe(200);
      expect((await owner.call('POST', SETUP, { password: owner.password })).status).toBe(200); // the account stays reachable
      expect((await owner.call('PATCH', SETTINGS, { require_mfa: false })).status).toBe(200);
      expect((await owner.call('GET', CUSTOMERS)).status).toBe(200);
    });
  });
});
