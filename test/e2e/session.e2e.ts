// Journeys: connectivity (SPEC §4), session expiry (SPEC §8), refresh of an expired token
// (SPEC §4), and tabs: cross-tab logout (SPEC §4), organization switch (D21), one refresh (D8).
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { expectPath, sidebarNav, signIn, skipReason, storage, useBrowser, type Tab } from './browser';
import { endSessionOnServer } from './people';

/** A well-formed access token that expired a minute ago (the client reads exp; the server never sees it). */
function expiredToken(): string {
  const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
  return `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ sub: '2', sid: 1, exp: Math.floor(Date.now() / 1000) - 60 })}.c2ln`;
}

const refreshCalls = (t: Tab) => t.api.filter((c) => c === 'POST /api/v1/auth/refresh/').length;

describe.skipIf(skipReason)('session, connectivity and tabs', () => {
  const browser = useBrowser();
  const context = () => browser.context();
  const tabIn = browser.tab;
  const bodyOffline = (page: Page) => page.evaluate(() => document.body.classList.contains('offline'));

  test('SPEC §4 going offline shows the banner and the body class; coming back removes them', async () => {
    const ctx = await context();
    const { page } = await tabIn(ctx);
    await signIn(page, 'solo@demo.test');
    await expectPath(page, '/dashboard');
    await ctx.setOffline(true);
    await page.getByText('Connection lost. Changes may not save.').waitFor();
    expect(await bodyOffline(page)).toBe(true);
    await ctx.setOffline(false);
    await page.getByText('Connection lost. Changes may not save.').waitFor({ state: 'detached' });
    expect(await bodyOffline(page)).toBe(false);
  });

  test('SPEC §8 an API call that gets no response shows the offline banner', async () => {
    const ctx = await context();
    const tab = await tabIn(ctx);
    const { page } = tab;
    await page.goto('/login');
    await page.route('**/api/**', (r) => r.abort('internetdisconnected'));
    await signIn(page, 'solo@demo.test');
    await page.getByText('Connection lost. Changes may not save.').waitFor();
    await page.getByText('Login failed. Please try again.').waitFor();
    expect(await bodyOffline(page)).toBe(true);
    tab.errors.length = 0; // Chromium reports the aborted request on the console
  });

  test("SPEC §8 a session revoked on the server: the next call's refresh fails and 'Session Expired' opens; 'Log In Again' goes to /login", async () => {
    const ctx = await context();
    const { page } = await tabIn(ctx);
    await signIn(page, 'solo@demo.test');
    await expectPath(page, '/dashboard');
    await endSessionOnServer(page);
    await sidebarNav(page).getByRole('link', { name: 'Customers' }).click(); // the customers list calls the API
    const dialog = page.getByRole('dialog', { name: 'Session Expired' });
    await dialog.waitFor();
    await dialog.getByText('Your session expired or could not be refreshed. Please log in again.').waitFor();
    const after = await storage(page);
    expect(after.access_token).toBeUndefined();
    expect(after.hydration_failed).toBe('true');
    await dialog.getByRole('button', { name: 'Log In Again' }).click();
    await expectPath(page, '/login');
    await page.getByRole('heading', { name: 'Login' }).waitFor();
  });

  test("SPEC §2 the Session Expired dialog's Cancel closes it", async () => {
    const ctx = await context();
    const { page } = await tabIn(ctx);
    await signIn(page, 'solo@demo.test');
    await expectPath(page, '/dashboard');
    await page.evaluate(() => window.dispatchEvent(new Event('sessionExpired')));
    const dialog = page.getByRole('dialog', { name: 'Session Expired' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    await expectPath(page, '/dashboard');
  });

  test('SPEC §4 an expired access token in storage is refreshed once, then the dashboard shows', async () => {
    const ctx = await context();
    const tab = await tabIn(ctx);
    const { page } = tab;
    await signIn(page, 'solo@demo.test');
    await expectPath(page, '/dashboard');
    const before = (await storage(page)).refresh_token;
    await page.evaluate((t) => localStorage.setItem('access_token', t), expiredToken());
    tab.api.length = 0;
    await page.reload();
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    expect(refreshCalls(tab)).toBe(1);
    const after = await storage(page);
    expect(after.refresh_token).not.toBe(before);
    expect(after.access_token?.split('.')).toHaveLength(3);
  });

  test('SPEC §4 logging out in one tab reloads the other to /login', async () => {
    const ctx = await context();
    const a = await tabIn(ctx);
    await signIn(a.page, 'solo@demo.test');
    await expectPath(a.page, '/dashboard');
    const b = await tabIn(ctx);
    await b.page.goto('/customers');
    await b.page.getByRole('heading', { name: 'Customers', level: 1 }).waitFor();
    const reloaded = b.page.waitForEvent('load');
    await a.page.getByRole('button', { name: 'solo@demo.test' }).click();
    await a.page.getByRole('button', { name: 'Logout' }).click();
    await expectPath(a.page, '/login');
    await reloaded;
    await expectPath(b.page, '/login');
  });

  test('D21 switching organization in one tab reloads the other into that organization', async () => {
    const ctx = await context();
    const a = await tabIn(ctx);
    await signIn(a.page, 'owner@demo.test');
    await a.page.getByRole('button', { name: 'Acme Plumbing' }).click();
    await expectPath(a.page, '/dashboard');
    const b = await tabIn(ctx);
    await b.page.goto('/dashboard');
    await b.page.getByRole('complementary').getByText('Acme Plumbing').waitFor();
    const reloaded = b.page.waitForEvent('load');
    await a.page.getByRole('button', { name: 'owner@demo.test' }).click();
    await a.page.getByRole('button', { name: 'Beacon Electric' }).click();
    await reloaded;
    await b.page.getByRole('complementary').getByText('Beacon Electric').waitFor();
    await a.page.getByRole('complementary').getByText('Beacon Electric').waitFor();
  });

  test('D8 three tabs opened at once with an expired access token all stay signed in, with one refresh', async () => {
    const ctx = await context();
    const first = await tabIn(ctx);
    await signIn(first.page, 'solo@demo.test');
    await expectPath(first.page, '/dashboard');
    await first.page.evaluate((t) => localStorage.setItem('access_token', t), expiredToken());
    await first.page.close();
    browser.forget(first);
    const three = await Promise.all([tabIn(ctx), tabIn(ctx), tabIn(ctx)]);
    await Promise.all(three.map((t) => t.page.goto('/dashboard')));
    for (const t of three) await t.page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    expect(three.reduce((n, t) => n + refreshCalls(t), 0)).toBe(1);
    for (const t of three) expect(new URL(t.page.url()).pathname).toBe('/dashboard');
  });
});
