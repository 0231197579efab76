// Screenshots of login, picker, dashboard, customers and the drawer, in light and dark, at
// desktop and phone width (and the customers list on a small phone), saved under test-results/screenshots/. With UPDATE_DOCS_SCREENSHOTS=1 a
// few of them are also written, small, to docs/screenshots/ for the README.
// Then the customer page and the customer form (D22 D24) in both themes at desktop and small-phone
// width (the phone ones of the whole page), and the team and permissions pages (D28 D29), light.
// D46–D49: the landlord's page (locations, contacts), the do-not-service warning and the merge screen of
// the demo duplicate pair, in both themes at desktop and small-phone width.
// Then the account screens of issue 20 (D51–D54) in both themes at desktop and small-phone width: the
// account page with two-step sign-in off and on, its setup with the QR code, the recovery codes, the
// login's code step, /reset/{token}, /settings and the team page's reset-link dialog.
// D56: the customer form and page with custom fields, both themes, desktop and phone; the custom fields
// screen (/settings/fields) and its edit dialog, both themes, desktop and phone.
import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { base32Decode, totpAt } from '../../server/auth/totp';
import { ACME, apiAs, defineFields, deleteCustomersMatching, removeMember, unique } from './api';
import { DESKTOP, expectPath, launch, newContext, newTab, PHONE, signIn, signInTo, skipReason } from './browser';
import { newMember } from './people';

const OUT = 'test-results/screenshots';
const DOCS = 'docs/screenshots';
/** A small phone, under the list's 640px breakpoint. */
const NARROW = { width: 390, height: 844 };
const FOR_DOCS = new Set([
  'login-light-desktop',
  'customers-light-desktop',
  'dashboard-dark-desktop',
  'drawer-dark-phone',
  'org-picker-light-phone',
  'customer-page-light-desktop',
  'customer-page-dark-desktop',
  'customer-form-light-desktop',
  'customer-form-dark-desktop',
  'customers-light-narrow',
  'permissions-light-desktop',
  'team-light-desktop',
  'settings-fields-light-desktop',
  'settings-fields-dark-phone',
]);
/** A seeded customer of Acme Plumbing with tags, an address, notes and changes in its timeline. */
const SHOWN_CUSTOMER = { id: 4, name: 'Northwest Print Co.' };

async function shoot(page: Page, name: string, { fullPage = false } = {}) {
  await page.evaluate(() => document.fonts.ready);
  await page.screenshot({ path: `${OUT}/${name}.png`, fullPage });
  if (process.env.UPDATE_DOCS_SCREENSHOTS && FOR_DOCS.has(name)) {
    await page.screenshot({ path: `${DOCS}/${name}.jpg`, type: 'jpeg', quality: 70, scale: 'css' });
  }
}

describe.skipIf(skipReason)('screenshots', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launch();
    mkdirSync(OUT, { recursive: true });
    if (process.env.UPDATE_DOCS_SCREENSHOTS) mkdirSync(DOCS, { recursive: true });
  });
  afterAll(async () => browser?.close());

  for (const theme of ['light', 'dark'] as const) {
    for (const [width, viewport] of [
      ['desktop', DESKTOP],
      ['phone', PHONE],
    ] as const) {
      test(`login, picker, dashboard, customers${width === 'phone' ? ' and the drawer' : ''} — ${theme}, ${width}`, async () => {
        const ctx = await newContext(browser, { viewport, colorScheme: theme });
        const { page, errors } = await newTab(ctx);
        const suffix = `${theme}-${width}`;
        await page.goto('/login');
        await page.getByRole('heading', { name: 'Login' }).waitFor();
        await shoot(page, `login-${suffix}`);
        await signIn(page, 'owner@demo.test');
        await page.getByRole('heading', { name: 'Select Your Organization' }).waitFor();
        await shoot(page, `org-picker-${suffix}`);
        await page.getByRole('button', { name: 'Acme Plumbing' }).click();
        await expectPath(page, '/dashboard');
        await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
        await page.getByRole('region', { name: 'Customers', exact: true }).getByText(/^\d+$/).waitFor(); // the total has arrived
        await shoot(page, `dashboard-${suffix}`);
        await page.goto('/customers');
        await page.getByRole('heading', { name: 'Customers', level: 1 }).waitFor();
        await page.getByRole('table').waitFor();
        await shoot(page, `customers-${suffix}`);
        if (width === 'phone') {
          // Under 640px the rows stack: nothing may scroll sideways.
          await page.setViewportSize(NARROW);
          expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(NARROW.width);
          await shoot(page, `customers-${theme}-narrow`);
          await page.setViewportSize(viewport);
        }
        if (width === 'phone') {
          await page.getByRole('button', { name: 'Open menu' }).click();
          await page.getByRole('complementary', { name: 'Sidebar' }).waitFor();
          await page.waitForTimeout(300); // let the slide-in transition finish
          await shoot(page, `drawer-${suffix}`);
        }
        expect(errors).toEqual([]);
        await ctx.close();
      });
    }
  }

  for (const theme of ['light', 'dark'] as const) {
    test(`customer page and customer form — ${theme}, desktop and phone`, async () => {
      const ctx = await newContext(browser, { viewport: DESKTOP, colorScheme: theme });
      const { page, errors, serverErrors } = await newTab(ctx);
      await signInTo(page, 'owner@demo.test', 'Acme Plumbing');
      const customerPage = async () => {
        await page.goto(`/customers/${SHOWN_CUSTOMER.id}`);
        await page.getByRole('heading', { name: SHOWN_CUSTOMER.name, level: 1 }).waitFor();
        await page.getByRole('region', { name: 'Notes and history' }).getByRole('listitem').first().waitFor();
      };
      const form = async () => {
        await page.goto(`/customers/${SHOWN_CUSTOMER.id}/edit`);
        await page.getByRole('heading', { name: 'Edit Customer', level: 1 }).waitFor();
        await expect.poll(() => page.getByLabel('Name', { exact: true }).inputValue()).toBe(SHOWN_CUSTOMER.name);
      };
      await customerPage();
      await shoot(page, `customer-page-${theme}-desktop`);
      await form();
      await shoot(page, `customer-form-${theme}-desktop`);
      await page.setViewportSize(NARROW);
      await customerPage();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(NARROW.width);
      await shoot(page, `customer-page-${theme}-phone`, { fullPage: true });
      await form();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(NARROW.width);
      await shoot(page, `customer-form-${theme}-phone`, { fullPage: true });
      expect(errors).toEqual([]);
      expect(serverErrors).toEqual([]);
      await ctx.close();
    });
  }

  // D56: the form and the page with custom fields (defined for the shot, removed after), light and dark, desktop and phone.
  for (const theme of ['light', 'dark'] as const) {
    test(`custom fields in the customer form and on the customer page — ${theme}, desktop and phone`, async () => {
      const api = await apiAs('owner@demo.test');
      const sfx = unique();
      const fields = await defineFields(api, ACME, [
        { label: `Gate code ${sfx}`, type: 'text', help: 'As written on the keypad' },
        { label: `Units ${sfx}`, type: 'number' },
        { label: `Contract end ${sfx}`, type: 'date' },
        { label: `Plan ${sfx}`, type: 'choice', options: [{ label: 'Basic' }, { label: 'Premium' }] },
        { label: `Pets ${sfx}`, type: 'choices', options: [{ label: 'Dog' }, { label: 'Cat' }, { label: 'Bird' }] },
        { label: `Key held ${sfx}`, type: 'yes_no' },
        { label: `Site notes ${sfx}`, type: 'long_text' },
        { label: `Floor ${sfx}`, type: 'number', record_kind: 'location' },
      ]);
      const [gate, units, end, plan, pets, key, , floor] = fields.made.map((f) => f.key);
      try {
        const custom = { [gate!]: '4821#', [units!]: 3, [end!]: '2027-03-31', [plan!]: 'o2', [pets!]: ['o1', 'o3'], [key!]: true };
        const { id } = await api.call<{ id: number }>('POST', '/v1/customers/', { org: ACME, body: { name: `Fields Shown ${sfx}`, city: 'Portland', custom } });
        await api.call('POST', `/v1/customers/${id}/locations/`, { org: ACME, body: { label: 'Warehouse', address_line: '9 Dock Rd', custom: { [floor!]: 2 } } });
        const ctx = await newContext(browser, { viewport: DESKTOP, colorScheme: theme });
        const { page, errors, serverErrors } = await newTab(ctx);
        await signInTo(page, 'owner@demo.test', 'Acme Plumbing');
        const both = async (path: string, name: string, ready: () => Promise<void>) => {
          for (const [width, viewport] of [
            ['desktop', DESKTOP],
            ['phone', NARROW],
          ] as const) {
            await page.setViewportSize(viewport);
            await page.goto(path);
            await ready();
            expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
            await shoot(page, `${name}-${theme}-${width}`, { fullPage: true });
          }
        };
        await both(`/customers/${id}`, 'custom-fields-page', async () => {
          await page.getByRole('heading', { level: 2, name: 'More details' }).waitFor();
          await page.getByRole('article', { name: 'Warehouse' }).getByText(`Floor ${sfx}`).waitFor();
        });
        await both(`/customers/${id}/edit`, 'custom-fields-form', async () => {
          await page.getByRole('group', { name: 'More details' }).getByLabel(`Site notes ${sfx}`).waitFor();
        });
        expect(errors).toEqual([]);
        expect(serverErrors).toEqual([]);
        await ctx.close();
      } finally {
        await deleteCustomersMatching(api, ACME, sfx);
        await fields.remove();
      }
    });
  }

  // D56: the custom fields screen with both groups, badges, options and an archived field, and its edit dialog.
  for (const theme of ['light', 'dark'] as const) {
    test(`the custom fields screen and its dialog — ${theme}, desktop and phone`, async () => {
      const api = await apiAs('owner@demo.test');
      const sfx = unique();
      const fields = await defineFields(api, ACME, [
        { label: `Water heater model ${sfx}`, type: 'text', unique: true, help: 'As on the unit’s plate' },
        { label: `Maintenance plan ${sfx}`, type: 'choice', required: true, options: [{ label: 'None' }, { label: 'Yearly' }, { label: 'Twice a year' }] },
        { label: `Last service ${sfx}`, type: 'date' },
        { label: `Old code ${sfx}`, type: 'number' },
        { label: `Gate code ${sfx}`, type: 'text', record_kind: 'location', help: 'Four to six digits' },
      ]);
      try {
        await api.call('POST', `/v1/custom-fields/${fields.made[3]!.id}/archive/`, { org: ACME });
        const ctx = await newContext(browser, { viewport: DESKTOP, colorScheme: theme });
        const { page, errors, serverErrors } = await newTab(ctx);
        await signInTo(page, 'owner@demo.test', 'Acme Plumbing');
        for (const [width, viewport] of [
          ['desktop', DESKTOP],
          ['phone', NARROW],
        ] as const) {
          await page.setViewportSize(viewport);
          await page.goto('/settings/fields');
          await page.getByRole('button', { name: `Restore Old code ${sfx}` }).waitFor();
          expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
          await shoot(page, `settings-fields-${theme}-${width}`, { fullPage: true });
          await page.getByRole('button', { name: `Edit Maintenance plan ${sfx}` }).click();
          await page.getByRole('dialog').getByLabel('Option 3').waitFor();
          await shoot(page, `settings-fields-dialog-${theme}-${width}`);
          await page.keyboard.press('Escape');
        }
        expect(errors).toEqual([]);
        expect(serverErrors).toEqual([]);
        await ctx.close();
      } finally {
        await api.call('POST', `/v1/custom-fields/${fields.made[3]!.id}/restore/`, { org: ACME }).catch(() => undefined);
        await fields.remove();
      }
    });
  }

  /** The demo customers of D46–D49 (seed-service.ts), found as a person would: by a rental's street, the flag, the duplicate's phone. */
  async function serviceDemo() {
    const api = await apiAs('owner@demo.test');
    type Row = { id: number; name: string; phone: string; email: string };
    const list = async (q: string) => (await api.call<{ results: Row[] }>('GET', `/v1/customers/?${q}`, { org: ACME })).results;
    const [landlord] = await list('q=Juniper');
    const [flagged] = await list('do_not_service=true');
    const [duplicate] = await list('q=.home%40mail.example');
    const original = duplicate && (await list(`q=${encodeURIComponent(duplicate.phone)}`)).find((c) => c.id !== duplicate.id);
    if (!landlord || !flagged || !duplicate || !original) throw new Error('the service demo customers are missing');
    return { landlord, flagged, duplicate, original };
  }

  for (const theme of ['light', 'dark'] as const) {
    test(`locations and contacts, the do-not-service warning, the merge screen — ${theme}, desktop and phone`, async () => {
      const { landlord, flagged, duplicate, original } = await serviceDemo();
      const ctx = await newContext(browser, { viewport: DESKTOP, colorScheme: theme });
      const { page, errors, serverErrors } = await newTab(ctx);
      await signInTo(page, 'owner@demo.test', 'Acme Plumbing');
      const shots: [string, () => Promise<void>][] = [
        [
          'customer-parts',
          async () => {
            await page.goto(`/customers/${landlord.id}`);
            await page.getByRole('region', { name: 'Service locations' }).getByRole('article').first().waitFor();
            await page.getByRole('region', { name: 'Contacts', exact: true }).getByRole('article').first().waitFor();
          },
        ],
        [
          'customer-do-not-service',
          async () => {
            await page.goto(`/customers/${flagged.id}`);
            await page.getByRole('heading', { name: flagged.name, level: 1 }).waitFor();
            await page.getByText('Do not service').first().waitFor();
          },
        ],
        [
          'merge',
          async () => {
            await page.goto(`/customers/merge?survivor=${original.id}&merged=${duplicate.id}`);
            await page.getByRole('heading', { level: 2, name: 'Values to keep' }).waitFor();
            await page.getByRole('heading', { level: 2, name: `What moves to ${original.name}` }).waitFor();
            await page.getByText('Counting what moves…').waitFor({ state: 'detached' });
          },
        ],
      ];
      for (const [name, open] of shots) {
        await page.setViewportSize(DESKTOP);
        await open();
        await shoot(page, `${name}-${theme}-desktop`);
        await page.setViewportSize(NARROW);
        await open();
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(NARROW.width);
        await shoot(page, `${name}-${theme}-phone`, { fullPage: true });
      }
      expect(errors).toEqual([]);
      expect(serverErrors).toEqual([]);
      await ctx.close();
    });
  }

  test('team and permissions — light, desktop', async () => {
    const ctx = await newContext(browser, { viewport: DESKTOP, colorScheme: 'light' });
    const { page, errors, serverErrors } = await newTab(ctx);
    await signInTo(page, 'owner@demo.test', 'Acme Plumbing');
    await page.goto('/team');
    await page.getByRole('heading', { name: 'Team', level: 1 }).waitFor();
    await page
      .getByRole('table', { name: /^Members/ })
      .getByRole('row', { name: /Olivia/ })
      .waitFor();
    await page.getByRole('table', { name: 'Pending invitations' }).or(page.getByText('No pending invitations.')).first().waitFor();
    await shoot(page, 'team-light-desktop');
    await page.goto('/permissions');
    await page.getByRole('checkbox', { name: 'member: customers:create' }).waitFor();
    await shoot(page, 'permissions-light-desktop');
    expect(errors).toEqual([]);
    expect(serverErrors).toEqual([]);
    await ctx.close();
  });

  for (const theme of ['light', 'dark'] as const) {
    test(`account, two-step sign-in, reset link and settings — ${theme}, desktop and phone`, async () => {
      const owner = await apiAs('owner@demo.test');
      const who = await newMember(owner, 'Quinn');
      try {
        const ctx = await newContext(browser, { viewport: DESKTOP, colorScheme: theme });
        const { page, errors, serverErrors } = await newTab(ctx);
        /** Desktop, then a small phone (nothing may scroll sideways), then desktop again. */
        const both = async (name: string) => {
          await page.evaluate(() => window.scrollTo(0, 0));
          await shoot(page, `${name}-${theme}-desktop`, { fullPage: true });
          await page.setViewportSize(NARROW);
          await page.evaluate(() => window.scrollTo(0, 0)); // the sticky header at the top of the whole-page shot
          await page.waitForTimeout(400); // the sidebar's slide away to a drawer
          expect(await page.evaluate(() => document.documentElement.scrollWidth), name).toBeLessThanOrEqual(NARROW.width);
          await shoot(page, `${name}-${theme}-phone`, { fullPage: true });
          await page.setViewportSize(DESKTOP);
        };
        await apiAs(who.email, who.password); // a second session for the list
        await signIn(page, who.email, who.password);
        await expectPath(page, '/dashboard');
        await page.goto('/account');
        const twoStep = page.getByRole('region', { name: 'Two-step sign-in' });
        await page.getByRole('button', { name: /\(this browser\)$/ }).waitFor();
        await shoot(page, `account-${theme}-desktop`, { fullPage: true });
        await twoStep.getByLabel('Your password').fill(who.password);
        await twoStep.getByRole('button', { name: 'Turn on' }).click();
        await twoStep.getByRole('img', { name: 'QR code for two-step sign-in' }).waitFor();
        await both('two-step-setup');
        // D54: the QR code scans: dark modules on a light ground, with a quiet zone, in either theme.
        const qr = await twoStep.getByRole('img', { name: 'QR code for two-step sign-in' }).evaluate((svg) => {
          const fill = (el: Element | null) => (el ? getComputedStyle(el).fill : '');
          const box = svg.getBoundingClientRect();
          return {
            ground: fill(svg.querySelector('rect')),
            ink: fill(svg.querySelector('path')),
            start: svg.querySelector('path')?.getAttribute('d')?.slice(0, 4),
            square: box.width === box.height && box.width >= 150,
          };
        });
        expect(qr, 'QR code').toEqual({ ground: 'rgb(255, 255, 255)', ink: 'rgb(0, 0, 0)', start: 'M4 4', square: true }); // 4 modules of quiet zone
        const key = (await twoStep.getByRole('textbox', { name: 'Or enter this key by hand' }).innerText()).replace(/\s+/g, '');
        await twoStep.getByLabel('Enter the 6-digit code the app shows').fill(totpAt(base32Decode(key)!, Date.now()));
        await twoStep.getByRole('button', { name: 'Turn on' }).click();
        await twoStep.getByRole('list', { name: 'Recovery codes' }).waitFor();
        await both('recovery-codes');
        await twoStep.getByRole('button', { name: 'I have saved them' }).click();
        await twoStep.getByText('On.').waitFor();
        await both('account-on');
        await page.getByRole('button', { name: who.email }).click();
        await page.getByRole('button', { name: 'Logout' }).click();
        await expectPath(page, '/login'); // the logout done, as a person sees it: a reload before then is still signed in
        await signIn(page, who.email, who.password);
        await page.getByRole('heading', { name: 'Two-step sign-in' }).waitFor();
        await both('login-code-step');
        const { user_id } = (await owner.call<{ results: { user_id: number; email: string }[] }>('GET', '/v1/team/members/', { org: ACME })).results.find(
          (m) => m.email === who.email,
        )!;
        const { token } = await owner.call<{ token: string }>('POST', `/v1/team/members/${user_id}/reset-link/`, { org: ACME });
        await page.goto(`/reset/${token}`);
        await page.getByRole('button', { name: 'Set password' }).waitFor();
        await both('reset');

        await signInTo(page, 'owner@demo.test', 'Acme Plumbing');
        await page.goto('/settings');
        await page.getByRole('switch', { name: 'Require two-step sign-in for everyone' }).waitFor();
        await both('settings');
        await page.goto('/team');
        await page.getByRole('button', { name: `Create reset link for ${who.first}` }).click();
        await page.getByRole('dialog', { name: 'Password reset link' }).waitFor();
        await both('reset-link-dialog');
        expect(errors).toEqual([]);
        expect(serverErrors).toEqual([]);
        await ctx.close();
      } finally {
        await removeMember(owner, ACME, who.email);
      }
    });
  }
});
