// React bindings of the query cache: useQuery and useMutation, fed by the definitions in api/.
import { createContext, useCallback, useContext, useEffect, useRef, useState, useSyncExternalStore, type ReactNode } from 'react';
import { createQueryCache, hashKey, type MutationDef, type QueryCache, type QueryDef, type QuerySnapshot } from './cache';

// The app's cache is created with the first page that queries (pages load lazily, so the cache
// costs the login screen nothing); tests pass their own through <QueryProvider>.
let appCache: QueryCache | null = null;
/** The app's cache (created on first use): the one pages read when no <QueryProvider> gives another. */
export function defaultCache(): QueryCache {
  if (!appCache) {
    appCache = createQueryCache();
    appCache.listen();
  }
  return appCache;
}

const CacheContext = createContext<QueryCache | null>(null);

export function QueryProvider({ cache, children }: { cache: QueryCache; children: ReactNode }) {
  return <CacheContext.Provider value={cache}>{children}</CacheContext.Provider>;
}

export function useQueryCache(): QueryCache {
  return useContext(CacheContext) ?? defaultCache();
}

export interface QueryOptions {
  /** false: read the cache only, fetch nothing (e.g. a search not typed yet). */
  enabled?: boolean;
  /** While a new key loads, go on showing the last data this screen had (the previous page of a list). */
  keepPrevious?: boolean;
}

export interface QueryResult<T> extends QuerySnapshot<T> {
  /** True while `data` is the previous key's, kept by `keepPrevious` until the new one arrives. */
  previous: boolean;
  refetch: () => Promise<T>;
}

/** Reads a query from the cache, fetching when missing or older than the freshness window (D14). */
export function useQuery<T>({ key, fetch }: QueryDef<T>, { enabled = true, keepPrevious = false }: QueryOptions = {}): QueryResult<T> {
  const cache = useQueryCache();
  const hash = hashKey(key);
  // The key is identified by its hash: a new array with the same contents is the same query, and a
  // new fetcher closure alone is not a new query either.
  const subscribe = useCallback((l: () => void) => cache.subscribe(key, l), [cache, hash]);
  const getSnap = useCallback(() => cache.snapshot<T>(key), [cache, hash]);
  const snap = useSyncExternalStore(subscribe, getSnap, getSnap);
  useEffect(() => {
    if (enabled && cache.isStale(key)) cache.fetchQuery(key, fetch).catch(() => undefined);
  }, [cache, hash, enabled]);

  const last = useRef<T | undefined>(undefined);
  useEffect(() => {
    if (snap.data !== undefined) last.current = snap.data;
  }, [snap.data]);
  const kept = keepPrevious && snap.data === undefined && snap.status === 'pending' ? last.current : undefined;

  const refetch = useCallback(() => cache.fetchQuery(key, fetch), [cache, hash, fetch]);
  return { ...snap, data: snap.data ?? kept, previous: kept !== undefined, refetch };
}

export interface MutationState<R> {
  status: 'idle' | 'pending' | 'success' | 'error';
  data: R | undefined;
  error: unknown;
}

const IDLE: MutationState<never> = { status: 'idle', data: undefined, error: null };

/** Runs a write; on success the keys (prefixes) it names go stale and the ones on screen refetch. */
export function useMutation<A, R>({ run, invalidates }: MutationDef<A, R>) {
  const cache = useQueryCache();
  const [state, setState] = useState<MutationState<R>>(IDLE);
  async function mutate(arg: A): Promise<R> {
    setState({ status: 'pending', data: undefined, error: null });
    try {
      const data = await run(arg);
      setState({ status: 'success', data, error: null });
      for (const k of invalidates) cache.invalidate(k);
      return data;
    } catch (error) {
      setState({ status: 'error', data: undefined, error });
      throw error;
    }
  }
  return { ...state, mutate, reset: () => setState(IDLE) };
}
