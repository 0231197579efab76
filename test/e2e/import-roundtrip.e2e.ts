// D43 D44 through real files in Chromium: a file the product exported imports back with "update" and
// changes nothing; a Windows-1252 file (Excel's 'CSV' on Windows) and a semicolon-separated one import
// with their accents intact (D43: its curly quotes, apostrophe and € too, and D45 a straight apostrophe finds
// them), and the preview says how it read them. Names carry a random suffix and the
// customers made are deleted at the end, so the demo data looks as before.
import { readFile } from 'node:fs/promises';
import { describe, expect, test } from 'vitest';
import { ACME, apiAs, deleteCustomersMatching, unique, type Api } from './api';
import { expectPath, sidebarNav, skipReason, useBrowser } from './browser';

const OWNER = 'owner@demo.test';

interface Stored {
  id: number;
  name: string;
  phone: string | null;
  company: string | null;
  city: string | null;
  version: number;
}

describe.skipIf(skipReason)('import round trip', () => {
  const browser = useBrowser();
  let ownerApi: Promise<Api> | undefined;
  const api = () => (ownerApi ??= apiAs(OWNER));
  const cleanUp = async (suffix: string) => deleteCustomersMatching(await api(), ACME, suffix);
  const stored = async (sfx: string) => (await (await api()).call<{ results: { id: number }[] }>('GET', `/v1/customers/?q=${sfx}&page_size=100`, { org: ACME })).results;
  const record = async (id: number) => (await api()).call<Stored>('GET', `/v1/customers/${id}/`, { org: ACME });

  test('D43 D44 export, then import that file with "update": nothing changes; the formula guard is read back off', async () => {
    const sfx = unique();
    try {
      for (const body of [
        { name: `Round Trip ${sfx}`, phone: '+1 503 555 0114', company: '=not a formula', email: `round.${sfx}@example.test` },
        { name: `Zoë Ørsted ${sfx}`, company: 'Sums, Inc.', city: 'Zürich', email: `zoe.${sfx}@example.test`, tags: ['-minus', 'vip'] },
      ])
        await (await api()).call('POST', '/v1/customers/', { org: ACME, body });
      const before = await Promise.all((await stored(sfx)).map((c) => record(c.id)));

      const { page } = await browser.signedIn(OWNER, { org: 'Acme Plumbing' });
      await sidebarNav(page).getByRole('link', { name: 'Customers' }).click();
      await page.getByRole('searchbox', { name: 'Search customers' }).fill(sfx);
      await page.getByText('2 customers match').waitFor();
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
      const bytes = await readFile(await download.path());
      expect(bytes.toString('utf8')).toContain("'+1 503 555 0114");

      await page.getByRole('link', { name: 'Import' }).click();
      await expectPath(page, '/customers/import');
      // The very bytes downloaded, under the name the browser saved them as.
      await page.getByLabel('CSV file').setInputFiles({ name: download.suggestedFilename(), mimeType: 'text/csv', buffer: bytes });
      await page.getByText('Read as UTF-8, columns separated by commas.').waitFor();
      await page.getByText(/2 with an email that already exists \(2 of them already up to date\)/).waitFor();
      await page.getByRole('radio', { name: /Update them/ }).check();
      await page.getByRole('button', { name: 'Import', exact: true }).click();
      await page.getByRole('heading', { name: 'Import finished' }).waitFor();
      await page.getByText('0 created, 0 updated, 0 skipped, 2 already up to date', { exact: true }).waitFor();

      const after = await Promise.all(before.map((c) => record(c.id)));
      expect(after).toEqual(before);
      expect(after.map((c) => c.phone)).toContain('+1 503 555 0114');
    } finally {
      await cleanUp(sfx);
    }
  });

  test('D43 a Windows-1252 file and a semicolon-separated file import with their accents; D44 a changed name shows before → after', async () => {
    const sfx = unique();
    try {
      const { page } = await browser.signedIn(OWNER, { org: 'Acme Plumbing' });
      await page.goto('/customers/import');
      const cp1252 = {
        name: `excel-${sfx}.csv`,
        mimeType: 'application/vnd.ms-excel',
        buffer: Buffer.from(`name,email,city\r\nRenée Dupré ${sfx},renee.${sfx}@example.test,Besançon\r\n`, 'latin1'),
      };
      await page.getByLabel('CSV file').setInputFiles(cp1252);
      await page.getByText('Read as Windows-1252 (Excel on Windows), columns separated by commas.').waitFor();
      await page.getByRole('table').getByText(`Renée Dupré ${sfx}`).waitFor();
      await page.getByRole('button', { name: 'Import', exact: true }).click();
      await page.getByText('1 created, 0 updated, 0 skipped', { exact: true }).waitFor();

      await page.getByRole('button', { name: 'Import another file' }).click();
      const semicolons = {
        name: `euro-${sfx}.csv`,
        mimeType: 'text/csv',
        buffer: Buffer.from(
          `Name;Email;City\r\nRenée M. Dupré ${sfx};renee.${sfx}@example.test;Besançon\r\nJosé Núñez ${sfx};jose.${sfx}@example.test;Sevilla\r\n`,
          'utf8',
        ),
      };
      await page.getByLabel('CSV file').setInputFiles(semicolons);
      await page.getByText('Read as UTF-8, columns separated by semicolons.').waitFor();
      await page.getByRole('radio', { name: /Update them/ }).check();
      await page.getByRole('table').getByText(`Name: Renée Dupré ${sfx} → Renée M. Dupré ${sfx}`).waitFor();
      await page.getByRole('button', { name: 'Import', exact: true }).click();
      await page.getByText('1 created, 1 updated, 0 skipped', { exact: true }).waitFor();

      const names = (await stored(sfx)).map((c) => (c as unknown as Stored).name).sort();
      expect(names).toEqual([`José Núñez ${sfx}`, `Renée M. Dupré ${sfx}`]);
    } finally {
      await cleanUp(sfx);
    }
  });

  test("D43 D45 a semicolon Windows-1252 file with curly quotes, an apostrophe and € imports as written; typing O'Brien with a straight apostrophe finds it", async () => {
    const sfx = unique();
    // Excel on Windows writes these as single bytes (Windows-1252), not as UTF-8.
    const WINDOWS_1252: Record<string, number> = { '“': 0x93, '”': 0x94, '’': 0x92, '–': 0x96, '€': 0x80, é: 0xe9 };
    const cp1252 = (text: string) => Buffer.from([...text].map((ch) => WINDOWS_1252[ch] ?? ch.charCodeAt(0)));
    const name = `Renée “Ree” O’Brien ${sfx}`;
    const company = `O’Brien – Sons €50 ${sfx}`;
    try {
      const { page } = await browser.signedIn(OWNER, { org: 'Acme Plumbing' });
      await page.goto('/customers/import');
      const buffer = cp1252(`Name;Company;City\r\n${name};${company};Cork\r\n`);
      expect(buffer.includes(0xc2)).toBe(false); // no UTF-8 in it
      await page.getByLabel('CSV file').setInputFiles({ name: `excel-${sfx}.csv`, mimeType: 'application/vnd.ms-excel', buffer });
      await page.getByText('Read as Windows-1252 (Excel on Windows), columns separated by semicolons.').waitFor();
      await page.getByRole('table').getByText(name).waitFor();
      await page.getByRole('button', { name: 'Import', exact: true }).click();
      await page.getByText('1 created, 0 updated, 0 skipped', { exact: true }).waitFor();

      await sidebarNav(page).getByRole('link', { name: 'Customers' }).click();
      await page.getByRole('searchbox', { name: 'Search customers' }).fill(`O'Brien ${sfx}`);
      await page.getByText('1 customer matches', { exact: true }).waitFor(); // the search's answer, not the whole list
      await page.getByRole('table').getByRole('link', { name }).click();
      await page.getByRole('heading', { level: 1, name }).waitFor();
      await page.getByText(company).first().waitFor();
      const [made] = await stored(sfx);
      expect(await record(made!.id)).toMatchObject({ name, company, city: 'Cork' });
    } finally {
      await cleanUp(sfx);
    }
  });

  test('D44 at 1280×800 and at 390 px the problems of a row are in view without scrolling sideways, in both themes', async () => {
    const sfx = unique();
    const { page } = await browser.signedIn(OWNER, { org: 'Acme Plumbing' });
    const long = 'x'.repeat(60);
    const csv = `name,email,phone,company,city,status,tags\r\nWide Row ${sfx} ${long},not-an-email,12,Company ${long},City ${long},sleeping,${long}\r\n`;
    for (const [viewport, theme] of [
      [{ width: 1280, height: 800 }, 'light'],
      [{ width: 1280, height: 800 }, 'dark'],
      [{ width: 390, height: 844 }, 'light'],
    ] as const) {
      await page.setViewportSize(viewport);
      await page.emulateMedia({ colorScheme: theme });
      await page.goto('/customers/import');
      await page.getByLabel('CSV file').setInputFiles({ name: `wide-${sfx}.csv`, mimeType: 'text/csv', buffer: Buffer.from(csv) });
      const problem = page
        .getByRole('table')
        .getByRole('listitem')
        .filter({ hasText: /^Email / })
        .first();
      await problem.waitFor();
      const box = await problem.boundingBox();
      const wrap = await page.locator('.import-table').first().boundingBox();
      expect(box, `${viewport.width} ${theme}`).not.toBeNull();
      // Within the scroll box as it stands (scrollLeft 0), and within the window.
      expect(
        await page
          .locator('.import-table')
          .first()
          .evaluate((el) => el.scrollLeft),
      ).toBe(0);
      expect(box!.x + box!.width).toBeLessThanOrEqual(Math.min(wrap!.x + wrap!.width, viewport.width) + 1);
    }
  });
});
