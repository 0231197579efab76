// SPEC §9 Toasts: top-right, auto-close after 5000 ms, Alt+T focuses them. D15: a polite live region.
// The store is module-level and React-free so any layer (session, pages) can call toast.error().
import { useEffect, useLayoutEffect, useRef, useState, useSyncExternalStore, type ReactNode } from 'react';
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

const isFocusHotkey = (e: KeyboardEvent) => e.altKey && !e.ctrlKey && !e.metaKey && (e.code === 'KeyT' || e.key.toLowerCase() === 't');

function ToastItem({ item, paused }: { item: Toast; paused: boolean }) {
  const remaining = useRef(TOAST_LIFETIME_MS);
  useEffect(() => {
    if (paused) return;
    const started = Date.now();
    const timer = setTimeout(() => dismissToast(item.id), remaining.current);
    return () => {
      clearTimeout(timer);
      remaining.current = Math.max(0, remaining.current - (Date.now() - started));
    };
  }, [paused, item.id]);
  // D15: a toast that goes while the focus is in it (its Undo pressed, dismissed) hands the focus to the
  // region around it, instead of losing it to the page's top.
  const li = useRef<HTMLLIElement>(null);
  useLayoutEffect(() => {
    const node = li.current;
    return () => {
      if (node?.contains(document.activeElement)) node.closest<HTMLElement>('.toaster')?.focus();
    };
  }, []);
  return (
    <li ref={li} className="toast" data-kind={item.kind}>
      <p className="toast-message">{item.message}</p>
      <button type="button" className="toast-close" aria-label="Dismiss notification" onClick={() => dismissToast(item.id)}>
        ×
      </button>
    </li>
  );
}

/** The toast region: mount once, near the root. */
export function Toaster() {
  const list = useSyncExternalStore(toasts.subscribe, toasts.getState, toasts.getState);
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const region = useRef<HTMLElement>(null);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!isFocusHotkey(e)) return;
      e.preventDefault();
      region.current?.focus();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  return (
    <section
      ref={region}
      className="toaster"
      aria-label="Notifications (Alt+T)"
      tabIndex={-1}
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
      onFocus={() => setFocused(true)}
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setFocused(false);
      }}
    >
      <ol aria-live="polite">
        {list.map((t) => (
          <ToastItem key={t.id} item={t} paused={hovered || focused} />
        ))}
      </ol>
    </section>
  );
}
