// D51 My account: the profile (first name; email with the current password) and the password (current,
// new of PASSWORD_MIN_LENGTH typed twice), each a form that keeps what was typed through a refusal, a
// network error and offline, with the error by its field and the focus there; the theme. Against the
// fake account API (test/helpers/fake-account.ts) through the real client and query cache.
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import '../ui/no-console';
import { PASSWORD_MIN_LENGTH } from '../../contract/account';
import { AppRoutes } from '../../src/app/App';
import { MSG_EMAIL_TAKEN, MSG_WRONG_PASSWORD } from '../../src/api/account';
import AccountPage from '../../src/pages/account/AccountPage';
import { changedWords, MSG_CURRENT_REQUIRED, MSG_NEW_MISMATCH, MSG_NEW_SHORT } from '../../src/pages/account/PasswordSection';
import { MSG_NAME_REQUIRED, MSG_PASSWORD_FOR_EMAIL, MSG_PROFILE_SAVED } from '../../src/pages/account/ProfileSection';
import { navigate } from '../../src/router/location';
import { SessionProvider } from '../../src/session/use-session';
import { MSG_SUBMIT_FAILED } from '../../src/ui/form';
import { DARK_CLASS } from '../../src/ui/theme';
import { FakeApi } from '../helpers/fake-api';
import { PASSWORD } from '../helpers/fake-account';
import { renderPage } from '../helpers/render';
import { NO_ORG, pageSession, SIGNED_OUT } from '../helpers/session';

const NEW_PASSWORD = 'n'.repeat(PASSWORD_MIN_LENGTH);

function show(setup: (api: FakeApi) => void = () => {}) {
  const api = new FakeApi();
  setup(api);
  const t = renderPage('/account', <AccountPage />, { fake: api });
  return { api, account: api.account, t };
}

const section = async (name: string) => screen.findByRole('region', { name }, { timeout: 3000 });
const form = async (name: string) => within(await section(name)).findByRole('form', {}, { timeout: 3000 });
const input = (scope: HTMLElement, label: string | RegExp) => within(scope).getByLabelText(label) as HTMLInputElement;
const type = (scope: HTMLElement, label: string | RegExp, value: string) => fireEvent.change(input(scope, label), { target: { value } });
const calls = (api: FakeApi, method: string, path: string) => api.calls.filter((c) => c.method === method && c.path === `/api${path}`);
const errorOf = (el: HTMLElement) => document.getElementById(el.getAttribute('aria-describedby') ?? '')?.textContent;

beforeEach(() => document.documentElement.classList.remove(DARK_CLASS));

describe('D51 account: profile', () => {
  it('D51 shows the first name and email; a new first name is saved, and the session’s user (the user menu) shows it', async () => {
    const { api, t } = show();
    const f = await form('Profile');
    expect(input(f, 'First name').value).toBe('Olive');
    expect(input(f, 'Email').value).toBe('owner@demo.test');
    expect(within(f).queryByLabelText(/Current password/)).toBeNull(); // only asked for a new email
    type(f, 'First name', 'Olivia ');
    fireEvent.click(within(f).getByRole('button', { name: 'Save profile' }));
    await waitFor(() => expect(within(f).getByRole('status').textContent).toBe(MSG_PROFILE_SAVED));
    expect(calls(api, 'PATCH', '/v1/account/').map((c) => c.body)).toEqual([{ first_name: 'Olivia' }]);
    expect(t.session.store.getState().user?.first_name).toBe('Olivia');
  });

  it('D54 the person’s own calls go without X-Organization-ID, even with an organization chosen', async () => {
    const { api, t } = show();
    expect(t.session.store.getState().currentOrg).toBeTruthy(); // an organization is chosen
    const f = await form('Profile');
    type(f, 'First name', 'Olivia');
    fireEvent.click(within(f).getByRole('button', { name: 'Save profile' }));
    await waitFor(() => expect(calls(api, 'PATCH', '/v1/account/')).toHaveLength(1));
    await screen.findByRole('region', { name: 'Sessions' });
    const own = api.calls.filter((c) => c.path.startsWith('/api/v1/account/'));
    expect(own.map((c) => c.path)).toEqual(expect.arrayContaining(['/api/v1/account/', '/api/v1/account/sessions/']));
    expect(own.filter((c) => c.headers['x-organization-id'] !== undefined)).toEqual([]);
  });

  it('D51 an empty first name is refused before sending, on its field, which takes the focus', async () => {
    const { api } = show();
    const f = await form('Profile');
    type(f, 'First name', '  ');
    fireEvent.click(within(f).getByRole('button', { name: 'Save profile' }));
    await waitFor(() => expect(errorOf(input(f, 'First name'))).toBe(MSG_NAME_REQUIRED));
    expect(document.activeElement).toBe(input(f, 'First name'));
    expect(calls(api, 'PATCH', '/v1/account/')).toEqual([]);
  });

  it('D51 a new email needs the current password; a wrong one is refused on its field, what was typed kept; then it saves', async () => {
    const { api, t } = show();
    const f = await form('Profile');
    type(f, 'Email', 'olive@example.com');
    fireEvent.click(within(f).getByRole('button', { name: 'Save profile' }));
    const password = await waitFor(() => input(f, /Current password/));
    await waitFor(() => expect(errorOf(password)).toBe(MSG_PASSWORD_FOR_EMAIL));
    expect(document.activeElement).toBe(password);
    expect(calls(api, 'PATCH', '/v1/account/')).toEqual([]);

    type(f, /Current password/, 'not it');
    fireEvent.click(within(f).getByRole('button', { name: 'Save profile' }));
    await waitFor(() => expect(errorOf(input(f, /Current password/))).toBe(MSG_WRONG_PASSWORD));
    expect(document.activeElement).toBe(input(f, /Current password/));
    expect([input(f, 'Email').value, input(f, /Current password/).value]).toEqual(['olive@example.com', 'not it']);
    expect(t.session.store.getState().user?.email).toBe('owner@demo.test');

    type(f, /Current password/, PASSWORD);
    fireEvent.click(within(f).getByRole('button', { name: 'Save profile' }));
    await waitFor(() => expect(within(f).getByRole('status').textContent).toBe(MSG_PROFILE_SAVED));
    expect(calls(api, 'PATCH', '/v1/account/').at(-1)!.body).toEqual({ email: 'olive@example.com', current_password: PASSWORD });
    expect(t.session.store.getState().user?.email).toBe('olive@example.com');
    expect(within(f).queryByLabelText(/Current password/)).toBeNull(); // saved: the email is the account's now
  });

  it('D51 an email another account uses (409) stands by the email field, with what was typed', async () => {
    show();
    const f = await form('Profile');
    type(f, 'Email', 'ada@example.com');
    type(f, /Current password/, PASSWORD);
    fireEvent.click(within(f).getByRole('button', { name: 'Save profile' }));
    await waitFor(() => expect(errorOf(input(f, 'Email'))).toBe(MSG_EMAIL_TAKEN));
    expect(document.activeElement).toBe(input(f, 'Email'));
    expect(input(f, /Current password/).value).toBe(PASSWORD);
  });

  it('D51 offline, the save fails in words and everything typed stays', async () => {
    const { api, t } = show();
    expect(t.session.store.getState().currentOrg).toBeTruthy(); // an organization is chosen
    const f = await form('Profile');
    type(f, 'First name', 'Olivia');
    api.offline = true;
    fireEvent.click(within(f).getByRole('button', { name: 'Save profile' }));
    expect((await within(f).findByRole('alert')).textContent).toBe(MSG_SUBMIT_FAILED);
    expect(input(f, 'First name').value).toBe('Olivia');
  });
});

describe('D51 account: password', () => {
  it(`D51 a new password shorter than ${PASSWORD_MIN_LENGTH} or typed differently is refused before sending`, async () => {
    const { api } = show();
    const f = await form('Password');
    fireEvent.click(within(f).getByRole('button', { name: 'Change password' }));
    await waitFor(() => expect(errorOf(input(f, 'Current password'))).toBe(MSG_CURRENT_REQUIRED));
    expect(document.activeElement).toBe(input(f, 'Current password'));
    type(f, 'Current password', PASSWORD);
    type(f, /^New password \(/, 'short');
    type(f, 'New password again', 'short');
    fireEvent.click(within(f).getByRole('button', { name: 'Change password' }));
    await waitFor(() => expect(errorOf(input(f, /^New password \(/))).toBe(MSG_NEW_SHORT));
    expect(document.activeElement).toBe(input(f, /^New password \(/));
    type(f, /^New password \(/, NEW_PASSWORD);
    type(f, 'New password again', `${NEW_PASSWORD}x`);
    fireEvent.click(within(f).getByRole('button', { name: 'Change password' }));
    await waitFor(() => expect(errorOf(input(f, 'New password again'))).toBe(MSG_NEW_MISMATCH));
    expect(calls(api, 'POST', '/v1/account/password/')).toEqual([]);
  });

  it('D51 a wrong current password is refused on its field; what was typed stays', async () => {
    show();
    const f = await form('Password');
    type(f, 'Current password', 'wrong one');
    type(f, /^New password \(/, NEW_PASSWORD);
    type(f, 'New password again', NEW_PASSWORD);
    fireEvent.click(within(f).getByRole('button', { name: 'Change password' }));
    await waitFor(() => expect(errorOf(input(f, 'Current password'))).toBe(MSG_WRONG_PASSWORD));
    expect(document.activeElement).toBe(input(f, 'Current password'));
    expect([input(f, 'Current password').value, input(f, 'New password again').value]).toEqual(['wrong one', NEW_PASSWORD]);
  });

  it('D51 the server’s refusal of the new password stands by that field', async () => {
    show((api) => api.account.refuse('POST', '/v1/account/password/', 400, 'validation_error', 'x', { errors: { new_password: 'Use at least 12 characters.' } }));
    const f = await form('Password');
    type(f, 'Current password', PASSWORD);
    type(f, /^New password \(/, NEW_PASSWORD);
    type(f, 'New password again', NEW_PASSWORD);
    fireEvent.click(within(f).getByRole('button', { name: 'Change password' }));
    await waitFor(() => expect(errorOf(input(f, /^New password \(/))).toBe('Use at least 12 characters.'));
  });

  it('D51 changed: the page says the other sessions ended, and the fields are emptied', async () => {
    const { api, account } = show();
    const f = await form('Password');
    type(f, 'Current password', PASSWORD);
    type(f, /^New password \(/, NEW_PASSWORD);
    type(f, 'New password again', NEW_PASSWORD);
    fireEvent.click(within(f).getByRole('button', { name: 'Change password' }));
    await waitFor(() => expect(within(f).getByRole('status').textContent).toBe(changedWords(2)));
    expect(calls(api, 'POST', '/v1/account/password/')[0]!.body).toEqual({ current_password: PASSWORD, new_password: NEW_PASSWORD });
    expect(account.password).toBe(NEW_PASSWORD);
    expect([input(f, 'Current password').value, input(f, /^New password \(/).value, input(f, 'New password again').value]).toEqual(['', '', '']);
    expect(changedWords(1)).toBe('Your password is changed. Your 1 other session was signed out.');
  });
});

describe('D51 account: theme and reach', () => {
  it('D54 the page carries the two-step sign-in section, on or off as the account (not the session) says', async () => {
    show((api) => {
      api.account.account = { ...api.account.account, mfa_enabled: true };
    });
    const twoStep = await section('Two-step sign-in');
    expect(within(twoStep).getByRole('button', { name: 'Turn off' })).toBeTruthy();
  });

  it('D51 D11 the theme: Dark and Light switch the page and are stored', async () => {
    const { t } = show();
    const s = await section('Theme');
    const dark = await within(s).findByRole('radio', { name: 'Dark' }, { timeout: 3000 });
    expect((within(s).getByRole('radio', { name: 'Light' }) as HTMLInputElement).checked).toBe(true);
    fireEvent.click(dark);
    expect(document.documentElement.classList.contains(DARK_CLASS)).toBe(true);
    expect((dark as HTMLInputElement).checked).toBe(true);
    expect(t.kv.getItem('theme') ?? localStorage.getItem('theme')).toBe('dark');
  });

  it('D51 /account opens without an organization chosen: the page alone, with the way back to the organization picker', async () => {
    const api = new FakeApi();
    void api.account; // the account part answers
    const t = pageSession({ api, state: NO_ORG });
    t.seed();
    navigate('/account', { replace: true });
    render(
      <SessionProvider session={t.session}>
        <AppRoutes />
      </SessionProvider>,
    );
    expect(await screen.findByRole('heading', { name: 'My account', level: 1 }, { timeout: 3000 })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Choose an organization' }).getAttribute('href')).toBe('/org-picker');
    expect(await screen.findByRole('region', { name: 'Profile' }, { timeout: 3000 })).toBeTruthy();
    expect(window.location.pathname).toBe('/account');
    expect(screen.queryByRole('navigation', { name: 'Main' })).toBeNull();
  });

  it('D51 signed out, /account goes to the login page', async () => {
    const t = pageSession({ state: SIGNED_OUT });
    navigate('/account', { replace: true });
    render(
      <SessionProvider session={t.session}>
        <AppRoutes />
      </SessionProvider>,
    );
    await waitFor(() => expect(window.location.pathname).toBe('/login'));
  });
});
