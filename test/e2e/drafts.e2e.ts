// D41 drafts survive, as only a browser shows it: what was typed into Add Customer comes back after a
// real reload (sessionStorage, pagehide) and after another tab's organization switch reloaded the tab
// (D21), and a member made a viewer while typing keeps the form, the typing and D41's message when Save
// is refused. Nothing is saved; Sam's role is put back at the end.
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { ACME, apiAs, memberByEmail, unique } from './api';
import { expectPath, sidebarNav, signIn, skipReason, useBrowser } from './browser';

const OWNER = 'owner@demo.test';
const MEMBER = 'solo@demo.test'; // Sam, a member of Acme Plumbing (server/seed.ts)

const customerForm = (page: Page) => page.getByRole('form', { name: 'Customer' });
const field = (page: Page, label: string) => customerForm(page).getByLabel(label, { exact: true });

describe.skipIf(skipReason)('D41 drafts', () => {
  const browser = useBrowser();

  test('D41 typed into Add Customer, the page reloaded: the form offers the draft back and Restore puts the typing back', async () => {
    const sfx = unique();
    const { page } = await browser.signedIn(OWNER, { org: 'Acme Plumbing', path: '/customers/new' });
    await field(page, 'Name').fill(`Draft Person ${sfx}`);
    await field(page, 'Company').fill('Half-typed Heating');
    await field(page, 'City').fill('Tigard');
    page.on('dialog', (d) => void d.accept()); // the unsaved-changes question of the reload, if the browser asks it
    await page.reload();
    await expectPath(page, '/customers/new');
    const offer = page.getByRole('region', { name: 'Unsaved changes' });
    await offer.getByText(/^Restore your unsaved changes from .+\?$/).waitFor();
    expect(await field(page, 'Name').inputValue()).toBe('');
    await offer.getByRole('button', { name: 'Restore' }).click();
    expect(await field(page, 'Name').inputValue()).toBe(`Draft Person ${sfx}`);
    expect(await field(page, 'Company').inputValue()).toBe('Half-typed Heating');
    expect(await field(page, 'City').inputValue()).toBe('Tigard');
    expect(await offer.count()).toBe(0);
    const keys = await page.evaluate(() => Object.keys(sessionStorage));
    expect(keys).toEqual([`draft:${OWNER}:${ACME}:customer-new`]);
  });

  test('D41 D21 another tab switches organization while this one holds typing: this tab reloads into it, and back in the first organization the typing is offered', async () => {
    const sfx = unique();
    const ctx = await browser.context();
    const a = await browser.tab(ctx);
    await signIn(a.page, OWNER);
    await a.page.getByRole('button', { name: 'Acme Plumbing' }).click();
    await expectPath(a.page, '/dashboard');
    const b = await browser.tab(ctx);
    b.page.on('dialog', (d) => void d.accept()); // the unsaved-changes question of the reload, if asked
    await b.page.goto('/customers/new');
    await field(b.page, 'Name').fill(`Other Tab ${sfx}`);
    const reloaded = b.page.waitForEvent('load');
    await a.page.getByRole('button', { name: OWNER }).click();
    await a.page.getByRole('button', { name: 'Beacon Electric' }).click();
    await reloaded;
    await b.page.getByRole('complementary').getByText('Beacon Electric').waitFor();
    // Back in Acme Plumbing (the user menu reloads both tabs at /dashboard), the same tab opens the form again.
    await b.page.getByRole('button', { name: OWNER }).click();
    await b.page.getByRole('button', { name: 'Acme Plumbing' }).click();
    await b.page.getByRole('complementary').getByText('Acme Plumbing').waitFor();
    await b.page.goto('/customers/new');
    await b.page.getByRole('region', { name: 'Unsaved changes' }).getByRole('button', { name: 'Restore' }).click();
    expect(await field(b.page, 'Name').inputValue()).toBe(`Other Tab ${sfx}`);
  });

  test('D41 a member made a viewer while typing: Save is refused, the form stays with the typing and says the changes are kept as a draft', async () => {
    const owner = await apiAs(OWNER);
    const sam = await memberByEmail(owner, ACME, MEMBER);
    expect(sam?.role).toBe('member');
    const sfx = unique();
    try {
      const { page } = await browser.signedIn(MEMBER, { path: '/customers/new' });
      await field(page, 'Name').fill(`Never Saved ${sfx}`);
      await field(page, 'Phone').fill('(503) 555-0142');
      await owner.call('PATCH', `/v1/team/members/${sam!.user_id}/`, { org: ACME, body: { role: 'viewer' } });
      await customerForm(page).getByRole('button', { name: 'Save' }).click();
      await customerForm(page).getByRole('alert').getByText('You no longer have permission to add customers. Your changes are kept as a draft.').waitFor();
      // D29: the app reloads the person's permissions (a viewer's sidebar has no Jobs)…
      await expect.poll(() => sidebarNav(page).getByRole('link', { name: 'Jobs' }).count(), { timeout: 10_000 }).toBe(0);
      // …and still the person stays on the form with what they typed.
      await expectPath(page, '/customers/new');
      expect(await field(page, 'Name').inputValue()).toBe(`Never Saved ${sfx}`);
      expect(await field(page, 'Phone').inputValue()).toBe('(503) 555-0142');
      const kept = await page.evaluate(() => Object.entries(sessionStorage).filter(([k]) => k.startsWith('draft:')));
      expect(kept).toHaveLength(1);
      expect(kept[0]![1]).toContain(`Never Saved ${sfx}`);
    } finally {
      await owner.call('PATCH', `/v1/team/members/${sam!.user_id}/`, { org: ACME, body: { role: 'member' } });
    }
  });
});
