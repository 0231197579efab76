// D53 the team page's 'Create reset link': offered for another member (not oneself; an owner's only
// to an owner), the link shown once in the invitation's dialog with Copy, focus back on the button;
// the server's refusal (D53's cross-organization rule, 403) shown in its words.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import '../ui/no-console';
import { mayMakeResetLink } from '../../src/pages/team/ResetLink';
import TeamPage from '../../src/pages/team/TeamPage';
import type { SessionState } from '../../src/session/types';
import { FakeApi, USER } from '../helpers/fake-api';
import { ADA, MO, OLIVE, VI } from '../helpers/fake-team';
import { renderPage } from '../helpers/render';
import { ALL_PERMISSIONS, WITH_ORG } from '../helpers/session';

const ADMIN: Partial<SessionState> = {
  ...WITH_ORG,
  user: { ...USER, email: ADA.email, first_name: 'Ada' },
  role: 'admin',
  permissions: ALL_PERMISSIONS.filter((p) => p !== 'permissions:manage'),
};
const VIEWER: Partial<SessionState> = { ...WITH_ORG, user: { ...USER, email: VI.email }, role: 'viewer', permissions: ['team:view'] };

function show(state: Partial<SessionState> = WITH_ORG, setup: (api: FakeApi) => void = () => {}) {
  const api = new FakeApi();
  if (state.role === 'admin') api.team.callerId = ADA.user_id;
  if (state.role === 'viewer') api.team.callerId = VI.user_id;
  void api.team; // both parts answer
  void api.account;
  setup(api);
  renderPage('/team', <TeamPage />, { as: state, fake: api });
  return { api, account: api.account };
}

const table = () => screen.findByRole('table', { name: /^Members/ });
const resetButtons = async () =>
  within(await table())
    .queryAllByRole('button', { name: /^Create reset link for / })
    .map((b) => b.getAttribute('aria-label'));

beforeEach(() => Object.defineProperty(navigator, 'clipboard', { value: { writeText: vi.fn(() => Promise.resolve()) }, configurable: true }));
afterEach(() => vi.restoreAllMocks());

describe('D53 team: reset links', () => {
  it('D53 an owner is offered a reset link for every other member, not for themselves', async () => {
    show();
    expect(await resetButtons()).toEqual(['Create reset link for Ada', 'Create reset link for Mo', 'Create reset link for Vi']);
  });

  it('D53 an admin is offered none for an owner (nor themselves); someone without team:manage none at all', async () => {
    show(ADMIN);
    expect(await resetButtons()).toEqual(['Create reset link for Mo', 'Create reset link for Vi']);
    expect(mayMakeResetLink(OLIVE, { email: ADA.email, role: 'admin' })).toBe(false);
    expect(mayMakeResetLink(MO, { email: MO.email, role: 'owner' })).toBe(false);
  });

  it('D53 a viewer without team:manage sees no reset link', async () => {
    show(VIEWER);
    expect(await resetButtons()).toEqual([]);
  });

  it('D53 the link is shown once with Copy, as the reset page’s address; Done closes it and the focus returns to the button', async () => {
    const { api, account } = show();
    const button = within(await table()).getByRole('button', { name: 'Create reset link for Mo' });
    button.focus();
    fireEvent.click(button);
    const dialog = await screen.findByRole('dialog', { name: 'Password reset link' });
    await waitFor(() => expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Copy' }))); // D15
    expect(account.links).toEqual([MO.user_id]);
    expect(api.calls.filter((c) => c.path === `/api/v1/team/members/${MO.user_id}/reset-link/`).map((c) => c.method)).toEqual(['POST']);
    const link = within(dialog).getByRole('textbox', { name: 'Reset link' }) as HTMLInputElement;
    expect(link.value).toBe(`${window.location.origin}/reset/rst0001zyxwvutsrqponmlkjihgf`);
    expect(dialog.textContent).toContain('shown only this once');
    expect(dialog.textContent).toContain('Mo (mo@example.com)');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Done' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.queryByDisplayValue(/\/reset\//)).toBeNull();
    await waitFor(() =>
      expect(document.activeElement).toBe(within(screen.getByRole('table', { name: /^Members/ })).getByRole('button', { name: 'Create reset link for Mo' })),
    );
  });

  it('D53 the server’s refusal (a member of another organization where the caller is no owner) is shown in its words', async () => {
    const detail = 'Mo also belongs to another organization where you are not an owner; ask an owner there.';
    show(WITH_ORG, (api) => api.account.refuse('POST', `/v1/team/members/${MO.user_id}/reset-link/`, 403, 'forbidden', detail));
    fireEvent.click(within(await table()).getByRole('button', { name: 'Create reset link for Mo' }));
    expect((await screen.findByRole('alert')).textContent).toContain(`Could not create a reset link for Mo. ${detail}`);
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
