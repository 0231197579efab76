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

/**
 * D42: each entry this app makes carries its place in the tab's history (`idx`), so Back and Forward
 * know how far they went and the unsaved-changes question can put the address back until it is answered.
 */
let index = 0;
const entryIndex = (state: unknown): number | null => {
  const idx = (state as { idx?: unknown } | null)?.idx;
  return typeof idx === 'number' ? idx : null;
};
/** The next popstate is our own putting back of the address: the screen already shows it. */
let puttingBack = false;

function onPopState(e: PopStateEvent): void {
  const to = entryIndex(e.state);
  if (puttingBack) {
    puttingBack = false;
    if (to !== null) index = to;
    return;
  }
  const delta = to === null ? 0 : to - index;
  // D42: a form with unsaved changes asks first; the address goes back to the form meanwhile, and
  // leaving goes the same way again (the blocker then lets it through).
  if (delta !== 0 && blocker?.(() => window.history.go(delta))) {
    puttingBack = true;
    window.history.go(-delta);
    return;
  }
  if (to !== null) index = to;
  sync();
}

if (typeof window !== 'undefined') {
  const known = entryIndex(window.history.state);
  if (known === null) window.history.replaceState({ ...(window.history.state as object | null), idx: 0 }, '');
  else index = known; // a reload keeps its place
  window.addEventListener('popstate', onPopState);
}

export interface NavigateOptions {
  replace?: boolean;
}

/** Asked before navigate(), Back or Forward change the URL; true stops it, and `retry` carries it out later. */
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
  if (to !== current) {
    if (!replace) index += 1;
    window.history[replace ? 'replaceState' : 'pushState']({ idx: index }, '', to);
  }
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
