// Journeys: signing in and out as each demo account (D3), validation, the stored keys
// (SPEC §3), reload without a login flash, and the deep-link return (D6).
import { beforeEach, describe, expect, test } from 'vitest';
import { expectPath, sidebarNav, signIn, skipReason, storage, useBrowser, type Tab } from './browser';

describe.skipIf(skipReason)('signing in and out', () => {
  const browser = useBrowser();
  let tab: Tab;
  beforeEach(async () => {
    tab = await browser.open();
  });

  test('SPEC §5 empty fields show the validation messages and send nothing', async () => {
    const { page } = tab;
    await page.goto('/login');
    await page.getByRole('button', { name: 'Log In' }).click();
    await page.getByText('Email is required').waitFor();
    await page.getByText('Password is required').waitFor();
    expect(tab.api.filter((c) => c.includes('/login/'))).toEqual([]);
    expect(await page.getByLabel('Remember Me').isChecked()).toBe(true);
    expect(await page.getByLabel('Email').getAttribute('type')).toBe('email');
  });

  test("SPEC §8 a wrong password shows 'Login failed. Check your credentials.' and keeps the email", async () => {
    const { page } = tab;
    await signIn(page, 'solo@demo.test', 'wrong-password');
    await page.getByText('Login failed. Check your credentials.').waitFor();
    expect(await page.getByLabel('Email').inputValue()).toBe('solo@demo.test');
    await expectPath(page, '/login');
    expect((await storage(page)).access_token).toBeUndefined();
  });

  test('D3 owner@demo.test sees the organization picker, then the dashboard of the one chosen', async () => {
    const { page } = tab;
    await signIn(page, 'owner@demo.test');
    await expectPath(page, '/org-picker');
    await page.getByRole('heading', { name: 'Select Your Organization' }).waitFor();
    await page.getByText("You're a member of multiple organizations. Choose one to continue:").waitFor();
    await page.getByRole('button', { name: 'Beacon Electric' }).click();
    await expectPath(page, '/dashboard');
    await page.getByRole('complementary').getByText('Beacon Electric').waitFor();
    expect((await storage(page)).current_org_id).toBe('2');
  });

  test('D3 solo@demo.test goes straight to the dashboard', async () => {
    const { page } = tab;
    await signIn(page, 'solo@demo.test');
    await expectPath(page, '/dashboard');
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    await page.getByRole('complementary').getByText('Acme Plumbing').waitFor();
  });

  test('D3 viewer@demo.test may view but /customers/new is forbidden', async () => {
    const { page } = tab;
    await signIn(page, 'viewer@demo.test');
    await expectPath(page, '/dashboard');
    await page.goto('/customers/new');
    await expectPath(page, '/forbidden');
    await page.getByText('You do not have permission to view this page.').waitFor();
    expect(await page.getByRole('link', { name: 'Team' }).count()).toBe(0); // D9: hidden links
  });

  test("D3 nobody@demo.test is sent back to /login with 'Session could not be loaded. Please log in again.'", async () => {
    const { page } = tab;
    await signIn(page, 'nobody@demo.test');
    await page.getByText('Session could not be loaded. Please log in again.').waitFor();
    await expectPath(page, '/login');
    const s = await storage(page);
    expect(s.access_token).toBeUndefined();
    expect(s.refresh_token).toBeUndefined();
  });

  test('SPEC §3 the stored keys have the right shapes, and a reload keeps the session without a login flash', async () => {
    const { page } = tab;
    await signIn(page, 'solo@demo.test');
    await expectPath(page, '/dashboard');
    const s = await storage(page);
    expect(s.access_token?.split('.')).toHaveLength(3);
    expect(s.refresh_token).toMatch(/^[\w-]{20,}$/);
    expect(s.session_id).toMatch(/^\d+$/);
    expect(s.current_org_id).toBe('1');
    expect(s.remember_me).toBe('true');
    const expires = Number(s.refresh_expires_at);
    expect(expires - Date.now()).toBeGreaterThan(29 * 86_400_000); // SPEC §9: 30 days with remember me
    expect(s.post_login_redirect).toBeUndefined();
    // Record, from the first byte of the reloaded page, whether the login form ever appears.
    await page.addInitScript(() => {
      new MutationObserver(() => {
        if (document.querySelector('input[type=password]')) (window as unknown as { sawLogin: boolean }).sawLogin = true;
      }).observe(document, { childList: true, subtree: true });
    });
    await page.reload();
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    expect(await page.evaluate(() => (window as unknown as { sawLogin?: boolean }).sawLogin ?? false)).toBe(false);
    await expectPath(page, '/dashboard');
  });

  test('SPEC §9 without Remember Me the session lasts one day', async () => {
    const { page } = tab;
    await page.goto('/login');
    await page.getByLabel('Remember Me').uncheck();
    await signIn(page, 'solo@demo.test');
    await expectPath(page, '/dashboard');
    const s = await storage(page);
    expect(s.remember_me).toBe('false');
    const left = Number(s.refresh_expires_at) - Date.now();
    expect(left).toBeLessThanOrEqual(86_400_000);
    expect(left).toBeGreaterThan(86_000_000);
  });

  test('D6 a deep link while signed out goes to /login, and after signing in back to the deep link', async () => {
    const { page } = tab;
    await page.goto('/customers?page=2');
    await expectPath(page, '/login');
    await signIn(page, 'solo@demo.test');
    await page.waitForURL((u) => u.pathname === '/customers' && u.search === '?page=2');
    await page.getByRole('heading', { name: 'Customers', level: 1 }).waitFor();
    expect((await storage(page)).post_login_redirect).toBeUndefined();
  });

  test('SPEC §4 logout stores the path and ends at /login with the tokens gone', async () => {
    const { page } = tab;
    await signIn(page, 'solo@demo.test');
    await expectPath(page, '/dashboard');
    await sidebarNav(page).getByRole('link', { name: 'Customers' }).click();
    await expectPath(page, '/customers');
    await page.getByRole('button', { name: 'solo@demo.test' }).click();
    await page.getByRole('button', { name: 'Logout' }).click();
    await expectPath(page, '/login');
    const s = await storage(page);
    expect(s.access_token).toBeUndefined();
    expect(s.refresh_token).toBeUndefined();
    expect(JSON.parse(s.post_login_redirect ?? '{}').path).toBe('/customers');
    expect(tab.api).toContain('POST /api/v1/auth/logout/');
  });
});
