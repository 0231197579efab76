// Issue 5: screenshots of login, picker, dashboard, customers and the drawer, in light and dark, at
// desktop and phone width (and the customers list on a small phone), saved under test-results/screenshots/. With UPDATE_DOCS_SCREENSHOTS=1 a
// few of them are also written, small, to docs/screenshots/ for the README.
import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DESKTOP, expectPath, launch, newContext, newTab, PHONE, signIn, skipReason } from './browser';

const OUT = 'test-results/screenshots';
const DOCS = 'docs/screenshots';
/** A small phone, under the list's 640px breakpoint. */
const NARROW = { width: 390, height: 844 };
const FOR_DOCS = new Set(['login-light-desktop', 'customers-light-desktop', 'dashboard-dark-desktop', 'drawer-dark-phone', 'org-picker-light-phone']);

async function shoot(page: Page, name: string) {
  await page.evaluate(() => document.fonts.ready);
  await page.screenshot({ path: `${OUT}/${name}.png` });
  if (process.env.UPDATE_DOCS_SCREENSHOTS && FOR_DOCS.has(name)) {
    await page.screenshot({ path: `${DOCS}/${name}.jpg`, type: 'jpeg', quality: 70, scale: 'css' });
  }
}

describe.skipIf(skipReason)('screenshots', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launch();
    mkdirSync(OUT, { recursive: true });
    if (process.env.UPDATE_DOCS_SCREENSHOTS) mkdirSync(DOCS, { recursive: true });
  });
  afterAll(async () => browser?.close());

  for (const theme of ['light', 'dark'] as const) {
    for (const [width, viewport] of [['desktop', DESKTOP], ['phone', PHONE]] as const) {
      test(`login, picker, dashboard, customers${width === 'phone' ? ' and the drawer' : ''} — ${theme}, ${width}`, async () => {
        const ctx = await newContext(browser, { viewport, colorScheme: theme });
        const { page, errors } = await newTab(ctx);
        const suffix = `${theme}-${width}`;
        await page.goto('/login');
        await page.getByRole('heading', { name: 'Login' }).waitFor();
        await shoot(page, `login-${suffix}`);
        await signIn(page, 'owner@demo.test');
        await page.getByRole('heading', { name: 'Select Your Organization' }).waitFor();
        await shoot(page, `org-picker-${suffix}`);
        await page.getByRole('button', { name: 'Acme Plumbing' }).click();
        await expectPath(page, '/dashboard');
        await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
        await page.getByRole('region', { name: 'Customers' }).getByText(/^\d+$/).waitFor(); // the total has arrived
        await shoot(page, `dashboard-${suffix}`);
        await page.goto('/customers');
        await page.getByRole('heading', { name: 'Customers', level: 1 }).waitFor();
        await page.getByRole('table').waitFor();
        await shoot(page, `customers-${suffix}`);
        if (width === 'phone') {
          // Under 640px the rows stack: nothing may scroll sideways.
          await page.setViewportSize(NARROW);
          expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(NARROW.width);
          await shoot(page, `customers-${theme}-narrow`);
          await page.setViewportSize(viewport);
        }
        if (width === 'phone') {
          await page.getByRole('button', { name: 'Open menu' }).click();
          await page.getByRole('complementary', { name: 'Sidebar' }).waitFor();
          await page.waitForTimeout(300); // let the slide-in transition finish
          await shoot(page, `drawer-${suffix}`);
        }
        expect(errors).toEqual([]);
        await ctx.close();
      });
    }
  }
});
