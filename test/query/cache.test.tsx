import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { HttpError, NetworkError } from '../../src/http/errors';
import { SESSION_CLEARED_EVENT, TOKENS_REFRESHED_EVENT } from '../../src/lib/events';
import { createQueryCache, QUERY_FRESH_MS, QUERY_RETRIES } from '../../src/query/cache';
import { QueryProvider, useMutation, useQuery } from '../../src/query/use-query';

afterEach(() => vi.useRealTimers());

describe('D14 query cache', () => {
  test('D14 a failing query is retried twice (3 attempts in all)', async () => {
    vi.useFakeTimers();
    const cache = createQueryCache();
    const fetcher = vi.fn(async () => {
      throw new NetworkError('/x', null);
    });
    const p = cache.fetchQuery('x', fetcher).catch((e: unknown) => e);
    await vi.runAllTimersAsync();
    expect(await p).toBeInstanceOf(NetworkError);
    expect(QUERY_RETRIES).toBe(2);
    expect(fetcher).toHaveBeenCalledTimes(3);
    expect(cache.snapshot('x').status).toBe('error');
  });

  test('D14 no retry on a 4xx', async () => {
    const cache = createQueryCache();
    const fetcher = vi.fn(async () => {
      throw new HttpError(404, null, '/x');
    });
    await expect(cache.fetchQuery('x', fetcher)).rejects.toBeInstanceOf(HttpError);
    expect(fetcher).toHaveBeenCalledTimes(1);
  });

  test('D14 a 5xx is retried and can recover', async () => {
    vi.useFakeTimers();
    const cache = createQueryCache();
    let n = 0;
    const fetcher = vi.fn(async () => {
      if (++n < 3) throw new HttpError(503, null, '/x');
      return 'ok';
    });
    const p = cache.fetchQuery('x', fetcher);
    await vi.runAllTimersAsync();
    await expect(p).resolves.toBe('ok');
  });

  test('D14 data stays fresh for 60 seconds', async () => {
    vi.useFakeTimers();
    const cache = createQueryCache();
    await cache.fetchQuery('x', async () => 1);
    expect(QUERY_FRESH_MS).toBe(60_000);
    await vi.advanceTimersByTimeAsync(59_000);
    expect(cache.isStale('x')).toBe(false);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(cache.isStale('x')).toBe(true);
  });

  test('concurrent fetches of one key share one request', async () => {
    const cache = createQueryCache();
    const fetcher = vi.fn(async () => 'v');
    await Promise.all([cache.fetchQuery('k', fetcher), cache.fetchQuery('k', fetcher), cache.fetchQuery('k', fetcher)]);
    expect(fetcher).toHaveBeenCalledTimes(1);
  });

  test('D14 after a token refresh, observed queries that are not fetching refetch once; unobserved ones go stale', async () => {
    const cache = createQueryCache();
    const stop = cache.listen(window);
    const watched = vi.fn(async () => 'w');
    const unwatched = vi.fn(async () => 'u');
    await cache.fetchQuery('watched', watched);
    await cache.fetchQuery('unwatched', unwatched);
    const unsub = cache.subscribe('watched', () => undefined);
    window.dispatchEvent(new Event(TOKENS_REFRESHED_EVENT));
    await Promise.resolve();
    expect(watched).toHaveBeenCalledTimes(2);
    expect(unwatched).toHaveBeenCalledTimes(1);
    expect(cache.isStale('unwatched')).toBe(true);
    unsub();
    stop();
  });

  test("clearing the session empties the cache, so the next account never sees the last one's data", async () => {
    const cache = createQueryCache();
    const stop = cache.listen(window);
    await cache.fetchQuery('customers', async () => ['Ann']);
    window.dispatchEvent(new Event(SESSION_CLEARED_EVENT));
    expect(cache.snapshot('customers').data).toBeUndefined();
    expect(cache.isStale('customers')).toBe(true);
    stop();
  });

  test('D14 a query already fetching is not refetched after a token refresh', async () => {
    const cache = createQueryCache();
    let release!: (v: string) => void;
    const fetcher = vi.fn(() => new Promise<string>((r) => (release = r)));
    const unsub = cache.subscribe('k', () => undefined);
    const p = cache.fetchQuery('k', fetcher);
    cache.refetchIdle();
    release('x');
    await p;
    expect(fetcher).toHaveBeenCalledTimes(1);
    unsub();
  });
});

describe('useQuery and useMutation', () => {
  function Customers({ fetcher }: { fetcher: () => Promise<string[]> }) {
    const q = useQuery('customers', fetcher);
    if (q.status === 'pending') return <p>loading</p>;
    if (q.status === 'error') return <p>failed</p>;
    return <p>{q.data?.join(',')}</p>;
  }

  test('useQuery fetches once, shares the cache, and does not refetch on window focus (D14)', async () => {
    const cache = createQueryCache();
    const fetcher = vi.fn(async () => ['Ann', 'Bo']);
    render(
      <QueryProvider cache={cache}>
        <Customers fetcher={fetcher} />
        <Customers fetcher={fetcher} />
      </QueryProvider>,
    );
    expect(await screen.findAllByText('Ann,Bo')).toHaveLength(2);
    act(() => {
      window.dispatchEvent(new Event('focus'));
      document.dispatchEvent(new Event('visibilitychange'));
    });
    expect(fetcher).toHaveBeenCalledTimes(1);
  });

  test('useMutation reports its state and invalidates the named queries', async () => {
    const cache = createQueryCache();
    const list = vi.fn(async () => ['Ann']);
    function Add() {
      const m = useMutation(async (name: string) => name, { invalidates: ['customers'] });
      return (
        <button type="button" onClick={() => void m.mutate('Cy')}>
          {m.status}
        </button>
      );
    }
    render(
      <QueryProvider cache={cache}>
        <Customers fetcher={list} />
        <Add />
      </QueryProvider>,
    );
    await screen.findByText('Ann');
    await act(async () => screen.getByRole('button', { name: 'idle' }).click());
    expect(screen.getByRole('button', { name: 'success' })).toBeTruthy();
    expect(list).toHaveBeenCalledTimes(2);
  });
});
