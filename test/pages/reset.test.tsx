// D53 the reset-link page (/reset/{token}): whose password, the new one typed twice (length, match),
// then 'Password set' with the way to sign in; an unknown, used or expired link in words; the token
// kept out of logs and error reports (D37). Against the fake account API (fake-account.ts).
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import '../ui/no-console';
import { PASSWORD_MIN_LENGTH } from '../../contract/account';
import { redactSecretPaths, unredactedSecretPaths } from '../../contract/secret-paths';
import { AppRoutes } from '../../src/app/App';
import ResetPage, {
  MSG_RESET_DONE,
  MSG_RESET_EXPIRED,
  MSG_RESET_MISMATCH,
  MSG_RESET_SHORT,
  MSG_RESET_UNKNOWN,
  MSG_RESET_USED,
  resetToken,
} from '../../src/pages/reset/ResetPage';
import { navigate } from '../../src/router/location';
import type { SessionState } from '../../src/session/types';
import { startSessionWatchers } from '../../src/session/watchers';
import { SessionProvider } from '../../src/session/use-session';
import { FakeApi } from '../helpers/fake-api';
import { type FakeAccount, RESET_TOKEN } from '../helpers/fake-account';
import { renderPage } from '../helpers/render';
import { pageSession, SIGNED_OUT, WITH_ORG } from '../helpers/session';

const PATH = `/reset/${RESET_TOKEN}`;
const LONG_ENOUGH = 'x'.repeat(PASSWORD_MIN_LENGTH);
const NEW = /^New password \(/;

function show(state: Partial<SessionState> = SIGNED_OUT, setup: (account: FakeAccount) => void = () => {}, path = PATH) {
  const api = new FakeApi();
  setup(api.account);
  renderPage(path, <ResetPage />, { as: state, fake: api });
  return { api, account: api.account };
}

const calls = (api: FakeApi, method: string) => api.calls.filter((c) => c.method === method && c.path === `/api/v1/password-resets/${RESET_TOKEN}/`);
const fill = (label: string | RegExp, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
const errorOf = (label: string | RegExp) => document.getElementById(screen.getByLabelText(label).getAttribute('aria-describedby') ?? '')?.textContent;

beforeEach(() => navigate('/', { replace: true }));

describe('D53 reset page', () => {
  it('D53 says whose password is set; the look-up goes without a session', async () => {
    const { api } = show();
    expect(await screen.findByRole('heading', { name: 'Set a new password' })).toBeTruthy();
    expect(screen.getByText(/A new password for/).textContent).toBe('A new password for Mo (mo@example.com).');
    expect(calls(api, 'GET')[0]!.headers.authorization).toBeUndefined();
  });

  it(`D53 a new password shorter than ${PASSWORD_MIN_LENGTH} or typed differently is refused before sending`, async () => {
    const { api } = show();
    await screen.findByLabelText(NEW);
    fill(NEW, 'short');
    fireEvent.click(screen.getByRole('button', { name: 'Set password' }));
    await waitFor(() => expect(errorOf(NEW)).toBe(MSG_RESET_SHORT));
    expect(document.activeElement).toBe(screen.getByLabelText(NEW));
    fill(NEW, LONG_ENOUGH);
    fill('New password again', `${LONG_ENOUGH}y`);
    fireEvent.click(screen.getByRole('button', { name: 'Set password' }));
    await waitFor(() => expect(errorOf('New password again')).toBe(MSG_RESET_MISMATCH));
    expect(calls(api, 'POST')).toEqual([]);
  });

  it('D53 set: the page says so, its heading takes the focus, and it offers to sign in as that person', async () => {
    const { api, account } = show();
    await screen.findByLabelText(NEW);
    fill(NEW, LONG_ENOUGH);
    fill('New password again', LONG_ENOUGH);
    fireEvent.click(screen.getByRole('button', { name: 'Set password' }));
    const heading = await screen.findByRole('heading', { name: 'Password set' });
    expect(document.activeElement).toBe(heading);
    expect(screen.getByRole('status').textContent).toBe(MSG_RESET_DONE);
    expect(screen.getByRole('link', { name: 'Sign in as mo@example.com' }).getAttribute('href')).toBe('/login');
    expect(calls(api, 'POST')[0]!.body).toEqual({ password: LONG_ENOUGH });
    expect(account.resets.get(RESET_TOKEN)!.status).toBe('used');
  });

  it('D53 set while signed in on this browser: "Sign in as" signs out first (the person’s sessions have ended), then the login page', async () => {
    const api = new FakeApi();
    api.account.resets.get(RESET_TOKEN)!.email = 'owner@demo.test';
    const t = renderPage(PATH, <ResetPage />, { as: WITH_ORG, fake: api });
    await screen.findByLabelText(NEW);
    fill(NEW, LONG_ENOUGH);
    fill('New password again', LONG_ENOUGH);
    fireEvent.click(screen.getByRole('button', { name: 'Set password' }));
    fireEvent.click(await screen.findByRole('link', { name: 'Sign in as owner@demo.test' }));
    await waitFor(() => expect(t.session.store.getState().isAuthenticated).toBe(false));
    expect(t.navigate).toHaveBeenCalledWith('/login', { replace: true });
  });

  it.each([
    ['an unknown link (404)', (a: FakeAccount) => a.resets.clear(), MSG_RESET_UNKNOWN],
    ['a used link (410 reset_used)', (a: FakeAccount) => (a.resets.get(RESET_TOKEN)!.status = 'used'), MSG_RESET_USED],
    ['an expired link (410 reset_expired)', (a: FakeAccount) => (a.resets.get(RESET_TOKEN)!.status = 'expired'), MSG_RESET_EXPIRED],
  ])('D53 %s says so in words and offers no form', async (_what, setup, message) => {
    show(SIGNED_OUT, setup);
    expect((await screen.findByRole('alert')).textContent).toBe(message);
    expect(screen.queryByLabelText(NEW)).toBeNull();
    expect(screen.getByRole('link', { name: 'Go to the login page' })).toBeTruthy();
  });

  it('D53 a link used meanwhile (410 on setting) says so; a network error keeps what was typed', async () => {
    const { api, account } = show();
    await screen.findByLabelText(NEW);
    fill(NEW, LONG_ENOUGH);
    fill('New password again', LONG_ENOUGH);
    api.offline = true;
    fireEvent.click(screen.getByRole('button', { name: 'Set password' }));
    expect((await screen.findByRole('alert')).textContent).toMatch(/Could not save/);
    expect((screen.getByLabelText(NEW) as HTMLInputElement).value).toBe(LONG_ENOUGH);
    api.offline = false;
    account.resets.get(RESET_TOKEN)!.status = 'used';
    fireEvent.click(screen.getByRole('button', { name: 'Set password' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe(MSG_RESET_USED));
    expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Set a new password' }));
  });

  it('D53 a malformed path is an unknown link; the token is read from the path', async () => {
    expect(resetToken(`/reset/${RESET_TOKEN}`)).toBe(RESET_TOKEN);
    expect(resetToken('/reset/%E0%A4%A')).toBeNull();
    expect(resetToken('/reset/')).toBeNull();
    show(SIGNED_OUT, () => {}, '/reset/%E0%A4%A');
    expect((await screen.findByRole('alert')).textContent).toBe(MSG_RESET_UNKNOWN);
  });

  it('D53 D37 the page and its calls carry the token in paths that logs and error reports redact', () => {
    const text = `GET /reset/${RESET_TOKEN} then POST /api/v1/password-resets/${RESET_TOKEN}/`;
    expect(redactSecretPaths(text)).toBe('GET /reset/[redacted] then POST /api/v1/password-resets/[redacted]/');
    expect(unredactedSecretPaths(redactSecretPaths(text))).toEqual([]);
  });

  it('D53 /reset/{token} is public and outside the shell, signed in or not', async () => {
    for (const state of [SIGNED_OUT, WITH_ORG]) {
      const api = new FakeApi();
      void api.account;
      const t = pageSession({ api, state });
      if (state.isAuthenticated) t.seed();
      navigate(PATH, { replace: true });
      const view = render(
        <SessionProvider session={t.session}>
          <AppRoutes />
        </SessionProvider>,
      );
      expect(await screen.findByRole('heading', { name: 'Set a new password' }, { timeout: 3000 })).toBeTruthy();
      expect(window.location.pathname).toBe(PATH);
      expect(screen.queryByRole('navigation', { name: 'Main' })).toBeNull();
      view.unmount();
    }
  });

  it("D65 'Password set' stays when another tab's session ends or changes: this tab is not reloaded into 'already used'", async () => {
    const api = new FakeApi();
    api.account.resets.get(RESET_TOKEN)!.email = 'owner@demo.test';
    const t = renderPage(PATH, <ResetPage />, { as: WITH_ORG, fake: api });
    const reload = vi.fn();
    const stop = startSessionWatchers(t.session, { win: window, reload });
    const otherTab = (key: string | null, newValue: string | null) => window.dispatchEvent(new StorageEvent('storage', { key, newValue, oldValue: 'x' }));
    await screen.findByLabelText(NEW);
    fill(NEW, LONG_ENOUGH);
    fill('New password again', LONG_ENOUGH);
    fireEvent.click(screen.getByRole('button', { name: 'Set password' }));
    await screen.findByRole('heading', { name: 'Password set' });
    otherTab('access_token', null); // another tab's session ended (this reset ended it)
    otherTab(null, null);
    otherTab('current_org_id', '2');
    expect(reload).not.toHaveBeenCalled();
    expect(screen.getByRole('heading', { name: 'Password set' })).toBeTruthy();
    t.view.unmount(); // the page left: another tab's logout reloads this one again (SPEC §4)
    otherTab('access_token', null);
    expect(reload).toHaveBeenCalledTimes(1);
    stop();
  });
});
