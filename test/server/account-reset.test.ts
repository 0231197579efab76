// D53 reset links: made by team:manage for another member where D53's rule allows it (vouch.ts), 201 with
// the token once (random, stored as its hash), 1 hour, single use; the public look-up and use (every
// session of the person ends); D18 D35 throttled like invitations; D37 the token in no log or entry.
import { beforeAll, describe, expect, test } from 'vitest';
import type { IssuedResetLink } from '../../contract/account';
import { expectError } from './api-common';
import { auditAbout, resetLinkPath, resetPath, signInAgain } from './account-common';
import { forEachBackend, type Api } from './backends';
import { ENDED_SESSION_RETENTION_MS } from '../../server/auth/sessions';
import { pruneResets } from '../../server/password-resets';
import { client, DAY, MINUTE, newAddress, sha256, type Clock, type TestServer } from './helpers';
import { people, type Person } from './people';

const NEW_PASSWORD = 'reset-to-this-password';

forEachBackend('API reset links', (backend) => {
  let server: TestServer;
  let api: Api;
  let clock: Clock;
  beforeAll(() => {
    ({ server, api, clock } = backend());
  });
  const { newOrg, person, team } = people(backend, 'Reset Org');
  const link = async (by: Person, userId: number): Promise<IssuedResetLink> => {
    const r = await by.call('POST', resetLinkPath(userId));
    expect(r.status, r.text).toBe(201);
    return r.body as unknown as IssuedResetLink;
  };

  describe('D53 making a link', () => {
    test('D53 an owner’s link for a member: 201 with a random token shown once, 1 hour, stored as its hash, audited without it', async () => {
      const {
        org,
        people: [owner, member],
      } = await team('owner', 'member');
      const r = await owner!.call('POST', resetLinkPath(member!.id));
      expect(r.status, r.text).toBe(201);
      expect(Object.keys(r.body).sort()).toEqual(['expires_at', 'token']);
      const issued = r.body as unknown as IssuedResetLink;
      expect(issued.token).toMatch(/^[A-Za-z0-9_-]{43}$/); // 256 bits
      expect(Date.parse(issued.expires_at) - clock.now()).toBe(60 * MINUTE);
      const rows = await server.db.query<{ token_hash: string; org_id: unknown; created_by: unknown }>(
        'select token_hash, org_id, created_by from password_resets where user_id = $1',
        [member!.id],
      );
      expect(rows.map((x) => [x.token_hash, Number(x.org_id), Number(x.created_by)])).toEqual([[sha256(issued.token), org.id, owner!.id]]);
      expect(JSON.stringify(await server.db.query('select * from password_resets'))).not.toContain(issued.token);
      const [entry] = await auditAbout(server, 'account.reset_link_created', member!.id);
      expect([Number(entry?.org_id), Number(entry?.actor_id), entry?.target_type]).toEqual([org.id, owner!.id, 'member']);
      expect(entry?.changes).toEqual({ email: member!.email, expires_at: issued.expires_at });
      expect((await link(owner!, member!.id)).token).not.toBe(issued.token);
    });

    test('D53 an admin may make one for a member and an admin, not for an owner (403 forbidden); an owner for an owner', async () => {
      const {
        people: [owner, owner2, admin, admin2, member],
      } = await team('owner', 'owner', 'admin', 'admin', 'member');
      await link(admin!, member!.id);
      await link(admin!, admin2!.id);
      const refused = await admin!.call('POST', resetLinkPath(owner!.id));
      expectError(refused, 403, 'forbidden');
      expect(refused.body.detail).toMatch(/owner/);
      await link(owner2!, owner!.id);
    });

    test('D53 across organizations, both ways: a member of another organization only by an owner there too', async () => {
      const [a, b] = [await newOrg(), await newOrg()];
      const both = await person(a, 'member', [b, 'member']);
      const ownerOfA = await person(a, 'owner');
      const ownerOfB = await person(b, 'owner');
      const ownerOfBoth = await person(a, 'owner', [b, 'owner']);
      const ownerOfAAdminOfB = await person(a, 'owner', [b, 'admin']);
      const adminOfAOwnerOfB = await person(b, 'owner', [a, 'admin']);
      expectError(await ownerOfA.call('POST', resetLinkPath(both.id)), 403, 'forbidden');
      expectError(await ownerOfB.call('POST', resetLinkPath(both.id)), 403, 'forbidden');
      expectError(await ownerOfAAdminOfB.call('POST', resetLinkPath(both.id)), 403, 'forbidden');
      expectError(await adminOfAOwnerOfB.call('POST', resetLinkPath(both.id), undefined, a.id), 403, 'forbidden');
      await link(ownerOfBoth, both.id); // acting in a
      expect((await ownerOfBoth.call('POST', resetLinkPath(both.id), undefined, b.id)).status).toBe(201);
      expect(await auditAbout(server, 'account.reset_link_created', both.id)).toHaveLength(2);
    });

    test('D53 D9 oneself is a 400, someone of another organization only or nobody a 404, without team:manage a 403', async () => {
      const {
        people: [owner, member],
      } = await team('owner', 'member');
      const outsider = await person(await newOrg(), 'member');
      expectError(await owner!.call('POST', resetLinkPath(owner!.id)), 400);
      expectError(await owner!.call('POST', resetLinkPath(outsider.id)), 404, 'not_found');
      expectError(await owner!.call('POST', resetLinkPath(2_000_000_000)), 404, 'not_found');
      expectError(await member!.call('POST', resetLinkPath(owner!.id)), 403, 'permission_denied');
      expect(await server.db.query('select 1 from password_resets where user_id = any(array[$1, $2]::int[])', [owner!.id, outsider.id])).toEqual([]);
    });
  });

  describe('D53 using a link', () => {
    test('D53 the look-up names the person; the new password ends every session of theirs; the link is spent (410 reset_used)', async () => {
      const {
        org,
        people: [owner, member],
      } = await team('owner', 'member');
      const sessions = [await signInAgain(api, member!), await signInAgain(api, member!)];
      const { token, expires_at } = await link(owner!, member!.id);
      const look = await api.get(resetPath(token));
      expect(look.status, look.text).toBe(200);
      expect(look.body).toEqual({ email: member!.email, first_name: member!.name, expires_at });
      const short = await api.post(resetPath(token), { password: 'too-short' });
      expectError(short, 400, 'validation_error');
      expect(Object.keys(short.body.errors as object)).toEqual(['password']);
      const used = await api.post(resetPath(token), { password: NEW_PASSWORD });
      expect(used.status, used.text).toBe(200);
      expect(used.body).toEqual({ email: member!.email }); // no tokens: the person signs in
      expectError(await api.me(member!.token), 401);
      for (const s of sessions) {
        expectError(await api.me(s.access_token), 401);
        expectError(await api.refresh(s.refresh_token), 401, 'session_revoked');
      }
      expect((await owner!.call('GET', '/api/v1/team/members/')).status).toBe(200); // the maker's session is not the person's
      expectError(await api.login(member!.email, member!.password), 401, 'invalid_credentials');
      expect((await api.login(member!.email, NEW_PASSWORD)).status).toBe(200);
      expectError(await api.get(resetPath(token)), 410, 'reset_used');
      expectError(await api.post(resetPath(token), { password: 'another-new-password' }), 410, 'reset_used');
      expect((await api.login(member!.email, NEW_PASSWORD)).status).toBe(200);
      const [entry, ...more] = await auditAbout(server, 'account.password_reset', member!.id);
      expect(more).toEqual([]);
      expect([Number(entry?.org_id), Number(entry?.actor_id), entry?.changes]).toEqual([org.id, member!.id, { ended_sessions: 3 }]);
      const everything = JSON.stringify([await server.db.query('select * from audit_log where target_id = $1', [member!.id]), server.logs]);
      for (const secret of [token, NEW_PASSWORD]) expect(everything).not.toContain(secret);
      expect(server.logs.some((l) => l.includes('/v1/password-resets/[redacted]/'))).toBe(true);
    });

    test('D53 single use under concurrency: two uses of one link at once, one sets the password, the other is 410 reset_used', async () => {
      const {
        people: [owner, member],
      } = await team('owner', 'member');
      const { token } = await link(owner!, member!.id);
      const passwords = ['first-of-two-passwords', 'second-of-two-passwords'];
      const answers = await Promise.all(passwords.map((password) => api.post(resetPath(token), { password })));
      expect(answers.map((a) => a.status).sort()).toEqual([200, 410]);
      expect(answers.find((a) => a.status === 410)?.body.code).toBe('reset_used');
      const won = passwords[answers.findIndex((a) => a.status === 200)]!;
      const lost = passwords.find((p) => p !== won)!;
      expect((await api.login(member!.email, won)).status).toBe(200);
      expectError(await api.login(member!.email, lost), 401, 'invalid_credentials');
      expect(await auditAbout(server, 'account.password_reset', member!.id)).toHaveLength(1);
    });

    test('D53 housekeeping deletes links whose hour ended more than 30 days ago, and keeps the others', async () => {
      const {
        people: [owner, member],
      } = await team('owner', 'member');
      const [old, recent] = [await link(owner!, member!.id), await link(owner!, member!.id)];
      await server.db.query('update password_resets set expires_at = $2 where token_hash = $1', [sha256(old.token), new Date(clock.now() - 31 * DAY)]);
      await pruneResets(server.db, new Date(clock.now() - ENDED_SESSION_RETENTION_MS));
      const left = await server.db.query<{ token_hash: string }>('select token_hash from password_resets where user_id = $1', [member!.id]);
      expect(left.map((r) => r.token_hash)).toEqual([sha256(recent.token)]);
    });

    test('D53 an unknown token is 404; after its hour a link is 410 reset_expired and changes nothing', async () => {
      const {
        people: [owner, member],
      } = await team('owner', 'member');
      expectError(await api.get(resetPath('A'.repeat(43))), 404, 'not_found');
      const { token } = await link(owner!, member!.id);
      clock.advance(60 * MINUTE);
      expectError(await api.get(resetPath(token)), 410, 'reset_expired');
      expectError(await api.post(resetPath(token), { password: NEW_PASSWORD }), 410, 'reset_expired');
      expect((await api.login(member!.email, member!.password)).status).toBe(200);
    });

    test('D18 D35 guessed tokens are throttled per address like invitation look-ups: 429, a real link too; another address goes on', async () => {
      const {
        people: [owner, member],
      } = await team('owner', 'member');
      const { token } = await link(owner!, member!.id);
      const guesser = client(server.url, newAddress());
      for (let i = 0; i < 5; i++) expectError(await guesser.get(resetPath(`guess${i}${'x'.repeat(30)}`)), 404); // SUITE_ENV: 5 per address
      const throttled = await guesser.get(resetPath(token));
      expectError(throttled, 429, 'too_many_attempts');
      expect(Number(throttled.headers.get('retry-after'))).toBeGreaterThan(0);
      expectError(await guesser.post(resetPath(token), { password: NEW_PASSWORD }), 429, 'too_many_attempts');
      expect((await api.get(resetPath(token))).status).toBe(200);
      expect((await guesser.login(member!.email, member!.password)).status).toBe(200); // D36: never the login budget
    });
  });
});
