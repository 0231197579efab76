// Helpers for the browser journeys: launch Debian's Chromium through playwright-core, open contexts
// at a given size, collect console errors, sign in as a person would.
import { mkdirSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, inject } from 'vitest';

export const baseURL = inject('baseURL');
export const skipReason = inject('skipReason');
export const DEMO_PASSWORD = 'demo-password';
export const DESKTOP = { width: 1400, height: 900 };
export const PHONE = { width: 800, height: 900 };

export function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: inject('chromium'),
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-quic', '--no-first-run', '--disable-component-update', '--disable-sync'],
  });
}

export interface Tab {
  page: Page;
  /** Console errors and uncaught page errors seen so far. */
  errors: string[];
  /** API calls made, as 'METHOD /path'. */
  api: string[];
  /** Responses with a 5xx status (a 4xx is often the point of a journey; Chromium logs those itself). */
  serverErrors: string[];
  /** API answers as 'STATUS METHOD /path', for a failed journey's report. */
  answers: string[];
  /** The page's console lines and its addresses as it moved, for the same report. */
  log: string[];
}

/** What a signed-in context keeps (its localStorage), to open another context already signed in. */
export type SavedSession = Awaited<ReturnType<BrowserContext['storageState']>>;

export async function newContext(
  browser: Browser,
  { viewport = DESKTOP, colorScheme = 'light' as 'light' | 'dark', storageState = undefined as SavedSession | undefined } = {},
): Promise<BrowserContext> {
  return browser.newContext({ baseURL, viewport, colorScheme, storageState });
}

export async function newTab(context: BrowserContext): Promise<Tab> {
  const page = await context.newPage();
  const tab: Tab = { page, errors: [], api: [], serverErrors: [], answers: [], log: [] };
  page.on('framenavigated', (f) => {
    if (f === page.mainFrame()) tab.log.push(`at ${new URL(f.url()).pathname}`);
  });
  page.on('console', (m) => {
    tab.log.push(`${m.type()}: ${m.text().slice(0, 200)}`);
    // Chromium's own 'Failed to load resource' line accompanies every 4xx; serverErrors covers 5xx.
    if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) tab.errors.push(m.text());
  });
  page.on('response', (r) => {
    if (r.status() >= 500) tab.serverErrors.push(`${r.status()} ${r.url()}`);
    const u = new URL(r.url());
    if (u.pathname.startsWith('/api/')) tab.answers.push(`${r.status()} ${r.request().method()} ${u.pathname}`);
  });
  page.on('pageerror', (e) => tab.errors.push(String(e)));
  page.on('request', (r) => {
    const u = new URL(r.url());
    if (u.pathname.startsWith('/api/')) tab.api.push(`${r.method()} ${u.pathname}`);
  });
  return tab;
}

/** Signs in through the form, as a person would. */
export async function signIn(page: Page, email: string, password = DEMO_PASSWORD) {
  if (!page.url().endsWith('/login')) await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log In' }).click();
}

/** Signs in and, when the organization picker shows, chooses `org`; resolves on that organization's dashboard. */
export async function signInTo(page: Page, email: string, org?: string, password = DEMO_PASSWORD) {
  await signIn(page, email, password);
  if (org) {
    await page.waitForURL((u) => u.pathname === '/org-picker' || u.pathname === '/dashboard', { timeout: 10_000 });
    if ((await pathOf(page)) === '/org-picker') await page.getByRole('button', { name: org }).click();
  }
  await expectPath(page, '/dashboard');
}

/** The sidebar's navigation (the dashboard links to the same pages, with other words). */
export const sidebarNav = (page: Page) => page.getByRole('navigation', { name: 'Main' });

/** The toasts' live region. */
export const toasts = (page: Page) => page.getByRole('region', { name: 'Notifications (Alt+T)' });

/**
 * Closes the toasts shown, as a person does before reaching what they cover: they stack top right for
 * 5 s each, and two of them reach down over the page header's buttons (a customer's Edit and Delete).
 */
export async function dismissToasts(page: Page) {
  const close = toasts(page).getByRole('button', { name: 'Dismiss notification' });
  while ((await close.count()) > 0) await close.first().click();
}

export async function storage(page: Page): Promise<Record<string, string>> {
  return page.evaluate(() => Object.fromEntries(Object.entries(localStorage)));
}

export async function pathOf(page: Page): Promise<string> {
  return new URL(page.url()).pathname;
}

/** Waits for the URL path to become `path`. */
export async function expectPath(page: Page, path: string) {
  await page.waitForURL((u) => u.pathname === path, { timeout: 10_000 });
  expect(new URL(page.url()).pathname).toBe(path);
}

async function describeTabs(tabs: Tab[], name: string) {
  const dir = 'test-results/failures';
  mkdirSync(dir, { recursive: true });
  for (const [i, t] of tabs.entries()) {
    if (t.page.isClosed()) continue;
    const file = `${dir}/${name.replace(/[^\w]+/g, '-').slice(0, 80)}-${i}.png`;
    const text = await t.page.evaluate(() => document.body.innerText.slice(0, 600)).catch(() => '(no text)');
    await t.page.screenshot({ path: file }).catch(() => undefined);
    // The names of the stored keys only: their values are tokens.
    const keys = await t.page.evaluate(() => Object.keys(localStorage).sort().join(', ')).catch(() => '(none)');
    console.error(
      `tab ${i} at ${t.page.url()} (${file}); API answers: ${t.answers.slice(-8).join(', ')}\nstored: ${keys}\nlog: ${t.log.slice(-12).join(' | ')}\n${text}`,
    );
  }
}

/**
 * One browser per test file, fresh contexts per test. After each test every tab opened through it
 * must have logged no console error and seen no 5xx; then its contexts are closed.
 */
export function useBrowser() {
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  const tabs: Tab[] = [];
  beforeAll(async () => {
    browser = await launch();
  });
  afterAll(async () => browser?.close());
  afterEach(async (ctx) => {
    // A failed journey says where each of its tabs was and what it showed, so a failure seen once in CI
    // can be read afterwards (the page's address, its text, a screenshot in test-results/failures/).
    if (ctx.task.result?.state === 'fail') await describeTabs(tabs, ctx.task.name);
    for (const t of tabs.splice(0)) {
      expect(t.errors, 'console errors').toEqual([]);
      expect(t.serverErrors, 'server errors').toEqual([]);
    }
    for (const c of contexts.splice(0)) await c.close();
  });
  const context = async (opts?: Parameters<typeof newContext>[1]) => {
    const ctx = await newContext(browser, opts);
    contexts.push(ctx);
    return ctx;
  };
  const tab = async (ctx: BrowserContext) => {
    const t = await newTab(ctx);
    tabs.push(t);
    return t;
  };
  const open = async (opts?: Parameters<typeof newContext>[1]) => tab(await context(opts));
  // One sign-in through the form per account and file; later journeys reopen that session (its stored
  // tokens, as a browser reopened by the same person), which spares each a login and the picker.
  const sessions = new Map<string, SavedSession>();
  const signedIn = async (
    email: string,
    { org, password, path, ...opts }: { org?: string; password?: string; path?: string } & Parameters<typeof newContext>[1] = {},
  ) => {
    const saved = sessions.get(email);
    if (saved) {
      const t = await open({ ...opts, storageState: saved });
      await t.page.goto(path ?? '/dashboard');
      return t;
    }
    const t = await open(opts);
    await signInTo(t.page, email, org, password);
    sessions.set(email, await t.page.context().storageState());
    if (path && path !== '/dashboard') await t.page.goto(path);
    return t;
  };
  return {
    context,
    tab,
    /** A tab in a context of its own. */
    open,
    /**
     * A tab in a context of its own, signed in as `email` (choosing `org` on the picker), at `path`. The
     * first time in a file it signs in through the form; then it reopens that session.
     */
    signedIn,
    /** Stops checking a tab (e.g. one the test closed on purpose). */
    forget: (t: Tab) => void tabs.splice(tabs.indexOf(t), 1),
  };
}
