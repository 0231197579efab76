// D29 the permissions page: the matrix grouped by area with a named checkbox per role and permission,
// read-only without permissions:manage (the owner row always checked and disabled), Save, Reset to
// defaults after a confirmation, and the session's own permissions reloaded after either, so the
// sidebar and buttons change at once.
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import '../ui/no-console';
import { PERMISSION_WORDS } from '../../contract/permission-words';
import { DEFAULT_ROLE_PERMISSIONS, PERMISSIONS, ROLES } from '../../contract/permissions';
import { LEAVE_TITLE } from '../../src/ui/leave-dialog';
import { PERMISSION_AREAS } from '../../contract/team';
import { MSG_RESET, MSG_SAVED } from '../../src/pages/permissions/PermissionsPage';
import PermissionsPage from '../../src/pages/permissions/PermissionsPage';
import { navigate } from '../../src/router/location';
import { Sidebar } from '../../src/shell/Sidebar';
import type { SessionState } from '../../src/session/types';
import { useSession } from '../../src/session/use-session';
import { toasts } from '../../src/ui/toast';
import { ACME, FakeApi, json, profile } from '../helpers/fake-api';
import { ADA, type FakeTeam } from '../helpers/fake-team';
import { renderPage } from '../helpers/render';
import { ALL_PERMISSIONS, WITH_ORG } from '../helpers/session';

const ADMIN: Partial<SessionState> = { ...WITH_ORG, role: 'admin', permissions: ALL_PERMISSIONS.filter((p) => p !== 'permissions:manage') };

/** The sidebar as the shell shows it, from the live session (D29: it follows the reloaded profile). */
function LiveSidebar() {
  const s = useSession();
  return <Sidebar org={ACME} permissions={s.permissions} />;
}

function show(state: Partial<SessionState> = WITH_ORG, setup: (team: FakeTeam, api: FakeApi) => void = () => {}) {
  const api = new FakeApi();
  const team = api.team;
  if (state.role === 'admin') team.callerId = ADA.user_id;
  // The profile a reload (D29) answers: the same person, role and permissions unless a test says otherwise.
  api.me = () => json(200, profile({ role: state.role, permissions: state.permissions }));
  setup(team, api);
  const t = renderPage(
    '/permissions',
    <>
      <LiveSidebar />
      <PermissionsPage />
    </>,
    { as: state, fake: api },
  );
  return { api, team, t };
}

const box = (name: string) => screen.getByRole('checkbox', { name }) as HTMLInputElement;
const matrix = () => screen.findByRole('table', { name: /^Permissions by role/ });
const toastText = () => toasts.getState().map((t) => t.message);

beforeEach(() => toasts.setState([]));

describe('D29 permissions matrix', () => {
  it('D29 groups permissions by area, in PERMISSION_AREAS order, with one named checkbox per role and permission', async () => {
    show();
    const table = await matrix();
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Permission', 'owner (your role)', 'admin', 'member', 'viewer']);
    expect(
      within(table)
        .getAllByRole('rowheader')
        .filter((h) => h.getAttribute('scope') === 'rowgroup')
        .map((h) => h.textContent),
    ).toEqual(['Customers they see', ...PERMISSION_AREAS.map((a) => a.area)]); // D59 first (permissions-scope.test.tsx)
    expect(within(table).getAllByRole('checkbox')).toHaveLength(ROLES.length * PERMISSIONS.length);
    for (const role of ROLES) for (const p of PERMISSIONS) expect(box(`${role}: ${p}`).checked).toBe(DEFAULT_ROLE_PERMISSIONS[role].includes(p));
    expect(within(table).getByRole('rowheader', { name: 'Delete and restore customers customers:delete' })).toBeTruthy();
  });

  it('D29 the owner row is always checked and disabled, even for who may manage', async () => {
    show();
    await matrix();
    for (const p of PERMISSIONS) {
      expect(box(`owner: ${p}`).checked).toBe(true);
      expect(box(`owner: ${p}`).disabled).toBe(true);
    }
    expect(box('member: customers:delete').disabled).toBe(false);
  });

  it('D9 without permissions:manage the matrix is read-only: every box disabled, no Save or Reset', async () => {
    show(ADMIN);
    const table = await matrix();
    expect(
      within(table)
        .getAllByRole('checkbox')
        .every((c) => (c as HTMLInputElement).disabled),
    ).toBe(true);
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Reset to defaults' })).toBeNull();
    expect(screen.getByText(/Changing it needs permissions:manage/)).toBeTruthy();
    expect(screen.getByRole('columnheader', { name: 'admin (your role)' })).toBeTruthy();
  });

  it('D29 Save sends the whole matrix (not the fixed owner row), announces "Permissions saved" and is off until something changes', async () => {
    const { api } = show();
    await matrix();
    const save = screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement;
    // D15: off (aria-disabled) rather than disabled, so the focus stays on it after a save.
    expect(save.getAttribute('aria-disabled')).toBe('true');
    fireEvent.click(save);
    expect(api.calls.some((c) => c.method === 'PUT')).toBe(false);
    fireEvent.click(box('member: customers:delete'));
    fireEvent.click(box('viewer: customers:view'));
    expect(screen.getByText('You have unsaved changes.')).toBeTruthy();
    expect(save.getAttribute('aria-disabled')).toBeNull();
    fireEvent.click(save);
    await waitFor(() => expect(toastText()).toContain(MSG_SAVED));
    const put = api.calls.find((c) => c.method === 'PUT' && c.path === '/api/v1/permissions/')!;
    const sent = (put.body as { matrix: Record<string, string[]> }).matrix;
    expect(Object.keys(sent).sort()).toEqual(['admin', 'member', 'viewer']);
    expect(sent.member).toEqual([...DEFAULT_ROLE_PERMISSIONS.member, 'customers:delete']);
    expect(sent.viewer).toEqual(['dashboard:view']);
    await waitFor(() => expect(screen.queryByText('You have unsaved changes.')).toBeNull());
    expect(box('member: customers:delete').checked).toBe(true);
    expect(box('viewer: customers:view').checked).toBe(false);
    expect(screen.getByRole('button', { name: 'Save' }).getAttribute('aria-disabled')).toBe('true');
  });

  it('D55 each permission in words first, the code second; every permission has its words', async () => {
    show();
    const table = await matrix();
    const row = within(table).getByRole('rowheader', { name: /^View customers and their notes/ });
    expect(row.textContent).toBe('View customers and their notes customers:view');
    expect(row.firstElementChild?.textContent).toBe('View customers and their notes');
    for (const p of PERMISSIONS) expect(PERMISSION_WORDS[p]).toMatch(/^[A-Z][a-z]/);
  });

  it('D42 an edited, unsaved matrix asks before leaving: in-app links, Back, and reload', async () => {
    show();
    await matrix();
    const unload = () => {
      const e = new Event('beforeunload', { cancelable: true });
      window.dispatchEvent(e);
      return e.defaultPrevented;
    };
    expect(unload()).toBe(false);
    fireEvent.click(box('member: customers:delete'));
    expect(unload()).toBe(true);
    act(() => navigate('/team'));
    const dialog = await screen.findByRole('dialog', { name: LEAVE_TITLE });
    expect(within(dialog).getByText(/Your changes to the permissions have not been saved/)).toBeTruthy();
    expect(window.location.pathname).toBe('/permissions');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Keep editing' }));
    expect(box('member: customers:delete').checked).toBe(true);
    // Back asks too, and the address goes back to the page until the person answers. The browser's
    // Back is played as the browser does it (the test window's history is shared by every file).
    const go = vi.spyOn(window.history, 'go').mockImplementation(() => undefined);
    const at = (window.history.state as { idx: number }).idx;
    const pop = (idx: number, path: string) => {
      window.history.replaceState({ idx }, '', path);
      window.dispatchEvent(new PopStateEvent('popstate', { state: { idx } }));
    };
    act(() => pop(at - 1, '/team'));
    await screen.findByRole('dialog', { name: LEAVE_TITLE });
    expect(go).toHaveBeenLastCalledWith(1);
    act(() => pop(at, '/permissions'));
    fireEvent.click(screen.getByRole('button', { name: 'Leave without saving' }));
    expect(go).toHaveBeenLastCalledWith(-1);
    go.mockRestore();
  });

  it('Discard changes puts the saved matrix back', async () => {
    show();
    await matrix();
    fireEvent.click(box('member: customers:delete'));
    fireEvent.click(screen.getByRole('button', { name: 'Discard changes' }));
    expect(box('member: customers:delete').checked).toBe(false);
    expect(screen.queryByText('You have unsaved changes.')).toBeNull();
  });

  it('D29 Reset to defaults asks first; Cancel changes nothing; confirming resets and announces it', async () => {
    const { api } = show(WITH_ORG, (team) => (team.matrix.viewer = ['dashboard:view']));
    await matrix();
    expect(box('viewer: customers:view').checked).toBe(false);
    const reset = screen.getByRole('button', { name: 'Reset to defaults' });
    reset.focus();
    fireEvent.click(reset);
    let dialog = screen.getByRole('dialog', { name: 'Reset permissions to the defaults?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(reset);
    expect(api.count('/api/v1/permissions/reset/')).toBe(0);
    fireEvent.click(reset);
    dialog = screen.getByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reset to defaults' }));
    await waitFor(() => expect(toastText()).toContain(MSG_RESET));
    expect(api.count('/api/v1/permissions/reset/', 'POST')).toBe(1);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(box('viewer: customers:view').checked).toBe(true);
  });

  it('D29 a change to one’s own role shows at once: the session reloads its profile after a save, and the sidebar follows', async () => {
    // An admin who may manage permissions takes audit:view away from admins: Activity leaves their sidebar.
    const state: Partial<SessionState> = { ...WITH_ORG, role: 'admin', permissions: [...ALL_PERMISSIONS] };
    const { api, team } = show(state, (team, api) => {
      team.callerId = ADA.user_id;
      team.matrix.admin = [...PERMISSIONS];
      api.me = () => json(200, profile({ role: 'admin', permissions: team.matrix.admin }));
    });
    await matrix();
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: 'Activity' })).toBeTruthy();
    const before = api.count('/api/v1/auth/me/');
    fireEvent.click(box('admin: audit:view'));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(within(nav).queryByRole('link', { name: 'Activity' })).toBeNull());
    expect(api.count('/api/v1/auth/me/')).toBe(before + 1);
    expect(team.matrix.admin).not.toContain('audit:view');
  });

  it('a refused save is shown in words and the changes are kept', async () => {
    show(WITH_ORG, (team) => team.refuse('PUT', '/v1/permissions/', 400, 'invalid_field', 'matrix.member: has an unknown permission'));
    await matrix();
    fireEvent.click(box('member: customers:delete'));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Could not save the permissions. matrix.member: has an unknown permission');
    expect(box('member: customers:delete').checked).toBe(true);
  });

  it('a matrix that cannot be loaded says so, with Retry', async () => {
    show(WITH_ORG, (team) => team.refuse('GET', '/v1/permissions/', 500, 'error', 'Database unavailable.'));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Could not load the permissions. Database unavailable.');
    fireEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await matrix()).toBeTruthy();
  });
});
