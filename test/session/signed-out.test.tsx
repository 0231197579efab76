// D65 through the whole <App>: once the Session Expired dialog is closed, no page pretends the person is
// signed in: each says 'You are signed out.' with 'Log In Again' (D6: back to where they were), nothing
// spins or retries; what a form held is kept (D41).
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import '../ui/no-console';
import { PERMISSIONS } from '../../contract/permissions';
import { App } from '../../src/app/App';
import { DRAFT_PREFIX, KEYS, readRedirect } from '../../src/lib/storage';
import { MSG_SIGNED_OUT } from '../../src/router/guards';
import { currentPath, navigate } from '../../src/router/location';
import { toasts } from '../../src/ui/toast';
import { json, profile } from '../helpers/fake-api';
import { makeSession } from '../helpers/session';

const appSession = () => makeSession({ navigate: (to, opts) => navigate(to, opts), currentPath });
const path = () => window.location.pathname;
const drafts = () => Object.keys(sessionStorage).filter((k) => k.startsWith(DRAFT_PREFIX));

beforeEach(() => {
  toasts.setState([]);
  sessionStorage.clear();
  navigate('/', { replace: true });
});
afterEach(() => {
  cleanup();
  toasts.setState([]);
  sessionStorage.clear();
});

/** Signed in to Acme with every permission, the app at `at` showing its heading `heading`. */
async function signedInAt(at: string, heading: string) {
  const t = appSession();
  t.api.me = () => json(200, profile({ permissions: [...PERMISSIONS] }));
  void t.api.customers; // the customers list's API
  void t.api.record; // the dashboard's
  t.seed();
  t.storage.set(KEYS.currentOrgId, '1');
  await t.session.load();
  navigate(at, { replace: true });
  render(<App session={t.session} />);
  await screen.findByRole('heading', { name: heading, level: 1 }, { timeout: 5_000 });
  return t;
}

/** The session ends on the server; the next call's refresh fails and 'Session Expired' opens (SPEC §8). */
async function expire(t: ReturnType<typeof appSession>) {
  t.api.validAccess.clear();
  t.api.validRefresh.clear();
  await act(() => t.session.client.get('/v1/things').catch(() => undefined));
  return screen.findByRole('dialog', { name: 'Session Expired' });
}

describe('D65 signed out stays clear', () => {
  test.each([
    ['/customers', 'Customers'],
    ['/dashboard', 'Dashboard'],
  ])("D65 after 'Cancel' on Session Expired %s says 'You are signed out.' with 'Log In Again', and nothing spins or retries", async (at, heading) => {
    const t = await signedInAt(at, heading);
    const dialog = await expire(t);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    const said = await screen.findByRole('heading', { name: MSG_SIGNED_OUT, level: 1 });
    expect(document.activeElement).toBe(said); // D15: the page that had the focus is gone
    expect(screen.getByRole('link', { name: 'Log In Again' }).getAttribute('href')).toBe('/login');
    expect(path()).toBe(at); // the address stays
    // Nothing of the signed-in app is left: no shell, no page waiting for data, no Retry.
    expect(screen.queryByRole('navigation', { name: 'Main' })).toBeNull();
    expect(screen.queryByRole('heading', { name: heading, level: 1 })).toBeNull();
    expect(screen.queryByText(/Loading/)).toBeNull();
    expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull();
    expect(t.session.store.getState()).toMatchObject({ isAuthenticated: false, user: null, permissions: [] });
    const calls = t.api.calls.length;
    await act(() => new Promise((r) => setTimeout(r, 300)));
    expect(t.api.calls.length).toBe(calls);
  });

  test("D65 D6 'Log In Again' keeps the current path: signing in again comes back to it", async () => {
    const t = await signedInAt('/customers', 'Customers');
    fireEvent.click(within(await expire(t)).getByRole('button', { name: 'Cancel' }));
    await screen.findByRole('heading', { name: MSG_SIGNED_OUT });
    act(() => navigate('/dashboard')); // Back, a typed address: still signed out, and this is where to return
    expect(screen.getByRole('heading', { name: MSG_SIGNED_OUT })).toBeTruthy();
    t.api.validRefresh.clear();
    fireEvent.click(screen.getByRole('link', { name: 'Log In Again' }));
    await screen.findByRole('heading', { name: 'Login', level: 1 });
    expect(path()).toBe('/login');
    expect(readRedirect(t.storage)).toEqual({ path: '/dashboard', sub: '1' }); // still whose it was (D6)
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'owner@demo.test' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'demo-password' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Log In' })));
    await screen.findByRole('heading', { name: 'Dashboard', level: 1 }, { timeout: 5_000 });
    expect(path()).toBe('/dashboard');
    expect(t.session.store.getState()).toMatchObject({ isAuthenticated: true, signedOut: false, expired: false });
  });

  test("D65 the dialog's 'Log In Again' signs the tab out too: Back from /login does not show the old page", async () => {
    const t = await signedInAt('/customers', 'Customers');
    fireEvent.click(within(await expire(t)).getByRole('button', { name: 'Log In Again' }));
    await screen.findByRole('heading', { name: 'Login', level: 1 });
    act(() => navigate('/customers'));
    expect(await screen.findByRole('heading', { name: MSG_SIGNED_OUT })).toBeTruthy();
    expect(screen.queryByRole('navigation', { name: 'Main' })).toBeNull();
  });

  test('D65 D41 what a form held when the dialog is closed is kept as a draft', async () => {
    const t = await signedInAt('/customers/new', 'Add Customer');
    fireEvent.change(screen.getByLabelText('Name', { exact: true }), { target: { value: 'Henry Ford' } });
    const dialog = await expire(t); // before the typing's debounced write
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await screen.findByRole('heading', { name: MSG_SIGNED_OUT });
    await waitFor(() => expect(drafts()).toHaveLength(1));
  });
});
