// What screens ask of the session instead of reading storage (issue 18): a token answer adopted through one
// method (login and the invitation page), the login screen's toast reason, D6's return path, D24's user id.
import { describe, expect, test } from 'vitest';
import { KEYS, readRedirect } from '../../src/lib/storage';
import { userIdOf } from '../../src/session/load';
import { SessionInvalidError } from '../../src/session/types';
import { accessToken, json } from '../helpers/fake-api';
import { makeSession } from '../helpers/session';

describe('SPEC §3/§4 adopting a token answer', () => {
  test('D28 an accepted invitation’s tokens become the session as a login’s do: stored, remembered, hydration_failed gone', async () => {
    const t = makeSession();
    t.storage.set(KEYS.hydrationFailed, 'true');
    const tokens = t.api.issue();
    t.session.adopt(tokens);
    expect(t.storage.get(KEYS.accessToken)).toBe(tokens.access_token);
    expect(t.storage.get(KEYS.refreshToken)).toBe(tokens.refresh_token);
    expect(t.storage.get(KEYS.sessionId)).toBe('7');
    expect(t.storage.get(KEYS.rememberMe)).toBe('true');
    expect(Number(t.storage.get(KEYS.refreshExpiresAt))).toBeGreaterThan(Date.now());
    expect(t.storage.get(KEYS.hydrationFailed)).toBeNull();
    await t.session.load();
    expect(t.session.store.getState()).toMatchObject({ isAuthenticated: true, userId: 1 });
  });

  test('SPEC §5 a malformed answer is refused and leaves the failed load flagged', () => {
    const t = makeSession();
    t.storage.set(KEYS.hydrationFailed, 'true');
    expect(() => t.session.adopt({ access_token: 'not-a-token', refresh_token: 'r' })).toThrow(SessionInvalidError);
    expect(t.storage.get(KEYS.accessToken)).toBeNull();
    expect(t.storage.get(KEYS.hydrationFailed)).toBe('true');
  });

  test('a login adopts its answer the same way (hydration_failed gone) and keeps remember_me as asked', async () => {
    const t = makeSession();
    t.storage.set(KEYS.hydrationFailed, 'true');
    await t.session.login({ email: 'owner@demo.test', password: 'demo-password', remember_me: false });
    expect(t.storage.get(KEYS.hydrationFailed)).toBeNull();
    expect(t.storage.get(KEYS.rememberMe)).toBe('false');
  });
});

describe('SPEC §2 the login screen’s toast reason', () => {
  test('is given once, then gone from storage', async () => {
    const t = makeSession();
    t.seed();
    t.api.me = () => json(500, { detail: 'boom' });
    await t.session.load();
    expect(t.session.takeToastReason()).toBe('Session could not be loaded. Please log in again.');
    expect(t.kv.map.has('toast_reason')).toBe(false);
    expect(t.session.takeToastReason()).toBeNull();
  });
});

describe('D6 the path to come back to after a login', () => {
  test('belongs to whoever is signed in; with `anyone` it replaces an earlier owner’s for the next person', () => {
    const t = makeSession();
    t.seed(t.api.issue('5'));
    t.session.returnAfterLogin('/customers/4');
    expect(readRedirect(t.storage)).toEqual({ path: '/customers/4', sub: '5' });
    expect(t.session.returnPath()).toBe('/customers/4');
    t.session.returnAfterLogin('/invite/abc', { anyone: true });
    expect(readRedirect(t.storage)).toEqual({ path: '/invite/abc', sub: null });
    t.session.returnAfterLogin('/login');
    expect(t.session.returnPath()).toBe('/invite/abc'); // D6: /login is never a target
  });

  test('D28 choosing an organization after joining goes to its dashboard, not to a path stored earlier', async () => {
    const t = makeSession();
    t.seed();
    t.storage.set(KEYS.postLoginRedirect, '/customers');
    await t.session.selectOrg(2, { ignoreReturnPath: true });
    expect(t.navigate).toHaveBeenLastCalledWith('/dashboard', { replace: true });
    expect(t.storage.get(KEYS.postLoginRedirect)).toBeNull();
  });

  test('a stored token of either kind is a stored session', () => {
    const t = makeSession();
    expect(t.session.hasStoredTokens()).toBe(false);
    t.storage.set(KEYS.refreshToken, 'r1');
    expect(t.session.hasStoredTokens()).toBe(true);
  });
});

describe('D24 the signed-in person’s id', () => {
  test('D24 the signed-in person is the access token’s subject', () => {
    expect(userIdOf(accessToken(900, '42'))).toBe(42);
    expect(userIdOf('not-a-token')).toBeNull();
    expect(userIdOf(null)).toBeNull();
    expect(userIdOf(accessToken(900, 'abc'))).toBeNull();
  });

  test('D24 is part of the session state from the load, and gone at logout', async () => {
    const t = makeSession();
    t.seed(t.api.issue('42'));
    await t.session.load();
    expect(t.session.store.getState().userId).toBe(42);
    await t.session.logout();
    expect(t.session.store.getState().userId).toBeNull();
  });
});
