// Issue 34 items 7 and 8 as a person meets them, in real tabs: after 'Cancel' on Session Expired every
// page says 'You are signed out.' (D65); a reset page that said 'Password set' keeps saying it when another
// tab signs out (D65); a member demoted elsewhere loses Import and Add Customer on their next navigation,
// without a reload (D64). Each journey has a member of Acme of its own, removed after.
import { describe, expect, test } from 'vitest';
import { ACME, memberByEmail } from './api';
import { expectPath, sidebarNav, signIn, signInTo, skipReason, useBrowser } from './browser';
import { endSessionOnServer, membersOfTheBlock } from './people';

describe.skipIf(skipReason)('tabs, sessions and roles that change under a person', () => {
  const browser = useBrowser();
  const { owner, member } = membersOfTheBlock();

  test("D65 after 'Cancel' on Session Expired the page says 'You are signed out.' instead of loading; 'Log In Again' comes back here", async () => {
    const who = await member('Cato');
    const { page } = await browser.open();
    await signInTo(page, who.email, undefined, who.password);
    await endSessionOnServer(page);
    await sidebarNav(page).getByRole('link', { name: 'Customers' }).click(); // the list calls the API
    const dialog = page.getByRole('dialog', { name: 'Session Expired' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('heading', { name: 'You are signed out.' }).waitFor();
    await page.waitForTimeout(1500); // nothing spins or retries meanwhile
    expect(await page.getByText(/Loading/).count()).toBe(0);
    expect(await page.getByRole('heading', { name: 'You are signed out.' }).count()).toBe(1);
    await page.getByRole('link', { name: 'Log In Again' }).click();
    await expectPath(page, '/login');
    await signIn(page, who.email, who.password);
    await expectPath(page, '/customers'); // D6: where the session ended
  });

  test("D65 a reset page that said 'Password set' keeps saying it when another tab of the browser signs out", async () => {
    const who = await member('Dana');
    const api = await owner();
    const m = await memberByEmail(api, ACME, who.email);
    const { token } = await api.call<{ token: string }>('POST', `/v1/team/members/${m!.user_id}/reset-link/`, { org: ACME });
    const ctx = await browser.context();
    const signedIn = await browser.tab(ctx);
    await signIn(signedIn.page, 'solo@demo.test');
    await expectPath(signedIn.page, '/dashboard');
    const reset = await browser.tab(ctx);
    await reset.page.goto(`/reset/${token}`);
    const next = `${who.password}-reset`;
    await reset.page.getByLabel(/^New password \(at least 12 characters\)$/).fill(next);
    await reset.page.getByLabel('New password again').fill(next);
    await reset.page.getByRole('button', { name: 'Set password' }).click();
    await reset.page.getByRole('heading', { name: 'Password set' }).waitFor();
    await signedIn.page.getByRole('button', { name: /solo@demo\.test/ }).click();
    await signedIn.page.getByRole('button', { name: 'Logout' }).click();
    await expectPath(signedIn.page, '/login');
    await reset.page.waitForTimeout(1500); // another tab's logout reloads the tabs it reaches
    expect(await reset.page.getByRole('heading', { name: 'Password set' }).count()).toBe(1);
    expect(await reset.page.getByText('This link was already used').count()).toBe(0);
  });

  test('D64 a member made a viewer in another place loses Import and Add Customer on their next navigation, without a reload', async () => {
    const who = await member('Emil');
    const { page } = await browser.open();
    await page.clock.install(); // D64 asks at most every 30 s: the test moves the page's clock on
    await signInTo(page, who.email, undefined, who.password);
    await sidebarNav(page).getByRole('link', { name: 'Customers' }).click();
    await page.getByRole('link', { name: 'Add Customer' }).waitFor();
    expect(await page.getByRole('link', { name: 'Import' }).count()).toBe(1);
    const api = await owner();
    const m = await memberByEmail(api, ACME, who.email);
    await api.call('PATCH', `/v1/team/members/${m!.user_id}/`, { org: ACME, body: { role: 'viewer' } });
    let loads = 0;
    page.on('load', () => loads++);
    await page.clock.fastForward('00:31');
    await sidebarNav(page).getByRole('link', { name: 'Dashboard' }).click();
    await sidebarNav(page).getByRole('link', { name: 'Customers' }).click();
    await page.getByRole('heading', { name: 'Customers', level: 1 }).waitFor();
    await expect.poll(() => page.getByRole('link', { name: 'Add Customer' }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Import' }).count()).toBe(0);
    expect(loads).toBe(0);
  });
});
