// React bindings of the query cache: useQuery and useMutation.
import { createContext, useCallback, useContext, useEffect, useState, useSyncExternalStore, type ReactNode } from 'react';
import { createQueryCache, type QueryCache, type QuerySnapshot } from './cache';

// The app's cache is created with the first page that queries (pages load lazily, so the cache
// costs the login screen nothing); tests pass their own through <QueryProvider>.
let appCache: QueryCache | null = null;
function defaultCache(): QueryCache {
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

export interface QueryResult<T> extends QuerySnapshot<T> {
  refetch: () => Promise<T>;
}

/** Reads `key` from the cache, fetching when missing or older than the freshness window. */
export function useQuery<T>(key: string, fetcher: (signal: AbortSignal) => Promise<T>, { enabled = true } = {}): QueryResult<T> {
  const cache = useQueryCache();
  const subscribe = useCallback((l: () => void) => cache.subscribe(key, l), [cache, key]);
  const getSnap = useCallback(() => cache.snapshot<T>(key), [cache, key]);
  const snap = useSyncExternalStore(subscribe, getSnap, getSnap);
  useEffect(() => {
    if (enabled && cache.isStale(key)) cache.fetchQuery(key, fetcher).catch(() => undefined);
    // The fetcher is identified by its key: a new key is a new query, a new closure alone is not.
  }, [cache, key, enabled]);
  const refetch = useCallback(() => cache.fetchQuery(key, fetcher), [cache, key, fetcher]);
  return { ...snap, refetch };
}

export interface MutationState<R> {
  status: 'idle' | 'pending' | 'success' | 'error';
  data: R | undefined;
  error: unknown;
}

/** Runs a write; `invalidates` names the cache keys (prefixes) it makes stale. */
export function useMutation<A, R>(fn: (arg: A) => Promise<R>, { invalidates = [] as string[] } = {}) {
  const cache = useQueryCache();
  const [state, setState] = useState<MutationState<R>>({ status: 'idle', data: undefined, error: null });
  const mutate = useCallback(
    async (arg: A): Promise<R> => {
      setState({ status: 'pending', data: undefined, error: null });
      try {
        const data = await fn(arg);
        setState({ status: 'success', data, error: null });
        for (const k of invalidates) cache.invalidate(k);
        return data;
      } catch (error) {
        setState({ status: 'error', data: undefined, error });
        throw error;
      }
    },
    [cache, fn, invalidates.join('\n')], // keys compared by value, so callers may pass a fresh array

  );
  return { ...state, mutate };
}
