// D54 D53 on the team page: 'Reset two-step sign-in' for a member who has it on, asked first
// (ui/confirm-dialog.tsx); the server's 403 detail (D53's rule) said in the dialog.
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import '../ui/no-console';
import TeamPage from '../../src/pages/team/TeamPage';
import type { SessionState } from '../../src/session/types';
import { toasts } from '../../src/ui/toast';
import { FakeApi, USER } from '../helpers/fake-api';
import { ADA, MO, OLIVE, VI } from '../helpers/fake-team';
import { renderPage } from '../helpers/render';
import { ALL_PERMISSIONS, WITH_ORG } from '../helpers/session';

const ADMIN: Partial<SessionState> = { ...WITH_ORG, user: { ...USER, email: ADA.email, first_name: 'Ada' }, role: 'admin', permissions: ALL_PERMISSIONS };
const VIEWER: Partial<SessionState> = { ...WITH_ORG, user: { ...USER, email: VI.email, first_name: 'Vi' }, role: 'viewer', permissions: ['dashboard:view', 'team:view'] };

/** The team page with Mo, Olive (an owner) and Ada with two-step sign-in on. */
function show(state: Partial<SessionState> = WITH_ORG) {
  const api = new FakeApi();
  const team = api.team;
  if (state.role === 'admin') team.callerId = ADA.user_id;
  if (state.role === 'viewer') team.callerId = VI.user_id;
  for (const m of team.members) m.mfa_enabled = m.user_id !== VI.user_id;
  renderPage('/team', <TeamPage />, { as: state, fake: api });
  return api;
}
const resetButton = (name: string) => screen.queryByRole('button', { name: `Reset two-step sign-in of ${name}` });
const table = () => screen.findByRole('table', { name: /^Members/ });

beforeEach(() => toasts.setState([]));

describe('D54 team: reset a member’s two-step sign-in', () => {
  it('D54 offered (team:manage) for each other member who has it on; not for oneself, nor for one without it', async () => {
    show();
    await table();
    expect(resetButton(MO.name)).toBeTruthy();
    expect(resetButton(ADA.name)).toBeTruthy();
    expect(resetButton(OLIVE.name)).toBeNull(); // oneself: the account page
    expect(resetButton(VI.name)).toBeNull(); // off
  });

  it("D53 an owner's only by an owner: an admin is not offered it; without team:manage nobody is", async () => {
    show(ADMIN);
    await table();
    expect(resetButton(OLIVE.name)).toBeNull();
    expect(resetButton(MO.name)).toBeTruthy();
    cleanup();
    show(VIEWER);
    await table();
    expect(screen.queryByRole('button', { name: /^Reset two-step sign-in/ })).toBeNull();
  });

  it('D54 asks first: Cancel is focused and sends nothing; confirming resets it, says so, and the row no longer offers it', async () => {
    const api = show();
    await table();
    fireEvent.click(resetButton(MO.name)!);
    const dialog = await screen.findByRole('dialog', { name: `Reset two-step sign-in for ${MO.name}?` });
    await waitFor(() => expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Cancel' })));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(api.mfa.resets).toEqual([]);
    fireEvent.click(resetButton(MO.name)!);
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Reset two-step sign-in' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.mfa.resets).toEqual([MO.user_id]);
    expect(api.calls.some((c) => c.method === 'DELETE' && c.path === `/api/v1/team/members/${MO.user_id}/mfa/`)).toBe(true);
    expect(toasts.getState().map((t) => t.message)).toContain(`Two-step sign-in was reset for ${MO.name}`);
    await waitFor(() => expect(resetButton(MO.name)).toBeNull()); // the list is fetched again
  });

  it("D53 the server's 403 (a member of another organization where the caller is not an owner) is shown in the dialog", async () => {
    const api = show(ADMIN);
    const detail = 'Mo also belongs to another organization where you are not an owner: ask an owner there.';
    api.mfa.refuse(`/v1/team/members/${MO.user_id}/mfa/`, 403, 'forbidden', detail);
    await table();
    fireEvent.click(resetButton(MO.name)!);
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reset two-step sign-in' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(detail);
    expect(screen.getByRole('dialog')).toBe(dialog); // stays open
  });
});
