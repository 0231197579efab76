// D62 a reset link holds only while its rule does: checked again when it is used (its maker still a member
// with team:manage who may vouch for the person under D53, the person still a member there), and ended when
// the person's password, membership or role changes, or its maker is removed or loses team:manage. A link
// that no longer holds is answered as an expired one (410 reset_expired) and changes nothing.
import { beforeAll, describe, expect, test } from 'vitest';
import type { IssuedResetLink } from '../../contract/account';
import { D10, expectError } from './api-common';
import { PASSWORD, resetLinkPath, resetPath } from './account-common';
import { forEachBackend, type Api } from './backends';
import type { TestServer } from './helpers';
import { people, type Person } from './people';

const NEW_PASSWORD = 'reset-to-this-password';
const memberPath = (id: number) => `/api/v1/team/members/${id}/`;

forEachBackend('API reset links hold only while their rule does', (backend) => {
  let server: TestServer;
  let api: Api;
  beforeAll(() => {
    ({ server, api } = backend());
  });
  const { newOrg, team } = people(backend, 'Reset Rule Org');
  const link = async (by: Person, userId: number): Promise<IssuedResetLink> => {
    const r = await by.call('POST', resetLinkPath(userId));
    expect(r.status, r.text).toBe(201);
    return r.body as unknown as IssuedResetLink;
  };
  /** The link is refused as expired, both to look at and to use, and the person's password is unchanged. */
  const refused = async (token: string, target: Person) => {
    expectError(await api.get(resetPath(token)), 410, 'reset_expired');
    expectError(await api.post(resetPath(token), { password: NEW_PASSWORD }), 410, 'reset_expired');
    expectError(await api.login(target.email, NEW_PASSWORD), 401, 'invalid_credentials');
    expect((await api.login(target.email, target.password)).status).toBe(200);
  };

  describe('D62 checked again when used', () => {
    test('D62 an admin’s link for a member who is then made an owner no longer sets the password', async () => {
      const {
        people: [owner, admin, member],
      } = await team('owner', 'admin', 'member');
      const { token } = await link(admin!, member!.id);
      expect((await owner!.call('PATCH', memberPath(member!.id), { role: 'owner' })).status).toBe(200);
      expectError(await admin!.call('POST', resetLinkPath(member!.id)), 403, 'forbidden'); // a new one is refused, as before
      await refused(token, member!);
    });

    test('D62 a link for a member who was removed no longer works, nor after they join another organization', async () => {
      const {
        people: [owner, member],
      } = await team('owner', 'member');
      const { token } = await link(owner!, member!.id);
      expect((await owner!.call('DELETE', memberPath(member!.id))).status).toBe(204);
      const other = await newOrg();
      await server.db.query("insert into memberships (user_id, org_id, role) values ($1, $2, 'member')", [member!.id, other.id]);
      await refused(token, member!);
      expect(await server.db.query('select 1 from audit_log where action = $1 and target_id = $2', ['account.password_reset', member!.id])).toEqual([]);
    });

    test('D62 a link whose maker was removed no longer works', async () => {
      const {
        people: [owner, admin, member],
      } = await team('owner', 'admin', 'member');
      const { token } = await link(admin!, member!.id);
      expect((await owner!.call('DELETE', memberPath(admin!.id))).status).toBe(204);
      await refused(token, member!);
    });

    test('D62 the rule is read when the link is used, not only when it was made or changed through the API', async () => {
      const {
        org,
        people: [, admin, member],
      } = await team('owner', 'admin', 'member');
      const { token } = await link(admin!, member!.id);
      expect((await api.get(resetPath(token))).status).toBe(200);
      // Changed behind the API's back (nothing ends the link): the check at use still refuses it.
      await server.db.query("delete from role_permissions where org_id = $1 and role = 'admin' and permission = 'team:manage'", [org.id]);
      await refused(token, member!);
      await server.db.query("insert into role_permissions (org_id, role, permission) values ($1, 'admin', 'team:manage')", [org.id]);
      await server.db.query("insert into memberships (user_id, org_id, role) values ($1, $2, 'member')", [member!.id, (await newOrg()).id]);
      await refused(token, member!); // a member of another organization too: only an owner of both may vouch (D53)
    });
  });

  describe('D62 ended by what changes', () => {
    const openLinks = async (userId: number) => server.db.query('select id from password_resets where user_id = $1 and used_at is null and expires_at > now()', [userId]);

    test('D62 the person’s own password change ends every open link for them', async () => {
      const {
        people: [owner, member],
      } = await team('owner', 'member');
      const { token } = await link(owner!, member!.id);
      const changed = await member!.call('POST', PASSWORD, { current_password: member!.password, new_password: 'my-own-new-password' });
      expect(changed.status, changed.text).toBe(200);
      expect(await openLinks(member!.id)).toEqual([]);
      expectError(await api.get(resetPath(token)), 410, 'reset_expired');
    });

    test('D62 a role change or a removal of the person ends their open links; using one link ends the others', async () => {
      const {
        people: [owner, member, other],
      } = await team('owner', 'member', 'member');
      await link(owner!, member!.id);
      expect((await owner!.call('PATCH', memberPath(member!.id), { role: 'admin' })).status).toBe(200);
      expect(await openLinks(member!.id)).toEqual([]);
      const first = await link(owner!, other!.id);
      const second = await link(owner!, other!.id);
      expect((await api.post(resetPath(first.token), { password: NEW_PASSWORD })).status).toBe(200);
      expectError(await api.get(resetPath(second.token)), 410, 'reset_expired');
      await link(owner!, other!.id);
      expect((await owner!.call('DELETE', memberPath(other!.id))).status).toBe(204);
      expect(await openLinks(other!.id)).toEqual([]);
    });

    test('D62 links made by a member whose role loses team:manage in the matrix end; others’ stay', async () => {
      const {
        people: [owner, admin, member],
      } = await team('owner', 'admin', 'member');
      const byAdmin = await link(admin!, member!.id);
      const byOwner = await link(owner!, member!.id);
      const matrix = Object.fromEntries(Object.entries(D10).map(([r, ps]) => [r, r === 'admin' ? ps.filter((p) => p !== 'team:manage') : ps]));
      const r = await owner!.call('PUT', '/api/v1/permissions/', { matrix });
      expect(r.status, r.text).toBe(200);
      expectError(await api.get(resetPath(byAdmin.token)), 410, 'reset_expired');
      expect((await api.get(resetPath(byOwner.token))).status).toBe(200);
    });
  });
});
