// D28 the team page: members, what is offered to an owner, an admin and a member, the invite dialog
// (the link shown once, with Copy), pending invitations (Revoke, Renew), Remove with a confirmation,
// and the server's refusals in words. Against the fake team API (test/helpers/fake-team.ts), through
// the real client and query cache; elements found by role and name (D15).
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import '../ui/no-console';
import type { Member } from '../../contract/team';
import { MSG_EMAIL_REQUIRED } from '../../src/pages/team/InviteDialogs';
import { MSG_COPIED, MSG_COPY_BY_HAND, invitationUrl } from '../../src/pages/team/LinkDialog';
import { assignableRoles, mayChangeRole, mayRemove, WHY_LAST_OWNER, WHY_OWN_ROLE, WHY_OWNER_ONLY, whyNotOffered } from '../../src/pages/team/offers';
import TeamPage from '../../src/pages/team/TeamPage';
import type { SessionState } from '../../src/session/types';
import { toasts } from '../../src/ui/toast';
import { FakeApi, USER } from '../helpers/fake-api';
import { ADA, type FakeTeam, MO, OLIVE, tokenFor } from '../helpers/fake-team';
import { renderPage } from '../helpers/render';
import { ALL_PERMISSIONS, WITH_ORG } from '../helpers/session';

const ADMIN: Partial<SessionState> = {
  ...WITH_ORG,
  user: { ...USER, email: ADA.email, first_name: 'Ada' },
  role: 'admin',
  permissions: ALL_PERMISSIONS.filter((p) => p !== 'permissions:manage'),
};
const MEMBER: Partial<SessionState> = { ...WITH_ORG, user: { ...USER, email: MO.email, first_name: 'Mo' }, role: 'member', permissions: ['dashboard:view', 'team:view'] };

function show(state: Partial<SessionState> = WITH_ORG, setup: (team: FakeTeam) => void = () => {}) {
  const api = new FakeApi();
  const team = api.team;
  if (state.role === 'admin') team.callerId = ADA.user_id;
  if (state.role === 'member') team.callerId = MO.user_id;
  setup(team);
  renderPage('/team', <TeamPage />, { as: state, fake: api });
  return { api, team };
}

const membersTable = () => screen.findByRole('table', { name: /^Members/ });
const rowOf = async (name: string) =>
  within(await membersTable())
    .getByRole('cell', { name: new RegExp(`^${name}`) })
    .closest('tr')!;
const roleMenu = (name: string) => screen.queryByRole('combobox', { name: `Role of ${name}` }) as HTMLSelectElement | null;
const options = (select: HTMLSelectElement) => [...select.options].map((o) => o.value);
const toastText = () => toasts.getState().map((t) => t.message);
const calls = (api: FakeApi, method: string, path: string) => api.calls.filter((c) => c.method === method && c.path === `/api${path}`);

let clipboard: { writeText: ReturnType<typeof vi.fn> };
beforeEach(() => {
  toasts.setState([]);
  clipboard = { writeText: vi.fn(() => Promise.resolve()) };
  Object.defineProperty(navigator, 'clipboard', { value: clipboard, configurable: true });
});
afterEach(() => vi.restoreAllMocks());

describe('D28 team: members', () => {
  it('lists members with role, email and joined date in a table with headers and a caption; the viewer is marked', async () => {
    show();
    const table = await membersTable();
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Name', 'Email', 'Role', 'Joined', 'Actions']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((r) => within(r).getAllByRole('cell')[1]!.textContent)).toEqual([OLIVE.email, ADA.email, MO.email, 'vi@example.com']);
    expect(rows[0]!.textContent).toContain('Olive (you)');
    expect(within(rows[0]!).getByText('Owner')).toBeTruthy();
    expect(rows[0]!.querySelector('time')!.getAttribute('dateTime')).toBe(OLIVE.joined_at);
  });

  it('shows a loading state, then an error with Retry when the team cannot be loaded', async () => {
    show(WITH_ORG, (team) => team.refuse('GET', '/v1/team/members/', 500, 'error', 'Something broke.'));
    expect(screen.getByText('Loading the team…')).toBeTruthy();
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Could not load the team.');
    fireEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await membersTable()).toBeTruthy();
  });

  it('D28 an owner is offered every role for others (owner too), Remove for others, nothing on their own row', async () => {
    show();
    await membersTable();
    expect(roleMenu('Olive')).toBeNull(); // nobody's own role is changeable
    expect(options(roleMenu('Ada')!)).toEqual(['owner', 'admin', 'member', 'viewer']);
    expect(screen.queryByRole('button', { name: 'Remove Olive' })).toBeNull();
    for (const name of ['Ada', 'Mo', 'Vi']) expect(screen.getByRole('button', { name: `Remove ${name}` })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Invite member' })).toBeTruthy();
    expect(await screen.findByRole('heading', { name: 'Pending invitations' })).toBeTruthy();
  });

  it('D28 an admin is not offered owner, nor anything on an owner’s row or their own', async () => {
    show(ADMIN);
    await membersTable();
    expect(roleMenu('Olive')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Remove Olive' })).toBeNull();
    expect(roleMenu('Ada')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Remove Ada' })).toBeNull();
    expect(options(roleMenu('Mo')!)).toEqual(['admin', 'member', 'viewer']);
    expect(screen.getByRole('button', { name: 'Remove Mo' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Invite member' }));
    const dialog = await screen.findByRole('dialog', { name: 'Invite member' }); // its code loads on the first press
    expect(options(within(dialog).getByRole('combobox', { name: 'Role' }) as HTMLSelectElement)).toEqual(['admin', 'member', 'viewer']);
  });

  it('D9 a member with team:view sees the team read-only: no menus, no Remove, no invitations, no Invite', async () => {
    const { api } = show(MEMBER);
    const table = await membersTable();
    expect(within(table).queryAllByRole('combobox')).toEqual([]);
    expect(within(table).queryAllByRole('button')).toEqual([]);
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Name', 'Email', 'Role', 'Joined']);
    expect(screen.queryByRole('button', { name: 'Invite member' })).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Pending invitations' })).toBeNull();
    expect(calls(api, 'GET', '/v1/team/invitations/')).toEqual([]); // team:manage only
  });

  it('D28 where nothing is offered the row says why, in plain text beside it: an admin on the owner’s row and their own', async () => {
    show(ADMIN);
    await membersTable();
    const olive = await rowOf('Olive');
    expect(within(olive).getByText(WHY_OWNER_ONLY)).toBeTruthy();
    expect(WHY_OWNER_ONLY).toMatch(/only an owner/i);
    expect(within(olive).getByRole('cell', { name: 'Owner' })).toBeTruthy(); // the role cell stays just the role
    expect(within(await rowOf('Ada')).getByText(WHY_OWN_ROLE)).toBeTruthy();
    const mo = await rowOf('Mo');
    expect(mo.textContent).not.toMatch(/only an owner|can’t/i);
  });

  it('D28 the last owner’s own row says they cannot leave; with a second owner it says their own role is not theirs to change', async () => {
    show();
    await membersTable();
    expect(within(await rowOf('Olive')).getByText(WHY_LAST_OWNER)).toBeTruthy();
    expect(within(await rowOf('Ada')).queryByText(/can’t|only an owner/i)).toBeNull();
  });

  it('D28 an owner beside another owner: their own row says why, the other owner’s row offers a menu and Remove', async () => {
    show(WITH_ORG, (team) => (team.members.find((m) => m.user_id === ADA.user_id)!.role = 'owner'));
    await membersTable();
    const olive = await rowOf('Olive');
    expect(within(olive).getByText(WHY_OWN_ROLE)).toBeTruthy();
    expect(within(olive).queryByText(WHY_LAST_OWNER)).toBeNull();
    expect(roleMenu('Ada')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Remove Ada' })).toBeTruthy();
  });

  it('D9 a read-only viewer of the team is not told why on every row (nothing is offered to anyone)', async () => {
    show(MEMBER);
    const table = await membersTable();
    expect(within(table).queryByText(/can’t|only an owner/i)).toBeNull();
  });

  it('D15 members who share a first name get controls named with their email too', async () => {
    show(WITH_ORG, (team) => team.members.push({ ...MO, user_id: 9, email: 'mo.two@example.com' }));
    await membersTable();
    expect(roleMenu('Mo (mo@example.com)')).toBeTruthy();
    expect(roleMenu('Mo (mo.two@example.com)')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Remove Mo (mo.two@example.com)' })).toBeTruthy();
    expect(roleMenu('Ada')).toBeTruthy();
  });

  it('D28 the rules of what is offered: own role never, owners only by owners, the last owner never removed', () => {
    const owner = { email: OLIVE.email, role: 'owner' };
    const admin = { email: ADA.email, role: 'admin' };
    const other: Member = { ...ADA, role: 'owner' };
    expect(mayChangeRole(OLIVE, owner)).toBe(false);
    expect(mayChangeRole(other, admin)).toBe(false); // ADA's own row
    expect(mayChangeRole({ ...other, email: 'x@example.com' }, admin)).toBe(false);
    expect(mayChangeRole({ ...other, email: 'x@example.com' }, owner)).toBe(true);
    expect(mayRemove({ ...other, email: 'x@example.com' }, owner, 1)).toBe(false); // the last owner
    expect(mayRemove({ ...other, email: 'x@example.com' }, owner, 2)).toBe(true);
    expect(mayRemove(MO, admin, 1)).toBe(true);
    expect(assignableRoles(admin)).not.toContain('owner');
    expect(whyNotOffered(OLIVE, owner, 1)).toBe(WHY_LAST_OWNER);
    expect(whyNotOffered(OLIVE, owner, 2)).toBe(WHY_OWN_ROLE);
    expect(whyNotOffered(OLIVE, admin, 1)).toBe(WHY_OWNER_ONLY);
    expect(whyNotOffered(ADA, admin, 1)).toBe(WHY_OWN_ROLE);
    expect(whyNotOffered(MO, admin, 1)).toBeNull();
    expect(whyNotOffered({ ...other, email: 'x@example.com' }, owner, 2)).toBeNull();
  });

  it('D28 choosing a role changes it, announces "Role changed" and shows the new role', async () => {
    const { api } = show();
    await membersTable();
    fireEvent.change(roleMenu('Mo')!, { target: { value: 'admin' } });
    // While it is saved, and after, the menu shows the role chosen: it never jumps back to the old one.
    expect(roleMenu('Mo')!.value).toBe('admin');
    await waitFor(() => expect(toastText()).toContain('Role changed: Mo is now an admin'));
    expect(roleMenu('Mo')!.value).toBe('admin');
    expect(calls(api, 'PATCH', '/v1/team/members/3/')[0]!.body).toEqual({ role: 'admin' });
    await waitFor(() => expect(calls(api, 'GET', '/v1/team/members/').length).toBeGreaterThan(1));
    expect(roleMenu('Mo')!.value).toBe('admin');
    expect(screen.getByRole('region', { name: /Notifications/ }).querySelector('[aria-live="polite"]')!.textContent).toContain('Role changed');
  });

  it('D28 making someone an owner asks first; Cancel keeps the old role and sends nothing; confirming makes them owner', async () => {
    const { api } = show();
    await membersTable();
    fireEvent.change(roleMenu('Mo')!, { target: { value: 'owner' } });
    const dialog = await screen.findByRole('dialog', { name: 'Make Mo an owner?' });
    expect(roleMenu('Mo')!.value).toBe('member');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(roleMenu('Mo')!.value).toBe('member');
    expect(calls(api, 'PATCH', '/v1/team/members/3/')).toEqual([]);
    fireEvent.change(roleMenu('Mo')!, { target: { value: 'owner' } });
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Make Mo an owner?' })).getByRole('button', { name: 'Make owner' }));
    await waitFor(() => expect(toastText()).toContain('Role changed: Mo is now an owner'));
    expect(calls(api, 'PATCH', '/v1/team/members/3/')[0]!.body).toEqual({ role: 'owner' });
  });

  it('D15 a role chosen from the keyboard shows in its menu while it saves; the menu keeps the focus (aria-disabled, never disabled) and a second change waits', async () => {
    const { api } = show();
    await membersTable();
    const menu = roleMenu('Mo')!;
    menu.focus();
    api.holdRequests = true;
    fireEvent.change(menu, { target: { value: 'admin' } }); // ArrowDown on a closed menu
    await waitFor(() => expect(menu.getAttribute('aria-busy')).toBe('true'));
    expect(menu.value).toBe('admin');
    expect(menu.disabled).toBe(false);
    expect(menu.getAttribute('aria-disabled')).toBe('true');
    expect(document.activeElement).toBe(menu);
    fireEvent.change(menu, { target: { value: 'viewer' } }); // pressed again while the first is on its way
    expect(menu.value).toBe('admin');
    api.holdRequests = false;
    api.release();
    await waitFor(() => expect(toastText()).toContain('Role changed: Mo is now an admin'));
    await waitFor(() => expect(menu.getAttribute('aria-busy')).toBeNull());
    expect(menu.value).toBe('admin');
    expect(calls(api, 'PATCH', '/v1/team/members/3/').map((c) => c.body)).toEqual([{ role: 'admin' }]);
  });

  it.each([
    [409, 'last_owner', 'The last owner cannot be demoted; make someone else an owner first'],
    [403, 'own_role', 'You cannot change your own role; ask another owner or admin'],
    [403, 'owner_required', 'Only an owner may make or unmake an owner'],
  ])('D28 a refused role change (%s %s) is shown in words and the menu keeps the old role', async (status, code, detail) => {
    show(WITH_ORG, (team) => team.refuse('PATCH', '/v1/team/members/2/', status, code, detail));
    await membersTable();
    fireEvent.change(roleMenu('Ada')!, { target: { value: 'member' } });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(`Could not change Ada’s role. ${detail}`);
    expect(roleMenu('Ada')!.value).toBe('admin');
    fireEvent.click(within(alert).getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('alert')).toBeNull();
  });
});

describe('D28 team: Remove', () => {
  it('asks first; Cancel (or Escape) changes nothing and gives focus back to the button', async () => {
    const { api } = show();
    await membersTable();
    const button = screen.getByRole('button', { name: 'Remove Mo' });
    button.focus();
    fireEvent.click(button);
    const dialog = await screen.findByRole('dialog', { name: 'Remove Mo?' });
    expect(dialog.textContent).toContain('will lose access to Acme Plumbing at their next request');
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Cancel' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(button);
    fireEvent.click(button);
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(calls(api, 'DELETE', '/v1/team/members/3/')).toEqual([]);
  });

  it('removes after the confirmation: the row goes, a toast says so, focus lands on the Members heading', async () => {
    const { api } = show();
    await membersTable();
    fireEvent.click(screen.getByRole('button', { name: 'Remove Mo' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls(api, 'DELETE', '/v1/team/members/3/')).toHaveLength(1);
    expect(toastText()).toContain('Mo was removed from the team');
    await waitFor(() => expect(screen.queryByRole('cell', { name: 'mo@example.com' })).toBeNull());
    expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Members' }));
  });

  it('D28 a refused removal (409 last_owner) is shown in the dialog in words', async () => {
    show(WITH_ORG, (team) => team.refuse('DELETE', '/v1/team/members/3/', 409, 'last_owner', 'The last owner cannot be removed; make someone else an owner first'));
    await membersTable();
    fireEvent.click(screen.getByRole('button', { name: 'Remove Mo' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('The last owner cannot be removed; make someone else an owner first');
    expect(await rowOf('Mo')).toBeTruthy();
  });
});

describe('D28 team: invitations', () => {
  async function openInvite() {
    await membersTable();
    const open = screen.getByRole('button', { name: 'Invite member' });
    open.focus(); // as a click does in a browser
    fireEvent.click(open);
    return screen.findByRole('dialog', { name: 'Invite member' }); // its code loads on the first press
  }

  it('the dialog asks for an email (checked first) and a role, member by default; focus starts on the email', async () => {
    const { api } = show();
    const dialog = await openInvite();
    const email = within(dialog).getByRole('textbox', { name: 'Email' });
    expect(document.activeElement).toBe(email);
    expect((within(dialog).getByRole('combobox', { name: 'Role' }) as HTMLSelectElement).value).toBe('member');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create invitation link' }));
    expect(await within(dialog).findByText(MSG_EMAIL_REQUIRED)).toBeTruthy();
    expect(email.getAttribute('aria-invalid')).toBe('true');
    expect(calls(api, 'POST', '/v1/team/invitations/')).toEqual([]);
  });

  it('D28 a new invitation shows its full link once, with Copy; "Invitation created" is announced; the list shows it', async () => {
    const { api, team } = show();
    const dialog = await openInvite();
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Email' }), { target: { value: ' Sam@Example.com ' } });
    fireEvent.change(within(dialog).getByRole('combobox', { name: 'Role' }), { target: { value: 'viewer' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create invitation link' }));
    const shown = await screen.findByRole('dialog', { name: 'Invitation link' });
    expect(shown.contains(document.activeElement)).toBe(true); // D15: the form's dialog gave it back before this one took it
    expect(calls(api, 'POST', '/v1/team/invitations/')[0]!.body).toEqual({ email: 'Sam@Example.com', role: 'viewer' });
    const token = team.invitations[0]!.token;
    const link = within(shown).getByRole('textbox', { name: 'Invitation link' }) as HTMLInputElement;
    expect(link.value).toBe(`${window.location.origin}/invite/${token}`);
    expect(link.readOnly).toBe(true);
    expect(shown.textContent).toContain('shown only this once');
    expect(toastText()).toContain('Invitation created for sam@example.com');

    fireEvent.click(within(shown).getByRole('button', { name: 'Copy' }));
    await waitFor(() => expect(within(shown).getByRole('status').textContent).toBe(MSG_COPIED));
    expect(clipboard.writeText).toHaveBeenCalledWith(link.value);

    fireEvent.click(within(shown).getByRole('button', { name: 'Done' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.queryByDisplayValue(new RegExp(token))).toBeNull(); // shown once: gone with the dialog
    const list = await screen.findByRole('table', { name: 'Pending invitations' });
    expect(within(list).getByRole('cell', { name: 'sam@example.com' })).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Invite member' }))); // D15: focus returns
  });

  it('Copy falls back to selecting the link when the clipboard refuses', async () => {
    clipboard.writeText.mockImplementation(() => Promise.reject(new Error('denied')));
    show();
    const dialog = await openInvite();
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Email' }), { target: { value: 'sam@example.com' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create invitation link' }));
    const shown = await screen.findByRole('dialog', { name: 'Invitation link' });
    const link = within(shown).getByRole('textbox', { name: 'Invitation link' }) as HTMLInputElement;
    fireEvent.click(within(shown).getByRole('button', { name: 'Copy' }));
    await waitFor(() => expect(within(shown).getByRole('status').textContent).toBe(MSG_COPY_BY_HAND));
    await waitFor(() => expect(document.activeElement).toBe(link));
    expect([link.selectionStart, link.selectionEnd]).toEqual([0, link.value.length]);
  });

  it('D28 already a member, or already invited: the server’s words; an existing invitation can be renewed from there', async () => {
    show(WITH_ORG, (team) => team.addInvitation('sam@example.com', 'member'));
    const dialog = await openInvite();
    const email = within(dialog).getByRole('textbox', { name: 'Email' });
    fireEvent.change(email, { target: { value: 'mo@example.com' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create invitation link' }));
    expect((await within(dialog).findByRole('alert')).textContent).toContain('mo@example.com is already a member');
    expect(within(dialog).queryByRole('button', { name: 'Renew that invitation' })).toBeNull();
    fireEvent.change(email, { target: { value: 'sam@example.com' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create invitation link' }));
    await waitFor(() => expect(within(dialog).getByRole('alert').textContent).toContain('sam@example.com already has a pending invitation'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Renew that invitation' }));
    expect(await screen.findByRole('dialog', { name: 'New invitation link' })).toBeTruthy();
    expect(toastText()).toContain('Invitation renewed for sam@example.com');
  });

  it('D28 pending invitations: Revoke removes one; Renew shows its new link once', async () => {
    const { api } = show(WITH_ORG, (team) => {
      team.addInvitation('sam@example.com', 'member');
      team.addInvitation('kim@example.com', 'admin');
    });
    const list = await screen.findByRole('table', { name: 'Pending invitations' });
    expect(
      within(list)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Email', 'Role', 'Invited by', 'Expires', 'Actions']);
    fireEvent.click(within(list).getByRole('button', { name: 'Revoke the invitation for sam@example.com' }));
    await waitFor(() => expect(within(list).queryByRole('cell', { name: 'sam@example.com' })).toBeNull());
    expect(calls(api, 'DELETE', '/v1/team/invitations/101/')).toHaveLength(1);
    expect(toastText()).toContain('Invitation for sam@example.com revoked');

    fireEvent.click(within(list).getByRole('button', { name: 'Renew the invitation for kim@example.com' }));
    const shown = await screen.findByRole('dialog', { name: 'New invitation link' });
    expect(calls(api, 'POST', '/v1/team/invitations/102/renew/')).toHaveLength(1);
    expect((within(shown).getByRole('textbox', { name: 'Invitation link' }) as HTMLInputElement).value).toBe(invitationUrl({ path: `/invite/${tokenFor(103)}` }));
    expect(toastText()).toContain('Invitation renewed for kim@example.com');
  });

  it('D28 an admin is not offered Revoke or Renew on an owner’s invitation', async () => {
    show(ADMIN, (team) => {
      team.addInvitation('boss@example.com', 'owner');
      team.addInvitation('kim@example.com', 'member');
    });
    const list = await screen.findByRole('table', { name: 'Pending invitations' });
    expect(within(list).queryByRole('button', { name: /boss@example.com/ })).toBeNull();
    expect(within(list).getByRole('button', { name: 'Revoke the invitation for kim@example.com' })).toBeTruthy();
  });

  it('no pending invitations says so', async () => {
    show();
    expect(await screen.findByText('No pending invitations.')).toBeTruthy();
  });

  it('a refused revoke is shown in words', async () => {
    show(WITH_ORG, (team) => {
      const inv = team.addInvitation('sam@example.com', 'member');
      team.refuse('DELETE', `/v1/team/invitations/${inv.id}/`, 404, 'not_found', 'No such invitation');
    });
    const list = await screen.findByRole('table', { name: 'Pending invitations' });
    await act(async () => fireEvent.click(within(list).getByRole('button', { name: 'Revoke the invitation for sam@example.com' })));
    expect((await screen.findByRole('alert')).textContent).toContain('Could not revoke the invitation for sam@example.com. No such invitation');
  });
});
