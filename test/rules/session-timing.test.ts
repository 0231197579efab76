// SPEC §4 and §9 timing rules, checked with the spec's own numbers written out (not the constants
// from src/, so a changed constant fails here).
import { afterEach, describe, expect, test, vi } from 'vitest';
import { KEYS } from '../../src/lib/storage';
import { startSessionWatchers } from '../../src/session/watchers';
import { accessToken, json, profile } from '../helpers/fake-api';
import { makeSession } from '../helpers/session';

afterEach(() => vi.useRealTimers());

/** A session whose current-user call hangs until released (the first one only, when `once`). */
function heldLoad() {
  const t = makeSession();
  t.seed();
  const original = t.api.fetch.getMockImplementation()!;
  let meCalls = 0;
  let release: () => void = () => undefined;
  t.api.fetch.mockImplementation(async (input, init) => {
    if (String(input).endsWith('/v1/auth/me/') && ++meCalls === 1) await new Promise<void>((r) => (release = r));
    return original(input, init);
  });
  t.api.me = () => json(200, profile());
  return { ...t, meCalls: () => meCalls, release: () => release() };
}

describe('SPEC §4 / §9 session-load wait', () => {
  test('SPEC §9 a second session load polls every 100 ms: it finishes at the first 100 ms tick after the running load ends', async () => {
    vi.useFakeTimers();
    const t = heldLoad();
    const first = t.session.load();
    let secondDone = false;
    const second = t.session.load().then(() => (secondDone = true));
    await vi.advanceTimersByTimeAsync(1_050);
    t.release();
    await first;
    await vi.advanceTimersByTimeAsync(49); // t = 1099 ms: the next poll is at 1100 ms
    expect(secondDone).toBe(false);
    await vi.advanceTimersByTimeAsync(1); // t = 1100 ms
    expect(secondDone).toBe(true);
    await second;
    expect(t.meCalls()).toBe(1); // it waited for the running load instead of loading again
  });

  test('SPEC §9 the waiting load is forced through after more than 30 tries (about 3 seconds), not before', async () => {
    vi.useFakeTimers();
    const t = heldLoad(); // the first load never finishes
    void t.session.load();
    const second = t.session.load();
    await vi.advanceTimersByTimeAsync(3_000);
    expect(t.meCalls()).toBe(1); // 30 tries done, still waiting
    await vi.advanceTimersByTimeAsync(200);
    await second;
    expect(t.meCalls()).toBe(2); // forced through
    expect(t.session.store.getState().isAuthenticated).toBe(true);
  });
});

describe('SPEC §4 / §9 sliding refresh', () => {
  async function signedIn(refreshExpiresInMs: number) {
    const t = makeSession();
    t.seed(undefined, refreshExpiresInMs);
    t.storage.set(KEYS.currentOrgId, '1');
    await t.session.load();
    const stop = startSessionWatchers(t.session, { win: window, reload: vi.fn() });
    return { ...t, stop, refreshes: () => t.api.count('/api/v1/auth/refresh/') };
  }
  const setVisibility = (state: DocumentVisibilityState) => {
    Object.defineProperty(document, 'visibilityState', { value: state, configurable: true });
    document.dispatchEvent(new Event('visibilitychange'));
  };
  afterEach(() => {
    Reflect.deleteProperty(document, 'visibilityState');
  });

  test('SPEC §9 the sliding-refresh check runs every 10 seconds', async () => {
    vi.useFakeTimers();
    const t = await signedIn(25_000); // already under 30 s: the first check refreshes
    await vi.advanceTimersByTimeAsync(9_999);
    expect(t.refreshes()).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(t.refreshes()).toBe(1);
    t.stop();
  });

  test('SPEC §9 the sliding refresh runs when under 30 seconds remain, not with 30.5 s left', async () => {
    vi.useFakeTimers();
    const far = await signedIn(40_500); // 30.5 s left at the first check
    await vi.advanceTimersByTimeAsync(10_000);
    expect(far.refreshes()).toBe(0);
    far.stop();
    const near = await signedIn(39_500); // 29.5 s left at the first check
    await vi.advanceTimersByTimeAsync(10_000);
    expect(near.refreshes()).toBe(1);
    near.stop();
  });

  test('SPEC §4 a tab becoming visible refreshes when the refresh expiry is under 30 seconds away (good access token)', async () => {
    vi.useFakeTimers();
    const t = await signedIn(20_000);
    setVisibility('visible');
    await vi.advanceTimersByTimeAsync(0);
    expect(t.refreshes()).toBe(1);
    t.stop();
  });

  test('SPEC §9 the tab-visibility check is throttled to once per 10 seconds', async () => {
    vi.useFakeTimers();
    const t = await signedIn(30 * 86_400_000);
    const expire = () => {
      const stale = accessToken(-60);
      t.api.validAccess.add(stale);
      t.storage.set(KEYS.accessToken, stale);
    };
    expire();
    setVisibility('visible');
    await vi.advanceTimersByTimeAsync(0);
    expect(t.refreshes()).toBe(1);
    expire();
    await vi.advanceTimersByTimeAsync(9_990);
    setVisibility('visible');
    await vi.advanceTimersByTimeAsync(0);
    expect(t.refreshes()).toBe(1); // 9.99 s after the last check: throttled
    await vi.advanceTimersByTimeAsync(10);
    setVisibility('visible');
    await vi.advanceTimersByTimeAsync(0);
    expect(t.refreshes()).toBe(2); // 10 s: allowed again
    t.stop();
  });
});
