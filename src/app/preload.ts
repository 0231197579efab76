// The code of the screen a person is about to see, started before the session's calls are answered,
// so it loads beside them instead of after them (docs/performance.md): at start with a stored
// session (a reload), and when Log In is pressed. React's lazy loaders ask for the same modules later
// and find them loaded or loading.
import { findRoute } from '../router/match';
import { SHELL_ROUTES } from './routes';

/** Starts loading the shell and the page at `path` (pathname, maybe with query or hash); no page, nothing. */
export function preloadScreen(path: string): void {
  // Offline (D7), a failed import could stay failed in the browser's module map: leave it to the real load.
  if (typeof navigator !== 'undefined' && navigator.onLine === false) return;
  const pathname = path.replace(/[?#].*$/, '').replace(/(.)\/$/, '$1');
  const match = findRoute(SHELL_ROUTES, pathname === '/' || pathname === '' ? '/dashboard' : pathname);
  if (!match) return;
  // A failure here is the real load's to show, when it happens again there.
  void import('./lazy').catch(() => undefined);
  void match.route.load().catch(() => undefined);
}
