// D51 the person's own account: read it; change the first name, or the email with the current password
// (unique in any case); change the password (≥ 12 characters; every other session ends, this one
// continues). D18 a wrong current password is throttled like a login. D30 audited in each of the
// person's organizations, never with a password.
import { beforeAll, describe, expect, test } from 'vitest';
import { PASSWORD_TOO_SHORT } from '../../contract/account';
import { expectError } from './api-common';
import { ACCOUNT, as, auditAbout, PASSWORD, signInAgain } from './account-common';
import { forEachBackend, type Api } from './backends';
import { MINUTE, type Clock, type TestServer } from './helpers';
import { people } from './people';

const NEW_PASSWORD = 'a-brand-new-password';

forEachBackend('API account', (backend) => {
  let server: TestServer;
  let api: Api;
  let clock: Clock;
  beforeAll(() => {
    ({ server, api, clock } = backend());
  });
  const { newOrg, person } = people(backend, 'Account Org');

  describe('D51 reading and changing the account', () => {
    test('D51 D54 GET /v1/account/ answers the account without an organization: id, email, first name, mfa_enabled, recovery_codes_left, created_at', async () => {
      const p = await person(null);
      const r = await as(api, p.token, 'GET', ACCOUNT);
      expect(r.status, r.text).toBe(200);
      expect(Object.keys(r.body).sort()).toEqual(['created_at', 'email', 'first_name', 'id', 'mfa_enabled', 'recovery_codes_left']);
      expect(r.body).toMatchObject({ id: p.id, email: p.email, first_name: p.name, mfa_enabled: false, recovery_codes_left: null });
      expect(Number.isNaN(Date.parse(r.body.created_at as string))).toBe(false);
      expectError(await api.get(ACCOUNT), 401, 'not_authenticated');
    });

    test('D51 D30 a new first name is answered and audited in each of the person’s organizations; the same name again writes nothing', async () => {
      const [a, b] = [await newOrg(), await newOrg()];
      const p = await person(a, 'member', [b, 'viewer']);
      const r = await as(api, p.token, 'PATCH', ACCOUNT, { first_name: '  Robin  ' });
      expect(r.status, r.text).toBe(200);
      expect(r.body).toMatchObject({ id: p.id, email: p.email, first_name: 'Robin' });
      expect((await as(api, p.token, 'GET', ACCOUNT)).body.first_name).toBe('Robin');
      const entries = await auditAbout(server, 'account.updated', p.id);
      expect(entries.map((e) => Number(e.org_id)).sort()).toEqual([a.id, b.id].sort());
      for (const e of entries) {
        expect([Number(e.actor_id), e.target_type]).toEqual([p.id, 'member']);
        expect(e.changes).toEqual({ first_name: { from: p.name, to: 'Robin' } });
      }
      expect((await as(api, p.token, 'PATCH', ACCOUNT, { first_name: 'Robin' })).status).toBe(200);
      expect(await auditAbout(server, 'account.updated', p.id)).toHaveLength(2);
    });

    test('D51 a person in no organization changes their name all the same (no log to write to)', async () => {
      const p = await person(null);
      const r = await as(api, p.token, 'PATCH', ACCOUNT, { first_name: 'Nomad' });
      expect(r.status, r.text).toBe(200);
      expect(r.body.first_name).toBe('Nomad');
      expect(await auditAbout(server, 'account.updated', p.id)).toEqual([]);
    });

    test('D51 D19 refusals name the field: an empty name, a malformed email, nothing to change', async () => {
      const p = await person(await newOrg());
      const empty = await as(api, p.token, 'PATCH', ACCOUNT, { first_name: '   ' });
      expectError(empty, 400, 'validation_error');
      expect(Object.keys(empty.body.errors as object)).toEqual(['first_name']);
      const bad = await as(api, p.token, 'PATCH', ACCOUNT, { email: 'not an email', current_password: p.password });
      expectError(bad, 400, 'validation_error');
      expect(Object.keys(bad.body.errors as object)).toEqual(['email']);
      expectError(await as(api, p.token, 'PATCH', ACCOUNT, {}), 400, 'validation_error');
      expectError(await as(api, p.token, 'PATCH', ACCOUNT, { role: 'owner' }), 400, 'unknown_field');
      expect((await as(api, p.token, 'GET', ACCOUNT)).body).toMatchObject({ email: p.email, first_name: p.name });
    });

    test('D51 a new email needs the current password: missing or wrong is a 400 naming current_password; right, it signs in with the new one', async () => {
      const org = await newOrg();
      const p = await person(org);
      const email = `renamed.${p.id}@example.test`;
      const missing = await as(api, p.token, 'PATCH', ACCOUNT, { email });
      expectError(missing, 400, 'validation_error');
      expect(Object.keys(missing.body.errors as object)).toEqual(['current_password']);
      const wrong = await as(api, p.token, 'PATCH', ACCOUNT, { email, current_password: 'not-the-password' });
      expectError(wrong, 400, 'wrong_password');
      expect(Object.keys(wrong.body.errors as object)).toEqual(['current_password']);
      expect((await as(api, p.token, 'GET', ACCOUNT)).body.email).toBe(p.email);
      const ok = await as(api, p.token, 'PATCH', ACCOUNT, { email, current_password: p.password });
      expect(ok.status, ok.text).toBe(200);
      expect(ok.body.email).toBe(email);
      expect((await api.login(email, p.password)).status).toBe(200);
      expectError(await api.login(p.email, p.password), 401, 'invalid_credentials');
      const [entry] = await auditAbout(server, 'account.updated', p.id);
      expect(entry?.changes).toEqual({ email: { from: p.email, to: email } });
      expect(JSON.stringify(await auditAbout(server, 'account.updated', p.id))).not.toContain(p.password);
    });

    test('D51 an email another account has, in any case, is 409 email_taken and changes nothing', async () => {
      const org = await newOrg();
      const [p, other] = [await person(org), await person(org)];
      const r = await as(api, p.token, 'PATCH', ACCOUNT, { email: other.email.toUpperCase(), current_password: p.password, first_name: 'Kept' });
      expectError(r, 409, 'email_taken');
      expect(r.body.errors).toEqual({ email: expect.any(String) });
      expect((await as(api, p.token, 'GET', ACCOUNT)).body).toMatchObject({ email: p.email, first_name: p.name });
    });
  });

  describe('D51 changing the password', () => {
    test('D51 a new password shorter than 12 characters is a 400 naming new_password, in words', async () => {
      const p = await person(await newOrg());
      const r = await as(api, p.token, 'POST', PASSWORD, { current_password: p.password, new_password: 'short-pw' });
      expectError(r, 400, 'validation_error');
      expect(r.body.errors).toEqual({ new_password: PASSWORD_TOO_SHORT });
      expect(PASSWORD_TOO_SHORT).toBe('Use at least 12 characters.');
      expect((await api.login(p.email, p.password)).status).toBe(200);
    });

    test('D51 a wrong current password is 400 wrong_password and changes nothing', async () => {
      const p = await person(await newOrg());
      const r = await as(api, p.token, 'POST', PASSWORD, { current_password: `${p.password}x`, new_password: NEW_PASSWORD });
      expectError(r, 400, 'wrong_password');
      expect(Object.keys(r.body.errors as object)).toEqual(['current_password']);
      expect((await api.login(p.email, p.password)).status).toBe(200);
    });

    test('D51 D16 a password change ends every other session (their next call 401, their refresh fails) and keeps this one', async () => {
      const org = await newOrg();
      const p = await person(org);
      const others = [await signInAgain(api, p), await signInAgain(api, p)];
      const r = await as(api, p.token, 'POST', PASSWORD, { current_password: p.password, new_password: NEW_PASSWORD });
      expect(r.status, r.text).toBe(200);
      expect(r.body).toEqual({ ended_sessions: 2 });
      expect((await api.me(p.token)).status).toBe(200);
      expect((await as(api, p.token, 'GET', ACCOUNT)).status).toBe(200);
      for (const other of others) {
        expectError(await api.me(other.access_token), 401);
        expectError(await as(api, other.access_token, 'GET', ACCOUNT), 401);
        expectError(await api.refresh(other.refresh_token), 401, 'session_revoked');
      }
      expectError(await api.login(p.email, p.password), 401, 'invalid_credentials');
      expect((await api.login(p.email, NEW_PASSWORD)).status).toBe(200);
      const [entry, ...more] = await auditAbout(server, 'account.password_changed', p.id);
      expect(more).toEqual([]);
      expect([Number(entry?.org_id), entry?.changes]).toEqual([org.id, { ended_sessions: 2 }]);
      const everything = JSON.stringify([await auditAbout(server, 'account.password_changed', p.id), server.logs]);
      for (const secret of [p.password, NEW_PASSWORD]) expect(everything).not.toContain(secret);
    });

    test('D18 wrong current passwords are throttled like logins: 429 with Retry-After, even for the right one, until the window passes', async () => {
      const p = await person(await newOrg());
      const attempt = (current: string) => as(api, p.token, 'POST', PASSWORD, { current_password: current, new_password: NEW_PASSWORD });
      for (let i = 0; i < 3; i++) expectError(await attempt(`wrong-${i}`), 400, 'wrong_password'); // SUITE_ENV: 3 per account
      const throttled = await attempt(p.password);
      expectError(throttled, 429, 'too_many_attempts');
      expect(Number(throttled.headers.get('retry-after'))).toBeGreaterThan(0);
      expectError(await as(api, p.token, 'PATCH', ACCOUNT, { email: `x${p.id}@example.test`, current_password: p.password }), 429, 'too_many_attempts');
      clock.advance(11 * MINUTE); // past LOGIN_THROTTLE_WINDOW
      await p.signIn(); // a fresh access token after the jump
      expect((await attempt(p.password)).status).toBe(200);
    });
  });
});
