// D49 merge and undo as a person does them: a duplicate pair is merged from 'Merge with…' or from the edit
// form's duplicate warning, choosing one field from each side; the kept customer's page shows the chosen
// values; the merged customer's old address leads there with a note; the merge is undone from the toast
// or later from the timeline, and both customers read back exactly as before through the API (fields,
// tags, notes, locations, contacts). D66: started from the misspelled one, the screen proposes the one with
// more history and says why; the email and phone not picked stay findable as contacts until the undo.
// Names carry a random suffix and the pair is deleted at the end.
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { ACME, apiAs, deleteCustomersMatching, unique, type Api } from './api';
import { expectPath, sidebarNav, skipReason, toasts, useBrowser } from './browser';

const OWNER = 'owner@demo.test';

interface Pair {
  keptId: number;
  mergedId: number;
  kept: string;
  merged: string;
  mergedPhone: string;
  mergedEmail: string;
  sfx: string;
}

/** What the API says of a customer and its parts; the kept one's bookkeeping moves on with a merge and its undo. */
async function snapshot(api: Api, id: number, bookkeeping: boolean) {
  const get = <T>(path: string) => api.call<T>('GET', path, { org: ACME });
  const { version, updated_at, updated_by, locations, contacts, ...fields } = await get<Record<string, unknown> & { locations: unknown[]; contacts: unknown[] }>(
    `/v1/customers/${id}/`,
  );
  const notes = (await get<{ results: unknown[] }>(`/v1/customers/${id}/notes/?page_size=100`)).results;
  return { fields, locations, contacts, notes, ...(bookkeeping ? { version, updated_at, updated_by } : {}) };
}

describe.skipIf(skipReason)('customer merge and undo', () => {
  const browser = useBrowser();
  let ownerApi: Promise<Api> | undefined;
  const api = () => (ownerApi ??= apiAs(OWNER));
  const ownerTab = () => browser.signedIn(OWNER, { org: 'Acme Plumbing' });

  /** Two customers who are one: each with a note, a location, a contact and a tag the other lacks. */
  async function makePair(sfx: string): Promise<Pair> {
    const a = await api();
    const make = async (body: Record<string, unknown>, part: string) => {
      const { id } = await a.call<{ id: number }>('POST', '/v1/customers/', { org: ACME, body });
      await a.call('POST', `/v1/customers/${id}/notes/`, { org: ACME, body: { body: `Note from ${part} ${sfx}` } });
      await a.call('POST', `/v1/customers/${id}/locations/`, { org: ACME, body: { label: `${part} home`, address_line: `${part} 1 Elm St`, city: 'Salem' } });
      await a.call('POST', `/v1/customers/${id}/contacts/`, { org: ACME, body: { name: `${part} contact ${sfx}`, role: 'tenant', phone: '(503) 555-0142' } });
      return id;
    };
    const pair = { kept: `Ann Lee ${sfx}`, merged: `Anna Lee ${sfx}`, mergedPhone: '(503) 555-0177', mergedEmail: `anna.${sfx}@example.test`, sfx };
    const keptId = await make({ name: pair.kept, email: `ann.${sfx}@example.test`, phone: '(503) 555-0166', city: 'Portland', tags: ['vip'] }, 'Kept');
    const mergedId = await make(
      { name: pair.merged, email: pair.mergedEmail, phone: pair.mergedPhone, city: '', company: `Lee Works ${sfx}`, tags: ['boiler'] },
      'Merged',
    );
    return { ...pair, keptId, mergedId };
  }

  /** On the merge screen: the kept customer's name, the merged one's phone, and the company only it has. */
  async function chooseAndMerge(page: Page, p: Pair) {
    await page.getByRole('heading', { level: 2, name: 'Values to keep' }).waitFor();
    const choice = (legend: string, from: string) => page.getByRole('group', { name: legend }).getByRole('radio', { name: new RegExp(`from ${from}$`) });
    expect(await choice('Name', p.kept).isChecked()).toBe(true); // the kept customer's value by default
    expect(await choice('Company', p.merged).isChecked()).toBe(true); // an empty value never wins by default
    await choice('Phone', p.merged).check();
    const moves = page.getByRole('region', { name: `What moves to ${p.kept}` });
    await moves.getByText('1 location', { exact: true }).waitFor();
    await moves.getByText('1 tag: boiler', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Merge', exact: true }).click();
    await expectPath(page, `/customers/${p.keptId}`);
  }

  /** The kept customer's page shows the values chosen and what came along. */
  async function expectMerged(page: Page, p: Pair) {
    await page.getByRole('heading', { level: 1, name: p.kept }).waitFor();
    await page.getByRole('link', { name: p.mergedPhone }).first().waitFor();
    await page.getByText(`Lee Works ${p.sfx}`).first().waitFor();
    await page.getByRole('region', { name: 'Service locations' }).getByRole('article', { name: 'Merged home' }).waitFor();
  }

  test('D49 merged from "Merge with…" choosing a field from each side, then undone from the toast: both read back exactly', async () => {
    const sfx = unique();
    const a = await api();
    try {
      const p = await makePair(sfx);
      const before = [await snapshot(a, p.keptId, false), await snapshot(a, p.mergedId, true)];
      const { page } = await ownerTab();
      await page.goto(`/customers/${p.keptId}`);
      await page.getByRole('button', { name: 'Merge with…' }).click();
      const picker = page.getByRole('dialog', { name: `Merge ${p.kept} with…` });
      await picker.getByLabel('Search customers').fill(p.merged);
      await picker.getByRole('link', { name: new RegExp(p.merged) }).click();
      await chooseAndMerge(page, p);
      const toast = toasts(page)
        .getByRole('listitem')
        .filter({ hasText: `${p.merged} merged into ${p.kept}` });
      await toast.hover(); // holds it while the page is read
      await expectMerged(page, p);
      await toast.getByRole('button', { name: 'Undo' }).click();
      await toasts(page).getByText('are separate again').waitFor();
      expect([await snapshot(a, p.keptId, false), await snapshot(a, p.mergedId, true)]).toEqual(before);
    } finally {
      await deleteCustomersMatching(a, ACME, sfx);
    }
  });

  test("D49 merged from the edit form's duplicate warning; the merged customer's address leads to the kept one; undone later from the timeline", async () => {
    const sfx = unique();
    const a = await api();
    try {
      const p = await makePair(sfx);
      const before = [await snapshot(a, p.keptId, false), await snapshot(a, p.mergedId, true)];
      const { page } = await ownerTab();
      await page.goto(`/customers/${p.keptId}/edit`);
      const form = page.getByRole('form', { name: 'Customer' });
      await form.getByLabel('Email', { exact: true }).fill(p.mergedEmail);
      const warning = form.getByRole('status').filter({ hasText: 'Possible duplicate' });
      await warning.getByRole('link', { name: 'Merge' }).click();
      await page.getByRole('dialog', { name: 'Leave without saving?' }).getByRole('button', { name: 'Leave without saving' }).click();
      await chooseAndMerge(page, p);
      await expectMerged(page, p);

      // The merged customer's old address: the kept customer's page, with the note.
      await page.goto(`/customers/${p.mergedId}`);
      await expectPath(page, `/customers/${p.keptId}`);
      await page.getByText('was merged into this customer.').waitFor();

      const timeline = page.getByRole('region', { name: 'Notes and history' });
      const entry = timeline.getByRole('listitem').filter({ hasText: `merged ${p.merged} into this customer` });
      await entry.getByRole('button', { name: 'Undo this merge' }).click();
      await page.getByRole('dialog', { name: 'Undo this merge?' }).getByRole('button', { name: 'Undo merge' }).click();
      await toasts(page).getByText('are separate again').waitFor();
      await timeline
        .getByRole('listitem')
        .filter({ hasText: `undid the merge of ${p.merged} into this customer` })
        .waitFor();
      await expect.poll(() => timeline.getByRole('button', { name: 'Undo this merge' }).count()).toBe(0);
      expect([await snapshot(a, p.keptId, false), await snapshot(a, p.mergedId, true)]).toEqual(before);
      await page.goto(`/customers/${p.mergedId}`);
      await page.getByRole('heading', { level: 1, name: p.merged }).waitFor();
    } finally {
      await deleteCustomersMatching(a, ACME, sfx);
    }
  });

  test('D66 started from the misspelled customer, the one with more history is proposed and why is said; the email and phone not picked are kept as contacts, found by search, and gone again after the undo', async () => {
    const sfx = unique();
    const a = await api();
    try {
      const p = await makePair(sfx);
      for (const body of ['Boiler serviced', 'Invoice paid', 'Called about the valve'])
        await a.call('POST', `/v1/customers/${p.keptId}/notes/`, { org: ACME, body: { body: `${body} ${sfx}` } });
      const before = [await snapshot(a, p.keptId, false), await snapshot(a, p.mergedId, true)];
      const { page } = await ownerTab();
      await page.goto(`/customers/${p.mergedId}`); // the record the person happened to open
      await page.getByRole('button', { name: 'Merge with…' }).click();
      const picker = page.getByRole('dialog', { name: `Merge ${p.merged} with…` });
      await picker.getByLabel('Search customers').fill(p.kept);
      await picker.getByRole('link', { name: new RegExp(p.kept) }).click();

      await page.getByRole('heading', { level: 2, name: 'Values to keep' }).waitFor();
      await page.getByRole('region', { name: `Kept ${p.kept}` }).waitFor();
      await page.getByRole('status').filter({ hasText: 'Proposed to keep: it has more history (4 notes and 3 other entries against 1 and 3).' }).waitFor();
      const choice = (legend: string, from: string) => page.getByRole('group', { name: legend }).getByRole('radio', { name: new RegExp(`from ${from}$`) });
      await choice('Phone', p.merged).check();
      const moves = page.getByRole('region', { name: `What moves to ${p.kept}` });
      await moves.getByText(`Kept as a contact named ${p.merged}: ${p.mergedEmail}`, { exact: true }).waitFor();
      await moves.getByText(`Kept as a contact named ${p.kept}: (503) 555-0166`, { exact: true }).waitFor();
      await page.getByRole('button', { name: 'Merge', exact: true }).click();
      await expectPath(page, `/customers/${p.keptId}`);
      const contacts = page.getByRole('region', { name: 'Contacts' });
      await contacts.getByRole('article', { name: p.merged }).getByRole('link', { name: p.mergedEmail }).waitFor();
      await contacts.getByRole('article', { name: p.kept }).getByRole('link', { name: '(503) 555-0166' }).waitFor();

      // Searching for the email the kept customer did not take finds it.
      const findByEmail = async (name: string) => {
        await sidebarNav(page).getByRole('link', { name: 'Customers' }).click();
        await page.getByRole('searchbox', { name: 'Search customers' }).fill(p.mergedEmail);
        await page.getByText('1 customer matches', { exact: true }).waitFor(); // the search's answer, not the whole list
        await page.getByRole('table').getByRole('link', { name, exact: true }).waitFor();
      };
      await findByEmail(p.kept);

      // Undone later from the timeline: the kept contacts go, the customer is as before.
      await page.goto(`/customers/${p.keptId}`);
      const timeline = page.getByRole('region', { name: 'Notes and history' });
      await timeline
        .getByRole('listitem')
        .filter({ hasText: `merged ${p.merged} into this customer` })
        .getByRole('button', { name: 'Undo this merge' })
        .click();
      await page.getByRole('dialog', { name: 'Undo this merge?' }).getByRole('button', { name: 'Undo merge' }).click();
      await toasts(page).getByText('are separate again').waitFor();
      expect([await snapshot(a, p.keptId, false), await snapshot(a, p.mergedId, true)]).toEqual(before);
      await findByEmail(p.merged);
      expect(await page.getByRole('table').getByRole('link', { name: p.kept, exact: true }).count()).toBe(0);
    } finally {
      await deleteCustomersMatching(a, ACME, sfx);
    }
  });
});
