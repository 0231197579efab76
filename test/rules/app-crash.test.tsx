// SPEC §2 / §8 Rendering crash, through the whole <App>: a page that throws while rendering gives
// the error screen, the error goes to error reporting (D13), and Reload App reloads.
import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, expect, test, vi } from 'vitest';
import '../ui/no-console';
import { App } from '../../src/app/App';
import { navigate, page } from '../../src/router/location';
import { ORGS } from '../helpers/fake-api';
import { makeSession } from '../helpers/session';

vi.mock('../../src/pages/dashboard/DashboardPage', () => ({
  default: function DashboardPage(): never {
    throw new Error('dashboard render failed');
  },
}));

afterEach(() => vi.restoreAllMocks());

test("SPEC §8 a rendering crash in the app shows 'Something went wrong. Please try refreshing the page.' with Reload App", async () => {
  const reload = vi.spyOn(page, 'reload').mockImplementation(() => undefined);
  const onError = vi.fn();
  const t = makeSession();
  t.session.store.setState((s) => ({
    ...s,
    loading: false,
    hydrationComplete: true,
    isAuthenticated: true,
    organizations: ORGS,
    currentOrg: ORGS[0]!,
    user: { email: 'owner@demo.test', first_name: 'Olive', avatar_url: null },
    permissions: ['dashboard:view'],
  }));
  navigate('/dashboard', { replace: true });
  // React reports errors an error boundary caught through onCaughtError (console.error by default).
  render(<App session={t.session} onError={onError} />, { onCaughtError: () => undefined });
  await act(async () => void (await import('../../src/app/shell-screen')));
  const alert = await screen.findByRole('alert');
  expect(alert.textContent).toContain('Something went wrong. Please try refreshing the page.');
  expect(onError).toHaveBeenCalledWith(expect.objectContaining({ message: 'dashboard render failed' }), expect.anything());
  fireEvent.click(screen.getByRole('button', { name: 'Reload App' }));
  expect(reload).toHaveBeenCalledTimes(1);
});
