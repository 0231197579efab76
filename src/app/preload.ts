// The code of the screen a person is about to see, started before the session's calls are answered,
// so it loads beside them instead of after them (docs/performance.md): at start with a stored
// session (a reload), and when Log In is pressed. React's lazy loaders ask for the same modules later
// and find them loaded or loading. On a reload the page has asked for the same files already, before
// this bundle arrived (src/boot/preload.js; build.mjs earlyPreload lists them in this order).
import { findRoute } from '../router/match';
import type { Session } from '../session/controller';
import { keep } from '../ui/preloaded';
import { SHELL_ROUTES } from './routes';

/** The shell and the small screens (lazy.ts); App's lazy shell loads it with this very function (ui/preloaded.ts). */
export const loadShell = () => import('./lazy');

/** SPEC §9: the toast region (App renders it); null when its code could not load. */
export const loadToaster = () => import('../ui/toaster').catch(() => null);

/** SPEC §8 a page part's load error (ui/page.tsx, loaded lazily): asked for beside the page, not after it. */
const loadLoadError = () => import('../ui/load-error');

/**
 * SPEC §4 the session's code that takes in the current-user answer (session/state.ts deferredCode loads
 * the same file): asked for here with the files it imports, which the session's own import() would find
 * only once it had the file, after `me` had answered (a round trip before the page's data call).
 */
const loadSessionCode = () => import('../session/deferred');

/** A reload's page data, asked for once `me` has answered (prefetch.ts). */
const loadPrefetch = () => import('./prefetch');

/** The page's JSON of each lazily loaded file's imports (build.mjs, lazyImports). */
const LAZY_IMPORTS_ID = 'lazy-imports';
let imports: Record<string, string[] | undefined> | undefined;

/**
 * Starts `load` (an import() of one file) and, at once, every file that file imports, which the
 * browser would find only once it had the file: one round trip instead of one per level. The build
 * names the file inside `load`'s own code (`import("./Name-HASH.js")`); anything else preloads just it.
 */
function preload(load: () => Promise<unknown>): void {
  imports ??= JSON.parse(document.getElementById(LAZY_IMPORTS_ID)?.textContent || '{}') as Record<string, string[]>;
  const file = /import\("[^"]*?([^"/]+)"\)/.exec(String(load))?.[1];
  // A file asked for twice is fetched once: the browser keeps one module per address.
  for (const href of (file && imports[file]) || []) {
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.href = href;
    document.head.append(link);
  }
  // A failure here is the real load's to show, when it happens again there.
  void keep(load).catch(() => undefined);
}

/**
 * Starts loading the shell and the page at `path` (pathname, maybe with query or hash); no page, nothing.
 * With the stored `session` of a reload, the page's data too, once the session has loaded (prefetch.ts).
 */
export function preloadScreen(path: string, session?: Session): void {
  // Offline (D7), a failed import could stay failed in the browser's module map: leave it to the real load.
  if (typeof navigator !== 'undefined' && navigator.onLine === false) return;
  const pathname = path.replace(/[?#].*$/, '').replace(/(.)\/$/, '$1');
  const match = findRoute(SHELL_ROUTES, pathname === '/' || pathname === '' ? '/dashboard' : pathname);
  if (!match) return;
  // First what takes in `me`: nothing renders before it runs (a browser asks a few files of one server at a time).
  preload(loadSessionCode);
  if (session) {
    preload(loadPrefetch);
    void loadPrefetch().then(
      (m) => m.prefetchPageData(session, match.route.path),
      () => undefined,
    );
  }
  preload(loadShell);
  preload(match.route.load);
  preload(loadLoadError);
}
