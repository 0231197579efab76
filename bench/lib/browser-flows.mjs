// Two flows to the dashboard's figures in Chromium under the mobile profile (browser.mjs), in one cold
// context: pressing Log In (solo@demo.test, one organization, so straight to the dashboard), then a
// reload of that dashboard with the session in storage. Each records its API calls and scripts with
// the times they were sent and answered, so a second wave of JS (a script asked for only once an
// earlier answer came in) shows.
import { DEMO_PASSWORD } from './crm.mjs';
import { coldPage } from './browser.mjs';

export const ACCOUNT = 'solo@demo.test'; // D3: one organization, so Log In leads straight to the dashboard
const API = '/api/v1';
/** The dashboard's own data (D32: one call). */
export const DATA_CALL = `GET ${API}/dashboard/`;
/**
 * What the specification requires: login, then the current-user call (SPEC §4 session load; the access
 * token is fresh, so no refresh), then the page's own data.
 */
export const EXPECTED = {
  login: [`POST ${API}/auth/login/`, `GET ${API}/auth/me/`, DATA_CALL],
  reload: [`GET ${API}/auth/me/`, DATA_CALL],
};
/** After the dashboard shows its figures, calls and scripts are still watched this long. */
const SETTLE_MS = 3000;

/** Records /api/ calls and scripts with the times they were sent and answered (ms, this process's clock). */
function watch(page) {
  const log = [];
  page.on('request', (r) => {
    const u = new URL(r.url());
    const kind = u.pathname.startsWith('/api/') ? 'api' : r.resourceType() === 'script' ? 'js' : null;
    if (kind) log.push({ kind, request: r, name: kind === 'api' ? `${r.method()} ${u.pathname}` : u.pathname, sentMs: performance.now(), doneMs: null });
  });
  const done = (r) => {
    const e = log.find((x) => x.request === r);
    if (e) e.doneMs = performance.now();
  };
  page.on('requestfinished', done);
  page.on('requestfailed', done);
  return {
    /**
     * What was sent from `fromMs` on: the calls in order, the scripts, those sent after the first call
     * was answered, those sent before the data call was sent and those sent after the data call was
     * answered; and each entry's times from `fromMs`.
     */
    since(fromMs) {
      const entries = log.filter((e) => e.sentMs >= fromMs);
      const calls = entries.filter((e) => e.kind === 'api');
      const scripts = entries.filter((e) => e.kind === 'js');
      const after = (ms) => scripts.filter((e) => e.sentMs >= ms).map((e) => e.name);
      const at = (ms) => (ms === null ? '—' : (ms - fromMs).toFixed(0));
      return {
        calls: calls.map((e) => e.name),
        scripts: scripts.map((e) => e.name),
        afterFirstCall: after(calls[0]?.doneMs ?? Infinity),
        // What the data call waited behind: a browser asks six files of one server at a time (HTTP/1.1).
        beforeData: scripts.filter((e) => e.sentMs < (calls.find((c) => c.name === DATA_CALL)?.sentMs ?? Infinity)).map((e) => e.name),
        // No data call at all counts as the data never coming: every script is then after it.
        afterData: after(calls.find((e) => e.name === DATA_CALL)?.doneMs ?? -Infinity),
        timeline: entries.map((e) => `${at(e.sentMs).padStart(5)} → ${at(e.doneMs).padStart(5)} ms  ${e.name}`),
      };
    },
  };
}

/**
 * The page's own clock for the figures (every document of the context runs it first): the frame after
 * the 'By status' heading (D32: shown once the data is in) entered the document, and the moment a form
 * was submitted, in ms of the document's clock (from its navigation's start). Playwright's waitFor polls
 * ever less often (up to every 500 ms) and would add its wait to a figure it times from outside.
 */
const FIGURES_CLOCK = `(() => {
  const shown = () => [...document.querySelectorAll('h2')].some((h) => h.textContent.trim() === 'By status');
  new MutationObserver(() => {
    if (window.__figuresAt === undefined && shown()) {
      window.__figuresAt = null;
      requestAnimationFrame(() => { window.__figuresAt = performance.now(); });
    }
  }).observe(document, { childList: true, subtree: true });
  document.addEventListener('submit', () => { window.__submitAt = performance.now(); }, true);
})()`;

/** Waits for the dashboard with its figures; resolves with the page's clock then (see FIGURES_CLOCK). */
async function dashboardRendered(page) {
  await page.waitForURL((u) => u.pathname === '/dashboard');
  await page.getByRole('heading', { name: 'By status' }).waitFor();
  await page.waitForFunction(() => typeof window.__figuresAt === 'number');
  return page.evaluate(() => ({ figuresAt: window.__figuresAt, submitAt: window.__submitAt }));
}

/** Log In, then a reload: for each, the calls and scripts (see watch) and `ms` to the dashboard's figures. */
export async function flows(browser, baseURL) {
  const { context, page } = await coldPage(browser, baseURL, FIGURES_CLOCK);
  try {
    const w = watch(page);
    await page.goto('/login', { waitUntil: 'commit' });
    await page.locator('input[type=email]').fill(ACCOUNT); // waits for the form to be usable
    await page.locator('input[type=password]').fill(DEMO_PASSWORD);
    const loginAt = performance.now();
    await page.locator('button[type=submit]').click();
    const shown = await dashboardRendered(page);
    const loginMs = shown.figuresAt - shown.submitAt; // one document: Log In's submit to the figures
    await page.waitForTimeout(SETTLE_MS);
    const login = { ...w.since(loginAt), ms: loginMs };
    const reloadAt = performance.now();
    await page.reload({ waitUntil: 'commit' });
    const reloadMs = (await dashboardRendered(page)).figuresAt; // the new document's clock starts with the reload
    await page.waitForTimeout(SETTLE_MS);
    const reload = { ...w.since(reloadAt), ms: reloadMs };
    return { login, reload };
  } finally {
    await context.close();
  }
}
