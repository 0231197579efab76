// The code of the next screen loads beside the session's calls, not after them (app/App.tsx
// preloadScreen): each journey holds an auth call unanswered until the dashboard's chunk is asked for.
// Without the preload the chunk is only asked for after the call's answer, so the hold runs out. A reload
// asks for every file of the screen at once, not a file's imports only once it has the file (build.mjs
// routeFiles): with the answers of those files held until the current-user call is answered, no file may
// be asked for after that answer.
import type { Page, Route } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { DEMO_PASSWORD, expectPath, signIn, skipReason, useBrowser } from './browser';

/** Long enough for a busy machine; without the preload the chunk never comes while the call is held. */
const HOLD_MS = 15_000;
const DASHBOARD_CHUNK = /\/assets\/chunks\/DashboardPage-[^/]+\.js$/;
const ME = '/api/v1/auth/me/';

/**
 * Holds the calls matching `url` until the dashboard's chunk is requested (or HOLD_MS passes), then lets
 * them through; `heldUntilChunk()` says whether the chunk came while a call was held.
 */
async function holdUntilDashboardChunk(page: Page, url: string) {
  const chunk = page
    .waitForRequest((r) => DASHBOARD_CHUNK.test(new URL(r.url()).pathname), { timeout: HOLD_MS })
    .then(
      () => true,
      () => false,
    );
  let seen: boolean | null = null;
  await page.route(url, async (route: Route) => {
    seen = await chunk;
    await route.continue();
  });
  return { heldUntilChunk: () => seen };
}

describe.skipIf(skipReason)('the next screen loads beside the auth calls', () => {
  const browser = useBrowser();

  test('SPEC §2 a cold load of /login with no stored session asks for no script but the first bundle the page names', async () => {
    const { page } = await browser.open();
    const html = await (await page.request.get('/login')).text();
    const own = new Set([...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.js)"/g)].map((m) => m[1]));
    const scripts: string[] = [];
    page.on('request', (r) => {
      if (r.resourceType() === 'script') scripts.push(new URL(r.url()).pathname);
    });
    await page.goto('/login');
    await page.getByRole('button', { name: 'Log In' }).waitFor();
    await page.waitForTimeout(1000); // idle: error reporting has no DSN here, the watchers are in the bundle
    expect(scripts.filter((f) => !own.has(f))).toEqual([]);
    expect(scripts.length).toBe(own.size);
  });

  // The first paint waits for the login form's styles only (static/login.css); the rest (static/app.css)
  // load at start, and every other screen waits for them (src/lib/styles.ts, app/App.tsx).
  test('SPEC §2 D11 D15 the login form looks the same before and after the rest of the styles apply, in both themes and at phone width', async () => {
    for (const opts of [{}, { colorScheme: 'dark' as const, viewport: { width: 390, height: 844 } }]) {
      const { page } = await browser.open(opts);
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      let asked = false;
      await page.route(/\/assets\/app-[^/]+\.css$/, async (route: Route) => {
        asked = true;
        await held;
        await route.continue();
      });
      await page.goto('/login', { waitUntil: 'commit' }); // the load event waits for the held stylesheet
      await page.getByRole('button', { name: 'Log In' }).waitFor();
      expect(asked).toBe(true);
      expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(opts.colorScheme === 'dark');
      // Every computed property (in one order: custom properties come in any) and the box of every element of the form.
      const look = () =>
        page.evaluate(() =>
          [...document.querySelectorAll('#root main, #root main *')].map((el) => {
            const style = getComputedStyle(el);
            const box = el.getBoundingClientRect();
            return [el.tagName, box.x, box.y, box.width, box.height, ...[...style].sort().map((p) => `${p}:${style.getPropertyValue(p)}`)].join('|');
          }),
        );
      const before = await look();
      expect(before.length).toBeGreaterThan(10);
      release();
      await page.waitForFunction(() => document.getElementById('rest-styles')?.dataset.state === 'loaded');
      expect(await page.evaluate(() => [...document.styleSheets].map((s) => new URL(s.href!).pathname.replace(/-[^-]+\.css$/, '')))).toEqual([
        '/assets/login',
        '/assets/app',
      ]);
      expect(await look()).toEqual(before);
    }
  });

  test('a signed-in reload draws the shell only once the rest of the styles apply', async () => {
    const first = await browser.signedIn('solo@demo.test');
    const { page } = await browser.open({ storageState: await first.page.context().storageState() });
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await page.route(/\/assets\/app-[^/]+\.css$/, async (route: Route) => {
      await held;
      await route.continue();
    });
    const me = page.waitForResponse((r) => new URL(r.url()).pathname === ME);
    await page.goto('/dashboard', { waitUntil: 'commit' });
    await me;
    await page.waitForTimeout(500);
    expect(await page.getByRole('navigation', { name: 'Main' }).count()).toBe(0);
    expect(await page.getByRole('status').count()).toBeGreaterThan(0); // the spinner, styled by the login form's styles
    release();
    await page.getByRole('heading', { name: 'By status' }).waitFor({ timeout: HOLD_MS + 15_000 });
  });

  test('pressing Log In asks for the dashboard code while the login call is unanswered', async () => {
    const { page } = await browser.open();
    await page.goto('/login');
    await page.getByLabel('Email').fill('solo@demo.test');
    await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
    const hold = await holdUntilDashboardChunk(page, '**/api/v1/auth/login/');
    await page.getByRole('button', { name: 'Log In' }).click();
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor({ timeout: HOLD_MS + 15_000 });
    expect(hold.heldUntilChunk()).toBe(true);
  });

  test('opening the dashboard with a stored session asks for its code while the current-user call is unanswered', async () => {
    const first = await browser.open();
    await signIn(first.page, 'solo@demo.test');
    await expectPath(first.page, '/dashboard');
    // A new context: the stored session, and no cached code.
    const { page } = await browser.open({ storageState: await first.page.context().storageState() });
    const hold = await holdUntilDashboardChunk(page, '**/api/v1/auth/me/');
    await page.goto('/dashboard');
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor({ timeout: HOLD_MS + 15_000 });
    expect(hold.heldUntilChunk()).toBe(true);
  });

  test('SPEC §4 a signed-in reload sends the current-user call once, as the first bundle runs: before any other code is asked for', async () => {
    const first = await browser.signedIn('solo@demo.test');
    const { page } = await browser.open({ storageState: await first.page.context().storageState() });
    const html = await (await page.request.get('/login')).text();
    const own = new Set([...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.js)"/g)].map((m) => m[1]));
    const asked: string[] = [];
    page.on('request', (r) => {
      const p = new URL(r.url()).pathname;
      if (p === ME || (r.resourceType() === 'script' && !own.has(p))) asked.push(p);
    });
    await page.goto('/dashboard');
    await page.getByRole('heading', { name: 'By status' }).waitFor({ timeout: HOLD_MS + 15_000 });
    expect(asked.filter((p) => p === ME)).toHaveLength(1);
    expect(asked[0], asked.join(', ')).toBe(ME);
    expect(asked.some((p) => /DashboardPage-/.test(p))).toBe(true);
  });

  // Each page's own data shown: its code and the shell's have all run.
  const shown = {
    '/dashboard': (page: Page) => page.getByRole('heading', { name: 'By status' }),
    '/customers': (page: Page) => page.getByRole('table').getByRole('link').first(),
  };
  for (const [path, chunk] of [
    ['/dashboard', 'DashboardPage'],
    ['/customers', 'CustomersPage'],
  ] as const) {
    test(`a signed-in reload of ${path} asks for no script or stylesheet after the current-user call is answered, though each file's imports are found only in the file`, async () => {
      const first = await browser.signedIn('solo@demo.test');
      const { page } = await browser.open({ storageState: await first.page.context().storageState() });
      const late = await scriptsAfterMe(page, new RegExp(`/assets/chunks/${chunk}-[^/]+\\.js$`));
      await page.goto(path);
      await shown[path](page).waitFor({ timeout: HOLD_MS + 15_000 });
      expect(late()).toEqual([]);
    });
  }
});

/**
 * The scripts `page` asks for after the current-user call is answered. Meanwhile the scripts loaded
 * after the page's own (the lazily loaded ones; the page's own are those index.html names) are held unanswered, so a file known only from another
 * file's code cannot be asked for; the call itself is held until the page's chunk (`pageChunk`) is
 * asked for (or HOLD_MS passes), so the preload has started before the answer.
 */
async function scriptsAfterMe(page: Page, pageChunk: RegExp) {
  const html = await (await page.request.get('/login')).text();
  const own = new Set([...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.js)"/g)].map((m) => m[1]));
  let meDone = false;
  const late: string[] = [];
  const answered = new Promise<void>((resolve) => {
    page.on('requestfinished', (r) => {
      if (new URL(r.url()).pathname === ME) resolve(void (meDone = true));
    });
  });
  page.on('request', (r) => {
    if (meDone && ['script', 'stylesheet'].includes(r.resourceType())) late.push(new URL(r.url()).pathname);
  });
  const chunk = page.waitForRequest((r) => pageChunk.test(new URL(r.url()).pathname), { timeout: HOLD_MS }).catch(() => null);
  await page.route(`**${ME}`, async (route: Route) => {
    await chunk;
    await route.continue();
  });
  await page.route('**/assets/**/*.js', async (route: Route) => {
    if (!own.has(new URL(route.request().url()).pathname)) await answered;
    await route.continue();
  });
  return () => late;
}
