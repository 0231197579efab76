// SPEC §9 the toast region (the store and toast() are in toast.tsx). D15: a polite live region, Alt+T
// focuses it. app/App.tsx renders it.
import { useEffect, useLayoutEffect, useRef, useState, useSyncExternalStore } from 'react';
import { dismissToast, TOAST_LIFETIME_MS, type Toast, toasts } from './toast';

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
  // D15: the live region is in the page before anything is put in it (a toast raised while its code
  // loaded waits one render), so a screen reader announces the first toast too.
  const [live, setLive] = useState(false);
  useEffect(() => setLive(true), []);

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
        {(live ? list : []).map((t) => (
          <ToastItem key={t.id} item={t} paused={hovered || focused} />
        ))}
      </ol>
    </section>
  );
}
