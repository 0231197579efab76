// D64: a role changed in another place reaches an open tab without a reload: the app asks for the
// caller's current permissions again when the tab becomes visible and on navigation, at most once every
// 30 s (a load, a refresh and a D29 reload count as asking).
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import '../ui/no-console';
import { App } from '../../src/app/App';
import { KEYS } from '../../src/lib/storage';
import { currentPath, navigate } from '../../src/router/location';
import { PERMISSION_RECHECK_MS } from '../../src/session/permission-sync';
import { startSessionWatchers, VISIBILITY_THROTTLE_MS } from '../../src/session/watchers';
import { toasts } from '../../src/ui/toast';
import { json, profile } from '../helpers/fake-api';
import { makeSession } from '../helpers/session';

const MEMBER = ['dashboard:view', 'customers:view', 'customers:create', 'customers:update'];
const VIEWER = ['dashboard:view', 'customers:view'];
const ME = '/api/v1/auth/me/';

/** Signed in to Acme as a member; `demote()` makes the server's answer a viewer's from now on. */
async function member(opts: Parameters<typeof makeSession>[0] = {}) {
  const t = makeSession(opts);
  let permissions = MEMBER;
  t.api.me = () => json(200, profile({ permissions, role: permissions === MEMBER ? 'member' : 'viewer' }));
  t.seed();
  t.storage.set(KEYS.currentOrgId, '1');
  await t.session.load();
  return { ...t, demote: () => (permissions = VIEWER), asked: () => t.api.count(ME) };
}

/** Moves the clock (Date only: the app's own timers run as they do). */
const later = (ms: number) => vi.setSystemTime(Date.now() + ms);

const setVisibility = (state: DocumentVisibilityState) => {
  Object.defineProperty(document, 'visibilityState', { value: state, configurable: true });
  document.dispatchEvent(new Event('visibilitychange'));
};

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  toasts.setState([]);
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  toasts.setState([]);
  navigate('/', { replace: true });
});

describe('D64 a changed role reaches open tabs', () => {
  test('D64 a tab becoming visible asks for the current permissions again, at most once every 30 s', async () => {
    const t = await member();
    const stop = startSessionWatchers(t.session, { win: window, reload: vi.fn() });
    const before = t.asked();
    t.demote();
    setVisibility('visible');
    expect(t.asked()).toBe(before); // the load has just asked
    later(PERMISSION_RECHECK_MS);
    setVisibility('visible');
    await vi.waitFor(() => expect(t.session.store.getState().permissions).toEqual(VIEWER));
    expect(t.asked()).toBe(before + 1);
    later(VISIBILITY_THROTTLE_MS);
    setVisibility('visible');
    expect(t.asked()).toBe(before + 1); // 10 s later: not yet again
    later(PERMISSION_RECHECK_MS - VISIBILITY_THROTTLE_MS);
    setVisibility('visible');
    expect(t.asked()).toBe(before + 2);
    stop();
  });

  test('a hidden tab or an expired one asks nothing', async () => {
    const t = await member();
    const stop = startSessionWatchers(t.session, { win: window, reload: vi.fn() });
    const before = t.asked();
    later(PERMISSION_RECHECK_MS);
    setVisibility('hidden');
    t.session.store.setState((s) => ({ ...s, expired: true }));
    setVisibility('visible');
    t.session.recheckPermissions();
    expect(t.asked()).toBe(before);
    stop();
  });

  test('D64 a member demoted in another place loses Import and Add Customer on their next navigation, without a reload', async () => {
    const t = await member({ navigate: (to, opts) => navigate(to, opts), currentPath });
    navigate('/customers', { replace: true });
    render(<App session={t.session} />);
    await screen.findByRole('link', { name: 'Add Customer' }, { timeout: 5_000 });
    expect(screen.getByRole('link', { name: 'Import' })).toBeTruthy();
    const before = t.asked();
    t.demote();
    act(() => navigate('/dashboard'));
    await screen.findByRole('heading', { name: 'Dashboard', level: 1 }, { timeout: 5_000 });
    expect(t.asked()).toBe(before); // under 30 s since the load asked
    later(PERMISSION_RECHECK_MS);
    act(() => navigate('/customers'));
    await screen.findByRole('heading', { name: 'Customers', level: 1 });
    await vi.waitFor(() => expect(screen.queryByRole('link', { name: 'Add Customer' })).toBeNull());
    expect(screen.queryByRole('link', { name: 'Import' })).toBeNull();
    expect(t.asked()).toBe(before + 1);
    expect(t.session.store.getState().role).toBe('viewer');
  });
});
