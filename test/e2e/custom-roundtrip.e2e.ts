// D56 through the pages, end to end: an owner adds a customer field on /settings/fields; a member fills it
// on a customer's form; the owner filters the list by it ('Filter by a field', in the URL), exports that
// list and imports the very file back with "update" (a member may neither by default): the value comes back
// unchanged and nothing is written. Labels and names carry a random suffix; the field and the customer are removed after.
import { readFile } from 'node:fs/promises';
import { describe, expect, test } from 'vitest';
import { ACME, apiAs, deleteCustomersMatching, unique, type Api } from './api';
import { expectPath, skipReason, toasts, useBrowser } from './browser';

const OWNER = 'owner@demo.test';
const MEMBER = 'solo@demo.test'; // D3: a member of Acme, who fills fields but does not manage them

describe.skipIf(skipReason)('a custom field, filled, filtered, exported and imported back (D56)', () => {
  const browser = useBrowser();
  let ownerApi: Promise<Api> | undefined;
  const api = () => (ownerApi ??= apiAs(OWNER));

  test('D56 D27 an owner adds a field, a member fills it, and the owner filters the list by it, exports it and imports it back unchanged', async () => {
    const sfx = unique();
    const label = `Heater model ${sfx}`;
    const made = await (await api()).call<{ id: number }>('POST', '/v1/customers/', {
      org: ACME,
      body: { name: `Round Field ${sfx}`, email: `round.field.${sfx}@example.test` },
    });
    try {
      const owner = await browser.signedIn(OWNER, { org: 'Acme Plumbing', path: '/settings/fields' });
      await owner.page.getByRole('button', { name: 'Add customer field' }).click();
      const dialog = owner.page.getByRole('dialog', { name: 'Add customer field' });
      await dialog.getByLabel('Label').fill(label);
      await dialog.getByRole('button', { name: 'Add field' }).click();
      await toasts(owner.page).getByText(`“${label}” added`).waitFor();

      // The member fills it on the customer's form.
      const { page } = await browser.signedIn(MEMBER, { path: `/customers/${made.id}/edit` });
      await page.getByLabel(label).fill(`Rheem XE50 ${sfx}`);
      await page.getByRole('button', { name: 'Save' }).click();
      await expectPath(page, `/customers/${made.id}`);
      await page.getByText(`Rheem XE50 ${sfx}`).first().waitFor();

      // The owner (who may export and import) filters the list by it; the address carries the filter.
      const list = owner.page; // the owner's tab
      await list.goto('/customers');
      await list.getByText('Filter by a field').click();
      const form = list.getByRole('form', { name: 'Filter by a custom field' });
      await form.getByLabel('Field').selectOption({ label: `${label} (Text)` });
      await form.getByLabel('Value').fill(`Rheem XE50 ${sfx}`);
      await form.getByRole('button', { name: 'Add filter' }).click();
      await list.getByText('1 customer matches').waitFor();
      expect(new URL(list.url()).search).toMatch(/cf\.heater_model_/);
      await list.getByRole('link', { name: `Round Field ${sfx}` }).waitFor();

      // …exports that list and imports the very file back with "update": nothing to change.
      const [download] = await Promise.all([list.waitForEvent('download'), list.getByRole('button', { name: 'Export CSV' }).click()]);
      const bytes = await readFile(await download.path());
      const [header, row] = bytes
        .toString('utf8')
        .replace(/^\uFEFF/, '')
        .split(/\r?\n/);
      expect(header).toContain(label);
      expect(row).toContain(`Rheem XE50 ${sfx}`);
      const before = await (await api()).call<{ version: number; custom: Record<string, unknown> }>('GET', `/v1/customers/${made.id}/`, { org: ACME });
      await list.goto('/customers/import');
      await list.getByLabel('CSV file').setInputFiles({ name: download.suggestedFilename(), mimeType: 'text/csv', buffer: bytes });
      expect(await list.getByRole('combobox', { name: label, exact: true }).inputValue()).toMatch(/^cf\.heater_model_/);
      await list.getByText(/1 with an email that already exists \(1 of them already up to date\)/).waitFor();
      await list.getByRole('radio', { name: /Update them/ }).check();
      await list.getByRole('button', { name: 'Import', exact: true }).click();
      await list.getByText('0 created, 0 updated, 0 skipped, 1 already up to date', { exact: true }).waitFor();
      const after = await (await api()).call<{ version: number; custom: Record<string, unknown> }>('GET', `/v1/customers/${made.id}/`, { org: ACME });
      expect(after).toEqual(before);
      expect(Object.values(after.custom)).toEqual([`Rheem XE50 ${sfx}`]);
    } finally {
      await deleteCustomersMatching(await api(), ACME, sfx);
      const { results } = await (await api()).call<{ results: { id: number; label: string; archived: boolean }[] }>('GET', '/v1/custom-fields/', { org: ACME });
      for (const f of results.filter((x) => x.label.includes(sfx))) {
        if (!f.archived) await (await api()).call('POST', `/v1/custom-fields/${f.id}/archive/`, { org: ACME });
        await (await api()).call('DELETE', `/v1/custom-fields/${f.id}/`, { org: ACME });
      }
    }
  });
});
