// D15: RouteFocus's work after a route change (route-focus.tsx), loaded the first time the route
// changes: the login form, a first screen, never needs it.

/** How long after a route change a page still loading (its chunk, its data) may take the focus. */
export const ROUTE_FOCUS_WINDOW_MS = 10_000;

/** Shown: not in content React hid (display: none) while another screen loads. */
const shown = (el: Element | null): el is HTMLElement => el instanceof HTMLElement && el.isConnected && el.getClientRects().length > 0;

/**
 * Puts the focus on the new page's h1 once it is shown and says the document title in `region`;
 * `from` had the focus when the route changed. Returns what stops it (a route change, unmount).
 */
export function focusPage(from: Element | null, region: { current: HTMLElement | null }): () => void {
  let placed: HTMLElement | null = null;
  const place = () => {
    if (document.querySelector('[aria-modal="true"]')) return; // a dialog holds the focus
    const active = document.activeElement;
    // The page (or the person) put the focus somewhere on purpose: leave it there.
    if (shown(active) && active !== from && active !== placed && active !== document.body) return stop();
    const h1 = [...document.querySelectorAll('h1')].find(shown);
    if (!h1 || h1 === active) return;
    h1.tabIndex = -1;
    h1.focus();
    placed = h1;
    const said = region.current;
    // The same title twice (one customer's page after another's) is still a change to announce.
    if (said) said.textContent = said.textContent === document.title ? document.title + '\u00a0' : document.title;
  };
  const observer = new MutationObserver(place);
  const timer = setTimeout(() => stop(), ROUTE_FOCUS_WINDOW_MS);
  function stop() {
    observer.disconnect();
    clearTimeout(timer);
    window.removeEventListener('keydown', stop, true);
    window.removeEventListener('pointerdown', stop, true);
  }
  // Once the person acts, the focus is theirs.
  window.addEventListener('keydown', stop, true);
  window.addEventListener('pointerdown', stop, true);
  observer.observe(document.body, { childList: true, subtree: true });
  place();
  return stop;
}
