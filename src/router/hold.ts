// D41: a form whose save was refused with 403 permission_denied keeps the person on it, with its message
// and their typing, though the permission is gone: it holds its path, and RequirePermission lets that
// path stay until the form goes. Any other path is checked as always (D9).
import { useSyncExternalStore } from 'react';
import { createStore } from '../lib/store';

const held = createStore<string | null>(null);

/** Holds the current path; returns what lets it go (the form leaving). */
export function holdPage(path = window.location.pathname): () => void {
  held.setState(path);
  return () => {
    if (held.getState() === path) held.setState(null);
  };
}

/** The path a form holds, or null. */
export function useHeldPath(): string | null {
  return useSyncExternalStore(held.subscribe, held.getState, held.getState);
}
