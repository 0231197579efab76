// Code once it has loaded, for React.lazy to render at once. A lazy component whose import() has not
// resolved in the very render shows its fallback, and React keeps a fallback it has shown for up to
// 300 ms before revealing what replaces it: on a reload the shell and the page would wait that long after
// the session's answer though their code had loaded beside it (app/App.tsx preloadScreen), and a dialog
// on its first open (ui/early-module.ts lazyPart).
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

type Load = () => Promise<unknown>;
const loaded = new Map<Load, unknown>();

/** Runs `load` and keeps what it loaded for lazyLoaded. */
export function keep<M>(load: () => Promise<M>): Promise<M> {
  return load().then((m) => (loaded.set(load, m), m));
}

/** React.lazy of `pick(await load())`, rendered with no fallback when `load` has loaded already (keep). */
export function lazyLoaded<M, P extends object = object>(load: () => Promise<M>, pick: (m: M) => ComponentType<P>): LazyExoticComponent<ComponentType<P>> {
  return lazy(() => {
    if (!loaded.has(load)) return keep(load).then((m) => ({ default: pick(m) }));
    const module = { default: pick(loaded.get(load) as M) };
    // A thenable that answers at once: React.lazy then has the component within this render.
    // biome-ignore lint/suspicious/noThenProperty: a thenable is what React.lazy reads
    return { then: (done: (m: typeof module) => void) => done(module) } as unknown as Promise<typeof module>;
  });
}
