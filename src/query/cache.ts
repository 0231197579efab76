// D14 / SPEC §7: the app's own small query cache. 2 retries (none on a 4xx), 60 s freshness,
// no refetch on window focus; after a token refresh, idle queries are refetched once.
import { isAbortError, isHttpError } from '../http/errors';
import { SESSION_CLEARED_EVENT, TOKENS_REFRESHED_EVENT } from '../lib/events';
import { sleep } from '../lib/time';

export const QUERY_RETRIES = 2;
export const QUERY_FRESH_MS = 60_000;
/** Unobserved entries are dropped after this long. */
export const QUERY_GC_MS = 5 * 60_000;
const retryDelay = (attempt: number) => Math.min(1000 * 2 ** attempt, 30_000);

export type QueryStatus = 'pending' | 'success' | 'error';

export interface QuerySnapshot<T> {
  status: QueryStatus;
  data: T | undefined;
  error: unknown;
  fetching: boolean;
  updatedAt: number;
}

type Fetcher<T> = (signal: AbortSignal) => Promise<T>;

interface Entry {
  snap: QuerySnapshot<unknown>;
  fetcher: Fetcher<unknown> | null;
  inflight: Promise<unknown> | null;
  listeners: Set<() => void>;
  gc?: ReturnType<typeof setTimeout>;
}

const EMPTY: QuerySnapshot<never> = { status: 'pending', data: undefined, error: null, fetching: false, updatedAt: 0 };

/** No retry for client errors (4xx) or cancellations: they will not get better by asking again. */
const retryable = (e: unknown) => !isAbortError(e) && !(isHttpError(e) && e.status >= 400 && e.status < 500);

export function createQueryCache({ retries = QUERY_RETRIES, freshMs = QUERY_FRESH_MS } = {}) {
  const entries = new Map<string, Entry>();

  function entry(key: string): Entry {
    let e = entries.get(key);
    if (!e) entries.set(key, (e = { snap: EMPTY, fetcher: null, inflight: null, listeners: new Set() }));
    return e;
  }
  function update(e: Entry, patch: Partial<QuerySnapshot<unknown>>) {
    e.snap = { ...e.snap, ...patch };
    for (const l of [...e.listeners]) l();
  }

  /** Fetches (deduplicating concurrent calls), retrying transient failures. */
  function fetchQuery<T>(key: string, fetcher: Fetcher<T>): Promise<T> {
    const e = entry(key);
    e.fetcher = fetcher as Fetcher<unknown>;
    if (e.inflight) return e.inflight as Promise<T>;
    const controller = new AbortController();
    update(e, { fetching: true });
    const run = async (): Promise<T> => {
      for (let attempt = 0; ; attempt++) {
        try {
          return await fetcher(controller.signal);
        } catch (error) {
          if (attempt >= retries || !retryable(error)) throw error;
          await sleep(retryDelay(attempt));
        }
      }
    };
    const p = run().then(
      (data) => {
        update(e, { status: 'success', data, error: null, fetching: false, updatedAt: Date.now() });
        return data;
      },
      (error: unknown) => {
        update(e, { status: 'error', error, fetching: false });
        throw error;
      },
    );
    e.inflight = p.finally(() => (e.inflight = null));
    e.inflight.catch(() => undefined);
    return p;
  }

  const isStale = (key: string) => {
    const s = entries.get(key)?.snap;
    return !s || s.status !== 'success' || Date.now() - s.updatedAt >= freshMs;
  };

  function subscribe(key: string, listener: () => void): () => void {
    const e = entry(key);
    clearTimeout(e.gc);
    e.listeners.add(listener);
    return () => {
      e.listeners.delete(listener);
      if (e.listeners.size === 0 && !e.inflight) e.gc = setTimeout(() => entries.delete(key), QUERY_GC_MS);
    };
  }

  /** D14: after a token refresh, observed queries that are not fetching refetch once; the rest go stale. */
  function refetchIdle(): void {
    for (const [key, e] of entries) {
      if (e.inflight || !e.fetcher) continue;
      if (e.listeners.size > 0) fetchQuery(key, e.fetcher).catch(() => undefined);
      else e.snap = { ...e.snap, updatedAt: 0 };
    }
  }

  /** Marks matching entries stale and refetches the observed ones (after a mutation). */
  function invalidate(prefix: string): void {
    for (const [key, e] of entries) {
      if (!key.startsWith(prefix)) continue;
      e.snap = { ...e.snap, updatedAt: 0 };
      if (e.listeners.size > 0 && e.fetcher && !e.inflight) fetchQuery(key, e.fetcher).catch(() => undefined);
    }
  }

  return {
    fetchQuery,
    isStale,
    subscribe,
    refetchIdle,
    invalidate,
    snapshot: <T>(key: string) => (entries.get(key)?.snap ?? EMPTY) as QuerySnapshot<T>,
    setData<T>(key: string, data: T) {
      update(entry(key), { status: 'success', data, error: null, updatedAt: Date.now() });
    },
    clear: () => entries.clear(),
    /** Wires D14's refetch-after-refresh, and emptying on sign-out, to the session's window events. */
    listen(win: Window = window): () => void {
      const refetch = () => refetchIdle();
      const empty = () => entries.clear();
      win.addEventListener(TOKENS_REFRESHED_EVENT, refetch);
      win.addEventListener(SESSION_CLEARED_EVENT, empty);
      return () => {
        win.removeEventListener(TOKENS_REFRESHED_EVENT, refetch);
        win.removeEventListener(SESSION_CLEARED_EVENT, empty);
      };
    },
  };
}

export type QueryCache = ReturnType<typeof createQueryCache>;
