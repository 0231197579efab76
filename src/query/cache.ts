// D14 / SPEC §7: the app's own small query cache. 2 retries (none on a 4xx), 60 s freshness,
// no refetch on window focus; after a token refresh, idle queries are refetched once.
// Keys are arrays (['customers', orgId, 'list', params]); a write invalidates by prefix (STYLE).
import { isAbortError, isBusy, isHttpError } from '../http/errors';
import { SESSION_CLEARED_EVENT, TOKENS_REFRESHED_EVENT } from '../lib/events';
import { sleep } from '../lib/time';

export const QUERY_RETRIES = 2;
export const QUERY_FRESH_MS = 60_000;
/** Unobserved entries are dropped after this long. */
export const QUERY_GC_MS = 5 * 60_000;
const MAX_RETRY_DELAY_MS = 30_000;
const retryDelay = (attempt: number) => Math.min(1000 * 2 ** attempt, MAX_RETRY_DELAY_MS);

export type QueryKey = readonly unknown[];
export type QueryStatus = 'pending' | 'success' | 'error';

export interface QuerySnapshot<T> {
  status: QueryStatus;
  data: T | undefined;
  error: unknown;
  fetching: boolean;
  updatedAt: number;
}

export type Fetcher<T> = (signal: AbortSignal) => Promise<T>;

/** A query as api/<resource>.ts defines it: screens never pair a key and a fetcher by hand (STYLE). */
export interface QueryDef<T> {
  key: QueryKey;
  fetch: Fetcher<T>;
}

/** A write and the keys (prefixes) it makes stale. */
export interface MutationDef<A, R> {
  run: (arg: A) => Promise<R>;
  invalidates: readonly QueryKey[];
}

interface Entry {
  key: QueryKey;
  hash: string;
  snap: QuerySnapshot<unknown>;
  fetcher: Fetcher<unknown> | null;
  inflight: Promise<unknown> | null;
  /** Aborts the fetch in flight; null when none is. */
  controller: AbortController | null;
  /** A write invalidated the key while this fetch was in flight: its answer may be from before the write. */
  invalidated: boolean;
  listeners: Set<() => void>;
  gc?: ReturnType<typeof setTimeout>;
}

const EMPTY: QuerySnapshot<never> = { status: 'pending', data: undefined, error: null, fetching: false, updatedAt: 0 };

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A key's identity: JSON with object properties sorted, so { a, b } and { b, a } are one key. */
export function hashKey(key: QueryKey): string {
  return JSON.stringify(key, (_k, v: unknown) => (isPlainObject(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v));
}

/** True when `key` starts with every element of `prefix` (['customers', 1] matches ['customers', 1, 'list', …]). */
export const startsWith = (key: QueryKey, prefix: QueryKey): boolean => hashKey(key.slice(0, prefix.length)) === hashKey(prefix);

/**
 * No retry for client errors (4xx) or cancellations: they will not get better by asking again. A 429 is
 * the exception, treated like a 503 (D35): it will, after the Retry-After the server named.
 */
const retryable = (e: unknown) => !isAbortError(e) && (isBusy(e) || !(isHttpError(e) && e.status >= 400 && e.status < 500));
/** The server's Retry-After when it sent one (within the usual bound), else the back-off. */
const delayFor = (e: unknown, attempt: number) => (isBusy(e) && e.retryAfterS !== null ? Math.min(e.retryAfterS * 1000, MAX_RETRY_DELAY_MS) : retryDelay(attempt));

export function createQueryCache({ retries = QUERY_RETRIES, freshMs = QUERY_FRESH_MS } = {}) {
  const entries = new Map<string, Entry>();

  function entry(key: QueryKey): Entry {
    const hash = hashKey(key);
    let e = entries.get(hash);
    if (!e) entries.set(hash, (e = { key, hash, snap: EMPTY, fetcher: null, inflight: null, controller: null, invalidated: false, listeners: new Set() }));
    return e;
  }
  function update(e: Entry, patch: Partial<QuerySnapshot<unknown>>) {
    e.snap = { ...e.snap, ...patch };
    for (const l of [...e.listeners]) l();
  }
  /**
   * Drops an unobserved entry after QUERY_GC_MS. The timer drops that entry only: after clear() a new
   * entry may hold the same key (signed in again to the same organization) and must outlive the old one's timer.
   */
  function collectLater(e: Entry): void {
    clearTimeout(e.gc);
    if (e.listeners.size > 0 || e.inflight || entries.get(e.hash) !== e) return;
    e.gc = setTimeout(() => {
      if (entries.get(e.hash) === e && e.listeners.size === 0 && !e.inflight) entries.delete(e.hash);
    }, QUERY_GC_MS);
  }

  /** Fetches (deduplicating concurrent calls), retrying transient failures. */
  function fetchQuery<T>(key: QueryKey, fetcher: Fetcher<T>): Promise<T> {
    const e = entry(key);
    e.fetcher = fetcher as Fetcher<unknown>;
    if (e.inflight) return e.inflight as Promise<T>;
    // An aborted fetch (its key unwatched) leaves the entry to the next fetch: no error, no clean-up.
    const controller = (e.controller = new AbortController());
    const current = () => e.controller === controller;
    e.invalidated = false;
    update(e, { fetching: true });
    const run = async (): Promise<T> => {
      for (let attempt = 0; ; attempt++) {
        try {
          return await fetcher(controller.signal);
        } catch (error) {
          if (attempt >= retries || !retryable(error)) throw error;
          await sleep(delayFor(error, attempt));
        }
      }
    };
    const p = run().then(
      (data) => {
        // Asked before a write that invalidated it: shown, but stale (fetched again just below).
        if (current()) update(e, { status: 'success', data, error: null, fetching: false, updatedAt: e.invalidated ? 0 : Date.now() });
        return data;
      },
      (error: unknown) => {
        if (current()) update(e, { status: 'error', error, fetching: false });
        throw error;
      },
    );
    e.inflight = p.finally(() => {
      if (!current()) return;
      e.controller = e.inflight = null;
      if (e.invalidated && e.listeners.size > 0 && e.fetcher) fetchQuery(e.key, e.fetcher).catch(() => undefined);
      else collectLater(e); // fetched with nobody watching (a prefetch)
    });
    e.inflight.catch(() => undefined);
    return p;
  }

  /**
   * D14: a fetch whose key nobody watches any more (a page left, a search typed on) is aborted. Checked
   * after a microtask, so a watcher that leaves and comes straight back (a re-subscribe) keeps it; a
   * prefetch nobody has watched yet is left to finish.
   */
  function abortUnwatched(e: Entry): void {
    queueMicrotask(() => {
      const controller = e.controller;
      if (!controller || e.listeners.size) return;
      e.controller = e.inflight = null;
      controller.abort();
      e.snap = { ...e.snap, fetching: false };
      collectLater(e);
    });
  }

  const isStale = (key: QueryKey) => {
    const s = entries.get(hashKey(key))?.snap;
    return s?.status !== 'success' || Date.now() - s.updatedAt >= freshMs;
  };

  function subscribe(key: QueryKey, listener: () => void): () => void {
    const e = entry(key);
    clearTimeout(e.gc);
    e.listeners.add(listener);
    return () => {
      e.listeners.delete(listener);
      abortUnwatched(e);
      collectLater(e);
    };
  }

  /** D14: after a token refresh, observed queries that are not fetching refetch once; the rest go stale. */
  function refetchIdle(): void {
    for (const e of entries.values()) {
      if (e.inflight || !e.fetcher) continue;
      if (e.listeners.size > 0) fetchQuery(e.key, e.fetcher).catch(() => undefined);
      else e.snap = { ...e.snap, updatedAt: 0 };
    }
  }

  /**
   * Marks every entry under `prefix` stale and refetches the observed ones (after a write). A fetch in
   * flight may have been answered before the write: its answer is kept as stale, and an observed key is
   * fetched again once it settles, so the screen ends with what the write made.
   */
  function invalidate(prefix: QueryKey): void {
    for (const e of entries.values()) {
      if (!startsWith(e.key, prefix)) continue;
      e.snap = { ...e.snap, updatedAt: 0 };
      if (e.inflight) e.invalidated = true;
      else if (e.listeners.size > 0 && e.fetcher) fetchQuery(e.key, e.fetcher).catch(() => undefined);
    }
  }

  /** Whether any entry under `prefix` holds data that passes `test` (D59: was this customer in a list shown?). */
  function someData(prefix: QueryKey, test: (data: unknown) => boolean): boolean {
    for (const e of entries.values()) if (startsWith(e.key, prefix) && e.snap.data !== undefined && test(e.snap.data)) return true;
    return false;
  }

  /** Empties the cache (sign-out): no entry, and no clean-up timer, outlives it. */
  function clear(): void {
    for (const e of entries.values()) clearTimeout(e.gc);
    entries.clear();
  }

  return {
    fetchQuery,
    isStale,
    subscribe,
    refetchIdle,
    invalidate,
    someData,
    clear,
    snapshot: <T>(key: QueryKey) => (entries.get(hashKey(key))?.snap ?? EMPTY) as QuerySnapshot<T>,
    /** Wires D14's refetch-after-refresh, and emptying on sign-out, to the session's window events. */
    listen(win: Window = window): () => void {
      const refetch = () => refetchIdle();
      win.addEventListener(TOKENS_REFRESHED_EVENT, refetch);
      win.addEventListener(SESSION_CLEARED_EVENT, clear);
      return () => {
        win.removeEventListener(TOKENS_REFRESHED_EVENT, refetch);
        win.removeEventListener(SESSION_CLEARED_EVENT, clear);
      };
    },
  };
}

export type QueryCache = ReturnType<typeof createQueryCache>;
