// D54 in the session: a login answered 202 asks for a second step; POST /v1/auth/mfa/ completes it as a
// login does (D36 remember-me and device token carried through); its refusals in words; an organization's
// 403 mfa_enrolment_required and me's require_mfa / mfa_enabled reach the store.
import { describe, expect, test } from 'vitest';
import { KEYS } from '../../src/lib/storage';
import { LoginError, MSG_LOGIN_FAILED } from '../../src/session/login';
import { MfaExpiredError, MSG_MFA_EXPIRED, MSG_MFA_INVALID, MSG_RECOVERY_INVALID } from '../../src/session/mfa-words';
import { mustEnrolMfa } from '../../src/session/mfa';
import { ACME, json, ORGS, profile } from '../helpers/fake-api';
import { GOOD_CODE, RECOVERY_CODES } from '../helpers/fake-mfa';
import { makeSession } from '../helpers/session';

async function ready() {
  const t = makeSession({ path: '/login' });
  await t.session.load();
  t.api.me = () => json(200, profile({ organizations: [ORGS[0]] }));
  t.api.mfa.required = true;
  return t;
}

const mfaCalls = (t: Awaited<ReturnType<typeof ready>>) => t.api.calls.filter((c) => c.path === '/api/v1/auth/mfa/').map((c) => c.body);

describe('D54 two-step sign-in in the session', () => {
  test('D54 a login answered 202 resolves with the challenge: no tokens stored, nothing loaded, no navigation', async () => {
    const t = await ready();
    await expect(t.session.login({ email: 'a@b.test', password: 'pw', remember_me: false })).resolves.toEqual({
      mfa: { challenge: 'challenge-1', remember_me: false },
    });
    expect(t.storage.get(KEYS.accessToken)).toBeNull();
    expect(t.api.count('/api/v1/auth/me/')).toBe(0);
    expect(t.navigate).not.toHaveBeenCalled();
    expect(t.session.store.getState().isAuthenticated).toBe(false);
  });

  test('D54 the second step with the code signs in exactly as a login does, with remember-me and the device token (D36)', async () => {
    const t = await ready();
    t.api.deviceToken = 'd1.1.device';
    const first = await t.session.login({ email: 'a@b.test', password: 'pw', remember_me: false });
    if (!first.mfa) throw new Error('expected the second step');
    await expect(t.session.completeMfa(first.mfa, { code: GOOD_CODE })).resolves.toEqual({ to: '/dashboard' });
    expect(mfaCalls(t)).toEqual([{ challenge: 'challenge-1', code: GOOD_CODE }]);
    expect(t.storage.get(KEYS.rememberMe)).toBe('false');
    expect(t.storage.get(KEYS.accessToken)).toBeTruthy();
    expect(t.storage.get(KEYS.deviceToken)).toBe('d1.1.device');
    expect(t.navigate).toHaveBeenLastCalledWith('/dashboard', { replace: true });
    expect(t.session.store.getState().isAuthenticated).toBe(true);
  });

  test('D6 D54 the stored return path survives the first step and is where the second goes', async () => {
    const t = await ready();
    t.storage.set(KEYS.postLoginRedirect, JSON.stringify({ path: '/customers/3', sub: '1' }));
    const first = await t.session.login({ email: 'a@b.test', password: 'pw' });
    expect(t.storage.get(KEYS.postLoginRedirect)).not.toBeNull();
    await expect(t.session.completeMfa(first.mfa!, { code: GOOD_CODE })).resolves.toEqual({ to: '/customers/3' });
    expect(t.storage.get(KEYS.postLoginRedirect)).toBeNull();
  });

  test('D54 a recovery code works once; used again it is refused in its own words', async () => {
    const t = await ready();
    const pending = { challenge: 'challenge-1', remember_me: true };
    const [code] = RECOVERY_CODES as [string];
    await t.session.completeMfa(pending, { recovery_code: code });
    expect(mfaCalls(t)).toEqual([{ challenge: 'challenge-1', recovery_code: code }]);
    await t.session.logout();
    await expect(t.session.completeMfa(pending, { recovery_code: code })).rejects.toThrow(new LoginError(MSG_RECOVERY_INVALID));
    expect(t.storage.get(KEYS.accessToken)).toBeNull();
  });

  test("D54 a wrong code (400 invalid_code) → 'That code did not work. Check the time on your phone and try again.'", async () => {
    const t = await ready();
    await expect(t.session.completeMfa({ challenge: 'challenge-1', remember_me: true }, { code: '000000' })).rejects.toThrow(MSG_MFA_INVALID);
    expect(MSG_MFA_INVALID).toBe('That code did not work. Check the time on your phone and try again.');
    expect(t.storage.get(KEYS.accessToken)).toBeNull();
    expect(t.navigate).not.toHaveBeenCalled();
  });

  test('D54 an expired challenge (410) is MfaExpiredError: back to the password; a 429 is login’s other failure (SPEC §8)', async () => {
    const t = await ready();
    t.api.mfa.expired = true;
    const expired = await t.session.completeMfa({ challenge: 'challenge-1', remember_me: true }, { code: GOOD_CODE }).catch((e: unknown) => e);
    expect(expired).toBeInstanceOf(MfaExpiredError);
    expect((expired as Error).message).toBe(MSG_MFA_EXPIRED);
    t.api.mfa.expired = false;
    t.api.mfa.throttled = true;
    const throttled = await t.session.completeMfa({ challenge: 'challenge-1', remember_me: true }, { code: GOOD_CODE }).catch((e: unknown) => e);
    expect(throttled).toBeInstanceOf(LoginError);
    expect(throttled).not.toBeInstanceOf(MfaExpiredError);
    expect((throttled as Error).message).toBe(MSG_LOGIN_FAILED);
  });

  test("D54 me's require_mfa and mfa_enabled reach the store; an answer without them reads as before", async () => {
    const t = makeSession();
    t.seed();
    t.storage.set(KEYS.currentOrgId, '1');
    t.api.me = () =>
      json(
        200,
        profile({ user: { email: 'owner@demo.test', first_name: 'Olive', avatar_url: null, mfa_enabled: false }, organizations: [{ ...ACME, require_mfa: true }] }),
      );
    await t.session.load();
    const s = t.session.store.getState();
    expect(s.currentOrg).toEqual({ ...ACME, require_mfa: true });
    expect(s.user?.mfa_enabled).toBe(false);
    expect(mustEnrolMfa(s)).toBe(true);
    await t.session.markMfa(true); // turned on at the account page
    expect(mustEnrolMfa(t.session.store.getState())).toBe(false);
    t.api.me = () => json(200, profile());
    await t.session.load();
    expect(t.session.store.getState().currentOrg).toEqual(ACME);
    expect(mustEnrolMfa(t.session.store.getState())).toBe(false);
  });

  test('D54 an organization call answered 403 mfa_enrolment_required marks the organization as requiring it and the person without', async () => {
    const t = makeSession();
    t.seed();
    t.storage.set(KEYS.currentOrgId, '1');
    await t.session.load();
    expect(mustEnrolMfa(t.session.store.getState())).toBe(false);
    t.api.routes.set('/v1/things/', () => json(403, { detail: 'Acme Plumbing requires two-step sign-in.', code: 'mfa_enrolment_required' }));
    await t.session.client.get('/v1/things/').catch(() => undefined);
    const s = t.session.store.getState();
    expect(mustEnrolMfa(s)).toBe(true);
    expect(s.organizations.find((o) => o.id === ACME.id)?.require_mfa).toBe(true);
    t.api.routes.set('/v1/other/', () => json(403, { detail: 'no', code: 'permission_denied' }));
    await t.session.markMfa(true);
    await t.session.client.get('/v1/other/').catch(() => undefined);
    expect(mustEnrolMfa(t.session.store.getState())).toBe(false); // another 403 says nothing of it
  });
});
