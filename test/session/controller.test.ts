import { afterEach, describe, expect, test, vi } from 'vitest';
import { SESSION_CLEARED_EVENT, SESSION_EXPIRED_EVENT, TOKENS_REFRESHED_EVENT } from '../../src/lib/events';
import { KEYS } from '../../src/lib/storage';
import { MSG_SESSION_NOT_LOADED } from '../../src/session/load';
import { LoginError, MSG_LOGIN_BAD_CREDENTIALS, MSG_LOGIN_FAILED } from '../../src/session/login';
import { LOAD_MAX_TRIES, LOAD_POLL_MS } from '../../src/session/single-load';
import { REMEMBER_ME_LIFETIME_MS, SESSION_LIFETIME_MS } from '../../src/session/tokens';
import { accessToken, json, ORGS, profile } from '../helpers/fake-api';
import { makeSession } from '../helpers/session';

afterEach(() => vi.useRealTimers());

describe('SPEC §4 session load', () => {
  test('SPEC §4 no valid token → the session is cleared and nobody is signed in, without a call', async () => {
    const t = makeSession();
    t.storage.set(KEYS.accessToken, 'garbage');
    t.storage.set(KEYS.sessionId, '3');
    await t.session.load();
    const s = t.session.store.getState();
    expect(s).toMatchObject({ isAuthenticated: false, loading: false, hydrationComplete: true, hydrationError: null });
    expect(t.api.calls).toHaveLength(0);
    expect(t.storage.get(KEYS.accessToken)).toBeNull();
    expect(t.storage.get(KEYS.sessionId)).toBeNull();
  });

  test('SPEC §4 a valid stored session loads the current user and the organization', async () => {
    const t = makeSession();
    t.seed();
    t.storage.set(KEYS.currentOrgId, '2');
    await t.session.load();
    const s = t.session.store.getState();
    expect(s).toMatchObject({ isAuthenticated: true, loading: false, hydrationComplete: true, currentOrg: ORGS[1], role: 'owner' });
    expect(s.user?.email).toBe('owner@demo.test');
    expect(t.api.count('/api/v1/auth/refresh/')).toBe(0);
    expect(t.api.calls[0]?.headers['x-organization-id']).toBe('2');
  });

  test('SPEC §4 a missing or malformed access token with a refresh token refreshes first', async () => {
    for (const bad of [null, 'two.parts', 'x.!.y']) {
      const t = makeSession();
      const tokens = t.seed();
      if (bad === null) t.storage.remove(KEYS.accessToken);
      else t.storage.set(KEYS.accessToken, bad);
      await t.session.load();
      expect(t.api.count('/api/v1/auth/refresh/'), String(bad)).toBe(1);
      expect(t.api.calls[0]?.body).toEqual({ refresh_token: tokens.refresh_token });
      expect(t.session.store.getState().isAuthenticated).toBe(true);
    }
  });

  test('SPEC §4 + D5 an access token expiring within 10 s triggers a refresh', async () => {
    const t = makeSession();
    t.seed();
    const soon = accessToken(5);
    t.api.validAccess.add(soon);
    t.storage.set(KEYS.accessToken, soon);
    await t.session.load();
    expect(t.api.count('/api/v1/auth/refresh/')).toBe(1);
    expect(t.storage.get(KEYS.accessToken)).not.toBe(soon);
    // D36: the refresh carries the access token it replaces, so the server knows the session even when
    // others' made-up refresh tokens have throttled this address.
    expect(t.api.calls.find((c) => c.path === '/api/v1/auth/refresh/')?.headers.authorization).toBe(`Bearer ${soon}`);
  });

  test('SPEC §4 the refresh lifetime has passed → cleared, the path stored, /login', async () => {
    const t = makeSession({ path: '/customers/4' });
    t.seed(undefined, -1000);
    await t.session.load();
    expect(t.api.calls).toHaveLength(0);
    expect(t.storage.get(KEYS.refreshToken)).toBeNull();
    expect(JSON.parse(t.storage.get(KEYS.postLoginRedirect) ?? '{}')).toMatchObject({ path: '/customers/4', sub: '1' });
    expect(t.navigate).toHaveBeenLastCalledWith('/login', { replace: true });
    expect(t.session.store.getState().isAuthenticated).toBe(false);
  });

  test("SPEC §4 the current-user call fails → toast 'Session could not be loaded. Please log in again.' and /login", async () => {
    const t = makeSession();
    t.seed();
    t.api.me = () => json(500, { detail: 'boom' });
    await t.session.load();
    expect(t.storage.get(KEYS.toastReason)).toBe(MSG_SESSION_NOT_LOADED);
    expect(MSG_SESSION_NOT_LOADED).toBe('Session could not be loaded. Please log in again.');
    expect(t.navigate).toHaveBeenLastCalledWith('/login', { replace: true });
    expect(t.session.store.getState()).toMatchObject({ isAuthenticated: false, hydrationError: MSG_SESSION_NOT_LOADED, loading: false });
    expect(t.storage.get(KEYS.accessToken)).toBeNull();
  });

  test('SPEC §8 a 401 on the current-user call is left to the session load (no refresh, toast, /login)', async () => {
    const t = makeSession();
    t.seed();
    t.api.validAccess.clear();
    await t.session.load();
    expect(t.api.count('/api/v1/auth/refresh/')).toBe(0);
    expect(t.storage.get(KEYS.toastReason)).toBe(MSG_SESSION_NOT_LOADED);
  });

  test('D7 offline at start: no call, the stored session is kept, and the load runs when back online', async () => {
    let online = false;
    const t = makeSession({ online: () => online });
    t.seed();
    await t.session.load();
    expect(t.api.calls).toHaveLength(0);
    expect(t.storage.get(KEYS.accessToken)).not.toBeNull();
    expect(t.session.store.getState().loading).toBe(true);
    online = true;
    window.dispatchEvent(new Event('online'));
    await vi.waitFor(() => expect(t.session.store.getState().isAuthenticated).toBe(true));
    expect(t.api.count('/api/v1/auth/me/')).toBe(1);
  });

  /**
   * A load that `fail` makes fail keeps the stored session, says nothing and shows no load error; once the
   * function `fail` returns has let the server answer again, the load tried later signs the person in.
   */
  async function keptAndTriedAgain(fail: (t: ReturnType<typeof makeSession>) => () => void) {
    vi.useFakeTimers();
    const t = makeSession();
    t.seed();
    const recover = fail(t);
    await t.session.load();
    expect(t.storage.get(KEYS.accessToken)).not.toBeNull();
    expect(t.storage.get(KEYS.toastReason)).toBeNull();
    expect(t.session.store.getState().hydrationError).toBeNull();
    recover();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(t.session.store.getState().isAuthenticated).toBe(true);
  }

  /** The profile call answers `answer` until the returned function puts the usual one back. */
  const meAnswers = (answer: () => Response) => (t: ReturnType<typeof makeSession>) => {
    const me = t.api.me;
    t.api.me = answer;
    return () => void (t.api.me = me);
  };

  test('a network failure during the load keeps the session and tries again later', () =>
    keptAndTriedAgain((t) => {
      t.api.offline = true;
      return () => void (t.api.offline = false);
    }));

  test('D2 a busy server (503) during the load keeps the session and tries again later, like a network failure', () =>
    keptAndTriedAgain(meAnswers(() => json(503, { detail: 'The server is busy; try again shortly', code: 'server_busy' }))));

  test('D35 a 429 during the load is treated like a 503: the session is kept and the load tried again later', () =>
    keptAndTriedAgain(
      meAnswers(
        () =>
          new Response(JSON.stringify({ detail: 'Too many requests; try again in 3 s', code: 'too_many_requests' }), {
            status: 429,
            headers: { 'Content-Type': 'application/json', 'Retry-After': '3' },
          }),
      ),
    ));

  test('SPEC §4 a second load while one runs waits, polling every 100 ms', async () => {
    vi.useFakeTimers();
    const t = makeSession();
    t.seed();
    t.api.holdRequests = true;
    t.api.routes.set('/v1/auth/me/', () => json(200, profile()));
    let release!: () => void;
    t.api.me = () => json(200, profile());
    const origFetch = t.api.fetch.getMockImplementation()!;
    t.api.fetch.mockImplementation(async (input, init) => {
      if (String(input).endsWith('/me/')) await new Promise<void>((r) => (release = r));
      return origFetch(input, init);
    });
    const first = t.session.load();
    let secondDone = false;
    const second = t.session.load().then(() => (secondDone = true));
    await vi.advanceTimersByTimeAsync(LOAD_POLL_MS * 10);
    expect(secondDone).toBe(false);
    release();
    await first;
    await vi.advanceTimersByTimeAsync(LOAD_POLL_MS);
    await second;
    expect(t.api.count('/api/v1/auth/me/')).toBe(1); // it waited instead of loading again
  });

  test('SPEC §4 the waiting load is forced through after more than 30 tries', async () => {
    vi.useFakeTimers();
    const t = makeSession();
    t.seed();
    const origFetch = t.api.fetch.getMockImplementation()!;
    let meCalls = 0;
    t.api.fetch.mockImplementation(async (input, init) => {
      if (String(input).endsWith('/me/') && ++meCalls === 1) await new Promise<void>(() => undefined); // hangs forever
      return origFetch(input, init);
    });
    void t.session.load();
    const second = t.session.load();
    await vi.advanceTimersByTimeAsync(LOAD_POLL_MS * LOAD_MAX_TRIES);
    expect(meCalls).toBe(1); // still waiting after 30 polls
    await vi.advanceTimersByTimeAsync(LOAD_POLL_MS * 2);
    await second;
    expect(meCalls).toBe(2);
    expect(t.session.store.getState().isAuthenticated).toBe(true);
    expect(t.log.warn).toHaveBeenCalled();
  });
});

describe('D4 organization choice', () => {
  const load = async (stored: string | null, fav: number | null, orgs = ORGS) => {
    const t = makeSession();
    t.seed();
    if (stored !== null) t.storage.set(KEYS.currentOrgId, stored);
    t.api.me = (org) =>
      org && !orgs.some((o) => String(o.id) === org) ? json(403, { detail: 'not a member' }) : json(200, profile({ organizations: orgs, favorite_org_id: fav }));
    await t.session.load();
    return t;
  };

  test('D4 the stored organization wins when the user is a member of it', async () => {
    expect((await load('2', 1)).session.store.getState().currentOrg?.id).toBe(2);
  });

  test('D4 else favorite_org_id when a member', async () => {
    expect((await load(null, 2)).session.store.getState().currentOrg?.id).toBe(2);
    const t = await load('99', 1); // stored org the user left: the server refuses it, the favorite wins
    expect(t.session.store.getState().currentOrg?.id).toBe(1);
    expect(t.storage.getInt(KEYS.currentOrgId)).toBe(1);
  });

  test('D4 else the only organization when there is exactly one', async () => {
    const t = await load(null, null, [ORGS[0]!]);
    expect(t.session.store.getState().currentOrg?.id).toBe(1);
    expect(t.storage.getInt(KEYS.currentOrgId)).toBe(1);
  });

  test('D4 otherwise none is chosen (the org picker), with no permissions yet', async () => {
    const s = (await load(null, 77)).session.store.getState();
    expect(s).toMatchObject({ isAuthenticated: true, currentOrg: null, permissions: [], role: null });
    expect(s.organizations).toHaveLength(2);
  });

  test('D4 zero organizations is a session error: cleared, toast stored, /login', async () => {
    const t = await load(null, null, []);
    expect(t.session.store.getState().isAuthenticated).toBe(false);
    expect(t.storage.get(KEYS.toastReason)).toBe(MSG_SESSION_NOT_LOADED);
    expect(t.storage.get(KEYS.accessToken)).toBeNull();
    expect(t.navigate).toHaveBeenLastCalledWith('/login', { replace: true });
  });

  test('D4 no user is a session error', async () => {
    const t = makeSession();
    t.seed();
    t.api.me = () => json(200, { ...profile(), user: null });
    await t.session.load();
    expect(t.storage.get(KEYS.toastReason)).toBe(MSG_SESSION_NOT_LOADED);
  });

  test('SPEC §4 selecting an organization stores its id, re-runs the load and goes to /dashboard', async () => {
    const t = await load(null, null);
    const before = t.api.count('/api/v1/auth/me/');
    await t.session.selectOrg(2);
    expect(t.storage.getInt(KEYS.currentOrgId)).toBe(2);
    expect(t.api.count('/api/v1/auth/me/')).toBe(before + 1);
    expect(t.api.calls.at(-1)?.headers['x-organization-id']).toBe('2');
    expect(t.session.store.getState().currentOrg?.id).toBe(2);
    expect(t.navigate).toHaveBeenLastCalledWith('/dashboard', { replace: true });
  });

  test('SPEC §2 switching organization from the user menu stores it and reloads the app at /dashboard', async () => {
    const t = await load('1', null);
    t.session.switchOrg(2);
    expect(t.storage.getInt(KEYS.currentOrgId)).toBe(2);
    expect(t.assign).toHaveBeenCalledWith('/dashboard');
  });
});

describe('login and logout', () => {
  const ready = async () => {
    const t = makeSession({ path: '/login' });
    await t.session.load();
    return t;
  };

  test('SPEC §3 the login payload is email, password and remember_me, which defaults to true', async () => {
    const t = await ready();
    t.api.me = () => json(200, profile({ organizations: [ORGS[0]] }));
    await t.session.login({ email: 'a@b.test', password: 'pw' });
    expect(t.api.calls.find((c) => c.path === '/api/v1/auth/login/')?.body).toEqual({ email: 'a@b.test', password: 'pw', remember_me: true });
    expect(t.storage.get(KEYS.rememberMe)).toBe('true');
    expect(t.storage.getInt(KEYS.sessionId)).toBe(7);
  });

  test('D36 a login stores the device token it is given and sends it with the next login; a failed login and a logout keep it', async () => {
    const t = await ready();
    t.api.me = () => json(200, profile({ organizations: [ORGS[0]] }));
    t.api.deviceToken = 'd1.1.device-one';
    await t.session.login({ email: 'a@b.test', password: 'pw' });
    expect(t.storage.get(KEYS.deviceToken)).toBe('d1.1.device-one');
    expect(KEYS.deviceToken).toBe('device_token');
    await t.session.logout();
    expect(t.storage.get(KEYS.deviceToken)).toBe('d1.1.device-one'); // not a session: logout keeps it
    t.api.loginStatus = 401;
    await expect(t.session.login({ email: 'a@b.test', password: 'wrong' })).rejects.toThrow(MSG_LOGIN_BAD_CREDENTIALS);
    expect(t.storage.get(KEYS.deviceToken)).toBe('d1.1.device-one');
    t.api.loginStatus = 200;
    t.api.deviceToken = 'd1.1.device-two';
    await t.session.login({ email: 'a@b.test', password: 'pw' });
    const logins = t.api.calls.filter((c) => c.path === '/api/v1/auth/login/').map((c) => (c.body as { device_token?: string }).device_token);
    expect(logins).toEqual([undefined, 'd1.1.device-one', 'd1.1.device-one']);
    expect(t.storage.get(KEYS.deviceToken)).toBe('d1.1.device-two'); // the server's answer wins
  });

  test('SPEC §9 session lifetime: 30 days with remember me, 1 day without', async () => {
    for (const [remember, lifetime] of [
      [true, REMEMBER_ME_LIFETIME_MS],
      [false, SESSION_LIFETIME_MS],
    ] as const) {
      const t = await ready();
      const before = Date.now();
      await t.session.login({ email: 'a@b.test', password: 'pw', remember_me: remember });
      const at = t.storage.getInt(KEYS.refreshExpiresAt) ?? 0;
      expect(at - before).toBeGreaterThanOrEqual(lifetime - 1000);
      expect(at - before).toBeLessThanOrEqual(lifetime + 1000);
    }
    expect(REMEMBER_ME_LIFETIME_MS).toBe(30 * 86_400_000);
    expect(SESSION_LIFETIME_MS).toBe(86_400_000);
  });

  test("SPEC §8 login failure with 400 or 401 → 'Login failed. Check your credentials.' and tokens cleared", async () => {
    for (const status of [400, 401]) {
      const t = await ready();
      t.storage.set(KEYS.accessToken, 'stale.token.here');
      t.api.loginStatus = status;
      await expect(t.session.login({ email: 'a', password: 'b' })).rejects.toThrow(new LoginError(MSG_LOGIN_BAD_CREDENTIALS));
      expect(t.storage.get(KEYS.accessToken)).toBeNull();
    }
    expect(MSG_LOGIN_BAD_CREDENTIALS).toBe('Login failed. Check your credentials.');
  });

  test("SPEC §8 any other login failure → 'Login failed. Please try again.' and tokens cleared", async () => {
    for (const status of [429, 500, 0]) {
      const t = await ready();
      t.storage.set(KEYS.refreshToken, 'stale');
      if (status === 0) t.api.offline = true;
      else t.api.loginStatus = status;
      await expect(t.session.login({ email: 'a', password: 'b' })).rejects.toThrow(MSG_LOGIN_FAILED);
      expect(t.storage.get(KEYS.refreshToken)).toBeNull();
    }
    expect(MSG_LOGIN_FAILED).toBe('Login failed. Please try again.');
  });

  test('SPEC §7 the login call is cancellable', async () => {
    const t = await ready();
    const ctrl = new AbortController();
    ctrl.abort();
    await expect(t.session.login({ email: 'a', password: 'b' }, ctrl.signal)).rejects.toMatchObject({ name: 'AbortError' });
  });

  test('D4 signing in with no organization fails with the session message and leaves nobody signed in', async () => {
    const t = await ready();
    t.api.me = () => json(200, profile({ organizations: [] }));
    await expect(t.session.login({ email: 'nobody@demo.test', password: 'pw' })).rejects.toThrow(MSG_SESSION_NOT_LOADED);
    expect(t.session.store.getState().isAuthenticated).toBe(false);
    expect(t.storage.get(KEYS.toastReason)).toBeNull(); // consumed by the error the login form shows
    expect(t.storage.get(KEYS.accessToken)).toBeNull();
  });

  test('D6 after login the app goes to post_login_redirect once, then it is cleared', async () => {
    const t = await ready();
    t.storage.set(KEYS.postLoginRedirect, JSON.stringify({ path: '/customers/3', sub: '1' }));
    t.api.me = () => json(200, profile({ organizations: [ORGS[0]] }));
    await expect(t.session.login({ email: 'a', password: 'b' })).resolves.toEqual({ to: '/customers/3' });
    expect(t.navigate).toHaveBeenLastCalledWith('/customers/3', { replace: true });
    expect(t.storage.get(KEYS.postLoginRedirect)).toBeNull();
  });

  test('D6 an off-site target, or one stored while another account was signed in, is ignored', async () => {
    for (const stored of ['//evil.test/x', 'https://evil.test', JSON.stringify({ path: '/customers', sub: '999' }), '/login']) {
      const t = await ready();
      t.storage.set(KEYS.postLoginRedirect, stored);
      t.api.me = () => json(200, profile({ organizations: [ORGS[0]] }));
      await expect(t.session.login({ email: 'a', password: 'b' })).resolves.toEqual({ to: '/dashboard' });
      expect(t.storage.get(KEYS.postLoginRedirect)).toBeNull();
    }
  });

  test('D6 with several organizations and none chosen, login goes to /org-picker and keeps the target for after the choice', async () => {
    const t = await ready();
    t.storage.set(KEYS.postLoginRedirect, '/customers');
    await expect(t.session.login({ email: 'a', password: 'b' })).resolves.toEqual({ to: '/org-picker' });
    await t.session.selectOrg(1);
    expect(t.navigate).toHaveBeenLastCalledWith('/customers', { replace: true });
  });

  test('SPEC §4 logout calls the endpoint, clears the session, stores the path and goes to /login', async () => {
    const t = makeSession({ path: '/customers/9' });
    const tokens = t.seed();
    await t.session.load();
    await t.session.logout();
    expect(t.api.calls.find((c) => c.path === '/api/v1/auth/logout/')?.body).toEqual({ refresh_token: tokens.refresh_token, session_id: 7 });
    expect(t.storage.get(KEYS.accessToken)).toBeNull();
    expect(t.storage.get(KEYS.refreshToken)).toBeNull();
    expect(JSON.parse(t.storage.get(KEYS.postLoginRedirect) ?? '{}').path).toBe('/customers/9');
    expect(t.navigate).toHaveBeenLastCalledWith('/login', { replace: true });
    expect(t.session.store.getState().isAuthenticated).toBe(false);
  });

  test('logout announces that the session was cleared (the query cache empties itself)', async () => {
    const t = makeSession();
    t.seed();
    await t.session.load();
    const heard = vi.fn();
    window.addEventListener(SESSION_CLEARED_EVENT, heard);
    await t.session.logout();
    window.removeEventListener(SESSION_CLEARED_EVENT, heard);
    expect(heard).toHaveBeenCalled();
  });

  test('SPEC §4 a failing logout call is ignored', async () => {
    const t = makeSession();
    t.seed();
    await t.session.load();
    t.api.offline = true;
    await expect(t.session.logout()).resolves.toBeUndefined();
    expect(t.storage.get(KEYS.accessToken)).toBeNull();
  });
});

describe('SPEC §4 refresh', () => {
  test('SPEC §4 refresh stores new tokens, extends the expiry, reloads the profile and announces it', async () => {
    const t = makeSession();
    const old = t.seed(undefined, 20_000);
    t.storage.set(KEYS.currentOrgId, '1');
    await t.session.load();
    const heard = vi.fn();
    window.addEventListener(TOKENS_REFRESHED_EVENT, heard);
    t.api.me = () => json(200, profile({ role: 'admin' }));
    await t.session.refresh();
    window.removeEventListener(TOKENS_REFRESHED_EVENT, heard);
    expect(t.storage.get(KEYS.accessToken)).not.toBe(old.access_token);
    expect(t.storage.get(KEYS.refreshToken)).not.toBe(old.refresh_token);
    expect(t.storage.getInt(KEYS.refreshExpiresAt)).toBeGreaterThan(Date.now() + 29 * 86_400_000);
    expect(t.session.store.getState().role).toBe('admin');
    expect(heard).toHaveBeenCalledTimes(1);
  });

  test("the server's refresh_expires_at wins over the client's own estimate", async () => {
    const t = makeSession();
    t.seed();
    await t.session.load();
    const at = '2030-01-02T03:04:05.000Z';
    t.api.refreshOverride = () => json(200, { ...t.api.issue(), refresh_expires_at: at });
    await t.session.refresh();
    expect(t.storage.getInt(KEYS.refreshExpiresAt)).toBe(Date.parse(at));
  });

  test("SPEC §5 a refresh whose profile has no organizations fails as 'Session invalid'", async () => {
    const t = makeSession();
    t.seed();
    await t.session.load();
    t.api.me = () => json(200, profile({ organizations: [] }));
    await expect(t.session.refresh()).rejects.toThrow('Session invalid');
  });

  test('SPEC §8 401 and the refresh fails → session cleared, hydration_failed set, sessionExpired fires once', async () => {
    const t = makeSession();
    t.seed();
    await t.session.load();
    t.api.validAccess.clear();
    t.api.validRefresh.clear();
    const fired = vi.fn();
    window.addEventListener(SESSION_EXPIRED_EVENT, fired);
    const results = await Promise.allSettled(Array.from({ length: 50 }, () => t.session.client.get('/v1/things')));
    window.removeEventListener(SESSION_EXPIRED_EVENT, fired);
    expect(results.every((r) => r.status === 'rejected')).toBe(true);
    expect(fired).toHaveBeenCalledTimes(1);
    expect(t.storage.get(KEYS.accessToken)).toBeNull();
    expect(t.storage.get(KEYS.refreshToken)).toBeNull();
    expect(t.storage.get(KEYS.hydrationFailed)).toBe('true');
    expect(t.session.store.getState().expired).toBe(true);
  });

  test('SPEC §5 a cancelled request for lack of a token sets hydration_failed and stores the path', async () => {
    const t = makeSession({ path: '/customers?page=2' });
    await t.session.load();
    await expect(t.session.client.get('/v1/customers/')).rejects.toMatchObject({ reason: 'no-token' });
    expect(t.storage.get(KEYS.hydrationFailed)).toBe('true');
    expect(JSON.parse(t.storage.get(KEYS.postLoginRedirect) ?? '{}').path).toBe('/customers?page=2');
  });
});

describe('D9 permission checks', () => {
  test('D9 permission checks really check', async () => {
    const t = makeSession();
    t.seed();
    t.storage.set(KEYS.currentOrgId, '1');
    t.api.me = () => json(200, profile({ permissions: ['customers:view'], features: ['sms'], role: 'viewer' }));
    await t.session.load();
    expect(t.session.can('customers:view')).toBe(true);
    expect(t.session.can('customers:create')).toBe(false);
  });
});
