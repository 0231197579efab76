// SPEC §2 routes and guards, D9 and D12, through the real route switch and a real session store.
import { act, cleanup, render, screen } from '@testing-library/react';
import { beforeEach, describe, expect, test } from 'vitest';
import { AppRoutes, MSG_NO_SUCH_PAGE } from '../../src/app/App';
import { toasts } from '../../src/ui/toast';
import { KEYS } from '../../src/lib/storage';
import { navigate } from '../../src/router/location';
import { RequireAuth } from '../../src/router/guards';
import type { SessionState } from '../../src/session/types';
import { SessionProvider } from '../../src/session/use-session';
import { makeSession, NO_ORG, SIGNED_OUT, WITH_ORG } from '../helpers/session';

function at(path: string, state: Partial<SessionState>) {
  cleanup(); // one app at a time: an earlier tree would react to this URL change too
  const t = makeSession({ path });
  t.session.store.setState((s) => ({ ...s, ...state }));
  // the guards read the real URL, and the session's navigate is the real one here
  navigate(path, { replace: true });
  const view = render(
    <SessionProvider session={t.session}>
      <AppRoutes />
    </SessionProvider>,
  );
  return { ...t, view };
}

const path = () => window.location.pathname;
/** Waits until the lazy screen group has loaded and the URL has settled. */
const settle = () => act(async () => void (await import('../../src/app/shell-screen')));

beforeEach(() => navigate('/', { replace: true }));

describe('SPEC §2 routes and guards', () => {
  test('SPEC §2 while the session loads a centred spinner replaces all routes', () => {
    at('/login', { loading: true });
    expect(screen.getByRole('status')).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Login' })).toBeNull();
    expect(document.querySelector('.center-screen')).not.toBeNull();
  });

  test("SPEC §2 protected routes show 'Checking session...' while the session loads", () => {
    const t = makeSession();
    render(
      <SessionProvider session={t.session}>
        <RequireAuth>secret</RequireAuth>
      </SessionProvider>,
    );
    expect(screen.getByText('Checking session...')).toBeTruthy();
    expect(screen.queryByText('secret')).toBeNull();
  });

  test('SPEC §2 /login shows the login screen to signed-out users', () => {
    at('/login', SIGNED_OUT);
    expect(screen.getByRole('heading', { name: 'Login' })).toBeTruthy();
  });

  test('SPEC §2 a signed-in user at /login goes to /dashboard with an organization, else /org-picker', async () => {
    at('/login', WITH_ORG);
    await settle();
    expect(path()).toBe('/dashboard');
    at('/login', NO_ORG);
    await settle();
    expect(path()).toBe('/org-picker');
  });

  test('SPEC §2 /org-picker redirects to /login when signed out or the load failed, and to /dashboard with an organization', async () => {
    at('/org-picker', SIGNED_OUT);
    expect(path()).toBe('/login');
    at('/org-picker', { ...NO_ORG, hydrationError: 'x' });
    expect(path()).toBe('/login');
    at('/org-picker', WITH_ORG);
    await settle();
    expect(path()).toBe('/dashboard');
  });

  test('SPEC §2 the shell redirects to /org-picker when signed in without an organization', async () => {
    at('/dashboard', NO_ORG);
    await settle();
    expect(path()).toBe('/org-picker');
  });

  test('D9 signed out at a shell page → /login with the path stored as post_login_redirect', () => {
    const t = at('/customers/5?tab=jobs', SIGNED_OUT);
    expect(path()).toBe('/login');
    expect(JSON.parse(t.storage.get(KEYS.postLoginRedirect) ?? '{}').path).toBe('/customers/5?tab=jobs');
  });

  test('SPEC §2 the index of / redirects to dashboard', async () => {
    at('/', WITH_ORG);
    await settle();
    expect(path()).toBe('/dashboard');
    expect(await screen.findByRole('heading', { name: 'Dashboard', level: 1 })).toBeTruthy();
  });

  test('SPEC §2 an unknown path goes to /dashboard when signed in, otherwise to /login', async () => {
    at('/no/such/page', WITH_ORG);
    await settle();
    expect(path()).toBe('/dashboard');
    at('/customers/5/nonsense', WITH_ORG);
    await settle();
    expect(path()).toBe('/dashboard');
    at('/no/such/page', SIGNED_OUT);
    expect(path()).toBe('/login');
  });

  test("SPEC §2 the redirect from an unknown path says why: 'That page does not exist' (signed in only)", async () => {
    toasts.setState([]);
    at('/no/such/page', WITH_ORG);
    await settle();
    expect(path()).toBe('/dashboard');
    expect(toasts.getState().map((t) => [t.kind, t.message])).toEqual([['info', MSG_NO_SUCH_PAGE]]);
    toasts.setState([]);
    at('/no/such/page', SIGNED_OUT);
    expect(path()).toBe('/login');
    expect(toasts.getState()).toEqual([]);
  });

  test('D9 a failed permission check leads to /forbidden', async () => {
    at('/customers/new', { ...WITH_ORG, permissions: ['dashboard:view', 'customers:view'], role: 'viewer' });
    await settle();
    expect(path()).toBe('/forbidden');
    expect(await screen.findByText('You do not have permission to view this page.')).toBeTruthy();
  });

  test('D12 customers/new opens Add Customer when permitted, not a customer with id "new"', async () => {
    at('/customers/new', WITH_ORG);
    await settle();
    expect(await screen.findByRole('heading', { name: 'Add Customer', level: 1 })).toBeTruthy();
  });

  test('D12 D27 customers/import is the import page (customers:create), not a customer with id "import"', async () => {
    at('/customers/import', WITH_ORG);
    await settle();
    expect(await screen.findByRole('heading', { name: 'Import Customers', level: 1 })).toBeTruthy();
    at('/customers/import', { ...WITH_ORG, permissions: ['dashboard:view', 'customers:view'] });
    await settle();
    expect(path()).toBe('/forbidden');
  });

  test('D26 /customers loads the list, a chunk of its own, inside the shell', async () => {
    at('/customers', WITH_ORG);
    expect(await screen.findByRole('heading', { name: 'Customers', level: 1 })).toBeTruthy();
    expect(screen.getByRole('searchbox', { name: 'Search customers' })).toBeTruthy();
  });

  test('D12 a customer id that is not a positive integer is a not-found state inside the shell', async () => {
    at('/customers/abc', WITH_ORG);
    await settle();
    expect(path()).toBe('/customers/abc');
    expect(await screen.findByRole('navigation')).toBeTruthy(); // still inside the shell
    expect(screen.queryByRole('heading', { name: 'Customer Dashboard', level: 1 })).toBeNull();
  });

  test('STYLE useParams: the route the app matched gives the page its :id', async () => {
    at('/customers/42/edit', WITH_ORG);
    await settle();
    expect(await screen.findByRole('heading', { name: 'Edit Customer', level: 1 })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Cancel' }).getAttribute('href')).toBe('/customers/42');
  });

  test('SPEC §2 pages load lazily and show a spinner while loading', async () => {
    at('/jobs', WITH_ORG);
    expect(screen.getByRole('status')).toBeTruthy(); // before the lazy group has arrived
    expect(await screen.findByRole('heading', { name: 'Jobs', level: 1 })).toBeTruthy();
  });
});
