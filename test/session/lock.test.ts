import { afterEach, describe, expect, test, vi } from 'vitest';
import { KEYS } from '../../src/lib/storage';
import { LOCK_NAME, LOCK_STEAL_MS, storageLock, webLock } from '../../src/session/lock';
import { FakeApi, MemoryStorage } from '../helpers/fake-api';
import { makeSession } from '../helpers/session';

afterEach(() => vi.useRealTimers());

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
    const { api, a, b } = twoTabs();
    await Promise.all([a.session.load(), b.session.load()]);
    await Promise.all([a.session.refresh(), b.session.refresh()]);
    expect(api.count('/api/v1/auth/refresh/')).toBe(1);
    expect(a.session.store.getState().isAuthenticated).toBe(true);
    expect(b.session.store.getState().isAuthenticated).toBe(true);
  });

  test('D8 three tabs loading with an expired access token refresh once', async () => {
    const api = new FakeApi();
    const kv = new MemoryStorage();
    const tabs = [0, 1, 2].map(() => makeSession({ api, kv, lock: storageLock(kv) }));
    tabs[0]!.seed();
    tabs[0]!.storage.set(KEYS.accessToken, 'expired.x.y');
    await Promise.all(tabs.map((t) => t.session.load()));
    expect(api.count('/api/v1/auth/refresh/')).toBe(1);
    for (const t of tabs) expect(t.session.store.getState().isAuthenticated).toBe(true);
  });

  test('D8 the storage lock runs holders one at a time', async () => {
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
    await Promise.all([l1(work), l2(work), l1(work)]);
    expect(max).toBe(1);
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
    // A LockManager whose lock is held forever by a crashed tab; steal: true takes it.
    const requests: string[] = [];
    const locks = {
      request: (_name: string, opts: LockOptions, cb: () => Promise<unknown>) => {
        if (opts.steal) {
          requests.push('steal');
          return cb();
        }
        requests.push('wait');
        return new Promise((_, reject) => opts.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))));
      },
    } as unknown as LockManager;
    let ran = false;
    const p = webLock(locks)(async () => {
      ran = true;
      return 5;
    });
    await vi.advanceTimersByTimeAsync(LOCK_STEAL_MS - 1);
    expect(ran).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await expect(p).resolves.toBe(5);
    expect(requests).toEqual(['wait', 'steal']);
  });

  test('D8 a free Web Lock runs at once without stealing', async () => {
    const calls: LockOptions[] = [];
    const locks = { request: (_n: string, opts: LockOptions, cb: () => Promise<unknown>) => (calls.push(opts), cb()) } as unknown as LockManager;
    await expect(webLock(locks)(async () => 'ok')).resolves.toBe('ok');
    expect(calls).toHaveLength(1);
    expect(calls[0]?.steal).toBeUndefined();
  });
});
