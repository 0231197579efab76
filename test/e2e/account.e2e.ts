// Journeys: the person's own account (issue 20) — a password change ends the other sessions (D51), a
// session signed out from another browser (D52), a reset link made by an admin and used by the member
// (D53). Each journey has a person of its own, invited and joined through the API, removed after.
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { apiAs, ApiError } from './api';
import { expectSignedOut, membersOfTheBlock, type Person } from './people';
import { DESKTOP, expectPath, pathOf, sidebarNav, signIn, signInTo, skipReason, toasts, useBrowser } from './browser';

/** The login form's refusal of a password that no longer signs in (SPEC §2's message). */
async function expectLoginRefused(page: Page, email: string, password: string) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log In' }).click();
  await toasts(page).getByText('Login failed. Check your credentials.').waitFor();
  expect(new URL(page.url()).pathname).toBe('/login');
}

describe.skipIf(skipReason)('the account', () => {
  const browser = useBrowser();
  const { member } = membersOfTheBlock();

  /** A tab in a context of its own, signed in through the form as `who`. */
  const signedInAs = async (who: Person, viewport = DESKTOP) => {
    const t = await browser.open({ viewport });
    await signInTo(t.page, who.email, undefined, who.password);
    return t;
  };

  test('D51 changing the password in one browser ends the session in another; the new password signs in', async () => {
    const who = await member('Petra');
    const here = await signedInAs(who);
    const there = await signedInAs(who);
    const { page } = here;
    await page.goto('/account');
    const form = page.getByRole('form', { name: 'Password' });
    await form.getByLabel('Current password').fill(who.password);
    const next = `${who.password}-new`;
    await form.getByLabel(/^New password \(at least 12 characters\)$/).fill(next);
    await form.getByLabel('New password again').fill(next);
    await form.getByRole('button', { name: 'Change password' }).click();
    await form
      .getByRole('status')
      .filter({ hasText: /changed/i })
      .waitFor();
    await expectSignedOut(there.page);
    // This browser stays signed in.
    await sidebarNav(page).getByRole('link', { name: 'Customers' }).click();
    await expectPath(page, '/customers');
    await page.getByRole('dialog', { name: 'Session Expired' }).waitFor({ state: 'detached' });
    await expectLoginRefused(there.page, who.email, who.password);
    // SPEC §4: the path the session ended on is where the new sign-in lands.
    await signIn(there.page, who.email, next);
    await expectPath(there.page, '/customers');
  });

  test('D52 a session signed out from another browser on the Sessions list is signed out', async () => {
    const who = await member('Rui');
    const gone = await signedInAs(who);
    const here = await signedInAs(who);
    const { page } = here;
    await page.goto('/account');
    const list = page.getByRole('list').filter({ has: page.getByText('This browser') });
    await expect.poll(() => list.getByRole('listitem').count()).toBe(2);
    await page.getByRole('button', { name: /^Sign out .*, started / }).click();
    const dialog = page.getByRole('dialog', { name: 'Sign out this session?' });
    await dialog.getByRole('button', { name: 'Sign out' }).click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => list.getByRole('listitem').count()).toBe(1);
    await expectSignedOut(gone.page);
    // The one that did it goes on.
    await page.reload();
    await page.getByRole('button', { name: /^Sign out .* \(this browser\)$/ }).waitFor();
    expect(await pathOf(page)).toBe('/account');
  });

  test("D53 an admin's reset link: the member sets a new password, the old sessions are dead, the link is then refused", async () => {
    const who = await member('Ines');
    const old = await signedInAs(who);
    const admin = await browser.signedIn('owner@demo.test', { org: 'Acme Plumbing', path: '/team' });
    const row = admin.page
      .getByRole('table', { name: /^Members/ })
      .getByRole('row')
      .filter({ hasText: who.email });
    await row.getByRole('button', { name: `Create reset link for ${who.first}` }).click();
    const dialog = admin.page.getByRole('dialog', { name: 'Password reset link' });
    const link = await dialog.getByLabel('Reset link').inputValue();
    await dialog.getByRole('button', { name: 'Done' }).click();
    const path = new URL(link).pathname;
    expect(path).toMatch(/^\/reset\/[\w-]{20,}$/);

    const fresh = await browser.open();
    const { page } = fresh;
    await page.goto(path);
    await page.getByRole('heading', { name: 'Set a new password' }).waitFor();
    const next = `${who.password}-reset`;
    await page.getByLabel(/^New password \(at least 12 characters\)$/).fill(next);
    await page.getByLabel('New password again').fill(next);
    await page.getByRole('button', { name: 'Set password' }).click();
    await page.getByRole('heading', { name: 'Password set' }).waitFor();
    await expectSignedOut(old.page);
    await page.getByRole('link', { name: `Sign in as ${who.email}` }).click();
    await expectPath(page, '/login');
    await signInTo(page, who.email, undefined, next);
    // Used once: the link is refused after.
    const again = await browser.open();
    await again.page.goto(path);
    await again.page.getByRole('alert').filter({ hasText: 'This link was already used' }).waitFor();
    await expect(apiAs(who.email, who.password)).rejects.toBeInstanceOf(ApiError);
  });
});
