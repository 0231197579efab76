// D56 D61 the custom fields screen as people use it: the owner adds a field on /settings/fields (the key
// suggested from the label), moves it by keyboard (the focus stays on it) and by dragging, and a member sees
// it on the customer form with its help text, and the screen read-only. Then axe (WCAG 2.2 AA) on the screen
// and its dialog in both themes, at desktop and phone width. Labels carry a random suffix; the fields are
// removed after.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { ACME, apiAs, defineFields, unique, type Api } from './api';
import { DESKTOP, skipReason, toasts, useBrowser } from './browser';

const OWNER = 'owner@demo.test';
const MEMBER = 'solo@demo.test'; // D3: a member of Acme, without fields:manage
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

/** The labels of a group's active fields, in the order shown. */
const order = (page: Page, group: string) => page.getByRole('region', { name: group }).getByRole('list').first().locator('.fd-label').allTextContents();

/** Archives and deletes the fields whose label carries `sfx` (what a journey made through the screen). */
async function removeFieldsWith(api: Api, sfx: string) {
  const { results } = await api.call<{ results: { id: number; label: string; archived: boolean }[] }>('GET', '/v1/custom-fields/', { org: ACME });
  for (const f of results.filter((x) => x.label.includes(sfx))) {
    if (!f.archived) await api.call('POST', `/v1/custom-fields/${f.id}/archive/`, { org: ACME });
    await api.call('DELETE', `/v1/custom-fields/${f.id}/`, { org: ACME });
  }
}

describe.skipIf(skipReason)('custom fields settings', () => {
  const browser = useBrowser();
  let ownerApi: Promise<Api> | undefined;
  const api = () => (ownerApi ??= apiAs(OWNER));

  test('D56 D61 an owner adds a field and moves it by keyboard and by pointer; a member sees it on the customer form, and the screen read-only', async () => {
    const sfx = unique();
    const a = await api();
    const first = await defineFields(a, ACME, [{ label: `Gate code ${sfx}`, type: 'text' }]);
    try {
      const { page } = await browser.signedIn(OWNER, { org: 'Acme Plumbing', path: '/settings/fields' });
      await page.getByRole('heading', { level: 1, name: 'Custom fields' }).waitFor();
      await page.getByRole('button', { name: 'Add customer field' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add customer field' });
      await dialog.getByLabel('Label').fill(`Water heater ${sfx}`);
      expect(await dialog.getByLabel('Key').inputValue()).toBe(`water_heater_${sfx}`);
      await dialog.getByLabel('Help text (optional)').fill('As on the unit’s plate');
      await dialog.getByRole('button', { name: 'Add field' }).click();
      await toasts(page).getByText(`“Water heater ${sfx}” added`).waitFor();
      await expect.poll(async () => (await order(page, 'Customer fields')).filter((l) => l.includes(sfx))).toEqual([`Gate code ${sfx}`, `Water heater ${sfx}`]);

      // Keyboard: Move up on the new field keeps the focus on it and is saved.
      const up = page.getByRole('button', { name: `Move up Water heater ${sfx}` });
      await up.focus();
      await page.keyboard.press('Enter');
      await expect.poll(async () => (await order(page, 'Customer fields')).filter((l) => l.includes(sfx))).toEqual([`Water heater ${sfx}`, `Gate code ${sfx}`]);
      expect(await page.evaluate(() => document.activeElement?.textContent)).toMatch(new RegExp(`^Move (up|down) Water heater ${sfx}$`));
      await page.getByText(new RegExp(`^Water heater ${sfx} moved to position \\d+ of \\d+$`)).waitFor({ state: 'attached' });
      // Pointer: drag Gate code back onto Water heater's row.
      const rowOf = (label: string) => page.locator('.fd-row', { has: page.locator('.fd-label', { hasText: label }) });
      await rowOf(`Gate code ${sfx}`).dragTo(rowOf(`Water heater ${sfx}`));
      await expect.poll(async () => (await order(page, 'Customer fields')).filter((l) => l.includes(sfx))).toEqual([`Gate code ${sfx}`, `Water heater ${sfx}`]);
      await page.reload();
      await expect.poll(async () => (await order(page, 'Customer fields')).filter((l) => l.includes(sfx))).toEqual([`Gate code ${sfx}`, `Water heater ${sfx}`]);

      // The member: the field on the customer form with its help text; the screen without buttons.
      const member = await browser.signedIn(MEMBER, { path: '/customers/new' });
      const more = member.page.getByRole('group', { name: 'More details' });
      const box = more.getByLabel(`Water heater ${sfx}`);
      await box.waitFor();
      const help = await box.evaluate((el) => (el.getAttribute('aria-describedby') ?? '').split(' ').map((id) => document.getElementById(id)?.textContent));
      expect(help).toContain('As on the unit’s plate');
      await member.page.goto('/settings/fields');
      await member.page.getByText(`Water heater ${sfx}`).waitFor();
      await member.page.getByText('changing them needs the ‘Manage custom fields’ permission', { exact: false }).waitFor();
      expect(await member.page.getByRole('main').getByRole('button').count()).toBe(0);
      expect(await member.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Custom fields' }).count()).toBe(0);
    } finally {
      await first.remove();
      await removeFieldsWith(a, sfx);
    }
  });

  test('D15 D56 the screen and its dialog with a refusal pass axe (WCAG 2.2 AA) in both themes, at desktop and phone width', async () => {
    const sfx = unique();
    const a = await api();
    const fields = await defineFields(a, ACME, [
      { label: `Plan ${sfx}`, type: 'choice', options: [{ label: 'Basic' }, { label: 'Premium' }], required: true, help: 'The service plan' },
      { label: `Serial ${sfx}`, type: 'text', unique: true },
      { label: `Old ${sfx}`, type: 'number' },
    ]);
    try {
      await a.call('POST', `/v1/custom-fields/${fields.made[2]!.id}/archive/`, { org: ACME });
      for (const theme of ['light', 'dark'] as const) {
        const { page } = await browser.signedIn(OWNER, { org: 'Acme Plumbing', colorScheme: theme });
        for (const viewport of [DESKTOP, { width: 390, height: 844 }]) {
          await page.setViewportSize(viewport);
          await page.goto('/settings/fields');
          await page.getByRole('button', { name: `Restore Old ${sfx}` }).waitFor();
          expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
          expect(await axe(page), `screen, ${theme}, ${viewport.width}`).toEqual([]);
          await page.getByRole('button', { name: `Edit Plan ${sfx}` }).click();
          const dialog = page.getByRole('dialog');
          await dialog.getByLabel('Label').fill(`Serial ${sfx}`);
          await dialog.getByRole('button', { name: 'Save' }).click();
          await dialog.getByText(`Another field is called “Serial ${sfx}”`).waitFor();
          expect(await axe(page), `dialog, ${theme}, ${viewport.width}`).toEqual([]);
          await page.keyboard.press('Escape');
        }
      }
    } finally {
      await removeFieldsWith(a, sfx);
    }
  });
});
