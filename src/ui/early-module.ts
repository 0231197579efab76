// A page's part whose code is a chunk of its own (each page ≤ 10 KB gzip) but is needed soon: its import
// starts when the page's module loads, in parallel with the page's data call, so no request waits for
// another and the part usually renders at once. A failed load may be asked for again (Retry).
// A part shown only on a person's action (a dialog) loads once the browser is idle instead (lazyPart).
import { useEffect, useState, type ComponentType, type LazyExoticComponent } from 'react';
import { whenIdle } from '../lib/idle';
import { keep, lazyLoaded } from './preloaded';

export interface EarlyModule<M> {
  load: () => Promise<M>;
  /** The module once it has arrived, else null. */
  loaded: () => M | null;
}

/** Starts importing now; loads once at a time. */
export function earlyModule<M>(importer: () => Promise<M>): EarlyModule<M> {
  let loaded: M | null = null;
  let loading: Promise<M> | null = null;
  const load = (): Promise<M> =>
    (loading ??= importer().then(
      (m) => (loaded = m),
      (error: unknown) => {
        loading = null;
        throw error;
      },
    ));
  void load().catch(() => undefined);
  return { load, loaded: () => loaded };
}

/**
 * A part shown on a person's action (a dialog, a confirmation): its code loads once the browser is idle
 * after the page, and from then on it renders in the commit that asks for it (ui/preloaded.ts). React keeps
 * a Suspense fallback it has shown for 300 ms before revealing what replaces it, so a dialog whose code was
 * fetched on its first open appeared 300 ms after the click however fast the network.
 */
export function lazyPart<M, P extends object = object>(importer: () => Promise<M>, pick: (m: M) => ComponentType<P>): LazyExoticComponent<ComponentType<P>> {
  whenIdle(() => void keep(importer).catch(() => undefined));
  return lazyLoaded(importer, pick);
}

/** The module when here; else `error` (a failed load, until `retry`) or neither while it comes. */
export function useEarlyModule<M>(early: EarlyModule<M>): { mod: M | null; error: unknown; retry: () => void } {
  const [mod, setMod] = useState(early.loaded);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    if (mod || error) return undefined;
    let live = true;
    early.load().then(
      (m) => live && setMod(() => m),
      (e: unknown) => live && setError(e ?? new Error('load failed')),
    );
    return () => void (live = false);
  }, [early, mod, error]);
  return { mod, error, retry: () => setError(null) };
}
