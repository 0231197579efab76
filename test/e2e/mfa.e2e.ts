// Journeys: two-step sign-in (D54) — turned on from the account page (the password, QR code, key typed
// out, a code, the recovery codes), then signing in with a code and with a recovery code (used once); a
// new set of recovery codes, downloaded, that ends the old one; and an organization that requires it sends a member without it to the account page before its dashboard.
// Codes are computed as an authenticator app would, from the key the setup shows.
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { base32Decode, totpAt } from '../../server/auth/totp';
import { ACME, apiAs } from './api';
import { membersOfTheBlock, type Person } from './people';
import { expectPath, signIn, skipReason, toasts, useBrowser } from './browser';

/**
 * The code an app shows `ahead` steps of 30 s from now. A code is used once (D54), so each sign-in takes
 * the next step's (one step of drift is allowed) rather than waiting half a minute.
 */
const codeAt = (key: string, ahead = 0) => totpAt(base32Decode(key.replace(/\s+/g, ''))!, Date.now() + ahead * 30_000);

async function signOut(page: Page, who: Person) {
  await page.getByRole('button', { name: who.email }).click();
  await page.getByRole('button', { name: 'Logout' }).click();
  await expectPath(page, '/login');
}

/** Turns two-step sign-in on from the account page (D54: the password first); answers the key and the recovery codes shown. */
async function turnOn(page: Page, who: Person): Promise<{ key: string; codes: string[] }> {
  const section = page.getByRole('region', { name: 'Two-step sign-in' });
  await section.getByLabel('Your password').fill(who.password);
  await section.getByRole('button', { name: 'Turn on' }).click();
  await section.getByRole('img', { name: 'QR code for two-step sign-in' }).waitFor();
  const key = (await section.getByRole('textbox', { name: 'Or enter this key by hand' }).innerText()).trim();
  expect(key.replace(/\s+/g, '')).toMatch(/^[A-Z2-7]{32}$/);
  await section.getByLabel('Enter the 6-digit code the app shows').fill(codeAt(key));
  await section.getByRole('button', { name: 'Turn on' }).click();
  const list = section.getByRole('list', { name: 'Recovery codes' });
  await list.waitFor();
  const codes = (await list.getByRole('listitem').allInnerTexts()).map((c) => c.trim());
  expect(codes.length).toBe(10);
  await section.getByRole('button', { name: 'I have saved them' }).click();
  await section.getByText('On.').waitFor();
  await section.getByText('10 recovery codes left.').waitFor();
  return { key, codes };
}

/** The login's code step, after the password. */
async function codeStep(page: Page, who: Person) {
  await signIn(page, who.email, who.password);
  await page.getByRole('heading', { name: 'Two-step sign-in' }).waitFor();
}

describe.skipIf(skipReason)('two-step sign-in', () => {
  const browser = useBrowser();
  const { owner, member } = membersOfTheBlock();

  test('D54 turned on from the account page, then signing in with a code and with a recovery code, used once', async () => {
    const who = await member('Tove');
    const { page } = await browser.open();
    await signIn(page, who.email, who.password);
    await expectPath(page, '/dashboard');
    await page.goto('/account');
    const { key, codes } = await turnOn(page, who);
    await signOut(page, who);

    await codeStep(page, who);
    await page.getByLabel('6-digit code').fill(codeAt(key, 1));
    await page.getByRole('button', { name: 'Verify' }).click();
    await expectPath(page, '/account'); // SPEC §4: back where the session was signed out
    await signOut(page, who);

    await codeStep(page, who);
    await page.getByRole('button', { name: 'Use a recovery code' }).click();
    await page.getByLabel('Recovery code').fill(codes[0]!);
    await page.getByRole('button', { name: 'Verify' }).click();
    await expectPath(page, '/account');
    await signOut(page, who);

    await codeStep(page, who);
    await page.getByRole('button', { name: 'Use a recovery code' }).click();
    await page.getByLabel('Recovery code').fill(codes[0]!);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByText('That recovery code did not work. Check it, or use another one.').waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
  });

  test('D54 a new set of recovery codes from the account page: downloaded as a text file, the old codes stop working', async () => {
    const who = await member('Vera');
    const { page } = await browser.open();
    await signIn(page, who.email, who.password);
    await expectPath(page, '/dashboard');
    await page.goto('/account');
    const { codes: old } = await turnOn(page, who);
    const section = page.getByRole('region', { name: 'Two-step sign-in' });
    await section.getByRole('button', { name: 'Make new recovery codes' }).click();
    await section.getByLabel('Your password').fill(who.password);
    await section.getByRole('button', { name: 'Make new codes' }).click();
    await section.getByText('New recovery codes: your old ones no longer work.').waitFor();
    const fresh = (await section.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem').allInnerTexts()).map((c) => c.trim());
    const [file] = await Promise.all([page.waitForEvent('download'), section.getByRole('button', { name: 'Download as text file' }).click()]);
    expect(file.suggestedFilename()).toBe('recovery-codes.txt');
    const text = readFileSync(await file.path(), 'utf8');
    expect(text.split('\n')[0]).toBe(`CRM recovery codes for ${who.email}`);
    expect(text.split('\n').filter((l) => fresh.includes(l))).toEqual(fresh);
    await section.getByRole('button', { name: 'I have saved them' }).click();
    await section.getByText('10 recovery codes left.').waitFor();
    await signOut(page, who);

    await codeStep(page, who);
    await page.getByRole('button', { name: 'Use a recovery code' }).click();
    await page.getByLabel('Recovery code').fill(old[0]!);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByText('That recovery code did not work. Check it, or use another one.').waitFor();
    await page.getByLabel('Recovery code').fill(fresh[0]!);
    await page.getByRole('button', { name: 'Verify' }).click();
    await expectPath(page, '/account');
    await page.getByRole('region', { name: 'Two-step sign-in' }).getByText('9 recovery codes left.').waitFor();
  });

  test('D54 an organization that requires two-step sign-in sends a member without it to the account page first', async () => {
    const who = await member('Ugo');
    const admin = await browser.signedIn('owner@demo.test', { org: 'Acme Plumbing', path: '/settings' });
    const toggle = admin.page.getByRole('switch', { name: 'Require two-step sign-in for everyone' });
    try {
      await expect.poll(() => toggle.getAttribute('aria-checked')).toBe('false');
      await toggle.click();
      await expect.poll(() => toggle.getAttribute('aria-checked')).toBe('true');

      const { page } = await browser.open();
      await signIn(page, who.email, who.password);
      await expectPath(page, '/account');
      await toasts(page).getByText('Acme Plumbing requires two-step sign-in. Turn it on to continue.').waitFor();
      await page.getByRole('region', { name: 'Two-step sign-in' }).getByText('Acme Plumbing requires two-step sign-in.', { exact: false }).waitFor();
      await page.goto('/customers');
      await expectPath(page, '/account');
      await turnOn(page, who);
      await page.goto('/dashboard');
      await expectPath(page, '/dashboard');
    } finally {
      await (await owner()).call('PATCH', '/v1/organization/settings/', { org: ACME, body: { require_mfa: false } });
    }
  });

  test("D54 D53 an owner resets a member's two-step sign-in on the team page: the password alone signs in again", async () => {
    const who = await member('Wim');
    // Turned on through the API, as the account page does it (the journey above walks that page).
    const own = await apiAs(who.email, who.password);
    const { secret } = await own.call<{ secret: string }>('POST', '/v1/account/mfa/setup/', { body: { password: who.password } });
    await own.call('POST', '/v1/account/mfa/confirm/', { body: { code: codeAt(secret) } });
    const admin = await browser.signedIn('owner@demo.test', { org: 'Acme Plumbing', path: '/team' });
    await admin.page.getByRole('button', { name: `Reset two-step sign-in of ${who.first}` }).click();
    const dialog = admin.page.getByRole('dialog', { name: `Reset two-step sign-in for ${who.first}?` });
    await dialog.getByRole('button', { name: 'Reset two-step sign-in' }).click();
    await dialog.waitFor({ state: 'detached' });
    await admin.page.getByRole('button', { name: `Reset two-step sign-in of ${who.first}` }).waitFor({ state: 'detached' });
    const { page } = await browser.open();
    await signIn(page, who.email, who.password);
    await expectPath(page, '/dashboard');
  });
});
