// D14: the signal every api/ fetcher passes to the HTTP client is aborted once nobody watches the key.
import { act, render, screen } from '@testing-library/react';
import { StrictMode } from 'react';
import { describe, expect, test, vi } from 'vitest';
import { AbortError } from '../../src/http/errors';
import { createQueryCache } from '../../src/query/cache';
import { QueryProvider, useQuery } from '../../src/query/use-query';

/** A fetcher that never answers on its own and, like the HTTP client, rejects once its signal aborts. */
function pending() {
  const signals: AbortSignal[] = [];
  const resolvers: ((v: string) => void)[] = [];
  const fetch = vi.fn(
    (signal: AbortSignal) =>
      new Promise<string>((resolve, reject) => {
        signals.push(signal);
        resolvers.push(resolve);
        signal.addEventListener('abort', () => reject(new AbortError('/x', 'aborted')));
      }),
  );
  return { fetch, signals, resolvers };
}

const settle = () => act(async () => undefined);

describe('D14 a query nobody watches is aborted', () => {
  test('D14 the last watcher leaving aborts the fetch; the entry is not an error and the next watcher fetches afresh', async () => {
    const cache = createQueryCache();
    const f = pending();
    const leave = cache.subscribe(['x'], () => undefined);
    const first = cache.fetchQuery(['x'], f.fetch).catch((e: unknown) => e);
    leave();
    await settle();
    expect(f.signals[0]!.aborted).toBe(true);
    expect(await first).toBeInstanceOf(AbortError);
    expect(cache.snapshot(['x'])).toMatchObject({ status: 'pending', fetching: false, error: null });
    const back = cache.subscribe(['x'], () => undefined);
    const second = cache.fetchQuery(['x'], f.fetch);
    expect(f.fetch).toHaveBeenCalledTimes(2);
    f.resolvers[1]!('fresh');
    await expect(second).resolves.toBe('fresh');
    expect(f.signals[1]!.aborted).toBe(false);
    expect(cache.snapshot(['x'])).toMatchObject({ status: 'success', data: 'fresh', fetching: false });
    back();
  });

  test('D14 a watcher that leaves and comes straight back keeps its fetch, and so does a prefetch nobody watched yet', async () => {
    const cache = createQueryCache();
    const f = pending();
    const prefetch = cache.fetchQuery(['pre'], f.fetch);
    const leave = cache.subscribe(['x'], () => undefined);
    const p = cache.fetchQuery(['x'], f.fetch);
    leave();
    const back = cache.subscribe(['x'], () => undefined);
    await settle();
    expect(f.signals.map((s) => s.aborted)).toEqual([false, false]);
    f.resolvers[0]!('pre');
    f.resolvers[1]!('x');
    await expect(prefetch).resolves.toBe('pre');
    await expect(p).resolves.toBe('x');
    back();
  });

  test('D14 useQuery: typing on aborts the previous key’s fetch, not the new one; leaving the page aborts that too', async () => {
    const cache = createQueryCache();
    const f = pending();
    function Search({ q }: { q: string }) {
      const r = useQuery({ key: ['search', q], fetch: f.fetch });
      return <p>{r.data ?? 'loading'}</p>;
    }
    const view = (q: string) => (
      <StrictMode>
        <QueryProvider cache={cache}>
          <Search q={q} />
        </QueryProvider>
      </StrictMode>
    );
    const { rerender, unmount } = render(view('a'));
    await settle();
    expect(f.signals.map((s) => s.aborted)).toEqual([false]); // StrictMode's re-subscribe keeps it
    rerender(view('ab'));
    await settle();
    expect(f.signals.map((s) => s.aborted)).toEqual([true, false]);
    await act(async () => f.resolvers[1]!('found ab'));
    expect(screen.getByText('found ab')).toBeTruthy();
    rerender(view('abc'));
    await settle();
    unmount();
    await settle();
    expect(f.signals.map((s) => s.aborted)).toEqual([true, false, true]);
    expect(cache.snapshot(['search', 'ab']).data).toBe('found ab');
  });
});
