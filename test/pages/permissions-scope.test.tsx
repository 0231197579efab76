// D59 D61 the permissions page's 'Sees' row: per role all customers or only those assigned to them (the
// contract's words), the owner fixed at all, sent as `scopes` beside the matrix, kept in the draft, named
// for screen readers like the checkboxes and operable by keyboard (a native radio pair per role).
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import '../ui/no-console';
import { CUSTOMER_SCOPE_WORDS } from '../../contract/permission-words';
import PermissionsPage, { MSG_SAVED } from '../../src/pages/permissions/PermissionsPage';
import { navigate } from '../../src/router/location';
import type { SessionState } from '../../src/session/types';
import { toasts } from '../../src/ui/toast';
import { FakeApi, json, profile } from '../helpers/fake-api';
import type { FakeTeam } from '../helpers/fake-team';
import { renderPage } from '../helpers/render';
import { ALL_PERMISSIONS, WITH_ORG } from '../helpers/session';

function show(state: Partial<SessionState> = WITH_ORG, setup: (team: FakeTeam) => void = () => {}) {
  const api = new FakeApi();
  const team = api.team;
  api.me = () => json(200, profile({ role: state.role, permissions: state.permissions }));
  setup(team);
  renderPage('/permissions', <PermissionsPage />, { as: state, fake: api });
  return { api, team };
}
/** A role's radio pair, as { value, disabled, options, choose }. */
async function sees(role: string) {
  const group = await screen.findByRole('radiogroup', { name: `${role}: Sees` });
  const radios = within(group).getAllByRole('radio') as HTMLInputElement[];
  return {
    value: radios.find((r) => r.checked)?.value,
    disabled: radios.every((r) => r.disabled),
    options: radios.map((r) => r.closest('label')!.textContent!.trim()),
    choose: (words: string) => fireEvent.click(within(group).getByRole('radio', { name: words })),
  };
}
const toastText = () => toasts.getState().map((t) => t.message);

beforeEach(() => {
  navigate('/', { replace: true });
  toasts.setState([]);
  sessionStorage.clear();
});

describe('D59 what each role sees of customers', () => {
  it('D59 D61 a Sees row per role in the contract’s words; every role sees all by default; the owner is fixed', async () => {
    show();
    const member = await sees('member');
    expect(member.options).toEqual(['all customers', 'only customers assigned to them']);
    expect(CUSTOMER_SCOPE_WORDS.assigned).toBe('Sees: only customers assigned to them');
    for (const r of ['admin', 'member', 'viewer']) expect((await sees(r)).value).toBe('all');
    const owner = await sees('owner');
    expect(owner.value).toBe('all');
    expect(owner.disabled).toBe(true);
    expect(member.disabled).toBe(false);
    expect(within(screen.getByRole('table')).getByRole('rowheader', { name: /^Sees/ })).toBeTruthy();
  });

  it('D59 choosing only assigned for a role marks the page unsaved and Save sends it as scopes beside the matrix', async () => {
    const { api, team } = show();
    (await sees('member')).choose('only customers assigned to them');
    expect(screen.getByText('You have unsaved changes.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(toastText()).toContain(MSG_SAVED));
    const put = api.calls.find((c) => c.method === 'PUT' && c.path === '/api/v1/permissions/')!;
    const body = put.body as { matrix: Record<string, string[]>; scopes: Record<string, string> };
    expect(body.scopes).toEqual({ admin: 'all', member: 'assigned', viewer: 'all' });
    expect(Object.keys(body.matrix).sort()).toEqual(['admin', 'member', 'viewer']);
    expect(team.scopes.member).toBe('assigned');
    await waitFor(() => expect(screen.queryByText('You have unsaved changes.')).toBeNull());
    expect((await sees('member')).value).toBe('assigned');
  });

  it('D59 a role saved as assigned shows so; back to all is a change; Discard changes puts it back', async () => {
    show(WITH_ORG, (team) => (team.scopes = { ...team.scopes, viewer: 'assigned' }));
    await waitFor(async () => expect((await sees('viewer')).value).toBe('assigned'));
    (await sees('viewer')).choose('all customers');
    expect(screen.getByText('You have unsaved changes.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Discard changes' }));
    await waitFor(async () => expect((await sees('viewer')).value).toBe('assigned'));
    expect(screen.queryByText('You have unsaved changes.')).toBeNull();
  });

  it('D59 D41 a scope chosen is kept in the permissions draft', async () => {
    show();
    (await sees('member')).choose('only customers assigned to them');
    await waitFor(() =>
      expect(Object.keys(sessionStorage).some((k) => k.endsWith(':permissions') && sessionStorage.getItem(k)!.includes('"member":"assigned"'))).toBe(true),
    );
  });

  it('D59 without permissions:manage the row is read-only', async () => {
    show({ ...WITH_ORG, role: 'admin', permissions: ALL_PERMISSIONS.filter((p) => p !== 'permissions:manage') });
    expect((await sees('member')).disabled).toBe(true);
  });
});
