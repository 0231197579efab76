// D54 the password before two-step sign-in is turned on, the count of recovery codes left on the
// account, and a new set of recovery codes (with the password) that ends the old set at once; D30 the
// new set is an entry in each of the person's organizations, never with a code in it.
import { beforeAll, describe, expect, test } from 'vitest';
import { expectError } from './api-common';
import { forEachBackend, type Api } from './backends';
import type { Clock, TestServer } from './helpers';
import { challengeFor, CONFIRM, enrol, MFA, RECOVERY_CODES, SECOND_STEP, SETUP } from './mfa-common';
import { people, type Person } from './people';

const ACCOUNT = '/api/v1/account/';

forEachBackend('API two-step sign-in: password and recovery codes', (backend) => {
  let server: TestServer;
  let api: Api;
  let clock: Clock;
  beforeAll(() => {
    ({ server, api, clock } = backend());
  });
  const { newOrg, person, team } = people(backend, 'MFA Recovery Org');
  const left = async (p: Person) => (await p.call('GET', ACCOUNT)).body.recovery_codes_left;
  const renewals = (userId: number) =>
    server.db.query<{ org_id: unknown; target_type: string; changes: unknown }>(
      `select org_id, target_type, changes from audit_log where action = 'account.mfa_recovery_codes_renewed' and target_id = $1 order by id`,
      [userId],
    );
  /** A recovery code at the login's second step: 200 when it signs in. */
  const signInWith = async (p: Person, code: string) => (await api.post(SECOND_STEP, { challenge: await challengeFor(backend(), p), recovery_code: code })).status;
  const member = async () => (await team('member')).people[0]!;

  describe('D54 the password before turning it on', () => {
    test('D54 setup with a wrong password is 400 wrong_password on the password field and writes no pending secret', async () => {
      const p = await member();
      const r = await p.call('POST', SETUP, { password: 'not-the-password' });
      expectError(r, 400, 'wrong_password');
      expect(r.body).toMatchObject({ field: 'password', errors: { password: expect.any(String) } });
      expect(await server.db.query('select 1 from user_mfa where user_id = $1', [p.id])).toEqual([]);
      expectError(await p.call('POST', CONFIRM, { code: '123456' }), 400, 'invalid_code'); // nothing to confirm
      expect((await api.login(p.email, p.password)).status).toBe(200);
    });

    test('D54 setup without a password is refused: no body 415, a body without it 400', async () => {
      const p = await member();
      expectError(await p.call('POST', SETUP), 415);
      expectError(await p.call('POST', SETUP, {}), 400);
      expect(await server.db.query('select 1 from user_mfa where user_id = $1', [p.id])).toEqual([]);
    });

    test('D54 D18 wrong passwords at setup are throttled like logins: after 3, even the right one is 429', async () => {
      const p = await member();
      for (const wrong of ['wrong-one-1', 'wrong-one-2', 'wrong-one-3']) await p.call('POST', SETUP, { password: wrong });
      expectError(await p.call('POST', SETUP, { password: p.password }), 429, 'too_many_attempts');
      clock.advance(11 * 60_000);
      expect((await p.call('POST', SETUP, { password: p.password })).status).toBe(200);
    });
  });

  describe('D54 recovery codes left', () => {
    test('D54 GET /v1/account/ carries recovery_codes_left: null while off or pending, 10 once on, one fewer for each code used', async () => {
      const p = await member();
      expect(await left(p)).toBeNull();
      expect((await p.call('POST', SETUP, { password: p.password })).status).toBe(200);
      expect(await left(p)).toBeNull(); // pending is not on
      const { recoveryCodes } = await enrol(backend(), p);
      expect(await left(p)).toBe(10);
      expect(await signInWith(p, recoveryCodes[0]!)).toBe(200);
      expect(await left(p)).toBe(9);
      expect((await p.call('DELETE', MFA, { password: p.password, code: recoveryCodes[1]! })).status).toBe(204);
      expect(await left(p)).toBeNull();
    });
  });

  describe('D54 a new set of recovery codes', () => {
    test('D54 D30 the password makes ten new codes, stored hashed; every old one stops working; one entry per organization, no code in it', async () => {
      const [a, b] = [await newOrg(), await newOrg()];
      const p = await person(a, 'member', [b, 'viewer']);
      const { recoveryCodes: old } = await enrol(backend(), p);
      expect(await signInWith(p, old[0]!)).toBe(200);
      const r = await p.call('POST', RECOVERY_CODES, { password: p.password });
      expect(r.status, r.text).toBe(200);
      const fresh = r.body.recovery_codes as string[];
      expect(fresh).toHaveLength(10);
      expect(new Set(fresh).size).toBe(10);
      expect(fresh.some((c) => old.includes(c))).toBe(false);
      expect(await left(p)).toBe(10);
      const stored = await server.db.query<{ code_hash: string; used_at: Date | null }>('select code_hash, used_at from mfa_recovery_codes where user_id = $1', [p.id]);
      expect(stored.map((s) => s.used_at)).toEqual(Array(10).fill(null)); // the old set, used or not, is gone
      for (const c of fresh) expect(JSON.stringify(stored)).not.toContain(c.replace('-', ''));
      expect(await signInWith(p, old[1]!)).toBe(400);
      expect(await signInWith(p, fresh[0]!)).toBe(200);
      const logged = await renewals(p.id);
      expect(logged.map((e) => [Number(e.org_id), e.target_type])).toEqual([
        [a.id, 'member'],
        [b.id, 'member'],
      ]);
      const text = JSON.stringify(logged);
      for (const c of [...fresh, ...old]) expect(text).not.toContain(c.slice(0, 5));
    });

    test('D54 a wrong password makes no new set: 400 wrong_password on the password field, the old codes still work, no entry', async () => {
      const p = await member();
      const { recoveryCodes } = await enrol(backend(), p);
      const r = await p.call('POST', RECOVERY_CODES, { password: 'not-the-password' });
      expectError(r, 400, 'wrong_password');
      expect(r.body.field).toBe('password');
      expectError(await p.call('POST', RECOVERY_CODES, {}), 400);
      expect(await renewals(p.id)).toEqual([]);
      expect(await signInWith(p, recoveryCodes[9]!)).toBe(200);
    });

    test('D54 with two-step sign-in off (or only pending) there is no set to renew: 409 mfa_not_enabled, nothing written', async () => {
      const p = await member();
      expectError(await p.call('POST', RECOVERY_CODES, { password: p.password }), 409, 'mfa_not_enabled');
      expect((await p.call('POST', SETUP, { password: p.password })).status).toBe(200);
      expectError(await p.call('POST', RECOVERY_CODES, { password: p.password }), 409, 'mfa_not_enabled');
      expect(await server.db.query('select 1 from mfa_recovery_codes where user_id = $1', [p.id])).toEqual([]);
      expect(await renewals(p.id)).toEqual([]);
    });

    test('D54 the route needs a signed-in person', async () => {
      expectError(await api.post(RECOVERY_CODES, { password: 'anything-at-all' }), 401);
    });
  });
});
