// D8: one refresh at a time across tabs. Web Locks where the browser has them, else a lock
// record in localStorage; either way a holder that does not finish in time is overtaken. And the
// rotation itself, under that lock.
import { isExpired, isWellFormed } from '../lib/jwt';
import { KEYS, type AppStorage } from '../lib/storage';
import { saveTokens } from './tokens';
import { SessionInvalidError, type TokenResponse } from './types';

/** D8: a lock not released within this time is stolen, so a crashed tab never blocks the others. */
export const LOCK_STEAL_MS = 5_000;
const STORAGE_LOCK_POLL_MS = 25;
export const LOCK_NAME = 'auth_refresh_lock';

/** Runs `fn` holding the lock; `waited` tells it whether another holder had the lock first. */
export type WithLock = <T>(fn: (waited: boolean) => Promise<T>) => Promise<T>;

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * Web Locks: take the lock if it is free; else wait up to `stealMs` for it, then take it over
 * with `steal: true`.
 */
export function webLock(locks: LockManager, name = LOCK_NAME, stealMs = LOCK_STEAL_MS): WithLock {
  return async <T>(fn: (waited: boolean) => Promise<T>): Promise<T> => {
    const first = await locks.request(name, { ifAvailable: true }, async (free) => (free ? { value: await fn(false) } : null));
    if (first) return first.value;
    const waiting = new AbortController();
    const timer = setTimeout(() => waiting.abort(), stealMs);
    try {
      return await locks.request(name, { signal: waiting.signal }, () => {
        clearTimeout(timer);
        return fn(true);
      });
    } catch (error) {
      if (!waiting.signal.aborted) throw error;
      return locks.request(name, { steal: true }, () => fn(true));
    } finally {
      clearTimeout(timer);
    }
  };
}

/**
 * Fallback for browsers without navigator.locks: a `{ id, until }` record in storage. A record
 * past `until` is free to take; after writing we re-read to see whether a racing tab won.
 */
export function storageLock(kv: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>, name = LOCK_NAME, stealMs = LOCK_STEAL_MS): WithLock {
  const read = (): { id: string; until: number } | null => {
    try {
      const v: unknown = JSON.parse(kv.getItem(name) ?? 'null');
      return v && typeof v === 'object' && 'id' in v && 'until' in v && typeof v.id === 'string' && typeof v.until === 'number' ? { id: v.id, until: v.until } : null;
    } catch {
      return null;
    }
  };
  return async <T>(fn: (waited: boolean) => Promise<T>): Promise<T> => {
    const id = Math.random().toString(36).slice(2) + Date.now().toString(36);
    let waited = false;
    for (;;) {
      const held = read();
      if (!held || held.until <= Date.now()) {
        kv.setItem(name, JSON.stringify({ id, until: Date.now() + stealMs }));
        await sleep(STORAGE_LOCK_POLL_MS);
        if (read()?.id === id) break;
      } else {
        await sleep(STORAGE_LOCK_POLL_MS);
      }
      waited = true;
    }
    try {
      return await fn(waited);
    } finally {
      if (read()?.id === id) kv.removeItem(name);
    }
  };
}

export function defaultLock(): WithLock {
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  if (locks && typeof locks.request === 'function') return webLock(locks);
  return storageLock(localStorage);
}

/**
 * D8: how long a tab that waited for the lock gives the previous holder's new tokens to show up in
 * its storage. Browsers deliver another tab's localStorage writes and the lock grant separately, so
 * the grant can arrive first; without this pause the tab would refresh again with the old token.
 */
export const HANDOFF_MS = 1_000;
const HANDOFF_POLL_MS = 20;

/**
 * D8: rotates the tokens under the cross-tab lock. A tab that waited re-reads storage and skips
 * the call when another tab rotated meanwhile (the refresh token changed and the access token is good).
 */
export async function rotateTokens(
  storage: AppStorage,
  lock: WithLock,
  refresh: (token: string) => Promise<TokenResponse>,
  /** The refresh token when the rotation was decided on (read before this code loaded). */
  seen = storage.get(KEYS.refreshToken),
): Promise<void> {
  await lock(async (waited) => {
    let current = storage.get(KEYS.refreshToken);
    for (let t = 0; waited && current === seen && t < HANDOFF_MS; t += HANDOFF_POLL_MS) {
      await sleep(HANDOFF_POLL_MS);
      current = storage.get(KEYS.refreshToken);
    }
    const access = storage.get(KEYS.accessToken);
    if (current && current !== seen && isWellFormed(access) && !isExpired(access)) return;
    if (!current) throw new SessionInvalidError();
    saveTokens(storage, await refresh(current));
  });
}
