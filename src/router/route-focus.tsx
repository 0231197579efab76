// D15: after a route change the new page's heading (h1) takes the focus, so a keyboard user starts
// at the top of what changed, and the new document title is said in a polite live region. It is in
// the first bundle (mounted by App): keep it tiny; the work after a route change is in focus-page.ts.
import { useEffect, useRef } from 'react';
import { useLocation } from './location';

export function RouteFocus() {
  const { pathname } = useLocation();
  const previous = useRef(pathname);
  const region = useRef<HTMLParagraphElement>(null);

  useEffect(() => {
    if (previous.current === pathname) return; // the first screen keeps the browser's own start
    previous.current = pathname;
    const from = document.activeElement; // the link or button that led here
    let stop: (() => void) | undefined;
    let gone = false;
    // Loaded the first time the route changes (focus-page.ts): the first screen never needs it.
    import('./focus-page').then(
      (m) => {
        if (!gone) stop = m.focusPage(from, region);
      },
      () => undefined, // the new page's own load reports the failure (D40)
    );
    return () => {
      gone = true;
      stop?.();
    };
  }, [pathname]);

  return <p ref={region} id="route-announcer" className="sr-only" aria-live="polite" aria-atomic="true" />;
}
