// SPEC §9 Toasts: top-right, auto-close after 5000 ms, Alt+T focuses them. D15: a polite live region.
// The store is module-level and React-free so any layer (session, pages) can call toast.error(); the
// region that shows them is toaster.tsx (app/App.tsx renders it).
import type { ReactNode } from 'react';
import { createStore } from '../lib/store';

/** SPEC §9: a toast closes by itself after this long (paused while hovered or focused). */
export const TOAST_LIFETIME_MS = 5_000;
/** At most this many toasts are shown; the oldest goes first. */
export const MAX_TOASTS = 4;

export type ToastKind = 'error' | 'success' | 'info';
export interface Toast {
  id: number;
  kind: ToastKind;
  /** Usually text; D25: may hold a real button too (an Undo), reached with Tab after Alt+T. */
  message: ReactNode;
}

export const toasts = createStore<readonly Toast[]>([]);
let nextId = 1;

function push(kind: ToastKind, message: ReactNode): number {
  // The same message twice in a row (a double click, two failing calls) shows once.
  const same = toasts.getState().find((t) => t.kind === kind && t.message === message);
  if (same) return same.id;
  const id = nextId++;
  toasts.setState((list) => [...list, { id, kind, message }].slice(-MAX_TOASTS));
  return id;
}

export function dismissToast(id: number): void {
  toasts.setState((list) => list.filter((t) => t.id !== id));
}

/** Shows a toast from anywhere: `toast.error('…')`. Returns its id. */
export const toast = {
  error: (message: ReactNode) => push('error', message),
  success: (message: ReactNode) => push('success', message),
  info: (message: ReactNode) => push('info', message),
};
