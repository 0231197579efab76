// The edges ordinary days reach (D40–D45), where only a browser shows them: a page whose code cannot
// load while offline or after a deployment (D40), Back and Forward over unsaved changes (D42).
import { describe, expect, test } from 'vitest';
import { expectPath, sidebarNav, skipReason, useBrowser } from './browser';

const CUSTOMERS_CHUNK = /\/assets\/chunks\/CustomersPage-[^/]+\.js$/;

describe.skipIf(skipReason)('D40 a page whose code cannot load', () => {
  const browser = useBrowser();

  test('D40 offline, a page not visited yet: the shell stays, the page area says so, and online the page appears', async () => {
    const { page } = await browser.signedIn('solo@demo.test');
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    await page.context().setOffline(true);
    await sidebarNav(page).getByRole('link', { name: 'Customers' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'This page could not be loaded.' });
    await alert.waitFor();
    expect(await page.getByText('Something went wrong. Please try refreshing the page.').count()).toBe(0);
    await expect.poll(() => sidebarNav(page).isVisible()).toBe(true);
    await expect.poll(() => page.getByRole('button', { name: 'Retry' }).isVisible()).toBe(true);
    await page.context().setOffline(false);
    await page.getByRole('heading', { name: 'Customers', level: 1 }).waitFor();
    await page.getByRole('table').waitFor();
  });

  test('D40 a file removed by a deployment reloads the app once at the same address, never in a loop', async () => {
    const { page } = await browser.signedIn('solo@demo.test');
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    // The old build's file is gone: the server answers 404 for it, this time and after the reload.
    await page.route(CUSTOMERS_CHUNK, (route) => route.fulfill({ status: 404, body: 'Not found' }));
    let loads = 0;
    page.on('load', () => loads++);
    await sidebarNav(page).getByRole('link', { name: 'Customers' }).click();
    await expectPath(page, '/customers');
    await expect.poll(() => loads, { timeout: 15_000 }).toBe(1);
    await page.getByRole('alert').filter({ hasText: 'This page could not be loaded.' }).waitFor();
    await sidebarNav(page).waitFor();
    await page.waitForTimeout(1000); // a loop would have reloaded again by now
    expect(loads).toBe(1);
    expect(new URL(page.url()).pathname).toBe('/customers');
  });
});

describe.skipIf(skipReason)('D42 Back and Forward ask first', () => {
  const browser = useBrowser();

  test('D42 Back from a form with unsaved changes asks; the address stays until the answer; leaving goes back', async () => {
    const { page } = await browser.signedIn('solo@demo.test', { path: '/customers' });
    await page.getByRole('table').waitFor();
    await page.getByRole('link', { name: 'Add Customer' }).first().click();
    await expectPath(page, '/customers/new');
    await page.getByRole('form', { name: 'Customer' }).getByLabel('Name', { exact: true }).fill('Half-typed Person');
    await page.goBack();
    const dialog = page.getByRole('dialog', { name: 'Leave without saving?' });
    await dialog.waitFor();
    await expectPath(page, '/customers/new');
    await dialog.getByRole('button', { name: 'Keep editing' }).click();
    expect(await page.getByRole('form', { name: 'Customer' }).getByLabel('Name', { exact: true }).inputValue()).toBe('Half-typed Person');
    await expectPath(page, '/customers/new');
    await page.goBack();
    await page.getByRole('dialog', { name: 'Leave without saving?' }).getByRole('button', { name: 'Leave without saving' }).click();
    await expectPath(page, '/customers');
    await page.getByRole('table').waitFor();
  });
});

describe.skipIf(skipReason)('a field an error scrolls to', () => {
  const browser = useBrowser();

  test('after a 409 the email field and its label show below the sticky top bar, not under it', async () => {
    const { page } = await browser.signedIn('solo@demo.test', { path: '/customers', viewport: { width: 1280, height: 480 } });
    const taken = (await page.getByRole('table').getByRole('link', { name: /@/ }).first().textContent())!.trim();
    await page.goto('/customers/new');
    const form = page.getByRole('form', { name: 'Customer' });
    await form.getByLabel('Name', { exact: true }).fill('Scroll Margin Check');
    await form.getByLabel('Email', { exact: true }).fill(taken);
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight)); // down at Save, the email field out of sight above
    await form.getByRole('button', { name: 'Save' }).click();
    await form.getByText('already has this email').waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('type'))).toBe('email');
    const [barBottom, labelTop] = await page.evaluate(() => {
      const input = document.activeElement as HTMLInputElement;
      // Scrolled to its top edge (Chromium centres a field it focuses; other browsers, a screen reader's
      // cursor or an in-page link bring it to the top): its scroll margin keeps the label in sight.
      input.scrollIntoView({ block: 'start' });
      const label = document.querySelector(`label[for="${input.id}"]`)!;
      return [document.querySelector('.topbar')!.getBoundingClientRect().bottom, label.getBoundingClientRect().top];
    });
    expect(labelTop).toBeGreaterThanOrEqual(barBottom);
  });
});

describe.skipIf(skipReason)('the customers list at everyday widths', () => {
  const browser = useBrowser();

  test('issue 34 item 11 at 1280×800 an email is one line, cut with its whole value in its title; the table never scrolls sideways', async () => {
    const { page } = await browser.signedIn('owner@demo.test', { org: 'Acme Plumbing', path: '/customers?page_size=100', viewport: { width: 1280, height: 800 } });
    await page.getByRole('table').waitFor();
    const lines = await page.evaluate(() =>
      [...document.querySelectorAll('.cell-email a')].map((a) => {
        const range = document.createRange();
        range.selectNodeContents(a);
        return [a.textContent, new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size, a.getAttribute('title')] as const;
      }),
    );
    expect(lines.length).toBeGreaterThan(20);
    expect(lines.filter(([, n]) => n > 1)).toEqual([]);
    expect(lines.filter(([text, , title]) => title !== text)).toEqual([]);
    const wrap = await page.evaluate(() => {
      const w = document.querySelector('.table-wrap')!;
      return w.scrollWidth - w.clientWidth;
    });
    expect(wrap).toBeLessThanOrEqual(1);
  });

  test('at phone width a "Sort by" menu sorts the list; at desktop width the headers do', async () => {
    const { page } = await browser.signedIn('owner@demo.test', { org: 'Acme Plumbing', path: '/customers', viewport: { width: 390, height: 844 } });
    await page.getByRole('table').waitFor();
    await page.getByRole('combobox', { name: 'Sort by' }).selectOption({ label: 'Newest first' });
    await page.waitForURL((u) => u.search === '?sort=-created_at');
    await page.setViewportSize({ width: 1400, height: 900 }); // the Created column shows where the table has room for it
    expect(await page.getByRole('combobox', { name: 'Sort by' }).isVisible()).toBe(false);
    expect(await page.getByRole('columnheader', { name: /Created/ }).getAttribute('aria-sort')).toBe('descending');
  });
});
