// SPEC §2 / §4 / §8, D9 and D15 through the whole <App>: the global layers (toasts, offline banner,
// Session Expired dialog) are mounted and wired to the session, and the guards send people where
// the rules say, by the shortest way.
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import '../ui/no-console';
import { App } from '../../src/app/App';
import { connectivity } from '../../src/http/connectivity';
import { KEYS } from '../../src/lib/storage';
import { RequirePermission } from '../../src/router/require-permission';
import { currentPath, navigate } from '../../src/router/location';
import type { SessionState } from '../../src/session/types';
import { SessionProvider } from '../../src/session/use-session';
import { toasts } from '../../src/ui/toast';
import { json, ORGS, profile } from '../helpers/fake-api';
import { makeSession, NO_ORG, SIGNED_OUT, WITH_ORG } from '../helpers/session';

/** A session whose navigation is the app's real one (the URL changes). */
const appSession = () => makeSession({ navigate: (to, opts) => navigate(to, opts), currentPath });

function mount(path: string, t = appSession(), state?: Partial<SessionState>) {
  cleanup();
  if (state) t.session.store.setState((s) => ({ ...s, ...state }));
  navigate(path, { replace: true });
  render(<App session={t.session} />);
  return t;
}
/** Waits for the lazy screen group and the redirects that follow. */
const settle = () => act(async () => void (await import('../../src/app/shell-screen')));
const path = () => window.location.pathname;

beforeEach(() => {
  toasts.setState([]);
  navigate('/', { replace: true });
});
afterEach(() => {
  act(() => connectivity.setState(true));
  toasts.setState([]);
  vi.restoreAllMocks();
});

/** Signed in through the fake API, organization 1 chosen, at /dashboard. */
async function signedInApp() {
  const t = appSession();
  t.seed();
  t.storage.set(KEYS.currentOrgId, '1');
  await t.session.load();
  mount('/dashboard', t);
  await screen.findByRole('heading', { name: 'Dashboard', level: 1 });
  return t;
}

describe('SPEC §2 / §8 global layers in the app', () => {
  test("SPEC §8 401 and the refresh fails → the app shows the 'Session Expired' dialog", async () => {
    const t = await signedInApp();
    t.api.validAccess.clear();
    t.api.validRefresh.clear();
    await act(() => t.session.client.get('/v1/things').catch(() => undefined));
    const dialog = await screen.findByRole('dialog', { name: 'Session Expired' });
    expect(within(dialog).getByText('Your session expired or could not be refreshed. Please log in again.')).toBeTruthy();
  });

  test("SPEC §2 the dialog opens on a window event named 'sessionExpired'; 'Log In Again' shows the login form", async () => {
    const t = await signedInApp();
    t.session.store.setState((s) => ({ ...s, expired: true })); // as the failed refresh leaves it
    act(() => void window.dispatchEvent(new Event('sessionExpired')));
    await screen.findByRole('dialog', { name: 'Session Expired' });
    fireEvent.click(screen.getByRole('button', { name: 'Log In Again' }));
    await settle();
    expect(path()).toBe('/login');
    expect(screen.getByRole('heading', { name: 'Login', level: 1 })).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  test("SPEC §4 / §8 a network error shows the offline banner 'Connection lost. Changes may not save.'; a later success hides it", async () => {
    const t = await signedInApp();
    t.api.offline = true;
    await act(() => t.session.client.get('/v1/things').catch(() => undefined));
    expect(screen.getByText('Connection lost. Changes may not save.')).toBeTruthy();
    t.api.offline = false;
    await act(() => t.session.client.get('/v1/things'));
    expect(screen.queryByText('Connection lost. Changes may not save.')).toBeNull();
  });

  test("SPEC §4 / §8 the current-user call fails → the app goes to /login and shows the toast 'Session could not be loaded. Please log in again.'", async () => {
    const t = appSession();
    t.seed();
    t.api.me = () => json(500, { detail: 'boom' });
    mount('/customers', t);
    await act(() => t.session.load());
    await settle();
    expect(path()).toBe('/login');
    const toast = await screen.findByText('Session could not be loaded. Please log in again.');
    expect(toast.closest('[data-kind]')?.getAttribute('data-kind')).toBe('error');
    expect(t.storage.get(KEYS.toastReason)).toBeNull(); // shown, then cleared
  });
});

describe('SPEC §2 / D4 signing in through the app', () => {
  async function signIn(me: () => Response) {
    const t = appSession();
    t.api.me = me;
    await t.session.load();
    mount('/login', t);
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'owner@demo.test' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'demo-password' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Log In' })));
    await settle();
    return t;
  }

  test('SPEC §2 several organizations: login → /org-picker; choosing one → /dashboard in that organization', async () => {
    await signIn(() => json(200, profile()));
    expect(path()).toBe('/org-picker');
    fireEvent.click(await screen.findByRole('button', { name: 'Beacon Electric' }));
    await screen.findByRole('heading', { name: 'Dashboard', level: 1 });
    expect(path()).toBe('/dashboard');
    expect(within(screen.getByRole('complementary', { name: 'Sidebar' })).getByText('Beacon Electric')).toBeTruthy();
  });

  test('SPEC §2 exactly one organization: login goes straight to /dashboard', async () => {
    await signIn(() => json(200, profile({ organizations: [ORGS[0]] })));
    await screen.findByRole('heading', { name: 'Dashboard', level: 1 });
    expect(path()).toBe('/dashboard');
  });

  test("D4 no organization: login stays on /login and shows 'Session could not be loaded. Please log in again.'", async () => {
    const t = await signIn(() => json(200, profile({ organizations: [] })));
    expect(path()).toBe('/login');
    expect(await screen.findByText('Session could not be loaded. Please log in again.')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Login', level: 1 })).toBeTruthy();
    expect(t.storage.get(KEYS.accessToken)).toBeNull();
    // the form stayed on screen through the attempt: what was typed is still there
    expect((screen.getByLabelText('Email') as HTMLInputElement).value).toBe('owner@demo.test');
  });

  test('SPEC §2 the login form stays on screen while signing in: no full-screen spinner replaces it', async () => {
    let release!: () => void;
    const t = await (async () => {
      const s = appSession();
      s.api.me = () => json(200, profile({ organizations: [ORGS[0]] }));
      await s.session.load();
      return s;
    })();
    const original = t.api.fetch.getMockImplementation()!;
    t.api.fetch.mockImplementation(async (input, init) => {
      if (String(input).endsWith('/me/')) await new Promise<void>((r) => (release = r));
      return original(input, init);
    });
    mount('/login', t);
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'solo@demo.test' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'demo-password' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Log In' })));
    expect(screen.getByRole('button', { name: 'Logging in…' })).toBeTruthy(); // the form, mid-login
    expect((screen.getByLabelText('Email') as HTMLInputElement).value).toBe('solo@demo.test');
    await act(async () => release());
    await settle();
    expect(path()).toBe('/dashboard');
  });

  test("SPEC §2 while the stored session loads, protected routes show 'Checking session...' and /login shows nothing else", () => {
    mount('/customers', appSession());
    expect(screen.getByText('Checking session...', { selector: '.center-screen *' })).toBeTruthy();
    mount('/login', appSession());
    expect(screen.queryByText('Checking session...')).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Login' })).toBeNull();
  });
});

describe('SPEC §2 guards in the app', () => {
  test('SPEC §2 the shell requires no session-load error: signed in with an organization but a load error → /login', async () => {
    mount('/dashboard', undefined, { ...WITH_ORG, hydrationError: 'Session could not be loaded. Please log in again.' });
    await settle();
    expect(path()).toBe('/login');
    expect(screen.queryByRole('navigation', { name: 'Main' })).toBeNull();
  });

  test('SPEC §2 an unknown path goes straight to /dashboard when signed in (never through /login)', async () => {
    const replace = vi.spyOn(window.history, 'replaceState');
    const push = vi.spyOn(window.history, 'pushState');
    mount('/no/such/page', undefined, WITH_ORG);
    await settle();
    expect(path()).toBe('/dashboard');
    const visited = [...replace.mock.calls, ...push.mock.calls].map((c) => String(c[2]));
    expect(visited).not.toContain('/login');
  });

  test('D9 a failed permission check leads to /forbidden; the granted permission passes', async () => {
    const t = makeSession();
    t.session.store.setState((s) => ({ ...s, ...WITH_ORG, permissions: ['dashboard:view'] }));
    navigate('/team', { replace: true });
    const { unmount } = render(
      <SessionProvider session={t.session}>
        <RequirePermission permission="team:view">team only</RequirePermission>
      </SessionProvider>,
    );
    expect(path()).toBe('/forbidden');
    expect(screen.queryByText('team only')).toBeNull();
    unmount();
    t.session.store.setState((s) => ({ ...s, permissions: ['dashboard:view', 'team:view'] }));
    navigate('/team', { replace: true });
    render(
      <SessionProvider session={t.session}>
        <RequirePermission permission="team:view">team only</RequirePermission>
      </SessionProvider>,
    );
    expect(screen.getByText('team only')).toBeTruthy();
    expect(path()).toBe('/team');
  });
});

describe('D15 every control has an accessible name', () => {
  const CONTROL_ROLES = ['button', 'link', 'textbox', 'checkbox', 'radio', 'combobox', 'switch', 'menuitem', 'tab', 'searchbox'] as const;
  function expectAllNamed(where: string) {
    let controls = 0;
    for (const role of CONTROL_ROLES) {
      controls += screen.queryAllByRole(role).length;
      // A name must say something: a lone symbol such as '×' is read out as 'times'.
      const unnamed = screen.queryAllByRole(role, { name: (name) => !/[\p{L}\p{N}]/u.test(name) });
      expect(
        unnamed.map((el) => el.outerHTML.slice(0, 120)),
        `${where}: ${role} without a name`,
      ).toEqual([]);
    }
    expect(controls, where).toBeGreaterThan(0);
  }

  test('D15 login, organization picker, shell (drawer and user menu open), dialog, toasts, forbidden and not-found', async () => {
    mount('/login', undefined, SIGNED_OUT);
    expectAllNamed('login');

    mount('/org-picker', undefined, NO_ORG);
    await screen.findByRole('heading', { name: 'Select Your Organization' });
    expectAllNamed('org picker');

    mount('/dashboard', undefined, WITH_ORG);
    await screen.findByRole('heading', { name: 'Dashboard', level: 1 });
    fireEvent.click(screen.getByRole('button', { name: 'owner@demo.test' }));
    expectAllNamed('shell with the user menu open');
    fireEvent.click(screen.getByRole('button', { name: 'Open menu' }));
    expectAllNamed('shell with the drawer open');
    fireEvent.keyDown(document.activeElement ?? document.body, { key: 'Escape' });

    act(() => void window.dispatchEvent(new Event('sessionExpired')));
    await screen.findByRole('dialog', { name: 'Session Expired' });
    expectAllNamed('Session Expired dialog');

    mount('/forbidden', undefined, WITH_ORG);
    await screen.findByText('You do not have permission to view this page.');
    act(() => void toasts.setState([{ id: 1, kind: 'error', message: 'Something failed' }]));
    expectAllNamed('forbidden page with a toast');

    mount('/customers/abc', undefined, WITH_ORG);
    await screen.findByRole('heading', { name: 'Customer not found' });
    expectAllNamed('customer not found');
  });
});
