import { act, render, screen } from '@testing-library/react';
import type { ReactElement } from 'react';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { HttpError, NetworkError } from '../../src/http/errors';
import { SESSION_CLEARED_EVENT, TOKENS_REFRESHED_EVENT } from '../../src/lib/events';
import { createQueryCache, hashKey, QUERY_FRESH_MS, QUERY_GC_MS, QUERY_RETRIES, startsWith, type QueryCache } from '../../src/query/cache';
import { QueryProvider, useMutation, useQuery } from '../../src/query/use-query';

afterEach(() => vi.useRealTimers());

describe('D14 query cache', () => {
  test('D14 a failing query is retried twice (3 attempts in all)', async () => {
    vi.useFakeTimers();
    const cache = createQueryCache();
    const unsub = cache.subscribe(['x'], () => undefined);
    const fetcher = vi.fn(async () => {
      throw new NetworkError('/x', null);
    });
    const p = cache.fetchQuery(['x'], fetcher).catch((e: unknown) => e);
    await vi.runAllTimersAsync();
    expect(await p).toBeInstanceOf(NetworkError);
    expect(QUERY_RETRIES).toBe(2);
    expect(fetcher).toHaveBeenCalledTimes(3);
    expect(cache.snapshot(['x']).status).toBe('error');
    unsub();
  });

  test('D14 no retry on a 4xx', async () => {
    const cache = createQueryCache();
    const fetcher = vi.fn(async () => {
      throw new HttpError(404, null, '/x');
    });
    await expect(cache.fetchQuery(['x'], fetcher)).rejects.toBeInstanceOf(HttpError);
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
    const p = cache.fetchQuery(['x'], fetcher);
    await vi.runAllTimersAsync();
    await expect(p).resolves.toBe('ok');
  });

  test('D35 a 429 is retried like a 503, after the Retry-After it names', async () => {
    vi.useFakeTimers();
    const cache = createQueryCache();
    let n = 0;
    const fetcher = vi.fn(async () => {
      if (++n < 2) throw new HttpError(429, { code: 'too_many_requests' }, '/x', 5);
      return 'ok';
    });
    const p = cache.fetchQuery(['x'], fetcher);
    await vi.advanceTimersByTimeAsync(4_999);
    expect(fetcher).toHaveBeenCalledTimes(1); // it waits as long as the server asked
    await vi.advanceTimersByTimeAsync(1);
    await expect(p).resolves.toBe('ok');
    expect(fetcher).toHaveBeenCalledTimes(2);
  });

  test('D14 data stays fresh for 60 seconds', async () => {
    vi.useFakeTimers();
    const cache = createQueryCache();
    await cache.fetchQuery(['x'], async () => 1);
    expect(QUERY_FRESH_MS).toBe(60_000);
    await vi.advanceTimersByTimeAsync(59_000);
    expect(cache.isStale(['x'])).toBe(false);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(cache.isStale(['x'])).toBe(true);
  });

  test('concurrent fetches of one key share one request', async () => {
    const cache = createQueryCache();
    const fetcher = vi.fn(async () => 'v');
    await Promise.all([cache.fetchQuery(['k'], fetcher), cache.fetchQuery(['k'], fetcher), cache.fetchQuery(['k'], fetcher)]);
    expect(fetcher).toHaveBeenCalledTimes(1);
  });

  test('D14 after a token refresh, observed queries that are not fetching refetch once; unobserved ones go stale', async () => {
    const cache = createQueryCache();
    const stop = cache.listen(window);
    const watched = vi.fn(async () => 'w');
    const unwatched = vi.fn(async () => 'u');
    await cache.fetchQuery(['watched'], watched);
    await cache.fetchQuery(['unwatched'], unwatched);
    const unsub = cache.subscribe(['watched'], () => undefined);
    window.dispatchEvent(new Event(TOKENS_REFRESHED_EVENT));
    await Promise.resolve();
    expect(watched).toHaveBeenCalledTimes(2);
    expect(unwatched).toHaveBeenCalledTimes(1);
    expect(cache.isStale(['unwatched'])).toBe(true);
    unsub();
    stop();
  });

  test("clearing the session empties the cache, so the next account never sees the last one's data", async () => {
    const cache = createQueryCache();
    const stop = cache.listen(window);
    await cache.fetchQuery(['customers'], async () => ['Ann']);
    window.dispatchEvent(new Event(SESSION_CLEARED_EVENT));
    expect(cache.snapshot(['customers']).data).toBeUndefined();
    expect(cache.isStale(['customers'])).toBe(true);
    stop();
  });

  test('D14 a query already fetching is not refetched after a token refresh', async () => {
    const cache = createQueryCache();
    let release!: (v: string) => void;
    const fetcher = vi.fn(() => new Promise<string>((r) => (release = r)));
    const unsub = cache.subscribe(['k'], () => undefined);
    const p = cache.fetchQuery(['k'], fetcher);
    cache.refetchIdle();
    release('x');
    await p;
    expect(fetcher).toHaveBeenCalledTimes(1);
    unsub();
  });

  test('an unobserved entry is dropped after QUERY_GC_MS; an observed one is kept', async () => {
    vi.useFakeTimers();
    const cache = createQueryCache();
    await cache.fetchQuery(['gone'], async () => 1);
    await cache.fetchQuery(['kept'], async () => 2);
    const unsub = cache.subscribe(['kept'], () => undefined);
    await vi.advanceTimersByTimeAsync(QUERY_GC_MS);
    expect(cache.snapshot(['gone']).status).toBe('pending');
    expect(cache.snapshot(['kept']).data).toBe(2);
    unsub();
  });
});

describe('STYLE array keys and prefix invalidation', () => {
  test('STYLE a key is its contents: a new array, or an object with its properties in another order, is the same key', () => {
    expect(hashKey(['customers', 1, 'list', { q: 'a', page: 2 }])).toBe(hashKey(['customers', 1, 'list', { page: 2, q: 'a' }]));
    expect(hashKey(['customers', 1, 'list', { q: 'a', page: undefined }])).toBe(hashKey(['customers', 1, 'list', { q: 'a' }]));
    expect(hashKey(['customers', 1])).not.toBe(hashKey(['customers', 2]));
    expect(hashKey(['customers', 1])).not.toBe(hashKey(['customers', '1']));
  });

  test('STYLE prefixes match whole elements from the start', () => {
    const key = ['customers', 1, 'list', { q: 'a' }];
    expect(startsWith(key, ['customers', 1])).toBe(true);
    expect(startsWith(key, ['customers'])).toBe(true);
    expect(startsWith(key, [])).toBe(true);
    expect(startsWith(key, ['customers', 11])).toBe(false);
    expect(startsWith(key, ['customers', 1, 'detail'])).toBe(false);
    expect(startsWith(['customers'], ['customers', 1])).toBe(false);
  });

  test('STYLE invalidating a prefix makes every key under it stale and refetches the observed ones only', async () => {
    const cache = createQueryCache();
    const list = vi.fn(async () => 'list');
    const detail = vi.fn(async () => 'detail');
    const other = vi.fn(async () => 'other org');
    await cache.fetchQuery(['customers', 1, 'list', { page: 1 }], list);
    await cache.fetchQuery(['customers', 1, 'detail', 7], detail);
    await cache.fetchQuery(['customers', 2, 'list', { page: 1 }], other);
    const unsub = cache.subscribe(['customers', 1, 'list', { page: 1 }], () => undefined);
    cache.invalidate(['customers', 1]);
    await Promise.resolve();
    expect(list).toHaveBeenCalledTimes(2); // on screen: fetched again
    expect(detail).toHaveBeenCalledTimes(1); // not on screen: stale, fetched when next shown
    expect(cache.isStale(['customers', 1, 'detail', 7])).toBe(true);
    expect(cache.isStale(['customers', 2, 'list', { page: 1 }])).toBe(false); // D21: another organization's
    expect(other).toHaveBeenCalledTimes(1);
    unsub();
  });

  test('STYLE a write while a key is being fetched: the answer asked before it is kept as stale, and the observed key is fetched again', async () => {
    const cache = createQueryCache();
    const answers: ((v: string) => void)[] = [];
    const timeline = vi.fn(() => new Promise<string>((resolve) => answers.push(resolve)));
    const key = ['customers', 1, 'detail', 7, 'timeline'];
    const unsub = cache.subscribe(key, () => undefined);
    const first = cache.fetchQuery(key, timeline); // asked before the write
    cache.invalidate(['customers', 1]); // the write's answer came first
    answers[0]!('before the write');
    expect(await first).toBe('before the write');
    await vi.waitFor(() => expect(timeline).toHaveBeenCalledTimes(2), { interval: 1 });
    expect(cache.snapshot(key).data).toBe('before the write'); // shown meanwhile, but stale
    expect(cache.isStale(key)).toBe(true);
    answers[1]!('after the write');
    await vi.waitFor(() => expect(cache.snapshot(key).data).toBe('after the write'), { interval: 1 });
    expect(cache.isStale(key)).toBe(false);
    expect(timeline).toHaveBeenCalledTimes(2); // once again, not again and again
    unsub();
  });

  test('STYLE a write while an unobserved key is being fetched (a prefetch): its answer is stale, fetched when next shown', async () => {
    const cache = createQueryCache();
    let answer: (v: string) => void = () => undefined;
    const detail = vi.fn(() => new Promise<string>((resolve) => (answer = resolve)));
    const key = ['customers', 1, 'detail', 7];
    const prefetch = cache.fetchQuery(key, detail);
    cache.invalidate(['customers', 1]);
    answer('before the write');
    await prefetch;
    await Promise.resolve();
    expect(detail).toHaveBeenCalledTimes(1);
    expect(cache.isStale(key)).toBe(true);
  });
});

describe('the clean-up timer and clear()', () => {
  function Name({ fetcher }: { fetcher: () => Promise<string> }) {
    const q = useQuery({ key: ['customers', 1, 'detail', 7], fetch: fetcher });
    return <p>{q.status === 'success' ? q.data : q.status}</p>;
  }
  const show = (cache: QueryCache, fetcher: () => Promise<string>) =>
    render(
      <QueryProvider cache={cache}>
        <Name fetcher={fetcher} />
      </QueryProvider>,
    );

  test('D14 signing out and back into the same organization within QUERY_GC_MS: the old timer never empties the shown query', async () => {
    vi.useFakeTimers();
    const cache = createQueryCache();
    const stop = cache.listen(window);
    const fetcher = vi.fn(async () => 'Ann Patel');
    const first = show(cache, fetcher);
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(screen.getByText('Ann Patel')).toBeTruthy();
    first.unmount(); // logout leaves the page: a clean-up timer starts
    act(() => void window.dispatchEvent(new Event(SESSION_CLEARED_EVENT)));
    await act(() => vi.advanceTimersByTimeAsync(60_000)); // back in a minute later, same organization
    const second = show(cache, fetcher);
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(screen.getByText('Ann Patel')).toBeTruthy();
    expect(fetcher).toHaveBeenCalledTimes(2);
    await act(() => vi.advanceTimersByTimeAsync(QUERY_GC_MS)); // the first timer's time has come and gone
    second.rerender(
      <QueryProvider cache={cache}>
        <Name fetcher={fetcher} />
      </QueryProvider>,
    );
    expect(screen.getByText('Ann Patel')).toBeTruthy(); // still success with its data, not pending
    expect(cache.snapshot(['customers', 1, 'detail', 7]).status).toBe('success');
    stop();
  });

  test('D14 the same at the cache level: a new entry for the key outlives the cleared entry’s timer', async () => {
    vi.useFakeTimers();
    const cache = createQueryCache();
    const key = ['customers', 1, 'list', {}];
    await cache.fetchQuery(key, async () => 'old');
    cache.subscribe(key, () => undefined)(); // observed, then left: timer set
    cache.clear();
    await vi.advanceTimersByTimeAsync(1_000);
    const unsub = cache.subscribe(key, () => undefined);
    await cache.fetchQuery(key, async () => 'new');
    await vi.advanceTimersByTimeAsync(QUERY_GC_MS);
    expect(cache.snapshot(key)).toMatchObject({ status: 'success', data: 'new' });
    unsub();
  });

  test('leaving a query after clear() sets no timer on the cleared entry that could reach a new one', async () => {
    vi.useFakeTimers();
    const cache = createQueryCache();
    const key = ['k'];
    const unsubOld = cache.subscribe(key, () => undefined);
    await cache.fetchQuery(key, async () => 'old');
    cache.clear(); // still on screen while the session is cleared
    unsubOld();
    await vi.advanceTimersByTimeAsync(60_000);
    const unsub = cache.subscribe(key, () => undefined);
    await cache.fetchQuery(key, async () => 'new');
    unsub();
    await vi.advanceTimersByTimeAsync(QUERY_GC_MS - 60_000);
    expect(cache.snapshot(key).data).toBe('new'); // only the new entry's own timer counts
  });
});

describe('useQuery and useMutation', () => {
  function Customers({ fetcher }: { fetcher: () => Promise<string[]> }) {
    const q = useQuery({ key: ['customers'], fetch: fetcher });
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

  /** A button named by a mutation's status that runs it. */
  const MutationButton = ({ status, run }: { status: string; run: () => void }) => (
    <button type="button" onClick={run}>
      {status}
    </button>
  );

  /** The customers list (['Ann']) beside `Add`'s mutation button, pressed once the list shows: the list's fetcher. */
  async function pressBesideList(Add: () => ReactElement) {
    const list = vi.fn(async () => ['Ann']);
    render(
      <QueryProvider cache={createQueryCache()}>
        <Customers fetcher={list} />
        <Add />
      </QueryProvider>,
    );
    await screen.findByText('Ann');
    await act(async () => screen.getByRole('button', { name: 'idle' }).click());
    return list;
  }

  test('STYLE useMutation reports its state and invalidates the keys it names', async () => {
    function Add() {
      const m = useMutation({ run: async (name: string) => name, invalidates: [['customers']] });
      return <MutationButton status={m.status} run={() => void m.mutate('Cy')} />;
    }
    const list = await pressBesideList(Add);
    expect(screen.getByRole('button', { name: 'success' })).toBeTruthy();
    expect(list).toHaveBeenCalledTimes(2);
  });

  test('STYLE a failed mutation invalidates nothing and reports its error', async () => {
    let result: unknown;
    function Add() {
      const m = useMutation({
        run: async () => {
          throw new HttpError(409, { code: 'duplicate_email' }, '/x');
        },
        invalidates: [['customers']],
      });
      result = m.error;
      return <MutationButton status={m.status} run={() => void m.mutate(undefined).catch(() => undefined)} />;
    }
    const list = await pressBesideList(Add);
    expect(screen.getByRole('button', { name: 'error' })).toBeTruthy();
    expect((result as HttpError).code).toBe('duplicate_email');
    expect(list).toHaveBeenCalledTimes(1);
  });

  test('D26 keepPrevious: the previous page stays on screen, marked previous, while the next one loads', async () => {
    const cache = createQueryCache();
    const gates: Record<number, (v: string) => void> = {};
    function List({ page }: { page: number }) {
      const q = useQuery({ key: ['list', { page }], fetch: () => new Promise<string>((r) => (gates[page] = r)) }, { keepPrevious: true });
      return <p>{q.data === undefined ? 'loading' : `${q.data}${q.previous ? ' (previous)' : ''}`}</p>;
    }
    const view = (page: number) => (
      <QueryProvider cache={cache}>
        <List page={page} />
      </QueryProvider>
    );
    const { rerender } = render(view(1));
    expect(screen.getByText('loading')).toBeTruthy();
    await act(async () => gates[1]!('page 1'));
    expect(screen.getByText('page 1')).toBeTruthy();
    rerender(view(2));
    expect(screen.getByText('page 1 (previous)')).toBeTruthy();
    await act(async () => gates[2]!('page 2'));
    expect(screen.getByText('page 2')).toBeTruthy();
  });

  test('without keepPrevious a new key shows its own loading state', async () => {
    const cache = createQueryCache();
    function List({ page }: { page: number }) {
      const q = useQuery({ key: ['list', { page }], fetch: () => (page === 1 ? Promise.resolve('page 1') : new Promise<string>(() => undefined)) });
      return <p>{q.data ?? 'loading'}</p>;
    }
    const view = (page: number) => (
      <QueryProvider cache={cache}>
        <List page={page} />
      </QueryProvider>
    );
    const { rerender } = render(view(1));
    expect(await screen.findByText('page 1')).toBeTruthy();
    rerender(view(2));
    expect(screen.getByText('loading')).toBeTruthy();
  });
});
