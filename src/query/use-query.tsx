// React bindings of the query cache: useQuery and useMutation.
import { createContext, useCallback, useContext, useEffect, useState, useSyncExternalStore, type ReactNode } from 'react';
import type { QueryCache, QuerySnapshot } from './cache';

const CacheContext = createContext<QueryCache | null>(null);

export function QueryProvider({ cache, children }: { cache: QueryCache; children: ReactNode }) {
  return <CacheContext.Provider value={cache}>{children}</CacheContext.Provider>;
}

export function useQueryCache(): QueryCache {
  const c = useContext(CacheContext);
  if (!c) throw new Error('useQueryCache needs a <QueryProvider>');
  return c;
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
    // the fetcher is keyed: a new key means a new query, a new closure alone does not
    // eslint-disable-next-line react-hooks/exhaustive-deps
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
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [cache, fn, invalidates.join('\n')],
  );
  return { ...state, mutate };
}
