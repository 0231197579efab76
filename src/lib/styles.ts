// The rest of the app's styles (static/app.css). The page blocks its first paint on the login form's
// styles only (static/login.css): its link names the rest's file in `data-rest` (build.mjs). main.tsx asks
// for the rest at start; every screen but the login form waits for it (app/App.tsx). `data-state` says
// how its load went, for a caller that comes after the event.

/** The element's id. */
export const REST_STYLES_ID = 'rest-styles';

/** D40: the message of a failed load of the rest's file (lib/chunk-error.ts counts it as a chunk's). */
export const stylesFailed = (href: string) => new Error(`Loading stylesheet failed: ${href}`);

/** The rest of the styles apply already (or the page has no split: the tests' own). */
export function stylesApplied(): boolean {
  const href = document.querySelector<HTMLLinkElement>('link[data-rest]')?.dataset.rest;
  return !href || document.getElementById(REST_STYLES_ID)?.dataset.state === 'loaded';
}

/** Resolves once the rest of the styles apply; rejects when their file could not load (a later call tries again). */
export function loadStyles(): Promise<void> {
  const href = document.querySelector<HTMLLinkElement>('link[data-rest]')?.dataset.rest;
  if (!href) return Promise.resolve(); // a page without the split (the tests' own)
  let link = document.getElementById(REST_STYLES_ID) as HTMLLinkElement | null;
  if (link?.dataset.state === 'loaded') return Promise.resolve();
  if (link?.dataset.state === 'failed') {
    link.remove();
    link = null;
  }
  const el = link ?? document.createElement('link');
  // Listening before the element is in the page: a load may end as it is added.
  const applied = new Promise<void>((resolve, reject) => {
    el.addEventListener('load', () => resolve(), { once: true });
    el.addEventListener('error', () => reject(stylesFailed(href)), { once: true });
  });
  if (!link) {
    el.id = REST_STYLES_ID;
    el.rel = 'stylesheet';
    el.href = href;
    el.addEventListener('load', () => (el.dataset.state = 'loaded'), { once: true });
    el.addEventListener('error', () => (el.dataset.state = 'failed'), { once: true });
    document.head.append(el); // after the login form's: the rest applies after it, as one stylesheet would
  }
  return applied;
}
