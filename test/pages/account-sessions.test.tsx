// D52 My sessions: the list (browser and system, address, started, last active, 'This browser' first),
// signing one out after a question, all the others at once, and this browser's own (= signing out);
// focus after each; a refusal said in the dialog. Against the fake account API (fake-account.ts).
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import '../ui/no-console';
import AccountPage from '../../src/pages/account/AccountPage';
import { endedWords, MSG_SESSION_ENDED } from '../../src/pages/account/SessionsSection';
import { toasts } from '../../src/ui/toast';
import { FakeApi } from '../helpers/fake-api';
import { renderPage } from '../helpers/render';

function show(setup: (api: FakeApi) => void = () => {}) {
  const api = new FakeApi();
  setup(api);
  const t = renderPage('/account', <AccountPage />, { fake: api });
  return { api, account: api.account, t };
}

const sessions = () => screen.findByRole('region', { name: 'Sessions' }, { timeout: 3000 });
const rows = async () => within(await sessions()).findAllByRole('listitem', {}, { timeout: 3000 });
const calls = (api: FakeApi, method: string, path: string) => api.calls.filter((c) => c.method === method && c.path === `/api${path}`);
const toastText = () => toasts.getState().map((t) => t.message);

beforeEach(() => toasts.setState([]));

describe('D52 account: sessions', () => {
  it('D52 lists each live session with browser, system, address, started and last active; this browser first, marked', async () => {
    show();
    const list = await rows();
    expect(list).toHaveLength(3);
    expect(list[0]!.textContent).toContain('Firefox 128 on Linux');
    expect(within(list[0]!).getByText('This browser')).toBeTruthy();
    expect(list[0]!.textContent).toContain('203.0.113.5');
    expect(list[0]!.querySelectorAll('time')).toHaveLength(2); // started and last active
    expect(list[1]!.textContent).toContain('Safari 17 on iOS');
    expect(within(list[1]!).queryByText('This browser')).toBeNull();
    expect(list[2]!.textContent).toContain('Unknown browser on an unknown system');
    expect(list[2]!.textContent).toContain('Address unknown');
    // D15: each Sign out names its session
    expect(within(list[0]!).getByRole('button', { name: 'Sign out Firefox 128 on Linux (this browser)' })).toBeTruthy();
    expect(within(list[1]!).getByRole('button', { name: /^Sign out Safari 17 on iOS, started / })).toBeTruthy();
  });

  it('D52 signing out another session asks first; Cancel sends nothing; confirmed, it goes and focus goes to the heading', async () => {
    const { api } = show();
    const list = await rows();
    fireEvent.click(within(list[1]!).getByRole('button', { name: /^Sign out Safari/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Sign out this session?' });
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Cancel' })); // D15: Enter never confirms by accident
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(calls(api, 'DELETE', '/v1/account/sessions/8/')).toEqual([]);

    fireEvent.click(within(list[1]!).getByRole('button', { name: /^Sign out Safari/ }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Sign out' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls(api, 'DELETE', '/v1/account/sessions/8/')).toHaveLength(1);
    await waitFor(async () => expect(await rows()).toHaveLength(2));
    expect(toastText()).toContain(MSG_SESSION_ENDED);
    expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Sessions' }));
  });

  it('D52 "Sign out all other sessions" ends the others, this one stays; the button goes and focus goes to the heading', async () => {
    const { api, t } = show();
    await rows();
    fireEvent.click(screen.getByRole('button', { name: 'Sign out all other sessions' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sign out all other sessions?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Sign out' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls(api, 'POST', '/v1/account/sessions/revoke-others/')).toHaveLength(1);
    expect(toastText()).toContain(endedWords(2));
    await waitFor(async () => expect(await rows()).toHaveLength(1));
    expect(screen.queryByRole('button', { name: 'Sign out all other sessions' })).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Sessions' }));
    expect(t.session.store.getState().isAuthenticated).toBe(true);
  });

  it('D52 signing out this browser’s session is signing out: the session ends and the login page follows', async () => {
    const { api, t } = show();
    const list = await rows();
    fireEvent.click(within(list[0]!).getByRole('button', { name: /this browser/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Sign out of this browser?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Sign out' }));
    await waitFor(() => expect(t.session.store.getState().isAuthenticated).toBe(false));
    expect(calls(api, 'DELETE', '/v1/account/sessions/7/')).toHaveLength(1);
    expect(t.navigate).toHaveBeenCalledWith('/login', { replace: true });
  });

  it('D52 no live session at all (an answer from a server that lost this one) says so rather than an empty box', async () => {
    show((a) => (a.account.sessions = []));
    expect(await within(await sessions()).findByText('No live sessions.', {}, { timeout: 3000 })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Sign out all other sessions' })).toBeNull();
  });

  it('D52 a refusal is said inside the dialog, which stays open; a session already gone (404) just goes', async () => {
    const { api, account } = show((a) => a.account.refuse('DELETE', '/v1/account/sessions/8/', 503, 'unavailable', 'The server is busy'));
    const list = await rows();
    fireEvent.click(within(list[1]!).getByRole('button', { name: /^Sign out Safari/ }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Sign out' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('The server is busy');
    account.sessions = account.sessions.filter((s) => s.id !== 8); // it ended meanwhile
    fireEvent.click(within(dialog).getByRole('button', { name: 'Sign out' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls(api, 'DELETE', '/v1/account/sessions/8/')).toHaveLength(2);
    await waitFor(async () => expect(await rows()).toHaveLength(2));
  });
});
