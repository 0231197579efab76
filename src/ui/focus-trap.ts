// D15: the drawer and dialogs trap focus while open and return it when closed; Escape closes them.
import { useEffect, useLayoutEffect, useRef, type RefObject } from 'react';

const FOCUSABLE =
  'a[href],button:not([disabled]),input:not([disabled]):not([type="hidden"]),select:not([disabled]),textarea:not([disabled]),[tabindex]:not([tabindex="-1"])';

export function focusables(root: HTMLElement): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => !el.closest('[inert],[hidden]'));
}

/**
 * While `active`: moves focus into `ref` (its `[data-autofocus]` element, else the first focusable),
 * keeps Tab and Shift+Tab inside, and calls `onEscape` on Escape. When it ends, focus goes back to
 * `returnTo` (or to whatever had focus before).
 */
/** The active traps, the newest last: only it answers Tab and Escape (a dialog over the drawer or over another dialog). */
const open: object[] = [];

export function useFocusTrap(ref: RefObject<HTMLElement | null>, active: boolean, onEscape: () => void, returnTo?: RefObject<HTMLElement | null>): void {
  const escape = useRef(onEscape);
  escape.current = onEscape;

  const previous = useRef<HTMLElement | null>(null);
  const giveBack = useRef(() => {});
  giveBack.current = () => (returnTo?.current ?? previous.current)?.focus();

  // Layout effects: the focus is inside in the commit that shows the dialog (no keystroke lands behind
  // it), and back where it was in the commit that removes it, before a dialog shown in its place (the
  // invitation's link after its form) looks where the focus was.
  useLayoutEffect(() => {
    const root = ref.current;
    if (!active || !root) return;
    previous.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    (root.querySelector<HTMLElement>('[data-autofocus]') ?? focusables(root)[0] ?? root).focus();
    const me = {};
    open.push(me);

    const onKey = (e: KeyboardEvent) => {
      if (open[open.length - 1] !== me) return; // a trap opened over this one has the keys
      if (e.key === 'Escape') {
        e.preventDefault();
        e.stopPropagation();
        escape.current();
        return;
      }
      if (e.key !== 'Tab') return;
      const items = focusables(root);
      const head = items[0];
      const tail = items[items.length - 1];
      if (!head || !tail) return e.preventDefault();
      const current = document.activeElement;
      if (e.shiftKey && (current === head || !root.contains(current))) {
        e.preventDefault();
        tail.focus();
      } else if (!e.shiftKey && (current === tail || !root.contains(current))) {
        e.preventDefault();
        head.focus();
      }
    };
    document.addEventListener('keydown', onKey, true);
    return () => {
      document.removeEventListener('keydown', onKey, true);
      open.splice(open.indexOf(me), 1);
      giveBack.current();
    };
  }, [active, ref]);

  // A trap that ends without leaving the page (the drawer closing): React gives the focus back to what had
  // it before the commit (the drawer's button, still there) after the cleanup above, so it goes back again
  // once the commit is done.
  const wasActive = useRef(false);
  useEffect(() => {
    if (active) wasActive.current = true;
    else if (wasActive.current) {
      wasActive.current = false;
      giveBack.current();
    }
  }, [active]);
}
