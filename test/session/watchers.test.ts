import { afterEach, describe, expect, test, vi } from 'vitest';
import { KEYS } from '../../src/lib/storage';
import { REFRESH_CHECK_MS, REFRESH_MARGIN_MS, startSessionWatchers, VISIBILITY_THROTTLE_MS } from '../../src/session/watchers';
import { accessToken } from '../helpers/fake-api';
import { makeSession } from '../helpers/session';

afterEach(() => vi.useRealTimers());

async function signedIn(expiresInMs = 30 * 86_400_000) {
  const t = makeSession();
  t.seed(undefined, expiresInMs);
  t.storage.set(KEYS.currentOrgId, '1');
  await t.session.load();
  const reload = vi.fn();
  const stop = startSessionWatchers(t.session, { win: window, reload });
  return { ...t, reload, stop };
}

const setVisibility = (state: DocumentVisibilityState) => {
  Object.defineProperty(document, 'visibilityState', { value: state, configurable: true });
  document.dispatchEvent(new Event('visibilitychange'));
};

describe('SPEC §4 sliding refresh', () => {
  test('SPEC §9 every 10 s, refresh when the refresh expiry is under 30 s away', async () => {
    vi.useFakeTimers();
    const t = await signedIn(REFRESH_MARGIN_MS + REFRESH_CHECK_MS + 5_000); // 45 s left
    await vi.advanceTimersByTimeAsync(REFRESH_CHECK_MS);
    expect(t.api.count('/api/v1/auth/refresh/')).toBe(0); // 35 s left: not yet
    await vi.advanceTimersByTimeAsync(REFRESH_CHECK_MS);
    expect(t.api.count('/api/v1/auth/refresh/')).toBe(1); // 25 s left
    t.stop();
  });

  test('no refresh while the expiry is far away', async () => {
    vi.useFakeTimers();
    const t = await signedIn();
    await vi.advanceTimersByTimeAsync(REFRESH_CHECK_MS * 6);
    expect(t.api.count('/api/v1/auth/refresh/')).toBe(0);
    t.stop();
  });

  test('SPEC §4 a visible tab refreshes an expired access token, at most once per 10 s', async () => {
    vi.useFakeTimers();
    const t = await signedIn();
    const stale = accessToken(-60);
    t.api.validAccess.add(stale);
    t.storage.set(KEYS.accessToken, stale);
    setVisibility('visible');
    await vi.advanceTimersByTimeAsync(0);
    expect(t.api.count('/api/v1/auth/refresh/')).toBe(1);
    t.storage.set(KEYS.accessToken, 'bad');
    setVisibility('hidden');
    setVisibility('visible');
    await vi.advanceTimersByTimeAsync(0);
    expect(t.api.count('/api/v1/auth/refresh/')).toBe(1); // throttled
    await vi.advanceTimersByTimeAsync(VISIBILITY_THROTTLE_MS);
    setVisibility('visible');
    await vi.advanceTimersByTimeAsync(0);
    expect(t.api.count('/api/v1/auth/refresh/')).toBe(2);
    t.stop();
  });

  test('SPEC §4 a visible tab with a good token and time left does not refresh', async () => {
    const t = await signedIn();
    setVisibility('visible');
    await Promise.resolve();
    expect(t.api.count('/api/v1/auth/refresh/')).toBe(0);
    t.stop();
  });
});

describe('SPEC §4 cross-tab', () => {
  const storageEvent = (key: string | null, newValue: string | null) => window.dispatchEvent(new StorageEvent('storage', { key, newValue, oldValue: 'x' }));

  test('SPEC §4 removing the access or refresh token in another tab reloads the page', async () => {
    const t = await signedIn();
    storageEvent('access_token', null);
    expect(t.reload).toHaveBeenCalledTimes(1);
    storageEvent('refresh_token', null);
    expect(t.reload).toHaveBeenCalledTimes(2);
    storageEvent('access_token', 'a.new.token'); // a refresh in another tab is not a removal
    storageEvent('theme', null);
    expect(t.reload).toHaveBeenCalledTimes(2);
    t.stop();
  });

  test('D21 another tab switching organization reloads this tab; the same organization does not', async () => {
    const t = await signedIn();
    storageEvent('current_org_id', '1');
    expect(t.reload).not.toHaveBeenCalled();
    storageEvent('current_org_id', '2');
    expect(t.reload).toHaveBeenCalledTimes(1);
    t.stop();
  });

  test("SPEC §4 a logout in another tab before this tab's watchers started reloads this tab when they start", async () => {
    const t = makeSession();
    t.seed(undefined, 30 * 86_400_000);
    t.storage.set(KEYS.currentOrgId, '1');
    await t.session.load();
    t.storage.remove(KEYS.refreshToken); // another tab logged out; no event reached a listener yet
    const reload = vi.fn();
    const stop = startSessionWatchers(t.session, { win: window, reload });
    expect(reload).toHaveBeenCalledTimes(1);
    stop();
  });

  test("D21 another tab's organization switch before this tab's watchers started reloads this tab when they start; nothing else does", async () => {
    const t = makeSession();
    t.seed(undefined, 30 * 86_400_000);
    t.storage.set(KEYS.currentOrgId, '1');
    await t.session.load();
    const reload = vi.fn();
    startSessionWatchers(t.session, { win: window, reload })();
    expect(reload).not.toHaveBeenCalled(); // nothing happened meanwhile
    t.storage.set(KEYS.currentOrgId, '2');
    startSessionWatchers(t.session, { win: window, reload })();
    expect(reload).toHaveBeenCalledTimes(1);
  });
});
