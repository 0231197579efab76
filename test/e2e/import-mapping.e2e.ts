// D60 D67 through a real file in Chromium: a business new here (an organization with nothing in it yet)
// imports an Outlook contacts export (test/server/fixtures/) without a change of its header: the mapping
// screen shows each column's guess, a column changed by keyboard previews again, and the import makes the
// customers with their service locations and contacts; then it downloads everything as one ZIP. Then the mapping
// screen in both themes at desktop and phone width (test-results/screenshots/), nothing sideways on a
// phone.
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, inject, test } from 'vitest';
import { unzip } from '../server/csv-common';
import { apiAs, unique } from './api';
import { DESKTOP, expectPath, skipReason, useBrowser } from './browser';

const OWNER = 'owner@demo.test';
/** The owner of an organization with nothing in it yet (global-setup.ts). */
const MOVER = inject('mover');
const OUT = 'test-results/screenshots';
const NARROW = { width: 390, height: 844 };

/** The Outlook fixture (Windows-1252) with every surname and email made the test's own. */
function outlookFile(sfx: string): Buffer {
  const text = readFileSync(path.join(import.meta.dirname, '../server/fixtures/outlook-contacts.csv')).toString('latin1');
  const own = text
    .replace(/"(Lopez|Okafor)"/g, `"$1 ${sfx}"`)
    .replace('"Cascade Property Group"', `"Cascade Property Group ${sfx}"`)
    .replace(/([\w.]+)@/g, `$1.${sfx}@`);
  return Buffer.from(own, 'latin1');
}

async function choose(page: Page, sfx: string) {
  await page.goto('/customers/import');
  await page.getByLabel('CSV file').setInputFiles({ name: `outlook-${sfx}.csv`, mimeType: 'text/csv', buffer: outlookFile(sfx) });
  await page.getByRole('heading', { name: 'Columns' }).waitFor();
}

describe.skipIf(skipReason)('import from Outlook (D60)', () => {
  const browser = useBrowser();

  test('D60 D67 a new business moves in from Outlook: the export maps without a change, a column changed by keyboard previews again, the customers come with their locations and contacts; then it downloads everything', async () => {
    const sfx = unique();
    const { page } = await browser.signedIn(MOVER.email, { password: MOVER.password });
    const mover = await apiAs(MOVER.email, MOVER.password);
    const org = (await mover.call<{ organizations: { id: number; name: string }[] }>('GET', '/v1/auth/me/')).organizations.find((o) => o.name === MOVER.org)!.id;
    // An organization with nothing in it yet: its dashboard offers the import.
    await page.getByRole('link', { name: 'import them from a CSV file' }).click();
    await expectPath(page, '/customers/import');
    await page.getByLabel('CSV file').setInputFiles({ name: `outlook-${sfx}.csv`, mimeType: 'text/csv', buffer: outlookFile(sfx) });
    await page.getByRole('heading', { name: 'Columns' }).waitFor();
    await page.getByText('Read as Windows-1252 (Excel on Windows), columns separated by commas.').waitFor();
    expect(await page.getByRole('combobox', { name: 'E-mail Address', exact: true }).inputValue()).toBe('email');
    expect(await page.getByRole('combobox', { name: 'Home Street', exact: true }).inputValue()).toBe('location.address_line');
    // Outlook's many empty columns wait behind a button; shown, each is 'Do not import'.
    await page.getByRole('button', { name: /^Show \d+ empty columns \(not imported\)$/ }).click();
    expect(await page.getByRole('combobox', { name: 'Title', exact: true }).inputValue()).toBe('-');
    await page.getByRole('button', { name: /^Hide the \d+ empty columns$/ }).click();
    await page.getByRole('status').getByText('3 rows → 3 customers, 2 locations, 1 contact').waitFor();
    await page.getByText(/^Not imported: Title, Suffix, Department, Job Title/).waitFor();

    // Notes are left out, chosen with the keyboard alone (focus, then the first option: Do not import).
    const notes = page.getByRole('combobox', { name: 'Notes', exact: true });
    expect(await notes.inputValue()).toBe('note');
    await notes.focus();
    await page.keyboard.press('Home');
    await page.getByText('As you chose.').waitFor();
    await page.getByRole('status').getByText('3 rows → 3 customers, 2 locations, 1 contact').waitFor();

    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await page.getByRole('heading', { name: 'Import finished' }).waitFor();
    await page.getByText('3 created, 0 updated, 0 skipped; 2 locations and 1 contact added', { exact: true }).waitFor();

    const found = await mover.call<{ results: { id: number; name: string }[] }>('GET', '/v1/customers/?page_size=100&sort=name', { org });
    expect(found.results.map((c) => c.name)).toEqual([`Cascade Property Group ${sfx}`, `Maria J. Lopez ${sfx}`, `Tom Okafor ${sfx}`]);
    const maria = found.results.find((c) => c.name.startsWith('Maria'))!;
    const record = await mover.call<{ locations: { city: string }[]; contacts: { email: string }[] }>('GET', `/v1/customers/${maria.id}/`, { org });
    expect((await mover.call<{ count: number }>('GET', `/v1/customers/${maria.id}/notes/`, { org })).count).toBe(0);
    expect(record.locations.map((l) => l.city)).toEqual(['Bend']);
    expect(record.contacts.map((c) => c.email)).toEqual([`maria.lopez.${sfx}@home.example`]);

    // The next file with this header row is offered the same choices.
    await choose(page, `${sfx}b`);
    await page.getByText('Your choices from the last import of a file with these columns.').waitFor();
    expect(await page.getByRole('combobox', { name: 'Notes', exact: true }).inputValue()).toBe('-');

    // D67: and it can leave with all of it: one ZIP whose files hold the customers, their locations and contacts.
    await page.goto('/settings');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download everything' }).click()]);
    const files = unzip(readFileSync((await download.path())!));
    expect(files.get('customers.csv')!.toString('utf8')).toContain(`Maria J. Lopez ${sfx}`);
    expect(files.get('locations.csv')!.toString('utf8')).toContain('Bend');
    expect(files.get('contacts.csv')!.toString('utf8')).toContain(`maria.lopez.${sfx}@home.example`);
  });

  for (const theme of ['light', 'dark'] as const) {
    test(`D60 the mapping screen — ${theme}, desktop and phone; nothing sideways on a phone`, async () => {
      mkdirSync(OUT, { recursive: true });
      const { page } = await browser.signedIn(OWNER, { org: 'Acme Plumbing', viewport: DESKTOP, colorScheme: theme });
      await choose(page, unique());
      await page.evaluate(() => document.fonts.ready);
      await page.screenshot({ path: `${OUT}/import-mapping-${theme}-desktop.png` });
      await page.setViewportSize(NARROW);
      // The sidebar becomes the drawer and slides away: the picture once it has.
      await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished)));
      await page.getByRole('heading', { name: 'Columns' }).scrollIntoViewIfNeeded();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(NARROW.width);
      await page.screenshot({ path: `${OUT}/import-mapping-${theme}-phone.png` });
    });
  }
});
