// D28 the public invitation page (/invite/{token}): each status, joining signed in, the sign-up form
// (length, match) landing on the organization's dashboard, an account that must sign in, and another
// signed-in email. Against the fake API's public invitation calls (test/helpers/fake-team.ts).
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import '../ui/no-console';
import { PASSWORD_MIN_LENGTH } from '../../contract/team';
import { AppRoutes } from '../../src/app/App';
import { KEYS, readRedirect } from '../../src/lib/storage';
import InvitePage, { inviteToken, MSG_GONE, MSG_PASSWORD_MISMATCH, MSG_PASSWORD_SHORT, MSG_UNKNOWN } from '../../src/pages/invite/InvitePage';
import { navigate } from '../../src/router/location';
import type { SessionState } from '../../src/session/types';
import { SessionProvider } from '../../src/session/use-session';
import { FakeApi, USER } from '../helpers/fake-api';
import { type FakeTeam, tokenFor, type FakeInvitationLink } from '../helpers/fake-team';
import { renderPage } from '../helpers/render';
import { pageSession, SIGNED_OUT, WITH_ORG } from '../helpers/session';

const TOKEN = tokenFor(7);
const PATH = `/invite/${TOKEN}`;
const LONG_ENOUGH = 'x'.repeat(PASSWORD_MIN_LENGTH);

function show(state: Partial<SessionState>, link: Partial<FakeInvitationLink> = {}, setup: (team: FakeTeam) => void = () => {}, path = PATH) {
  const api = new FakeApi();
  const team = api.team;
  team.addLink(TOKEN, link);
  setup(team);
  const t = renderPage(path, <InvitePage />, { as: state, fake: api });
  return { api, team, t };
}

const acceptCalls = (api: FakeApi) => api.calls.filter((c) => c.path === `/api/v1/invitations/${TOKEN}/accept/`);
const LABELS: Record<string, string> = { Password: `Password (at least ${PASSWORD_MIN_LENGTH} characters)` };
const fill = (label: string, value: string) => fireEvent.change(screen.getByLabelText(LABELS[label] ?? label), { target: { value } });

beforeEach(() => navigate('/', { replace: true }));

describe('D28 invitation page: the invitation', () => {
  it('shows the organization, who invited and the role; the look-up goes without a session', async () => {
    const { api } = show(SIGNED_OUT);
    expect(await screen.findByRole('heading', { name: 'Join Beacon Electric' })).toBeTruthy();
    expect(screen.getByText(/Olive invited you to join/).textContent).toBe('Olive invited you to join Beacon Electric as a member.');
    expect(screen.getByText('Invitation for sam@example.com')).toBeTruthy();
    const lookup = api.calls.find((c) => c.path === `/api/v1/invitations/${TOKEN}/`)!;
    expect(lookup.headers.authorization).toBeUndefined();
  });

  it.each([
    ['accepted', MSG_GONE.accepted],
    ['revoked', MSG_GONE.revoked],
    ['expired', MSG_GONE.expired],
  ] as const)('D28 a %s invitation says so clearly and offers no way to join', async (status, message) => {
    show(SIGNED_OUT, { status });
    expect((await screen.findByRole('alert')).textContent).toBe(message);
    expect(screen.queryByRole('button')).toBeNull();
    expect(screen.queryByRole('textbox')).toBeNull();
    expect(screen.getByRole('link', { name: 'Go to the login page' }).getAttribute('href')).toBe('/login');
  });

  it('D28 an unknown link (404) and a malformed one say the link is not valid', async () => {
    show(SIGNED_OUT, {}, (team) => team.links.clear());
    expect(await screen.findByText(MSG_UNKNOWN)).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Invitation not found' })).toBeTruthy();
    expect(inviteToken('/invite/')).toBeNull();
    expect(inviteToken('/invite/a/b')).toBeNull();
    expect(inviteToken('/invite/%E0%A4%A')).toBeNull();
    expect(inviteToken(`/invite/${TOKEN}/`)).toBe(TOKEN);
  });

  it('a failed look-up (no connection) offers Retry', async () => {
    const { api } = show(SIGNED_OUT);
    api.offline = true;
    navigate(`/invite/${tokenFor(8)}`, { replace: true });
    expect((await screen.findByRole('alert')).textContent).toContain('Could not reach the server');
    api.offline = false;
    const team = api.team;
    team.addLink(tokenFor(8), { email: 'kim@example.com' });
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('Invitation for kim@example.com')).toBeTruthy();
  });
});

describe('D28 invitation page: a new person signs up', () => {
  it('D28 the password needs 12 characters and must be typed the same twice; the first name is required', async () => {
    const { api } = show(SIGNED_OUT);
    const form = await screen.findByRole('form', { name: 'Create your account' });
    expect((within(form).getByLabelText('Email') as HTMLInputElement).value).toBe('sam@example.com');
    const submit = within(form).getByRole('button', { name: 'Create account and join Beacon Electric' });
    fill('Password', 'x'.repeat(PASSWORD_MIN_LENGTH - 1));
    fill('Password again', 'y');
    fireEvent.click(submit);
    expect(await screen.findByText('First name is required')).toBeTruthy();
    expect(screen.getByText(MSG_PASSWORD_SHORT)).toBeTruthy();
    expect(screen.getByText(MSG_PASSWORD_MISMATCH)).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('First name')));
    fill('First name', 'Sam');
    fill('Password', LONG_ENOUGH);
    fill('Password again', `${LONG_ENOUGH}!`);
    fireEvent.click(submit);
    expect(await screen.findByText(MSG_PASSWORD_MISMATCH)).toBeTruthy();
    expect(screen.queryByText(MSG_PASSWORD_SHORT)).toBeNull();
    expect(acceptCalls(api)).toEqual([]);
  });

  it('D28 a valid sign-up creates the account, stores its tokens as a login does and lands on that organization’s dashboard', async () => {
    const { api, t } = show(SIGNED_OUT, {}, () => {});
    t.storage.set(KEYS.postLoginRedirect, '/customers'); // an older target does not win over the dashboard
    await screen.findByRole('form', { name: 'Create your account' });
    fill('First name', ' Sam ');
    fill('Password', LONG_ENOUGH);
    fill('Password again', LONG_ENOUGH);
    fireEvent.click(screen.getByRole('button', { name: /Create account and join/ }));
    await waitFor(() => expect(t.navigate).toHaveBeenCalledWith('/dashboard', { replace: true }));
    const [call] = acceptCalls(api);
    expect(call!.body).toEqual({ first_name: 'Sam', password: LONG_ENOUGH });
    expect(call!.headers.authorization).toBeUndefined();
    expect(t.storage.get(KEYS.accessToken)).toBeTruthy();
    expect(t.storage.get(KEYS.refreshToken)).toBeTruthy();
    expect(t.storage.get(KEYS.rememberMe)).toBe('true');
    expect(t.storage.get(KEYS.currentOrgId)).toBe('2');
    expect(t.storage.get(KEYS.postLoginRedirect)).toBeNull();
    const state = t.session.store.getState();
    expect(state.isAuthenticated).toBe(true);
    expect(state.currentOrg?.name).toBe('Beacon Electric');
  });

  it('D28 an email that has an account: "Sign in as … to join", which comes back here after the login (D6)', async () => {
    const { t } = show(SIGNED_OUT, { has_account: true });
    const link = await screen.findByRole('link', { name: 'Sign in as sam@example.com to join' });
    expect(link.getAttribute('href')).toBe('/login');
    expect(screen.queryByRole('form')).toBeNull();
    t.storage.set(KEYS.postLoginRedirect, JSON.stringify({ path: '/customers', sub: 'someone-else' }));
    fireEvent.click(link);
    expect(readRedirect(t.storage)).toEqual({ path: PATH, sub: null });
    expect(window.location.pathname).toBe('/login');
  });

  it('D28 409 account_exists on sign-up turns the form into "Sign in to join"', async () => {
    show(SIGNED_OUT, {}, (team) => team.refuse('POST', `/v1/invitations/${TOKEN}/accept/`, 409, 'account_exists', 'An account exists; sign in to join'));
    await screen.findByRole('form', { name: 'Create your account' });
    fill('First name', 'Sam');
    fill('Password', LONG_ENOUGH);
    fill('Password again', LONG_ENOUGH);
    fireEvent.click(screen.getByRole('button', { name: /Create account and join/ }));
    expect(await screen.findByRole('link', { name: 'Sign in as sam@example.com to join' })).toBeTruthy();
  });

  it('D28 an invitation used up meanwhile (410) says so instead of the form', async () => {
    show(SIGNED_OUT, {}, (team) => team.refuse('POST', `/v1/invitations/${TOKEN}/accept/`, 410, 'invitation_expired', 'This invitation has expired. Ask for a new one.'));
    await screen.findByRole('form', { name: 'Create your account' });
    fill('First name', 'Sam');
    fill('Password', LONG_ENOUGH);
    fill('Password again', LONG_ENOUGH);
    fireEvent.click(screen.getByRole('button', { name: /Create account and join/ }));
    expect((await screen.findByRole('alert')).textContent).toBe(MSG_GONE.expired);
  });
});

describe('D28 invitation page: a signed-in person', () => {
  it('D28 with the invited email: Join sends the session’s token and lands on that organization’s dashboard', async () => {
    const { api, t } = show(WITH_ORG, { email: USER.email, role: 'admin' });
    expect(await screen.findByText(/invited you to join/)).toBeTruthy();
    expect(screen.getByText(/invited you/).textContent).toContain('as an admin');
    expect(screen.queryByRole('form')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Join' }));
    await waitFor(() => expect(t.navigate).toHaveBeenCalledWith('/dashboard', { replace: true }));
    const [call] = acceptCalls(api);
    expect(call!.headers.authorization).toMatch(/^Bearer /);
    expect(call!.body).toEqual({});
    expect(t.storage.get(KEYS.currentOrgId)).toBe('2');
    expect(t.session.store.getState().currentOrg?.id).toBe(2);
  });

  it('D28 with another email: says so and offers to sign out; signed out, the page offers the sign-up form', async () => {
    const { api, t } = show(WITH_ORG, { email: 'sam@example.com' });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('This invitation is for sam@example.com, but you are signed in as owner@demo.test.');
    expect(screen.queryByRole('button', { name: 'Join' })).toBeNull();
    await act(async () => fireEvent.click(within(alert).getByRole('button', { name: 'Sign out' })));
    await waitFor(() => expect(screen.getByRole('form', { name: 'Create your account' })).toBeTruthy());
    expect(api.count('/api/v1/auth/logout/', 'POST')).toBe(1);
    expect(t.storage.get(KEYS.accessToken)).toBeNull();
    expect(window.location.pathname).toBe(PATH);
  });

  it('D28 403 email_mismatch from the server is shown the same way', async () => {
    show(WITH_ORG, { email: USER.email }, (team) => (team.signedInEmail = 'other@example.com'));
    fireEvent.click(await screen.findByRole('button', { name: 'Join' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Sign out, then join as owner@demo.test');
    expect(screen.getByRole('button', { name: 'Sign out' })).toBeTruthy();
  });
});

describe('D28 /invite/{token} is public and outside the shell', () => {
  it('renders for a signed-out person without going to /login, and without the shell', async () => {
    navigate(PATH, { replace: true });
    const api = new FakeApi();
    api.team.addLink(TOKEN);
    const t = pageSession({ api, state: SIGNED_OUT });
    render(
      <SessionProvider session={t.session}>
        <AppRoutes />
      </SessionProvider>,
    );
    expect(await screen.findByRole('heading', { name: 'Join Beacon Electric' })).toBeTruthy();
    expect(window.location.pathname).toBe(PATH);
    expect(screen.queryByRole('navigation', { name: 'Main' })).toBeNull();
  });
});
