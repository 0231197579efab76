// D57 D58 the office manager's journey: filter the list, save it as a view, log out and in again, open the
// view, select all N matching, tag them, while someone else changes one of them, undo, and see that one
// named as changed since and left as it is (the API agrees); an action undone later from the activity log.
// Then the list with a selection and an action's dialog in both themes at desktop and phone width:
// screenshots (test-results/screenshots/, and with UPDATE_DOCS_SCREENSHOTS=1 docs/screenshots/), and axe's
// WCAG 2.2 A/AA rules on each.
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { ACME, apiAs, deleteCustomersMatching, unique, type Api } from './api';
import { DESKTOP, expectPath, signIn, skipReason, toasts, useBrowser } from './browser';

const OWNER = 'owner@demo.test';
/** More than one page of 25, so that 'Select all N matching' is offered. */
const HOW_MANY = 27;
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
const NARROW = { width: 390, height: 844 };

/** axe-core in the page (evaluated over the DevTools protocol, so the page's CSP does not apply): each violation in words. */
async function axe(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(async (tags) => {
    const w = window as unknown as { axe: { run(ctx: Document, o: unknown): Promise<{ violations: { id: string; nodes: { target: unknown[] }[] }[] }> } };
    const r = await w.axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
    return r.violations.map((v) => `${v.id}: ${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')}`);
  }, AXE_TAGS);
}

async function shoot(page: Page, name: string, { forDocs = false } = {}) {
  await page.evaluate(() => document.fonts.ready);
  await page.screenshot({ path: `test-results/screenshots/${name}.png` });
  if (forDocs && process.env.UPDATE_DOCS_SCREENSHOTS) await page.screenshot({ path: `docs/screenshots/${name}.jpg`, type: 'jpeg', quality: 70, scale: 'css' });
}

/** HOW_MANY customers tagged `bulk-{sfx}`, named `Bulk {sfx} 01`…; their ids by name. */
async function makeCustomers(api: Api, sfx: string): Promise<Map<string, number>> {
  const made = new Map<string, number>();
  for (let i = 1; i <= HOW_MANY; i++) {
    const name = `Bulk ${sfx} ${String(i).padStart(2, '0')}`;
    const { id } = await api.call<{ id: number }>('POST', '/v1/customers/', { org: ACME, body: { name, tags: [`bulk-${sfx}`] } });
    made.set(name, id);
  }
  return made;
}

const rows = (page: Page) => page.getByRole('table').getByRole('checkbox', { name: /^Select Bulk / });

describe.skipIf(skipReason)('D58 bulk actions on the customers list', () => {
  const browser = useBrowser();

  test('D57 D58 filter, save a view, log out and in, open it, select all matching, tag them; one changed meanwhile is named by the undo and keeps its change', async () => {
    const sfx = unique();
    const api = await apiAs(OWNER);
    let viewId: number | null = null;
    try {
      const ids = await makeCustomers(api, sfx);
      const { page } = await browser.open();
      await page.goto('/login');
      await signIn(page, OWNER);
      await page.getByRole('button', { name: 'Acme Plumbing' }).click();
      await expectPath(page, '/dashboard');
      await page.goto('/customers');
      await page.getByLabel('Tag', { exact: true }).fill(`bulk-${sfx}`);
      await page.getByText(`${HOW_MANY} customers match`).waitFor();

      await page.getByRole('button', { name: 'Save as view…' }).click();
      const naming = page.getByRole('dialog');
      await naming.getByRole('textbox', { name: /Name/ }).fill(`Bulk ${sfx}`);
      await naming.getByRole('button', { name: 'Save view' }).click();
      await toasts(page).getByText('View saved').waitFor();
      await page.waitForURL((u) => u.searchParams.has('view'));
      viewId = Number(new URL(page.url()).searchParams.get('view'));

      // Log out and in again: the view is the server's, not the browser's.
      await page.getByRole('button', { name: OWNER }).click();
      await page.getByRole('button', { name: 'Logout' }).click();
      await expectPath(page, '/login');
      await signIn(page, OWNER);
      await page.waitForURL((u) => u.pathname !== '/login');
      if (new URL(page.url()).pathname === '/org-picker') await page.getByRole('button', { name: 'Acme Plumbing' }).click();
      await expectPath(page, '/customers'); // back where the person logged out
      await page.goto('/customers'); // the list as it comes, then the view chosen by name
      await page.getByRole('heading', { name: 'Customers', level: 1 }).waitFor();
      await page.getByRole('combobox', { name: 'View' }).selectOption({ label: `Bulk ${sfx}` });
      await page.getByText(`${HOW_MANY} customers match`).waitFor();
      await expect.poll(() => rows(page).count()).toBe(25);

      await page.getByRole('checkbox', { name: 'Select every customer on this page' }).check();
      await page.getByRole('status').filter({ hasText: '25 selected' }).waitFor();
      await page.getByRole('button', { name: `Select all ${HOW_MANY} matching` }).click();
      await page
        .getByRole('status')
        .filter({ hasText: `All ${HOW_MANY} matching selected` })
        .waitFor();
      await page.getByRole('group', { name: 'Actions on the selected customers' }).getByRole('button', { name: 'Add tag' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add a tag' });
      await dialog.getByRole('combobox', { name: 'Tag' }).fill('landlord');
      await dialog.getByText(`Tag ${HOW_MANY} customers “landlord”?`).waitFor();
      await dialog.getByRole('button', { name: `Tag ${HOW_MANY} customers` }).click();
      const done = toasts(page)
        .getByRole('listitem')
        .filter({ hasText: `${HOW_MANY} customers changed` });
      await done.hover(); // holds it while someone else works

      // Meanwhile someone else changes one of them.
      const one = `Bulk ${sfx} 07`;
      const path = `/v1/customers/${ids.get(one)}/`;
      const c = await api.call<{ version: number; tags: string[] }>('GET', path, { org: ACME });
      expect(c.tags).toEqual([`bulk-${sfx}`, 'landlord']);
      await api.call('PATCH', path, { org: ACME, body: { tags: [...c.tags, 'called'], version: c.version } });

      await done.getByRole('button', { name: 'Undo' }).click();
      await toasts(page).getByText(`1 customer was changed since and was left as it is: ${one}.`).waitFor();
      for (const [name, id] of ids) {
        const tags = (await api.call<{ tags: string[] }>('GET', `/v1/customers/${id}/`, { org: ACME })).tags;
        expect(tags, name).toEqual(name === one ? [`bulk-${sfx}`, 'landlord', 'called'] : [`bulk-${sfx}`]);
      }
    } finally {
      if (viewId) await api.call('DELETE', `/v1/views/${viewId}/`, { org: ACME }).catch(() => undefined);
      await deleteCustomersMatching(api, ACME, sfx);
    }
  });

  test('D58 a bulk action is undone later from its entry in the activity log, which then offers Undo no more', async () => {
    const sfx = unique();
    const api = await apiAs(OWNER);
    try {
      const ids = [...(await makeCustomers(api, sfx)).values()].slice(0, 3);
      await api.call('POST', '/v1/customers/bulk/', { org: ACME, body: { ids, action: 'set_status', status: 'lead' } });
      const { page } = await browser.signedIn(OWNER, { org: 'Acme Plumbing', path: '/activity' });
      const entry = page.getByRole('row').filter({ hasText: 'set 3 customers to Lead' }).first();
      await entry.getByRole('button', { name: /^Undo the bulk change to 3 customers/ }).click();
      await page.getByRole('dialog', { name: 'Undo this bulk change?' }).getByRole('button', { name: 'Undo' }).click();
      await toasts(page).getByText('Undone').waitFor();
      await page.getByRole('row').filter({ hasText: 'undid a bulk change to 3 customers' }).first().waitFor();
      await expect.poll(() => entry.getByRole('button', { name: /^Undo/ }).count()).toBe(0);
      for (const id of ids) expect((await api.call<{ status: string }>('GET', `/v1/customers/${id}/`, { org: ACME })).status).toBe('active');
    } finally {
      await deleteCustomersMatching(api, ACME, sfx);
    }
  });

  test('D58 the selection and an action’s dialog in both themes at desktop and phone width: screenshots, and no axe violation', async () => {
    const sfx = unique();
    const api = await apiAs(OWNER);
    try {
      await makeCustomers(api, sfx);
      mkdirSync('test-results/screenshots', { recursive: true });
      const problems: string[] = [];
      for (const colorScheme of ['light', 'dark'] as const) {
        for (const [width, viewport] of [
          ['desktop', DESKTOP],
          ['phone', NARROW],
        ] as const) {
          const { page } = await browser.signedIn(OWNER, { org: 'Acme Plumbing', viewport, colorScheme, path: `/customers?tag=bulk-${sfx}` });
          await page.getByText(`${HOW_MANY} customers match`).waitFor();
          await rows(page).nth(1).check();
          await rows(page).nth(2).check();
          await page.getByRole('group', { name: 'Actions on the selected customers' }).waitFor();
          const at = `${colorScheme}, ${width}`;
          problems.push(...(await axe(page)).map((p) => `list · ${at}: ${p}`));
          await shoot(page, `customers-bulk-${colorScheme}-${width}`, { forDocs: true });
          await page.getByRole('button', { name: 'Custom field…' }).waitFor();
          await page.getByRole('button', { name: 'Add tag' }).click();
          const dialog = page.getByRole('dialog', { name: 'Add a tag' });
          await dialog.getByRole('combobox', { name: 'Tag' }).fill('landlord');
          await dialog.getByText('Tag 2 customers “landlord”?').waitFor();
          problems.push(...(await axe(page)).map((p) => `dialog · ${at}: ${p}`));
          await shoot(page, `customers-bulk-dialog-${colorScheme}-${width}`);
          await dialog.getByRole('button', { name: 'Cancel' }).click();
        }
      }
      expect(problems).toEqual([]);
    } finally {
      await deleteCustomersMatching(api, ACME, sfx);
    }
  });
});
