// D41 drafts of the invitation and the permissions matrix, and the draft store itself: the key per
// user, organization and form, garbage read as nothing, no password or token ever written, logout's sweep.
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import '../ui/no-console';
import { draftKey, readDraft, writeDraft } from '../../src/drafts/store';
import { DRAFT_DISCARD, DRAFT_RESTORE } from '../../src/drafts/DraftOffer';
import { timeOfDay as draftTime } from '../../src/ui/when';
import { clearDrafts } from '../../src/lib/storage';
import PermissionsPage from '../../src/pages/permissions/PermissionsPage';
import TeamPage from '../../src/pages/team/TeamPage';
import { RequirePermission } from '../../src/router/require-permission';
import type { SessionState } from '../../src/session/types';
import { toasts } from '../../src/ui/toast';
import { FakeApi, json, profile, USER } from '../helpers/fake-api';
import type { FakeTeam } from '../helpers/fake-team';
import { renderPage } from '../helpers/render';
import { ALL_PERMISSIONS, WITH_ORG } from '../helpers/session';

const LESS = ALL_PERMISSIONS.filter((p) => p !== 'team:manage' && p !== 'permissions:manage');
const drafts = () => Object.keys(sessionStorage).filter((k) => k.startsWith('draft:'));
const OFFER = /^Restore your unsaved changes from .+\?$/;
/** No question, once anything loading has had its turn. */
async function expectNoOffer() {
  await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
  expect(screen.queryByText(OFFER)).toBeNull();
}
function reload(): void {
  window.dispatchEvent(new Event('pagehide'));
  cleanup();
}

/** A page behind its route's guard, signed in as the owner; a D29 reload answers without `team:manage`/`permissions:manage`. */
function show(path: '/team' | '/permissions', setup: (team: FakeTeam) => void = () => {}, state: Partial<SessionState> = WITH_ORG) {
  const api = new FakeApi();
  const team = api.team;
  api.me = () => json(200, profile({ role: 'admin', permissions: LESS }));
  setup(team);
  const page = (
    <RequirePermission permission={path === '/team' ? 'team:view' : 'permissions:view'}>{path === '/team' ? <TeamPage /> : <PermissionsPage />}</RequirePermission>
  );
  const t = renderPage(path, page, { as: state, fake: api });
  return { t, team };
}

beforeEach(() => {
  sessionStorage.clear();
  toasts.setState([]);
});

describe('D41 drafts of an invitation', () => {
  const openInvite = async () => {
    fireEvent.click(await screen.findByRole('button', { name: 'Invite member' }));
    return screen.getByRole('dialog', { name: 'Invite member' });
  };
  const email = (d: HTMLElement) => within(d).getByRole('textbox', { name: 'Email' }) as HTMLInputElement;
  const role = (d: HTMLElement) => within(d).getByRole('combobox', { name: 'Role' }) as HTMLSelectElement;

  it('D41 a 403 permission_denied keeps the dialog, the typing and says so', async () => {
    const { t } = show('/team', (team) => team.refuse('POST', '/v1/team/invitations/', 403, 'permission_denied', 'Your role does not grant team:manage'));
    const d = await openInvite();
    fireEvent.change(email(d), { target: { value: 'sam@example.com' } });
    fireEvent.click(within(d).getByRole('button', { name: 'Create invitation link' }));
    expect((await within(d).findByRole('alert')).textContent).toBe('You no longer have permission to invite members. Your changes are kept as a draft.');
    await waitFor(() => expect(t.session.store.getState().permissions).toEqual(LESS));
    expect(email(screen.getByRole('dialog', { name: 'Invite member' })).value).toBe('sam@example.com');
    expect(drafts()).toHaveLength(1);
  });

  it('D41 reload → opening the dialog again offers the draft; Restore puts email and role back', async () => {
    show('/team');
    const d = await openInvite();
    fireEvent.change(email(d), { target: { value: 'sam@example.com' } });
    fireEvent.change(role(d), { target: { value: 'viewer' } });
    reload();
    show('/team');
    const again = await openInvite();
    expect(await within(again).findByText(/^Restore your unsaved changes from/)).toBeTruthy();
    fireEvent.click(await within(again).findByRole('button', { name: DRAFT_RESTORE }));
    expect(email(again).value).toBe('sam@example.com');
    expect(role(again).value).toBe('viewer');
  });

  it('D41 Cancel is the person’s choice: the draft goes; a sent invitation removes it too', async () => {
    show('/team');
    let d = await openInvite();
    fireEvent.change(email(d), { target: { value: 'sam@example.com' } });
    window.dispatchEvent(new Event('pagehide'));
    expect(drafts()).toHaveLength(1);
    fireEvent.click(within(d).getByRole('button', { name: 'Cancel' }));
    expect(drafts()).toEqual([]);
    d = await openInvite();
    await expectNoOffer();
    fireEvent.change(email(d), { target: { value: 'sam@example.com' } });
    window.dispatchEvent(new Event('pagehide'));
    fireEvent.click(within(d).getByRole('button', { name: 'Create invitation link' }));
    await screen.findByRole('dialog', { name: 'Invitation link' });
    expect(drafts()).toEqual([]);
  });
});

describe('D41 drafts of the permissions matrix', () => {
  const box = (name: string) => screen.getByRole('checkbox', { name }) as HTMLInputElement;
  const ready = () => screen.findByRole('table', { name: /^Permissions by role/ });

  it('D41 a 403 permission_denied on Save keeps the edited matrix and says so', async () => {
    const { t } = show('/permissions', (team) => team.refuse('PUT', '/v1/permissions/', 403, 'permission_denied', 'Your role does not grant permissions:manage'));
    await ready();
    fireEvent.click(box('member: customers:delete'));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect((await screen.findByRole('alert')).textContent).toBe('You no longer have permission to change permissions. Your changes are kept as a draft.');
    await waitFor(() => expect(t.session.store.getState().permissions).toEqual(LESS));
    expect(box('member: customers:delete').checked).toBe(true);
    expect(drafts()).toHaveLength(1);
  });

  it('D41 reload → restore offer → the edited boxes are back; Discard changes removes the draft; Save removes it', async () => {
    show('/permissions');
    await ready();
    fireEvent.click(box('member: customers:delete'));
    reload();
    show('/permissions');
    await ready();
    expect(box('member: customers:delete').checked).toBe(false);
    fireEvent.click(await screen.findByRole('button', { name: DRAFT_RESTORE }));
    expect(box('member: customers:delete').checked).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Discard changes' }));
    await waitFor(() => expect(drafts()).toEqual([]));
    fireEvent.click(box('viewer: customers:export'));
    window.dispatchEvent(new Event('pagehide'));
    expect(drafts()).toHaveLength(1);
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(toasts.getState().map((x) => x.message)).toContain('Permissions saved'));
    expect(drafts()).toEqual([]);
    cleanup();
    show('/permissions');
    await ready();
    await expectNoOffer();
  });

  it('D41 the offer’s Discard removes the draft', async () => {
    show('/permissions');
    await ready();
    fireEvent.click(box('member: customers:delete'));
    reload();
    show('/permissions');
    await ready();
    fireEvent.click(await screen.findByRole('button', { name: DRAFT_DISCARD }));
    expect(drafts()).toEqual([]);
    await expectNoOffer();
  });
});

describe('D41 the draft store', () => {
  it('D41 the key is draft:{email}:{org}:{form}, the email whatever its case', () => {
    expect(draftKey('Owner@Demo.test', 1, 'customer-new')).toBe('draft:owner@demo.test:1:customer-new');
    expect(draftKey(USER.email, 2, 'note:7')).toBe(`draft:${USER.email}:2:note:7`);
  });

  it('D41 never writes a password or token, at any depth', () => {
    writeDraft('draft:a:1:f', { email: 'a@b.c', password: 'hunter2hunter2', nested: { access_token: 'x', refreshToken: 'y', ok: 1 }, list: [{ secret: 's', keep: 2 }] });
    const raw = sessionStorage.getItem('draft:a:1:f')!;
    expect(raw).not.toMatch(/hunter2|password|token|secret/i);
    expect(readDraft('draft:a:1:f')?.data).toEqual({ email: 'a@b.c', nested: { ok: 1 }, list: [{ keep: 2 }] });
  });

  it('D41 garbage reads as no draft; logout’s sweep removes drafts only', () => {
    for (const raw of ['{', '[]', 'null', '{"v":2,"at":1,"data":{}}', '{"v":1,"data":{}}']) {
      sessionStorage.setItem('draft:a:1:g', raw);
      expect(readDraft('draft:a:1:g')).toBeNull();
    }
    sessionStorage.setItem('other', 'kept');
    writeDraft('draft:a:1:h', 'text');
    clearDrafts();
    expect(Object.keys(sessionStorage)).toEqual(['other']);
  });

  it('D41 the offer says when: the time of day today, with the date before', () => {
    const now = new Date(2026, 10, 24, 15, 0).getTime();
    expect(draftTime(new Date(2026, 10, 24, 9, 5).getTime(), now)).not.toMatch(/2026/);
    expect(draftTime(new Date(2026, 10, 20, 9, 5).getTime(), now)).toMatch(/2026/);
  });
});
