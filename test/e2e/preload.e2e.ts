// The code of the next screen loads beside the session's calls, not after them (app/preload.ts;
// docs/performance.md): each journey holds an auth call unanswered until the dashboard's chunk is asked
// for. Without the preload the chunk is only asked for after the call's answer, so the hold runs out.
import type { Page, Route } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { DEMO_PASSWORD, expectPath, signIn, skipReason, useBrowser } from './browser';

/** Long enough for a busy machine; without the preload the chunk never comes while the call is held. */
const HOLD_MS = 15_000;
const DASHBOARD_CHUNK = /\/assets\/chunks\/DashboardPage-[^/]+\.js$/;

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
});
