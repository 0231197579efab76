// The customer page's locations and contacts (D46 D47), its do-not-service warning (D48) and 'Restore this
// value' (D50), as a person uses them: a landlord gets a second rental and is found by its city; a property
// manager's phone finds the customer; a flagged customer's page says so; an old phone is restored. Names
// carry a random suffix and the customers made are deleted at the end, so the demo data looks as before.
import { describe, expect, test } from 'vitest';
import { ACME, apiAs, deleteCustomersMatching, unique, type Api } from './api';
import { expectPath, sidebarNav, skipReason, toasts, useBrowser } from './browser';

const OWNER = 'owner@demo.test';

describe.skipIf(skipReason)('customer page: locations, contacts, the warning, restore a value', () => {
  const browser = useBrowser();
  let ownerApi: Promise<Api> | undefined;
  const api = () => (ownerApi ??= apiAs(OWNER));
  const ownerTab = () => browser.signedIn(OWNER, { org: 'Acme Plumbing' });
  const create = async (body: Record<string, unknown>) => (await (await api()).call<{ id: number }>('POST', '/v1/customers/', { org: ACME, body })).id;

  test('D46 a landlord gets a second rental in place, found by its city; making it primary marks it and puts it first', async () => {
    const sfx = unique();
    const name = `Lena Marsh ${sfx}`;
    const city = `Tigard${sfx}`;
    try {
      const id = await create({ name });
      await (await api()).call('POST', `/v1/customers/${id}/locations/`, { org: ACME, body: { label: 'Home', address_line: '12 Oak Street', city: 'Portland' } });
      const { page } = await ownerTab();
      await page.goto(`/customers/${id}`);
      const locations = page.getByRole('region', { name: 'Service locations' });
      await locations.getByRole('article', { name: 'Home' }).getByText('Primary').waitFor();

      await locations.getByRole('button', { name: 'Add location' }).click();
      const form = locations.getByRole('form', { name: 'New location' });
      await expect.poll(() => form.getByLabel('Label').evaluate((el) => el === document.activeElement)).toBe(true);
      await form.getByLabel('Label').fill('Rental on Oak St');
      await form.getByLabel('Street address').fill('40 Oak St');
      await form.getByLabel('City').fill(city);
      await form.getByLabel('Access notes').fill('Gate code 4321\nDog in the yard');
      await form.getByRole('button', { name: 'Add location' }).click();
      await toasts(page).getByText('Added Rental on Oak St').waitFor();
      const rental = locations.getByRole('article', { name: 'Rental on Oak St' });
      const map = rental.getByRole('link', { name: 'Open map of Rental on Oak St in OpenStreetMap (opens in a new tab)' });
      expect(await map.getAttribute('href')).toBe(`https://www.openstreetmap.org/search?query=40%20Oak%20St%2C%20${city}`);
      expect(await map.getAttribute('target')).toBe('_blank');
      await page
        .getByRole('region', { name: 'Notes and history' })
        .getByRole('listitem')
        .filter({ hasText: 'Olivia added the location “Rental on Oak St” to this customer' })
        .waitFor();

      await rental.getByRole('button', { name: 'Make primary: Rental on Oak St' }).click();
      await rental.getByText('Primary').waitFor();
      await expect.poll(() => locations.getByRole('article').first().getAttribute('aria-label')).toBe('Rental on Oak St');

      // D46: the list finds the customer by the rental's city, and shows the primary location's city.
      await sidebarNav(page).getByRole('link', { name: 'Customers' }).click();
      await page.getByRole('searchbox', { name: 'Search customers' }).fill(city);
      await page.getByRole('table').getByRole('link', { name }).click();
      await expectPath(page, `/customers/${id}`);
    } finally {
      await deleteCustomersMatching(await api(), ACME, sfx);
    }
  });

  test("D47 a property manager added as a contact: mailto and tel links, and the manager's phone finds the customer", async () => {
    const sfx = unique();
    const name = `Gus Ortiz ${sfx}`;
    const digits = String(Math.floor(1_000_000 + Math.random() * 8_999_999));
    const phone = `(971) ${digits.slice(0, 3)}-${digits.slice(3)}`;
    try {
      const id = await create({ name });
      const { page } = await ownerTab();
      await page.goto(`/customers/${id}`);
      const contacts = page.getByRole('region', { name: 'Contacts' });
      await contacts.getByText('No other contacts yet.').waitFor();
      await contacts.getByRole('button', { name: 'Add contact' }).click();
      const form = contacts.getByRole('form', { name: 'New contact' });
      await form.getByLabel('Name').fill('Pam Ruiz');
      await form.getByLabel('Role').fill('property manager');
      await form.getByLabel('Email').fill(`pam.${sfx}@example.test`);
      await form.getByLabel('Phone').fill(phone);
      await form.getByRole('button', { name: 'Add contact' }).click();
      const pam = contacts.getByRole('article', { name: 'Pam Ruiz' });
      expect(await pam.getByRole('link', { name: phone }).getAttribute('href')).toBe(`tel:971${digits}`);
      expect(await pam.getByRole('link', { name: `pam.${sfx}@example.test` }).getAttribute('href')).toBe(`mailto:pam.${sfx}@example.test`);

      await sidebarNav(page).getByRole('link', { name: 'Customers' }).click();
      await page.getByRole('searchbox', { name: 'Search customers' }).fill(digits);
      await page.getByRole('table').getByRole('link', { name }).waitFor();
    } finally {
      await deleteCustomersMatching(await api(), ACME, sfx);
    }
  });

  test('D48 D50 a do-not-service customer is marked in the list and its page says so first; an old phone is restored from the timeline', async () => {
    const sfx = unique();
    const name = `Rory Vance ${sfx}`;
    try {
      const id = await create({ name, phone: '(415) 555-0111', do_not_service: true, do_not_service_reason: 'Unpaid invoices since March' });
      await (await api()).call('PATCH', `/v1/customers/${id}/`, { org: ACME, body: { version: 1, phone: '(415) 555-0122' } });
      const { page } = await ownerTab();
      // D48: the list's 'Do not service only' filter finds it, its row marked in words; the row leads to the page.
      await page.goto(`/customers?do_not_service=true&q=${encodeURIComponent(sfx)}`);
      const row = page.getByRole('row').filter({ hasText: name });
      await row.getByText('Do not service', { exact: true }).waitFor();
      expect(await page.getByRole('checkbox', { name: 'Do not service only' }).isChecked()).toBe(true);
      await row.getByRole('link', { name }).click();
      await page.getByRole('alert').filter({ hasText: 'Do not service. Unpaid invoices since March' }).waitFor();

      const timeline = page.getByRole('region', { name: 'Notes and history' });
      await timeline.getByRole('button', { name: 'Restore this value: phone “(415) 555-0111”' }).click();
      await toasts(page).getByText('Restored the phone').waitFor();
      await page.getByRole('region', { name: 'Contact' }).getByRole('link', { name: '(415) 555-0111' }).waitFor();
      await timeline.getByRole('listitem').filter({ hasText: 'Olivia changed phone from (415) 555-0122 to (415) 555-0111' }).waitFor();
      const after = await (await api()).call<{ phone: string; version: number }>('GET', `/v1/customers/${id}/`, { org: ACME });
      expect(after).toMatchObject({ phone: '(415) 555-0111', version: 3 });
    } finally {
      await deleteCustomersMatching(await api(), ACME, sfx);
    }
  });
});
