// D54 enrolling and turning off two-step sign-in on one's own account: setup gives a pending secret
// (sealed at rest) until a code confirms it, confirming answers ten recovery codes once, turning it off
// needs the password and a code; D30 each is an entry in the person's organizations, with no secret.
import { beforeAll, describe, expect, test } from 'vitest';
import { base32Decode, totpAt } from '../../server/auth/totp';
import { expectError } from './api-common';
import { forEachBackend, type Api } from './backends';
import type { Clock, TestServer } from './helpers';
import { CONFIRM, enrol, MFA, SETUP, STEP_MS } from './mfa-common';
import { people } from './people';

forEachBackend('API two-step sign-in: enrolment', (backend) => {
  let server: TestServer;
  let api: Api;
  let clock: Clock;
  beforeAll(() => {
    ({ server, api, clock } = backend());
  });
  const { newOrg, person, team } = people(backend, 'MFA Enrol Org');
  const entries = async (userId: number) =>
    server.db.query<{ org_id: unknown; action: string; target_type: string; target_id: unknown; changes: unknown }>(
      `select org_id, action, target_type, target_id, changes from audit_log where action like 'account.mfa%' and target_id = $1 order by id`,
      [userId],
    );

  describe('D54 setup and confirm', () => {
    test('D54 setup answers a base32 secret and its otpauth address; the database holds it sealed, not readable', async () => {
      const {
        people: [p],
      } = await team('member');
      const r = await p!.call('POST', SETUP, { password: p!.password });
      expect(r.status, r.text).toBe(200);
      const secret = r.body.secret as string;
      expect(secret).toMatch(/^[A-Z2-7]{32}$/);
      expect(r.body.otpauth_uri).toBe(`otpauth://totp/CRM:${encodeURIComponent(p!.email)}?secret=${secret}&issuer=CRM&digits=6&period=30`);
      const [row] = await server.db.query<{ secret_sealed: string; enabled_at: Date | null }>('select secret_sealed, enabled_at from user_mfa where user_id = $1', [
        p!.id,
      ]);
      expect(row?.enabled_at).toBeNull();
      expect((await p!.call('GET', '/api/v1/account/')).body.mfa_enabled).toBe(false); // pending is not on
      expect(row?.secret_sealed).not.toContain(secret);
      expect(row?.secret_sealed).not.toContain(base32Decode(secret)!.toString('hex'));
      // pending: the login is not changed yet
      expect((await api.login(p!.email, p!.password)).status).toBe(200);
    });

    test('D54 a wrong code does not confirm (400 invalid_code); a setup again replaces the pending secret', async () => {
      const {
        people: [p],
      } = await team('member');
      const first = base32Decode((await p!.call('POST', SETUP, { password: p!.password })).body.secret as string)!;
      const second = base32Decode((await p!.call('POST', SETUP, { password: p!.password })).body.secret as string)!;
      expectError(await p!.call('POST', CONFIRM, { code: totpAt(first, clock.now()) }), 400, 'invalid_code');
      expectError(await p!.call('POST', CONFIRM, { code: 'abc' }), 400, 'invalid_code');
      expect((await p!.call('POST', CONFIRM, { code: totpAt(second, clock.now()) })).status).toBe(200);
    });

    test('D54 D30 confirming turns it on: ten recovery codes shown once (stored hashed), me says so, one entry per organization', async () => {
      const [a, b] = [await newOrg(), await newOrg()];
      const p = await person(a, 'member', [b, 'viewer']);
      const { recoveryCodes } = await enrol(backend(), p);
      expect(recoveryCodes).toHaveLength(10);
      const stored = await server.db.query<{ code_hash: string }>('select code_hash from mfa_recovery_codes where user_id = $1', [p.id]);
      expect(stored).toHaveLength(10);
      for (const c of recoveryCodes) expect(JSON.stringify(stored)).not.toContain(c.replace('-', ''));
      const me = await p.call('GET', '/api/v1/auth/me/');
      expect((me.body.user as { mfa_enabled: boolean }).mfa_enabled).toBe(true);
      expect((await p.call('GET', '/api/v1/account/')).body.mfa_enabled).toBe(true); // D51 the account page says so too
      const logged = await entries(p.id);
      expect(logged.map((e) => [Number(e.org_id), e.action, e.target_type])).toEqual([
        [a.id, 'account.mfa_enabled', 'member'],
        [b.id, 'account.mfa_enabled', 'member'],
      ]);
      expect(JSON.stringify(logged)).not.toMatch(/secret|code/i);
      // on: setup and confirm are 409
      expectError(await p.call('POST', SETUP, { password: p.password }), 409, 'mfa_enabled');
      expectError(await p.call('POST', CONFIRM, { code: '123456' }), 409, 'mfa_enabled');
    });

    test('D54 a person with no organization may enrol too (no entry: there is no log of theirs to write to)', async () => {
      const p = await person(null);
      await enrol(backend(), p);
      expect(await entries(p.id)).toEqual([]);
      expect((await api.login(p.email, p.password)).status).toBe(202);
    });
  });

  describe('D54 turning it off', () => {
    const on = async () => {
      const {
        org,
        people: [p],
      } = await team('member');
      return { org, p: p!, ...(await enrol(backend(), p!)) };
    };

    test('D54 a wrong password is 400 wrong_password, a wrong code 400 invalid_code; it stays on', async () => {
      const { p, code } = await on();
      expectError(await p.call('DELETE', MFA, { password: 'not-the-password', code: code() }), 400, 'wrong_password');
      expectError(await p.call('DELETE', MFA, { password: p.password, code: code(2) }), 400, 'invalid_code');
      expectError(await p.call('DELETE', MFA, { password: p.password }), 400);
      expect((await api.login(p.email, p.password)).status).toBe(202);
    });

    test('D54 D30 the password and a code turn it off: 204, login gives tokens again, the secret and codes are gone, one entry', async () => {
      const { org, p, code } = await on();
      const r = await p.call('DELETE', MFA, { password: p.password, code: code() });
      expect(r.status, r.text).toBe(204);
      expect((await api.login(p.email, p.password)).status).toBe(200);
      expect(await server.db.query('select 1 from user_mfa where user_id = $1', [p.id])).toEqual([]);
      expect(await server.db.query('select 1 from mfa_recovery_codes where user_id = $1', [p.id])).toEqual([]);
      expect((await entries(p.id)).map((e) => [Number(e.org_id), e.action])).toEqual([
        [org.id, 'account.mfa_enabled'],
        [org.id, 'account.mfa_disabled'],
      ]);
      expectError(await p.call('DELETE', MFA, { password: p.password, code: code() }), 409, 'mfa_not_enabled');
    });

    test('D54 a recovery code may stand in for the code (the phone is lost)', async () => {
      const { p, recoveryCodes } = await on();
      expect((await p.call('DELETE', MFA, { password: p.password, code: recoveryCodes[3]! })).status).toBe(204);
    });

    test('D54 D18 wrong passwords and codes are throttled like logins: after 3, even the right pair is 429', async () => {
      const { p, code } = await on();
      await p.call('DELETE', MFA, { password: 'wrong-one-1', code: code() });
      await p.call('DELETE', MFA, { password: p.password, code: code(3) });
      await p.call('DELETE', MFA, { password: 'wrong-one-2', code: code() });
      expectError(await p.call('DELETE', MFA, { password: p.password, code: code() }), 429, 'too_many_attempts');
      clock.advance(11 * 60_000);
      expect((await p.call('DELETE', MFA, { password: p.password, code: code() })).status).toBe(204);
    });

    test('D54 a code used to sign in cannot be used again to turn it off (replay)', async () => {
      const { p, code } = await on();
      const now = code();
      const challenge = (await api.login(p.email, p.password)).body.challenge as string;
      expect((await api.post('/api/v1/auth/mfa/', { challenge, code: now })).status).toBe(200);
      expectError(await p.call('DELETE', MFA, { password: p.password, code: now }), 400, 'invalid_code');
      clock.advance(STEP_MS);
      expect((await p.call('DELETE', MFA, { password: p.password, code: code() })).status).toBe(204);
    });
  });
});
