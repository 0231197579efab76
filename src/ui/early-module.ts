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

/** A lazily loaded part that can be asked to load before it is shown (lazyPart). */
export type Part<P> = LazyExoticComponent<ComponentType<P>> & { preload(): void };

/**
 * A part shown on a person's action (a dialog, a confirmation), a chunk of its own: once its code has
 * arrived (`preload`, usePreloadWhenIdle) it renders in the commit that asks for it (ui/preloaded.ts). React
 * keeps a Suspense fallback it has shown for 300 ms before revealing what replaces it, so a dialog whose
 * code was fetched on its first open appeared 300 ms after the click however fast the network. A preload
 * that fails leaves nothing behind: the part's first showing asks for its code again.
 */
export function lazyPart<P extends object = object>(importer: () => Promise<{ default: ComponentType<P> }>): Part<P>;
export function lazyPart<M, P extends object = object>(importer: () => Promise<M>, pick: (m: M) => ComponentType<P>): Part<P>;
export function lazyPart<M, P extends object = object>(importer: () => Promise<M>, pick = (m: M) => (m as { default: ComponentType<P> }).default): Part<P> {
  let started = false;
  const preload = () => {
    if (started || navigator.onLine === false) return; // offline: the part's first showing asks for it
    started = true;
    keep(importer).catch(() => {
      started = false;
    });
  };
  return Object.assign(lazyLoaded(importer, pick), { preload });
}

/**
 * Loads `parts`' code once the browser is idle after the page has drawn, while `when` (the person may open
 * them: a viewer's page never asks for the dialogs it does not offer). `parts` is a module's constant.
 */
export function usePreloadWhenIdle(when: boolean, parts: readonly { preload(): void }[]): void {
  useEffect(() => {
    if (!when) return;
    whenIdle(() => {
      for (const part of parts) part.preload();
    });
  }, [when, parts]);
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
