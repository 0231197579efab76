// Runs before every app test file. The app project runs without per-file isolation (vitest.config.ts):
// one happy-dom window per worker serves all its files, which saves a new worker and window per file.
// What isolation gave is restored here instead: each file gets the app's modules afresh (module
// singletons such as the location store, toasts, the query cache, the lazy page map, and hooks that
// helpers like test/ui/no-console.ts register when imported), and the shared window is put back as a
// new one would be (URL, storage, cookies, viewport, document, timers, stubbed globals).
import { cleanup, configure, getConfig, prettyDOM } from '@testing-library/react';
import { afterAll, afterEach, vi } from 'vitest';

// findBy*/waitFor give up after this long. It only bounds a wait for something that should appear (a
// lazy chunk, a fetch), so a test still fails when it never does; 1 s, the default, was too short for a
// busy machine running two files at once.
// defaultHidden: role queries skip Testing Library's is-it-hidden walk (a computed style for every
// element and its ancestors, the largest part of a role query); 6–8 % of the suite's CPU. A test about
// what is hidden from assistive technology asks with `hidden: false` (or checks the attribute itself).
configure({ asyncUtilTimeout: 4_000, getElementError, defaultHidden: true });

// A getBy* that finds nothing prints the whole document into its error. Inside waitFor and findBy* (which
// poll until it does) every attempt did so (2–3 % of the suite's CPU); the last attempt's error is
// the one a failing test shows, and waitFor's timeout adds the document to it then (once; it used to print it twice).
function getElementError(message: string | null, container: Element): Error {
  const polling = (getConfig() as { _disableExpensiveErrorDiagnostics?: boolean })._disableExpensiveErrorDiagnostics;
  const dom = polling ? '' : `Ignored nodes: comments, ${getConfig().defaultIgnore}\n${prettyDOM(container)}`;
  const error = new Error([message, dom].filter(Boolean).join('\n\n'));
  error.name = 'TestingLibraryElementError';
  return error;
}

type HappyWindow = Window & {
  happyDOM?: { abort(): Promise<void>; setURL(url: string): void; setViewport(v: { width: number; height: number }): void };
};
const happy = () => (window as HappyWindow).happyDOM;

// The window as the first file of this worker found it (this file is evaluated again for every file;
// the first evaluation keeps the values on the shared global).
const initial = ((globalThis as { __appTestWindow?: { url: string; width: number; height: number } }).__appTestWindow ??= {
  url: window.location.href,
  width: window.innerWidth,
  height: window.innerHeight,
});

function clearCookies(): void {
  for (const cookie of document.cookie.split(';')) {
    const name = cookie.split('=')[0]!.trim();
    if (name) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
  }
}

// vitest runs without globals, so Testing Library cannot register its own cleanup.
afterEach(() => {
  cleanup();
  localStorage.clear();
  sessionStorage.clear(); // D41 drafts: each test starts without any
  document.documentElement.className = '';
  document.body.className = '';
});

// Registered first, so it runs after the file's own afterAll hooks.
afterAll(async () => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
  // Timers, intervals and fetches the file left running end with it, as with a window of its own.
  await happy()?.abort();
  happy()?.setURL(initial.url);
  happy()?.setViewport({ width: initial.width, height: initial.height });
  localStorage.clear();
  sessionStorage.clear();
  clearCookies();
  document.title = '';
  document.head.replaceChildren();
  document.body.replaceChildren();
  for (const { name } of [...document.documentElement.attributes]) document.documentElement.removeAttribute(name);
  // The next file imports src/ and the test helpers anew (vitest keeps node_modules, React included).
  vi.resetModules();
});
