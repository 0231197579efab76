// D59 in Chromium: Beacon Electric's owner assigns a new customer to the technician (tech@demo.test, whose
// member role sees only the customers assigned to them) in the form; the technician's list holds only
// theirs; while the technician has the customer open, the owner reassigns it away, and the technician's
// save says 'This customer is no longer assigned to you.' with the typing kept. Then the list with its 'Assigned to'
// column and the permissions page's 'Sees' row, in both themes at desktop and phone width
// (test-results/screenshots/). The customer is deleted at the end.
import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { apiAs, BEACON, deleteCustomersMatching, unique, type Api } from './api';
import { DESKTOP, expectPath, skipReason, useBrowser } from './browser';

const OWNER = 'beacon@demo.test';
const TECH = 'tech@demo.test';
const OUT = 'test-results/screenshots';
const NARROW = { width: 390, height: 844 };

const shoot = async (page: Page, name: string) => {
  await page.evaluate(() => document.fonts.ready);
  await page.screenshot({ path: `${OUT}/${name}.png` });
};

describe.skipIf(skipReason)('assigned customers (D59)', () => {
  const browser = useBrowser();
  let ownerApi: Promise<Api> | undefined;
  const api = () => (ownerApi ??= apiAs(OWNER));

  test('D59 the owner assigns a customer to the technician, who sees only theirs; reassigned away, it is gone at their next step', async () => {
    const sfx = unique();
    const name = `Assigned ${sfx}`;
    try {
      const made = await (await api()).call<{ id: number }>('POST', '/v1/customers/', { org: BEACON, body: { name } });
      const owner = await browser.signedIn(OWNER, { path: `/customers/${made.id}/edit` });
      await owner.page.getByLabel('Assigned to').selectOption({ label: 'Theo' });
      await owner.page.getByRole('button', { name: 'Save' }).click();
      await expectPath(owner.page, `/customers/${made.id}`);
      await owner.page.getByText('Theo', { exact: true }).first().waitFor(); // in the details, and on the timeline

      const tech = await browser.signedIn(TECH, { path: '/customers' });
      const rows = tech.page.getByRole('table').getByRole('row');
      await tech.page.getByRole('link', { name }).waitFor();
      expect(await rows.count()).toBe(1 + 6); // the header and the handful of the demo, with this one
      await tech.page.getByRole('link', { name }).click();
      await expectPath(tech.page, `/customers/${made.id}`);
      await tech.page.getByRole('heading', { name }).waitFor();

      // Taken away while the technician has it open: the next step says so, and the list no longer has it.
      const record = await (await api()).call<{ version: number }>('GET', `/v1/customers/${made.id}/`, { org: BEACON });
      await (await api()).call('PATCH', `/v1/customers/${made.id}/`, { org: BEACON, body: { version: record.version, assigned_to: null } });
      await tech.page.getByRole('link', { name: 'Edit' }).click();
      await tech.page.getByLabel('Phone').fill('(503) 555-0199');
      await tech.page.getByRole('button', { name: 'Save' }).click();
      await tech.page.getByText('This customer is no longer assigned to you. Your changes are still in the form.').waitFor();
      expect(await tech.page.getByLabel('Phone').inputValue()).toBe('(503) 555-0199'); // the typing kept
      await tech.page.goto('/customers');
      await tech.page.getByRole('table').waitFor();
      expect(await tech.page.getByRole('link', { name }).count()).toBe(0);
    } finally {
      await deleteCustomersMatching(await api(), BEACON, sfx);
    }
  });

  for (const theme of ['light', 'dark'] as const) {
    test(`D59 the list's 'Assigned to' and the permissions' 'Sees' — ${theme}, desktop and phone; nothing sideways on a phone`, async () => {
      mkdirSync(OUT, { recursive: true });
      const { page } = await browser.signedIn(OWNER, { path: '/customers?assigned=none', viewport: DESKTOP, colorScheme: theme });
      await page.getByRole('table').waitFor();
      await page.goto('/customers');
      await page.getByRole('columnheader', { name: 'Assigned to' }).waitFor();
      await shoot(page, `assigned-list-${theme}-desktop`);
      await page.goto('/permissions');
      await page.getByRole('heading', { name: 'Permissions' }).first().waitFor();
      await shoot(page, `assigned-permissions-${theme}-desktop`);
      await page.setViewportSize(NARROW);
      await page.goto('/customers');
      await page.getByRole('heading', { name: 'Customers' }).first().waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(NARROW.width);
      await shoot(page, `assigned-list-${theme}-phone`);
      await page.goto('/permissions');
      await page.getByRole('heading', { name: 'Permissions' }).first().waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(NARROW.width);
      await shoot(page, `assigned-permissions-${theme}-phone`);
    });
  }
});
