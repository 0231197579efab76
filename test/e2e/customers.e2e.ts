// Customer journeys: the record and its form (D22), duplicates (D23), notes and the timeline (D24),
// delete, Undo and restore (D25), the list's search in the URL (D26), CSV export and import (D27),
// edit conflicts (D31), and what a viewer is offered (D9). Every journey's names carry a random
// suffix, and the customers it made are deleted at its end, so the shared demo data looks as before.
import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { ACME, apiAs, deleteCustomersMatching, unique, type Api } from './api';
import { dismissToasts, expectPath, sidebarNav, skipReason, toasts, useBrowser } from './browser';

const OWNER = 'owner@demo.test';

interface NewCustomer {
  name: string;
  company?: string;
  email?: string;
  phone?: string;
  city?: string;
}

/** A phone number no seeded customer has: seven random digits after an area code. */
function randomPhone(): { digits: string; phone: string } {
  const digits = String(Math.floor(1_000_000 + Math.random() * 8_999_999));
  return { digits, phone: `(415) ${digits.slice(0, 3)}-${digits.slice(3)}` };
}

const customerForm = (page: Page) => page.getByRole('form', { name: 'Customer' });
const field = (page: Page, label: string) => customerForm(page).getByLabel(label, { exact: true });

/** The id in /customers/{id}, once the app has gone there. */
async function customerPageId(page: Page): Promise<number> {
  await page.waitForURL((u) => /^\/customers\/\d+$/.test(u.pathname), { timeout: 10_000 });
  return Number(new URL(page.url()).pathname.split('/')[2]);
}

/** Fills the Add Customer form (from the list's 'Add Customer') and saves; resolves on the customer's page. */
async function addCustomer(page: Page, c: NewCustomer): Promise<number> {
  await sidebarNav(page).getByRole('link', { name: 'Customers' }).click();
  await page.getByRole('link', { name: 'Add Customer' }).click();
  await expectPath(page, '/customers/new');
  await field(page, 'Name').fill(c.name);
  if (c.company) await field(page, 'Company').fill(c.company);
  if (c.email) await field(page, 'Email').fill(c.email);
  if (c.phone) await field(page, 'Phone').fill(c.phone);
  if (c.city) await field(page, 'City').fill(c.city);
  await customerForm(page).getByRole('button', { name: 'Save' }).click();
  await toasts(page).getByText('Customer saved').first().waitFor();
  const id = await customerPageId(page);
  await page.getByRole('heading', { name: c.name, level: 1 }).waitFor();
  return id;
}

/** Types into the list's search box and waits for the URL to carry it (D26). */
async function search(page: Page, q: string) {
  await page.getByRole('searchbox', { name: 'Search customers' }).fill(q);
  await page.waitForURL((u) => u.pathname === '/customers' && u.searchParams.get('q') === q, { timeout: 10_000 });
}

describe.skipIf(skipReason)('customers', () => {
  const browser = useBrowser();
  let ownerApi: Promise<Api> | undefined;
  /** The owner's own API session, for putting things back. */
  const housekeeping = () => (ownerApi ??= apiAs(OWNER));
  const cleanUp = async (suffix: string) => deleteCustomersMatching(await housekeeping(), ACME, suffix);

  const ownerTab = () => browser.signedIn(OWNER, { org: 'Acme Plumbing' });

  test("D22 D24 D25 D26 the owner creates a customer, finds it by a phone fragment written differently, edits it, sees the change in the timeline, adds a note, deletes it, undoes, deletes again and restores it from 'Deleted'", async () => {
    const sfx = unique();
    const name = `Harper Quinn ${sfx}`;
    const { digits, phone } = randomPhone();
    try {
      const { page } = await ownerTab();
      const id = await addCustomer(page, { name, email: `harper.${sfx}@example.test`, phone, city: 'Oakland' });
      const contact = page.getByRole('region', { name: 'Contact' });
      await contact.getByRole('link', { name: phone }).waitFor();

      // D26: the digits match however the number is written: "(415) 123-4567" is found by "123.4567".
      await sidebarNav(page).getByRole('link', { name: 'Customers' }).click();
      await search(page, `${digits.slice(0, 3)}.${digits.slice(3)}`);
      await page.getByRole('table').getByRole('link', { name }).click();
      await expectPath(page, `/customers/${id}`);

      await page.getByRole('link', { name: 'Edit', exact: true }).click();
      await expectPath(page, `/customers/${id}/edit`);
      const city = field(page, 'City');
      await expect.poll(() => city.inputValue()).toBe('Oakland');
      await city.fill('Berkeley');
      await customerForm(page).getByRole('button', { name: 'Save' }).click();
      await toasts(page).getByText('Changes saved').waitFor();
      await expectPath(page, `/customers/${id}`);
      await contact.getByText('Berkeley').waitFor();

      // D24: the change, before and after, in the timeline; then a note of one's own.
      const timeline = page.getByRole('region', { name: 'Notes and history' });
      await timeline.getByRole('listitem').filter({ hasText: 'Olivia changed city from Oakland to Berkeley' }).waitFor();
      await timeline.getByRole('listitem').filter({ hasText: 'Olivia added this customer' }).waitFor();
      const note = `The side gate code is 4${sfx}`;
      await timeline.getByLabel('Add a note').fill(note);
      await timeline.getByRole('button', { name: 'Add note' }).click();
      await toasts(page).getByText('Note added').waitFor();
      await timeline.getByRole('article', { name: 'Note by Olivia' }).getByText(note).waitFor();

      // D25: delete asks first; the toast's Undo restores.
      await dismissToasts(page);
      await page.getByRole('button', { name: 'Delete', exact: true }).click();
      const confirm = page.getByRole('dialog', { name: `Delete ${name}?` });
      await confirm.getByText('You can restore it from Deleted for 30 days.').waitFor();
      await confirm.getByRole('button', { name: 'Delete customer' }).click();
      await expectPath(page, '/customers');
      const deleted = toasts(page)
        .getByRole('listitem')
        .filter({ hasText: `${name} deleted` });
      await deleted.getByRole('button', { name: 'Undo' }).click();
      await toasts(page).getByRole('link', { name }).click();
      await expectPath(page, `/customers/${id}`);
      await page.getByRole('heading', { name, level: 1 }).waitFor();

      // Deleted again: gone everywhere (D25: 404), but listed under 'Deleted', from where it comes back.
      await dismissToasts(page);
      await page.getByRole('button', { name: 'Delete', exact: true }).click();
      await page
        .getByRole('dialog', { name: `Delete ${name}?` })
        .getByRole('button', { name: 'Delete customer' })
        .click();
      await toasts(page)
        .getByRole('listitem')
        .filter({ hasText: `${name} deleted` })
        .waitFor();
      await page.goto(`/customers/${id}`);
      await page.getByText('Customer not found').waitFor();
      await page.goto('/customers');
      await page.getByRole('navigation', { name: 'Customer views' }).getByRole('link', { name: 'Deleted' }).click();
      await page.waitForURL((u) => u.searchParams.get('view') === 'deleted');
      const row = page.getByRole('table').getByRole('row').filter({ hasText: name });
      await row.getByText('Olivia').waitFor(); // who deleted it
      await row.getByRole('button', { name: `Restore ${name}` }).click();
      await toasts(page)
        .getByRole('listitem')
        .filter({ hasText: `${name} restored` })
        .waitFor(); // the same words as Undo's (one restore, one toast)
      await row.waitFor({ state: 'detached' });
      await page.goto(`/customers/${id}`);
      await page.getByRole('heading', { name, level: 1 }).waitFor();
      const history = page.getByRole('region', { name: 'Notes and history' });
      await history.getByRole('listitem').filter({ hasText: 'Olivia restored this customer' }).first().waitFor();
      expect(await history.getByRole('listitem').filter({ hasText: 'Olivia deleted this customer' }).count()).toBe(2);
    } finally {
      await cleanUp(sfx);
    }
  });

  test('D23 a duplicate email is refused with a link to the existing customer', async () => {
    const sfx = unique();
    const first = `Morgan Reyes ${sfx}`;
    const email = `morgan.${sfx}@example.test`;
    try {
      const { page } = await ownerTab();
      const firstId = await addCustomer(page, { name: first, email });

      await page.goto('/customers/new');
      await field(page, 'Name').fill(`Morgan R. ${sfx}`);
      // Written otherwise (case, spaces), it is the same address (D22: stored trimmed and lower-cased).
      await field(page, 'Email').fill(`  Morgan.${sfx}@Example.TEST `);
      // While typing: "Possible duplicate: …" (D23), before anything is saved.
      const warning = customerForm(page).getByRole('status').filter({ hasText: 'Possible duplicate' });
      await warning.getByRole('link', { name: first }).waitFor();
      await warning.getByText('(same email)').waitFor();
      await customerForm(page).getByRole('button', { name: 'Save' }).click();
      const refusal = customerForm(page).getByText(`${first} already has this email`);
      await refusal.waitFor();
      expect(await field(page, 'Email').getAttribute('aria-invalid')).toBe('true');
      await expectPath(page, '/customers/new'); // nothing saved, everything typed still there
      expect(await field(page, 'Name').inputValue()).toBe(`Morgan R. ${sfx}`);
      // The link leads to the existing customer (the form asks first: it holds unsaved changes).
      await refusal.getByRole('link', { name: first }).click();
      await page.getByRole('dialog', { name: 'Leave without saving?' }).getByRole('button', { name: 'Leave without saving' }).click();
      await expectPath(page, `/customers/${firstId}`);
      await page.getByRole('heading', { name: first, level: 1 }).waitFor();
      await page.goto('/customers');
      await search(page, sfx);
      await page.getByText('1 customer matches').waitFor();
    } finally {
      await cleanUp(sfx);
    }
  });

  test('D31 two tabs edit the same customer and the second save shows the conflict with its typed values kept', async () => {
    const sfx = unique();
    const name = `Jamie Ortiz ${sfx}`;
    const before = randomPhone().phone;
    const after = randomPhone().phone;
    try {
      const a = await ownerTab();
      const id = await addCustomer(a.page, { name, phone: before, city: 'Fresno' });
      const b = await browser.tab(a.page.context());
      await b.page.goto(`/customers/${id}/edit`);
      await a.page.goto(`/customers/${id}/edit`);
      for (const t of [a, b]) await expect.poll(() => field(t.page, 'Name').inputValue()).toBe(name);

      // The first tab saves a new phone.
      await field(a.page, 'Phone').fill(after);
      await customerForm(a.page).getByRole('button', { name: 'Save' }).click();
      await toasts(a.page).getByText('Changes saved').waitFor();
      await expectPath(a.page, `/customers/${id}`);

      // The second, opened before that save, changes the city and the company.
      await field(b.page, 'City').fill('Modesto');
      await field(b.page, 'Company').fill(`Ortiz & Daughters ${sfx}`);
      await customerForm(b.page).getByRole('button', { name: 'Save' }).click();
      const panel = b.page.getByRole('region', { name: 'Someone else changed this customer' });
      await panel.getByText(/^Olivia saved changes on .+, after you opened this form\. Everything you typed is still here\.$/).waitFor();
      const changed = panel.getByRole('table', { name: 'Fields Olivia changed' });
      const phoneRow = changed.getByRole('row', { name: /^Phone/ });
      await phoneRow.getByRole('cell', { name: after }).waitFor();
      await phoneRow.getByRole('cell', { name: before }).waitFor(); // the form still holds the phone it started from
      await expectPath(b.page, `/customers/${id}/edit`);
      expect(await field(b.page, 'City').inputValue()).toBe('Modesto');
      expect(await field(b.page, 'Company').inputValue()).toBe(`Ortiz & Daughters ${sfx}`);

      // Saving on top keeps the other tab's phone (not edited here) and this tab's city and company.
      await panel.getByRole('button', { name: 'Keep my changes and save' }).click();
      await toasts(b.page).getByText('Changes saved').waitFor();
      await expectPath(b.page, `/customers/${id}`);
      const contact = b.page.getByRole('region', { name: 'Contact' });
      await contact.getByRole('link', { name: after }).waitFor();
      await contact.getByText('Modesto').waitFor();
      await contact.getByText(`Ortiz & Daughters ${sfx}`).waitFor();
    } finally {
      await cleanUp(sfx);
    }
  });

  test('D9 the viewer sees the list and customer pages but no Add, Edit, Delete, Import or Export, and is forbidden at /customers/new and /customers/{id}/edit', async () => {
    const { page } = await browser.signedIn('viewer@demo.test');
    await sidebarNav(page).getByRole('link', { name: 'Customers' }).click();
    await page.getByRole('heading', { name: 'Customers', level: 1 }).waitFor();
    const table = page.getByRole('table');
    await table.getByRole('row').nth(1).waitFor();
    expect(await page.getByRole('link', { name: 'Add Customer' }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Import' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Export CSV' }).count()).toBe(0);
    expect(await page.getByRole('navigation', { name: 'Customer views' }).count()).toBe(0); // no 'Deleted'

    const first = table.getByRole('row').nth(1).getByRole('link').first();
    const name = (await first.textContent()) ?? '';
    await first.click();
    const id = await customerPageId(page);
    await page.getByRole('heading', { name, level: 1 }).waitFor();
    const timeline = page.getByRole('region', { name: 'Notes and history' });
    await timeline.getByRole('list').or(timeline.getByText('Nothing here yet.')).first().waitFor();
    expect(await page.getByRole('link', { name: 'Edit', exact: true }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Delete', exact: true }).count()).toBe(0);
    expect(await timeline.getByLabel('Add a note').count()).toBe(0);
    expect(await timeline.getByRole('button', { name: /^(Edit|Delete) note$/ }).count()).toBe(0);

    for (const path of ['/customers/new', `/customers/${id}/edit`]) {
      await page.goto(path);
      await expectPath(page, '/forbidden');
      await page.getByText('You do not have permission to view this page.').waitFor();
    }
  });

  test('D27 an export opens in a spreadsheet-safe form', async () => {
    const sfx = unique();
    const name = `=1+2 Formula ${sfx}`;
    try {
      const { page } = await ownerTab();
      await addCustomer(page, { name, company: 'Sums, Inc.', city: 'Sacramento' });
      await sidebarNav(page).getByRole('link', { name: 'Customers' }).click();
      await search(page, sfx);
      await page.getByText('1 customer matches').waitFor();
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
      expect(download.suggestedFilename()).toMatch(/^customers-\d{4}-\d{2}-\d{2}\.csv$/);
      const bytes = await readFile(await download.path());
      expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]); // a BOM: spreadsheets read it as UTF-8
      const lines = bytes.subarray(3).toString('utf8').split('\r\n');
      // D22's columns, then (D56) the organization's active custom fields by label: the demo's, and any another journey made.
      expect(lines[0]).toMatch(
        /^name,company,email,phone,address_line,city,region,postal_code,country,status,tags,type,lead_source,do_not_service,do_not_service_reason,created_at,updated_at,Water heater model,Last service date,Maintenance plan(,|$)/,
      );
      // The current filtered list only: this one customer, its formula-looking name defused with a quote.
      expect(lines.slice(1)).toEqual([
        expect.stringMatching(new RegExp(`^'=1\\+2 Formula ${sfx},"Sums, Inc\\.",,,,Sacramento,,,,active,,residential,,false,,\\d{4}-[^,]*,[^,]*,,,`)),
        '',
      ]);
    } finally {
      await cleanUp(sfx);
    }
  });

  test('D27 an import of a file with errors shows them and writes nothing until fixed', async () => {
    const sfx = unique();
    const header = 'name,email,phone,status,tags';
    const good = [`Avery Stone ${sfx},avery.${sfx}@example.test,(415) 555-0101,lead,import;e2e`];
    const broken = [...good, `Blake Hart ${sfx},not-an-email,,active,`, `Casey Lund ${sfx},casey.${sfx}@example.test,12,sleeping,`];
    const fixed = [...good, `Blake Hart ${sfx},blake.${sfx}@example.test,,active,`, `Casey Lund ${sfx},casey.${sfx}@example.test,(415) 555-0112,inactive,`];
    const file = (rows: string[]) => ({ name: `customers-${sfx}.csv`, mimeType: 'text/csv', buffer: Buffer.from([header, ...rows].join('\r\n') + '\r\n') });
    try {
      const { page } = await ownerTab();
      await sidebarNav(page).getByRole('link', { name: 'Customers' }).click();
      await page.getByRole('link', { name: 'Import' }).click();
      await expectPath(page, '/customers/import');
      await page.getByLabel('CSV file').setInputFiles(file(broken));

      await page.getByRole('heading', { name: 'Preview' }).waitFor();
      await page.getByText(`“customers-${sfx}.csv”: 3 rows. 1 ready, 2 with errors, 0 with an email that already exists.`).waitFor();
      await page.getByText('Fix the file and upload it again: 2 rows have errors.').waitFor();
      expect(await page.getByRole('button', { name: 'Import', exact: true }).isDisabled()).toBe(true);
      const rows = page.getByRole('table', { name: `The rows of customers-${sfx}.csv` });
      const row = (who: string) => rows.getByRole('row').filter({ hasText: who });
      await row('Avery Stone').getByText('Ready').waitFor();
      await row('Blake Hart')
        .getByRole('listitem')
        .filter({ hasText: /^Email / })
        .waitFor();
      await row('Casey Lund')
        .getByRole('listitem')
        .filter({ hasText: /^Phone / })
        .waitFor();
      await row('Casey Lund')
        .getByRole('listitem')
        .filter({ hasText: /^Status / })
        .waitFor();

      // Nothing is written yet, not even the good row.
      const other = await browser.tab(page.context());
      await other.page.goto(`/customers?q=${sfx}`);
      await other.page.getByText('No customers match.').waitFor();

      await page.getByRole('button', { name: 'Choose another file' }).click();
      await page.getByLabel('CSV file').setInputFiles(file(fixed));
      await page.getByText(`“customers-${sfx}.csv”: 3 rows. 3 ready, 0 with errors, 0 with an email that already exists.`).waitFor();
      await page.getByText('Nothing is saved until you press Import.').waitFor();
      await page.getByRole('button', { name: 'Import', exact: true }).click();
      await page.getByRole('heading', { name: 'Import finished' }).waitFor();
      await page.getByText('3 created, 0 updated, 0 skipped', { exact: true }).waitFor();

      await other.page.reload();
      await other.page.getByText('3 customers match').waitFor();
      for (const who of ['Avery Stone', 'Blake Hart', 'Casey Lund'])
        await other.page
          .getByRole('table')
          .getByRole('link', { name: `${who} ${sfx}` })
          .waitFor();
    } finally {
      await cleanUp(sfx);
    }
  });

  test('D26 a search reload keeps its results', async () => {
    const { page } = await browser.signedIn('solo@demo.test');
    await sidebarNav(page).getByRole('link', { name: 'Customers' }).click();
    const table = page.getByRole('table');
    const names = async () => {
      await expect.poll(() => table.getAttribute('aria-busy')).toBeNull();
      return table.getByRole('row').locator('td.cell-name a').allTextContents(); // D58: after the row's checkbox
    };
    const all = await names();
    const surname = all[0]?.split(' ').at(-1) ?? '';
    expect(surname.length).toBeGreaterThan(1);
    await search(page, surname);
    // Sorted Z to A as well, so the URL carries more than the search.
    await table.getByRole('button', { name: 'Name' }).click();
    await page.waitForURL((u) => u.searchParams.get('sort') === '-name' && u.searchParams.get('q') === surname);
    const summary = page.getByText(/^\d+ customers? match(es)?$/);
    await summary.waitFor();
    const found = await names();
    const said = await summary.textContent();
    expect(found.length).toBeGreaterThan(0);
    const url = page.url();

    await page.reload();
    await page.getByRole('heading', { name: 'Customers', level: 1 }).waitFor();
    expect(page.url()).toBe(url);
    expect(await page.getByRole('searchbox', { name: 'Search customers' }).inputValue()).toBe(surname);
    await page.getByText(said ?? '', { exact: true }).waitFor();
    expect(await names()).toEqual(found);
    expect(await table.getByRole('columnheader', { name: 'Name' }).getAttribute('aria-sort')).toBe('descending');
  });
});
