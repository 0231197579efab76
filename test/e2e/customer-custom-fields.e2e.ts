// D56 custom fields as a person uses them (D41 with a reload): with the organization's fields defined
// through the API, a person fills them in Add Customer, meets a taken unique value on its field, fixes it,
// reloads and restores the draft, saves, and sees the values on the customer page in words; a location
// gets its own field's value. Labels carry a random suffix; the fields and customers are removed after.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { ACME, apiAs, defineFields, deleteCustomersMatching, unique, type Api } from './api';
import { DESKTOP, expectPath, skipReason, toasts, useBrowser } from './browser';

const OWNER = 'owner@demo.test';
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** D15: axe-core's WCAG 2.2 A and AA violations in the page, by rule and element. */
async function axe(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    type Result = { violations: { id: string; nodes: { target: unknown[] }[] }[] };
    const w = window as unknown as { axe: { run(ctx: Document, opts: unknown): Promise<Result> } };
    const r = await w.axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] }, resultTypes: ['violations'] });
    return r.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
}

describe.skipIf(skipReason)('customer custom fields', () => {
  const browser = useBrowser();
  let ownerApi: Promise<Api> | undefined;
  const api = () => (ownerApi ??= apiAs(OWNER));

  test('D56 D41 a person fills the custom fields, fixes a taken unique value, restores the draft after a reload, saves, and sees them on the page', async () => {
    const sfx = unique();
    const L = (label: string) => `${label} ${sfx}`;
    const a = await api();
    const fields = await defineFields(a, ACME, [
      { label: L('Gate code'), type: 'text', unique: true, help: 'As written on the keypad' },
      { label: L('Units'), type: 'number' },
      { label: L('Contract end'), type: 'date' },
      { label: L('Plan'), type: 'choice', options: [{ label: 'Basic' }, { label: 'Premium' }] },
      { label: L('Pets'), type: 'choices', options: [{ label: 'Dog' }, { label: 'Cat' }, { label: 'Bird' }] },
      { label: L('Key held'), type: 'yes_no' },
      { label: L('Floor'), type: 'number', record_kind: 'location' },
    ]);
    const gate = fields.made[0]!.key;
    try {
      await a.call('POST', '/v1/customers/', { org: ACME, body: { name: `Holder ${sfx}`, custom: { [gate]: `G-${sfx}` } } });
      const { page, errors } = await browser.signedIn(OWNER, { org: 'Acme Plumbing', path: '/customers/new' });
      const more = page.getByRole('group', { name: 'More details' });
      await more.getByLabel(L('Gate code')).waitFor();
      await page.getByLabel('Name', { exact: true }).fill(`Rosa Vance ${sfx}`);
      await more.getByLabel(L('Gate code')).fill(`g-${sfx}`); // taken, regardless of case
      await more.getByLabel(L('Units')).fill('1,250.5');
      await more.getByLabel(L('Contract end')).fill('2027-03-31');
      await more.getByLabel(L('Plan')).selectOption({ label: 'Premium' });
      const pets = more.getByRole('group', { name: L('Pets') });
      await pets.getByLabel('Dog').check();
      await pets.getByLabel('Bird').check();
      await more.getByLabel(L('Key held')).selectOption({ label: 'Yes' });
      await page.getByRole('button', { name: 'Save' }).click();

      const gateBox = more.getByLabel(L('Gate code'));
      await page.getByText(`Holder ${sfx} already has this ${L('Gate code')}: it must be unique`).waitFor();
      await expect.poll(() => gateBox.evaluate((el) => el === document.activeElement)).toBe(true);
      expect(await gateBox.getAttribute('aria-invalid')).toBe('true');
      await gateBox.fill(`R-${sfx}`);

      // D41: a reload keeps what was typed, custom values too.
      page.on('dialog', (d) => void d.accept());
      await page.reload();
      const offer = page.getByRole('region', { name: 'Unsaved changes' });
      await offer.getByRole('button', { name: 'Restore' }).click();
      await expect.poll(() => more.getByLabel(L('Gate code')).inputValue()).toBe(`R-${sfx}`);
      expect(await more.getByLabel(L('Plan')).inputValue()).toBe(fields.made[3]!.options[1]!.id);
      expect(await pets.getByLabel('Bird').isChecked()).toBe(true);
      expect(await more.getByLabel(L('Units')).inputValue()).toBe('1,250.5');

      await page.getByRole('button', { name: 'Save' }).click();
      await toasts(page).getByText('Customer saved').waitFor();
      await page.getByRole('heading', { level: 1, name: `Rosa Vance ${sfx}` }).waitFor();
      const id = Number(new URL(page.url()).pathname.split('/').pop());
      await expectPath(page, `/customers/${id}`);
      const details = page.getByRole('heading', { level: 2, name: 'More details' }).locator('xpath=following-sibling::dl[1]');
      const pairs = await details.locator('dt').evaluateAll((dts) => dts.map((dt) => [dt.textContent, dt.nextElementSibling?.textContent]));
      expect(pairs).toEqual([
        [L('Gate code'), `R-${sfx}`],
        [L('Units'), '1,250.5'],
        [L('Contract end'), 'Mar 31, 2027'],
        [L('Plan'), 'Premium'],
        [L('Pets'), 'Dog, Bird'],
        [L('Key held'), 'Yes'],
      ]);

      // The location's own field.
      const locations = page.getByRole('region', { name: 'Service locations' });
      await locations.getByRole('button', { name: 'Add location' }).click();
      const form = locations.getByRole('form', { name: 'New location' });
      await form.getByLabel('Label').fill('Warehouse');
      await form.getByLabel(L('Floor')).fill('2');
      await form.getByRole('button', { name: 'Add location' }).click();
      const warehouse = locations.getByRole('article', { name: 'Warehouse' });
      await warehouse.getByText(L('Floor')).waitFor();
      expect(await warehouse.locator('dd').first().textContent()).toBe('2');
      expect(errors).toEqual([]);
    } finally {
      await deleteCustomersMatching(a, ACME, sfx);
      await fields.remove();
    }
  });

  test('D15 D56 the form with a custom field refused and the page with custom values pass axe (WCAG 2.2 AA) in both themes, at desktop and phone width', async () => {
    const sfx = unique();
    const a = await api();
    const fields = await defineFields(a, ACME, [
      { label: `Units ${sfx}`, type: 'number', help: 'Whole units only' },
      { label: `Pets ${sfx}`, type: 'choices', options: [{ label: 'Dog' }, { label: 'Cat' }] },
      { label: `Key held ${sfx}`, type: 'yes_no' },
      { label: `Notes ${sfx}`, type: 'long_text' },
    ]);
    const [units, pets, key] = fields.made.map((f) => f.key);
    try {
      const custom = { [units!]: 4, [pets!]: ['o2'], [key!]: false };
      const { id } = await a.call<{ id: number }>('POST', '/v1/customers/', { org: ACME, body: { name: `Axe Check ${sfx}`, custom } });
      for (const theme of ['light', 'dark'] as const) {
        const { page } = await browser.signedIn(OWNER, { org: 'Acme Plumbing', colorScheme: theme });
        for (const viewport of [DESKTOP, { width: 390, height: 844 }]) {
          await page.setViewportSize(viewport);
          await page.goto(`/customers/${id}`);
          await page.getByRole('heading', { level: 2, name: 'More details' }).waitFor();
          expect(await axe(page), `page, ${theme}, ${viewport.width}`).toEqual([]);
          await page.goto(`/customers/${id}/edit`);
          const more = page.getByRole('group', { name: 'More details' });
          await more.getByLabel(`Units ${sfx}`).fill('many');
          await page.getByRole('button', { name: 'Save' }).click();
          await more.getByText(`Units ${sfx} must be a number, like 12 or 4.5`).waitFor();
          expect(await axe(page), `form, ${theme}, ${viewport.width}`).toEqual([]);
          page.once('dialog', (d) => void d.accept()); // leaving the edited form asks first
        }
      }
    } finally {
      await deleteCustomersMatching(a, ACME, sfx);
      await fields.remove();
    }
  });
});
