import { afterEach, describe, expect, test, vi } from 'vitest';
import { KEYS } from '../../src/lib/storage';
import { HANDOFF_MS, LOCK_NAME, LOCK_STEAL_MS, rotateTokens, storageLock, webLock } from '../../src/session/lock';
import { FakeApi, MemoryStorage } from '../helpers/fake-api';
import { FakeLocks, LaggingStorage } from '../helpers/tabs';
import { makeSession } from '../helpers/session';

afterEach(() => vi.useRealTimers());

/**
 * Waits for `work` on fake timers: the locks' polls (25 ms), their holders' work and the hand-off pause
 * (at most HANDOFF_MS) run in moments, not in real time; far short of a token's expiry.
 */
async function onFakeTimers<T>(work: () => Promise<T>): Promise<T> {
  const p = work();
  await vi.advanceTimersByTimeAsync(HANDOFF_MS + 1_000);
  return p;
}

/** Two tabs: two sessions over one storage and one server, each with the real storage lock. */
function twoTabs() {
  const api = new FakeApi();
  const kv = new MemoryStorage();
  const a = makeSession({ api, kv, lock: storageLock(kv) });
  const b = makeSession({ api, kv, lock: storageLock(kv) });
  a.seed();
  a.storage.set(KEYS.currentOrgId, '1');
  return { api, kv, a, b };
}

describe('D8 one refresh at a time, across tabs too', () => {
  test('D8 two tabs refreshing at once make one refresh call; the waiting tab adopts the new tokens', async () => {
    vi.useFakeTimers();
    const { api, a, b } = twoTabs();
    await onFakeTimers(() => Promise.all([a.session.load(), b.session.load()]));
    await onFakeTimers(() => Promise.all([a.session.refresh(), b.session.refresh()]));
    expect(api.count('/api/v1/auth/refresh/')).toBe(1);
    expect(a.session.store.getState().isAuthenticated).toBe(true);
    expect(b.session.store.getState().isAuthenticated).toBe(true);
  });

  test('D8 three tabs loading with an expired access token refresh once', async () => {
    vi.useFakeTimers();
    const api = new FakeApi();
    const kv = new MemoryStorage();
    const tabs = [0, 1, 2].map(() => makeSession({ api, kv, lock: storageLock(kv) }));
    tabs[0]!.seed();
    tabs[0]!.storage.set(KEYS.accessToken, 'expired.x.y');
    await onFakeTimers(() => Promise.all(tabs.map((t) => t.session.load())));
    expect(api.count('/api/v1/auth/refresh/')).toBe(1);
    for (const t of tabs) expect(t.session.store.getState().isAuthenticated).toBe(true);
  });

  test('D8 the storage lock runs holders one at a time', async () => {
    vi.useFakeTimers();
    const kv = new MemoryStorage();
    const l1 = storageLock(kv);
    const l2 = storageLock(kv);
    let inside = 0;
    let max = 0;
    const work = async () => {
      max = Math.max(max, ++inside);
      await new Promise((r) => setTimeout(r, 30));
      inside--;
    };
    await onFakeTimers(() => Promise.all([l1(work), l2(work), l1(work)]));
    expect(max).toBe(1);
    expect(kv.getItem(LOCK_NAME)).toBeNull();
  });

  test('D8 two tabs that both found the storage lock free: the later record wins, the other tab waits its turn', async () => {
    vi.useFakeTimers();
    const kv = new MemoryStorage();
    // The second tab reads the lock once before the first tab's record has reached it (another process).
    let unseen = 1;
    const lagging = {
      getItem: (k: string) => (k === LOCK_NAME && unseen-- > 0 ? null : kv.getItem(k)),
      setItem: (k: string, v: string) => kv.setItem(k, v),
      removeItem: (k: string) => kv.removeItem(k),
    };
    let inside = 0;
    let max = 0;
    const order: string[] = [];
    const work = (tab: string) => async (waited: boolean) => {
      max = Math.max(max, ++inside);
      order.push(`${tab}${waited ? ' after waiting' : ''}`);
      await new Promise((r) => setTimeout(r, 30));
      inside--;
    };
    await onFakeTimers(() => Promise.all([storageLock(kv)(work('first')), storageLock(lagging)(work('second'))]));
    expect(max).toBe(1);
    expect(order).toEqual(['second', 'first after waiting']); // the record read back is the second's
    expect(kv.getItem(LOCK_NAME)).toBeNull();
  });

  test('D8 a storage lock that is never released is stolen after the timeout', async () => {
    vi.useFakeTimers();
    const kv = new MemoryStorage();
    kv.setItem(LOCK_NAME, JSON.stringify({ id: 'crashed-tab', until: Date.now() + LOCK_STEAL_MS }));
    let ran = false;
    const p = storageLock(kv)(async () => {
      ran = true;
    });
    await vi.advanceTimersByTimeAsync(LOCK_STEAL_MS - 100);
    expect(ran).toBe(false);
    await vi.advanceTimersByTimeAsync(200);
    await p;
    expect(ran).toBe(true);
  });

  test('D8 a Web Lock that is never released is stolen after the timeout', async () => {
    vi.useFakeTimers();
    const locks = new FakeLocks();
    locks.holdForever();
    let ran = false;
    const p = webLock(locks.asManager())(async () => {
      ran = true;
      return 5;
    });
    await vi.advanceTimersByTimeAsync(LOCK_STEAL_MS - 1);
    expect(ran).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await expect(p).resolves.toBe(5);
    expect(locks.requests.map((o) => (o.ifAvailable ? 'if-free' : o.steal ? 'steal' : 'wait'))).toEqual(['if-free', 'wait', 'steal']);
  });

  test('D8 a free Web Lock runs at once without waiting or stealing', async () => {
    const locks = new FakeLocks();
    const waited: boolean[] = [];
    await expect(webLock(locks.asManager())(async (w) => (waited.push(w), 'ok'))).resolves.toBe('ok');
    expect(locks.requests).toEqual([{ ifAvailable: true }]);
    expect(waited).toEqual([false]);
  });

  test('D8 the Web Lock runs holders one at a time and tells a holder that another had it first', async () => {
    vi.useFakeTimers();
    const locks = new FakeLocks();
    const lock = webLock(locks.asManager());
    const order: string[] = [];
    const work = (name: string) => async (waited: boolean) => {
      order.push(`${name} in${waited ? ' after waiting' : ''}`);
      await new Promise((r) => setTimeout(r, 10));
      order.push(`${name} out`);
    };
    await onFakeTimers(() => Promise.all([lock(work('a')), lock(work('b'))]));
    expect(order).toEqual(['a in', 'a out', 'b in after waiting', 'b out']);
  });

  test('D8 the storage lock tells a holder that another had it first', async () => {
    vi.useFakeTimers();
    const kv = new MemoryStorage();
    const waited: boolean[] = [];
    const work = async (w: boolean) => {
      waited.push(w);
      await new Promise((r) => setTimeout(r, 30));
    };
    await onFakeTimers(() => Promise.all([storageLock(kv)(work), storageLock(kv)(work)]));
    expect(waited).toEqual([false, true]);
  });

  test("D8 a tab that waited for the lock gets the other tab's new tokens even when they reach its storage after the lock does", async () => {
    vi.useFakeTimers();
    const api = new FakeApi();
    const tabsStorage = new LaggingStorage(60);
    const locks = new FakeLocks();
    const a = makeSession({ api, kv: tabsStorage.tab(), lock: webLock(locks.asManager()) });
    a.seed();
    a.storage.set(KEYS.accessToken, 'expired.x.y');
    a.storage.set(KEYS.currentOrgId, '1');
    const b = makeSession({ api, kv: tabsStorage.tab(), lock: webLock(locks.asManager()) });
    await onFakeTimers(() => Promise.all([a.session.load(), b.session.load()]));
    expect(api.count('/api/v1/auth/refresh/')).toBe(1);
    expect(a.session.store.getState().isAuthenticated).toBe(true);
    expect(b.session.store.getState().isAuthenticated).toBe(true);
    expect(b.storage.get(KEYS.refreshToken)).toBe(tabsStorage.shared.getItem(KEYS.refreshToken));
  });

  test('D8 a tab that waited for a holder that did not rotate refreshes itself after HANDOFF_MS', async () => {
    vi.useFakeTimers();
    const api = new FakeApi();
    const t = makeSession({ api });
    t.seed();
    const refresh = vi.fn(async (token: string) => {
      expect(token).toBe(t.storage.get(KEYS.refreshToken));
      return api.issue();
    });
    const p = rotateTokens(t.storage, (fn) => fn(true), refresh);
    await vi.advanceTimersByTimeAsync(HANDOFF_MS - 50);
    expect(refresh).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(100);
    await p;
    expect(refresh).toHaveBeenCalledTimes(1);
  });

  test('D8 a rotation decided before its code loaded skips it when another tab rotated meanwhile', async () => {
    const api = new FakeApi();
    const t = makeSession({ api });
    t.seed();
    const seen = t.storage.get(KEYS.refreshToken); // the controller reads it before loading lock.ts
    const other = api.issue(); // another tab rotates while this one loads the code
    t.storage.set(KEYS.accessToken, other.access_token);
    t.storage.set(KEYS.refreshToken, other.refresh_token);
    const refresh = vi.fn(async () => api.issue());
    await rotateTokens(t.storage, (fn) => fn(false), refresh, seen);
    expect(refresh).not.toHaveBeenCalled();
    expect(t.storage.get(KEYS.refreshToken)).toBe(other.refresh_token);
  });

  test('D8 a tab that had the lock at once refreshes without pausing', async () => {
    vi.useFakeTimers();
    const api = new FakeApi();
    const t = makeSession({ api });
    t.seed();
    const refresh = vi.fn(async () => api.issue());
    await rotateTokens(t.storage, (fn) => fn(false), refresh);
    expect(refresh).toHaveBeenCalledTimes(1);
  });
});
