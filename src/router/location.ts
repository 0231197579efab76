// The URL is a store (STYLE, after wouter): one navigate() owns every change and tells subscribers.
import { useSyncExternalStore } from 'react';
import { createStore } from '../lib/store';

export interface Location {
  pathname: string;
  search: string;
  hash: string;
}

const read = (): Location => ({ pathname: window.location.pathname, search: window.location.search, hash: window.location.hash });
const same = (a: Location, b: Location) => a.pathname === b.pathname && a.search === b.search && a.hash === b.hash;

export const location = createStore<Location>(read());

function sync(): void {
  const next = read();
  if (!same(next, location.getState())) location.setState(next);
}

if (typeof window !== 'undefined') window.addEventListener('popstate', sync);

export interface NavigateOptions {
  replace?: boolean;
}

/** Asked before navigate() changes the URL; true stops it, and `retry` carries it out later. */
export type NavigationBlocker = (retry: () => void) => boolean;
let blocker: NavigationBlocker | null = null;

/** A form with unsaved changes asks first (D15 dialog); returns what ends the blocking. One at a time. */
export function blockNavigation(fn: NavigationBlocker): () => void {
  blocker = fn;
  return () => {
    if (blocker === fn) blocker = null;
  };
}

/** Changes the URL through the History API and notifies subscribers. */
export function navigate(to: string, { replace = false }: NavigateOptions = {}): void {
  const current = window.location.pathname + window.location.search + window.location.hash;
  if (to !== current && blocker?.(() => navigate(to, { replace }))) return;
  if (to !== current) window.history[replace ? 'replaceState' : 'pushState'](null, '', to);
  sync();
}

/** The current path with query and hash, as stored for post-login redirects. */
export function currentPath(): string {
  return window.location.pathname + window.location.search + window.location.hash;
}

/** A full page load (organization switch, cross-tab changes); a seam for tests. */
export const page = {
  reload: (): void => window.location.reload(),
  assign: (to: string): void => window.location.assign(to),
};

export function useLocation(): Location {
  return useSyncExternalStore(location.subscribe, location.getState, location.getState);
}
