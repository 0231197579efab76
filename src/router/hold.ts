// D41: a form whose save was refused with 403 permission_denied keeps the person on it, with its message
// and their typing, though the permission is gone: it holds its path (the HOLD_PAGE_EVENT window event,
// so the form's chunk need not import this one), and RequirePermission lets that path stay until the
// form goes. Any other path is checked as always (D9).
import { useSyncExternalStore } from 'react';
import { createStore } from '../lib/store';

/** `detail`: the path to hold, or null to let it go. */
export const HOLD_PAGE_EVENT = 'app:hold-page';

const held = createStore<string | null>(null);
if (typeof window !== 'undefined') {
  window.addEventListener(HOLD_PAGE_EVENT, (e) => held.setState((e as CustomEvent<string | null>).detail ?? null));
}

/** The path a form holds, or null. */
export function useHeldPath(): string | null {
  return useSyncExternalStore(held.subscribe, held.getState, held.getState);
}
