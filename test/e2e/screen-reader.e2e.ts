// D15 what a screen reader is given, in Chromium on the real pages: tables with captions and scoped
// headers, sortable columns with aria-sort, the permission boxes named by role and permission, every
// control named and every icon hidden, errors tied to their fields, references that resolve, and the
// status changes (saved, deleted, imported, conflict) said by a live region. The rules are checked on
// each page as it stands (semanticProblems); the accessibility tree is Playwright's snapshot of it.
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { ACME, apiAs, deleteCustomersMatching, revokeInvitations, unique, type Api } from './api';
import { expectPath, skipReason, toasts, useBrowser } from './browser';

const OWNER = 'owner@demo.test';

/** The roles that are controls: each must have a name that says something (not a lone '×'). */
const CONTROLS = 'button|link|textbox|searchbox|checkbox|radio|combobox|listbox|switch|tab|menuitem|spinbutton|slider';

/** D15 rules on what the page shows now; each broken one is returned in words. Runs in the page. */
function domProblems(): string[] {
  const problems: string[] = [];
  const tidy = (s: string | null | undefined) => (s ?? '').replace(/\s+/g, ' ').trim();
  const textOf = (ids: string | null) =>
    tidy(
      (ids ?? '')
        .split(/\s+/)
        .filter(Boolean)
        .map((id) => document.getElementById(id)?.textContent ?? '')
        .join(' '),
    );
  const short = (el: Element) => el.outerHTML.slice(0, 90);

  for (const table of document.querySelectorAll('table')) {
    const name = tidy(table.getAttribute('aria-label')) || textOf(table.getAttribute('aria-labelledby')) || tidy(table.querySelector(':scope > caption')?.textContent);
    if (!name) problems.push(`a table without a caption or name: ${short(table)}`);
    const heads = table.querySelectorAll(':scope > thead > tr > th');
    if (heads.length === 0) problems.push(`table '${name}' has no column headers`);
    for (const th of heads) if (th.getAttribute('scope') !== 'col') problems.push(`table '${name}': column header '${tidy(th.textContent)}' without scope="col"`);
    for (const th of table.querySelectorAll(':scope > tbody > tr > th')) {
      if (!['row', 'rowgroup'].includes(th.getAttribute('scope') ?? '')) problems.push(`table '${name}': header cell '${tidy(th.textContent)}' without scope="row"`);
    }
  }
  for (const el of document.querySelectorAll('[aria-sort]')) {
    if (el.tagName !== 'TH' || !['ascending', 'descending', 'none'].includes(el.getAttribute('aria-sort') ?? ''))
      problems.push(`aria-sort off a column header or with a wrong value: ${short(el)}`);
  }
  // Icons: hidden from the tree (the control around them has the name), or an image with a name.
  for (const svg of document.querySelectorAll('svg')) {
    if (svg.closest('[aria-hidden="true"]')) continue;
    if (svg.getAttribute('role') === 'img' && (svg.getAttribute('aria-label') || svg.querySelector('title'))) continue;
    problems.push(`an svg neither hidden nor named: ${short(svg)}`);
  }
  for (const img of document.querySelectorAll('img')) if (!img.hasAttribute('alt')) problems.push(`an img without alt: ${short(img)}`);
  // Every id an aria attribute names exists.
  for (const attr of ['aria-describedby', 'aria-labelledby', 'aria-controls']) {
    for (const el of document.querySelectorAll(`[${attr}]`)) {
      for (const id of (el.getAttribute(attr) ?? '').split(/\s+/).filter(Boolean))
        if (!document.getElementById(id)) problems.push(`${attr} names a missing id '${id}': ${short(el)}`);
    }
  }
  // An invalid field says why, through aria-describedby.
  for (const el of document.querySelectorAll('[aria-invalid="true"]')) {
    if (!textOf(el.getAttribute('aria-describedby'))) problems.push(`an invalid field without its error tied to it: ${short(el)}`);
  }
  // The toasts (and the route announcer) are polite live regions that are always there.
  const toasts = document.querySelector('section[aria-label="Notifications (Alt+T)"] [aria-live]');
  if (toasts?.getAttribute('aria-live') !== 'polite') problems.push('the notifications are not a polite live region');
  if (document.getElementById('route-announcer')?.getAttribute('aria-live') !== 'polite') problems.push('no polite route announcer');
  return problems;
}

/** domProblems, and the controls the accessibility tree shows without a name. */
async function semanticProblems(page: Page): Promise<string[]> {
  const problems = await page.evaluate(domProblems);
  const tree = await page.locator('body').ariaSnapshot();
  const control = new RegExp(`^\\s*- (${CONTROLS})(?: "((?:[^"\\\\]|\\\\.)*)")?(?=[\\s:\\[]|$)`);
  for (const line of tree.split('\n')) {
    const m = control.exec(line);
    if (m && !/[\p{L}\p{N}]/u.test(m[2] ?? '')) problems.push(`a ${m[1]} without a name: ${line.trim()}`);
  }
  return problems;
}

async function expectSound(page: Page, where: string) {
  // SPEC §9: the toast region loads beside the session's first calls; it is there once the app has started.
  await page.locator('section[aria-label="Notifications (Alt+T)"] [aria-live]').waitFor({ state: 'attached' });
  expect((await semanticProblems(page)).join('\n'), `${where}: D15 problems`).toBe('');
}

/** The text's nearest live region, and how it speaks ('polite', or 'assertive' for role=alert). */
const liveRegionOf = (page: Page, text: string) =>
  page.evaluate((t) => {
    // The innermost elements holding the text (none of their children holds all of it).
    const all = [...document.querySelectorAll('body *')].filter((el) => el.textContent?.includes(t) && ![...el.children].some((c) => c.textContent?.includes(t)));
    for (const el of all) {
      const live = el.closest('[aria-live],[role="alert"],[role="status"]');
      if (live) return live.getAttribute('aria-live') ?? (live.getAttribute('role') === 'alert' ? 'assertive' : 'polite');
    }
    return null;
  }, text);

describe.skipIf(skipReason)('D15 screen-reader semantics', () => {
  const browser = useBrowser();
  let ownerApi: Promise<Api> | undefined;
  const housekeeping = () => (ownerApi ??= apiAs(OWNER));
  const ownerOn = (path: string) => browser.signedIn(OWNER, { org: 'Acme Plumbing', path });

  test('D15 every page: tables have captions and scoped headers, controls are named, icons hidden, errors tied to their fields, references resolve', async () => {
    const sfx = unique();
    const api = await housekeeping();
    const email = `sr.${sfx}@example.test`;
    try {
      const kept = await api.call<{ id: number }>('POST', '/v1/customers/', { org: ACME, body: { name: `Screen Reader ${sfx}`, email, tags: ['sr'] } });
      const gone = await api.call<{ id: number }>('POST', '/v1/customers/', { org: ACME, body: { name: `Gone Away ${sfx}` } });
      await api.call('DELETE', `/v1/customers/${gone.id}/`, { org: ACME });
      await api.call('POST', `/v1/customers/${kept.id}/notes/`, { org: ACME, body: { body: `A note ${sfx}` } });
      await api.call('POST', '/v1/team/invitations/', { org: ACME, body: { email: `invitee.${sfx}@example.test`, role: 'member' } });

      const { page } = await ownerOn('/dashboard');
      await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
      await expectSound(page, 'dashboard');

      await page.goto('/customers');
      const list = page.getByRole('table', { name: /^Customers, page 1 of \d+$/ });
      await list.getByRole('row').nth(1).waitFor();
      await expectSound(page, 'customers list');
      // D26 D48 sortable columns: aria-sort on Name, Service city, Status, Created and Updated only; by default the list is by name.
      const sorts = await list.locator('th[aria-sort]').evaluateAll((ths) => ths.map((th) => [th.textContent, th.getAttribute('aria-sort')]));
      expect(sorts).toEqual([
        ['Name', 'ascending'],
        ['Service city', 'none'],
        ['Status', 'none'],
        ['Created', 'none'],
        ['Updated', 'none'],
      ]);

      await page.goto('/customers?view=deleted');
      await page
        .getByRole('table', { name: /^Deleted customers, page 1 of \d+$/ })
        .getByRole('row')
        .filter({ hasText: `Gone Away ${sfx}` })
        .waitFor();
      await expectSound(page, 'deleted customers');

      await page.goto(`/customers/${kept.id}`);
      await page.getByRole('heading', { name: `Screen Reader ${sfx}`, level: 1 }).waitFor();
      await page.getByText(`A note ${sfx}`).waitFor();
      await expectSound(page, 'customer page');

      // The form after a save with errors: each invalid field says why, through aria-describedby.
      await page.goto('/customers/new');
      const form = page.getByRole('form', { name: 'Customer' });
      await form.getByLabel('Email', { exact: true }).fill('not-an-email');
      await form.getByLabel('Phone', { exact: true }).fill('12');
      await form.getByRole('button', { name: 'Save' }).click();
      await expect.poll(() => page.locator('[aria-invalid="true"]').count()).toBe(3);
      const ties = await page.locator('[aria-invalid="true"]').evaluateAll((els) =>
        els.map((el) => [
          el.id && document.querySelector(`label[for="${el.id}"]`)?.textContent,
          (el.getAttribute('aria-describedby') ?? '')
            .split(' ')
            .map((id) => document.getElementById(id)?.textContent)
            .join(' | '),
        ]),
      );
      expect(ties).toEqual([
        ['Name', 'Name is required'],
        ['Email', 'Enter an email address like name@example.com'],
        ['Phone', 'Phone must have at least 7 digits'],
      ]);
      await expectSound(page, 'customer form with errors');

      await page.goto('/activity');
      await page
        .getByRole('table', { name: /^Activity, newest first, page 1 of \d+$/ })
        .getByRole('row')
        .nth(1)
        .waitFor();
      await expectSound(page, 'activity');

      await page.goto('/team');
      await page.getByRole('table', { name: /^Members, \d+ in all$/ }).waitFor();
      await page
        .getByRole('table', { name: 'Pending invitations' })
        .getByRole('row')
        .filter({ hasText: `invitee.${sfx}@example.test` })
        .waitFor();
      await expectSound(page, 'team');

      await page.goto('/permissions');
      const matrix = page.getByRole('table', { name: 'Permissions by role' });
      await matrix.getByRole('checkbox').first().waitFor();
      await expectSound(page, 'permissions');
      // Each box is named by its column's role and its row's permission, as 'member: customers:delete'.
      const names = await matrix.locator('tbody tr').evaluateAll((rows) => {
        const table = rows[0]!.closest('table')!;
        const roles = [...table.querySelectorAll('thead th')].slice(1).map((th) => th.firstChild?.textContent?.trim());
        return rows.flatMap((tr) => {
          const code = tr.querySelector('th[scope="row"] code')?.textContent;
          return code ? [...tr.querySelectorAll('td input[type="checkbox"]')].map((box, i) => [box.getAttribute('aria-label'), `${roles[i]}: ${code}`]) : [];
        });
      });
      expect(names.length).toBeGreaterThanOrEqual(4 * 15);
      for (const [given, expected] of names) expect(given).toBe(expected);
      await matrix.getByRole('checkbox', { name: 'member: customers:delete' }).waitFor();

      // The import preview: a row with an error and one whose email is taken.
      await page.goto('/customers/import');
      const csv = ['name,email,phone', `Ada Import ${sfx},ada.${sfx}@example.test,`, `Bad Row ${sfx},not-an-email,`, `Taken ${sfx},${email},`].join('\r\n') + '\r\n';
      await page.getByLabel('CSV file').setInputFiles({ name: `sr-${sfx}.csv`, mimeType: 'text/csv', buffer: Buffer.from(csv) });
      const preview = page.getByRole('table', { name: `The rows of sr-${sfx}.csv` });
      await preview
        .getByRole('row')
        .filter({ hasText: `Bad Row ${sfx}` })
        .waitFor();
      await expectSound(page, 'import preview');
    } finally {
      await revokeInvitations(api, ACME, [`invitee.${sfx}@example.test`]);
      await deleteCustomersMatching(api, ACME, sfx);
    }
  }, 120_000);

  test('D15 saved, deleted, imported and conflict are said by a live region (polite for the toasts, an alert for the conflict)', async () => {
    const sfx = unique();
    const api = await housekeeping();
    try {
      const { page } = await ownerOn('/customers/new');
      // Saved.
      const form = page.getByRole('form', { name: 'Customer' });
      await form.getByLabel('Name', { exact: true }).fill(`Live Region ${sfx}`);
      await form.getByRole('button', { name: 'Save' }).click();
      await toasts(page).getByText('Customer saved').waitFor();
      expect(await liveRegionOf(page, 'Customer saved')).toBe('polite');
      await page.waitForURL((u) => /^\/customers\/\d+$/.test(u.pathname));
      const id = Number(new URL(page.url()).pathname.split('/')[2]);

      // Conflict: someone else saves while the form is open.
      await page.goto(`/customers/${id}/edit`);
      await expect.poll(() => form.getByLabel('Name', { exact: true }).inputValue()).toBe(`Live Region ${sfx}`);
      const current = await api.call<{ version: number }>('GET', `/v1/customers/${id}/`, { org: ACME });
      await api.call('PATCH', `/v1/customers/${id}/`, { org: ACME, body: { city: 'Elsewhere', version: current.version } });
      await form.getByLabel('Company', { exact: true }).fill('Mine');
      await form.getByRole('button', { name: 'Save' }).click();
      await page.getByRole('region', { name: 'Someone else changed this customer' }).waitFor();
      expect(await liveRegionOf(page, 'Someone else changed this customer')).toBe('assertive');
      await page.getByRole('button', { name: 'Use their version' }).click();
      await page.getByRole('link', { name: 'Cancel' }).click();
      await expectPath(page, `/customers/${id}`);

      // Deleted.
      await page.getByRole('button', { name: 'Delete', exact: true }).click();
      await page
        .getByRole('dialog', { name: `Delete Live Region ${sfx}?` })
        .getByRole('button', { name: 'Delete customer' })
        .click();
      await toasts(page).getByText(`Live Region ${sfx} deleted`).waitFor();
      expect(await liveRegionOf(page, `Live Region ${sfx} deleted`)).toBe('polite');

      // Imported.
      await page.goto('/customers/import');
      const csv = ['name,email', `Imported One ${sfx},one.${sfx}@example.test`].join('\r\n') + '\r\n';
      await page.getByLabel('CSV file').setInputFiles({ name: `live-${sfx}.csv`, mimeType: 'text/csv', buffer: Buffer.from(csv) });
      await page.getByText('Nothing is saved until you press Import.').waitFor();
      await page.getByRole('button', { name: 'Import', exact: true }).click();
      await toasts(page).getByText('Import finished: 1 created, 0 updated, 0 skipped').waitFor();
      expect(await liveRegionOf(page, 'Import finished: 1 created')).toBe('polite');
    } finally {
      await deleteCustomersMatching(api, ACME, sfx);
    }
  });
});
