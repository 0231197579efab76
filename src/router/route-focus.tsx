// D15: after a route change the new page's heading (h1) takes the focus, so a keyboard user starts
// at the top of what changed, and the new document title is said in a polite live region. It is in
// the first bundle (mounted by App): keep it tiny.
import { useEffect, useLayoutEffect, useRef } from 'react';
import { useLocation } from './location';

export const APP_NAME = 'CRM';
export const documentTitle = (title: string): string => (title ? `${title} · ${APP_NAME}` : APP_NAME);

/** Sets the document title ('Customers · CRM'); before paint, so the announcer reads the new one. */
export function useDocumentTitle(title: string): void {
  useLayoutEffect(() => {
    document.title = documentTitle(title);
  }, [title]);
}

/** How long after a route change a page still loading (its chunk, its data) may take the focus. */
export const ROUTE_FOCUS_WINDOW_MS = 10_000;

/** Shown: not in content React hid (display: none) while another screen loads. */
const shown = (el: Element | null): el is HTMLElement => el instanceof HTMLElement && el.isConnected && el.getClientRects().length > 0;

export function RouteFocus() {
  const { pathname } = useLocation();
  const previous = useRef(pathname);
  const region = useRef<HTMLParagraphElement>(null);

  useEffect(() => {
    if (previous.current === pathname) return; // the first screen keeps the browser's own start
    previous.current = pathname;
    const from = document.activeElement; // the link or button that led here
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
  }, [pathname]);

  return <p ref={region} id="route-announcer" className="sr-only" aria-live="polite" aria-atomic="true" />;
}
