// D40: a dynamic import that failed (offline, or a deployment removed the file). Browsers word it
// differently: Chromium 'Failed to fetch dynamically imported module: URL', Firefox 'error loading
// dynamically imported module: URL', Safari 'Importing a module script failed.'. The rest of the app's
// styles failing to load is the same case (lib/styles.ts).
export const isChunkError = (e: unknown): boolean => e instanceof Error && /dynamically imported module|module script failed|Loading (chunk|stylesheet)/i.test(e.message);

/** D40: what the page area says when a page's code could not load (app/page-load.tsx, app/App.tsx). */
export const PAGE_LOAD_FAILED = 'This page could not be loaded.';
