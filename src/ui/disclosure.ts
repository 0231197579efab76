// D15: the list's small menus are native <details> (keyboard and screen readers know them). Escape closes
// an open one and puts focus back on its summary, as a menu's Escape does; `closeDisclosure` closes the one
// an element is in, once what it was opened for is done.
import type { KeyboardEvent } from 'react';

/** Closes the disclosure `inside` is in (itself or a descendant), focus back on its summary. */
export function closeDisclosure(inside: Element | null): void {
  const details = inside?.closest('details');
  if (!details?.open) return;
  details.open = false;
  details.querySelector('summary')?.focus();
}

/** onKeyDown of a <details>: Escape closes it (and goes no further, so a dialog under it stays open). */
export function escapeCloses(e: KeyboardEvent<HTMLDetailsElement>): void {
  if (e.key !== 'Escape' || !e.currentTarget.open) return;
  e.stopPropagation();
  closeDisclosure(e.currentTarget);
}
