// D41 drafts survive: what a person typed into Add Customer, Edit Customer or a note is kept as a draft in
// this tab when the app leaves the form without the person choosing (a permission lost, a reload), is
// offered back when the form opens again, and goes when saved, discarded or by logout. A 403
// permission_denied on save keeps the person on the form with D41's message, though their permissions
// are reloaded (D29) without the one the form needs.
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { beforeEach, describe, expect, it } from 'vitest';
import '../ui/no-console';
import type { Customer } from '../../contract/customers';
import type { Permission } from '../../contract/permissions';
import { DRAFT_DISCARD, DRAFT_RESTORE } from '../../src/drafts/DraftOffer';
import AddCustomerPage from '../../src/pages/customers/AddCustomerPage';
import CustomerDashboardPage from '../../src/pages/customers/CustomerDashboardPage';
import EditCustomerPage from '../../src/pages/customers/EditCustomerPage';
import { CONFLICT_TITLE } from '../../src/pages/customers/form/ConflictPanel';
import { LEAVE_TITLE } from '../../src/ui/leave-dialog';
import { RequirePermission } from '../../src/router/require-permission';
import type { SessionState } from '../../src/session/types';
import { toasts } from '../../src/ui/toast';
import { FakeApi, json, profile, USER } from '../helpers/fake-api';
import type { FakeRecord } from '../helpers/fake-customer';
import { renderPage } from '../helpers/render';
import { WITH_ORG } from '../helpers/session';

const MEMBER = ['dashboard:view', 'customers:view', 'customers:create', 'customers:update'];
const VIEWER = ['dashboard:view', 'customers:view'];
const AS_MEMBER: Partial<SessionState> = { ...WITH_ORG, role: 'member', permissions: MEMBER };
const denied = (what: string) => json(403, { detail: `Your role (viewer) does not grant ${what}`, code: 'permission_denied' });
const ANN: Customer = {
  id: 7,
  name: 'Ann Patel',
  company: null,
  email: 'ann@example.com',
  phone: null,
  address_line: null,
  city: null,
  region: null,
  postal_code: null,
  country: null,
  status: 'active',
  tags: [],
  created_at: '2025-01-02T10:00:00Z',
  created_by: null,
  updated_at: '2025-01-03T10:00:00Z',
  updated_by: null,
  version: 3,
};

interface Mount {
  path: string;
  permission?: Permission;
  params?: Record<string, string>;
  state?: Partial<SessionState>;
  org?: string;
}

/** The page behind D9's guard, signed in; `api.me` answers a D29 profile reload as a viewer. */
function mount(api: FakeApi, page: ReactNode, { path, permission, params = {}, state = AS_MEMBER, org = '1' }: Mount) {
  api.me = () => json(200, profile({ role: 'viewer', permissions: VIEWER }));
  return renderPage(path, permission ? <RequirePermission permission={permission}>{page}</RequirePermission> : page, { as: state, fake: api, params, org });
}

/** The customer endpoints Add and Edit call, on this file's Ann: `post`/`patch` answer saves (default: saved). */
function customersApi(answer: { post?: () => Response; patch?: () => Response } = {}) {
  const api = new FakeApi();
  const records = api.records;
  records.rows.set(ANN.id, { ...ANN });
  if (answer.post) records.byMethod.set('POST', answer.post);
  if (answer.patch) records.byMethod.set('PATCH', answer.patch);
  return { api, setAnn: (c: Customer) => records.rows.set(c.id, c) };
}

const addPage = (api: FakeApi, over: Partial<Mount> = {}) => mount(api, <AddCustomerPage />, { path: '/customers/new', permission: 'customers:create', ...over });
const editPage = (api: FakeApi) => mount(api, <EditCustomerPage />, { path: '/customers/7/edit', permission: 'customers:update', params: { id: '7' } });
const box = (name: string) => screen.getByRole('textbox', { name }) as HTMLInputElement;
const type = (name: string, value: string) => fireEvent.change(box(name), { target: { value } });
const save = () => fireEvent.click(screen.getByRole('button', { name: 'Save' }));
const OFFER = /^Restore your unsaved changes from .+\?$/;
/** The restore question: its code loads when first needed, so it is waited for. */
const findOffer = () => screen.findByText(OFFER);
/** No question, once anything loading has had its turn. */
async function expectNoOffer() {
  await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
  expect(screen.queryByText(OFFER)).toBeNull();
}
const drafts = () => Object.keys(sessionStorage).filter((k) => k.startsWith('draft:'));
/** A reload: the page goes (pagehide, then the tree), and the same tab opens the form again. */
function reload(): void {
  window.dispatchEvent(new Event('pagehide'));
  cleanup();
}

beforeEach(() => {
  sessionStorage.clear();
  toasts.setState([]);
});

describe('D41 drafts on Add Customer', () => {
  it('D41 a 403 permission_denied on save keeps the person on the form with the message and their typing, after the permissions reload', async () => {
    const { api } = customersApi({ post: () => denied('customers:create') });
    const t = addPage(api);
    type('Name', 'Henry Ford');
    type('Company', 'Ford Plumbing');
    save();
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('You no longer have permission to add customers. Your changes are kept as a draft.');
    await waitFor(() => expect(t.session.store.getState().permissions).toEqual(VIEWER)); // D29: the profile reloaded
    expect(window.location.pathname).toBe('/customers/new');
    expect(box('Name').value).toBe('Henry Ford');
    expect(box('Company').value).toBe('Ford Plumbing');
    expect(drafts()).toHaveLength(1);
  });

  it('D41 a permission lost while typing leaves for /forbidden (never a blank page) and keeps the draft', async () => {
    const { api } = customersApi();
    const t = addPage(api);
    type('Name', 'Henry Ford');
    t.session.store.setState((s) => ({ ...s, permissions: VIEWER }));
    await waitFor(() => expect(window.location.pathname).toBe('/forbidden'));
    expect(screen.queryByRole('dialog', { name: LEAVE_TITLE })).toBeNull();
    expect(drafts()).toHaveLength(1);
  });

  it('D41 reload → restore offer → Restore puts the typing back', async () => {
    const { api } = customersApi();
    addPage(api);
    type('Name', 'Henry Ford');
    type('Email', 'henry@example.com');
    fireEvent.change(screen.getByRole('combobox', { name: 'Status' }), { target: { value: 'lead' } });
    reload();
    addPage(api);
    expect(await findOffer()).toBeTruthy();
    expect(box('Name').value).toBe('');
    fireEvent.click(await screen.findByRole('button', { name: DRAFT_RESTORE }));
    expect(box('Name').value).toBe('Henry Ford');
    expect(box('Email').value).toBe('henry@example.com');
    expect((screen.getByRole('combobox', { name: 'Status' }) as HTMLSelectElement).value).toBe('lead');
    await expectNoOffer();
  });

  it('D41 Discard removes the draft: the next opening offers nothing', async () => {
    const { api } = customersApi();
    addPage(api);
    type('Name', 'Henry Ford');
    reload();
    addPage(api);
    fireEvent.click(await screen.findByRole('button', { name: DRAFT_DISCARD }));
    expect(drafts()).toEqual([]);
    expect(box('Name').value).toBe('');
    cleanup();
    addPage(api);
    await expectNoOffer();
  });

  it('D41 saving removes the draft', async () => {
    const { api } = customersApi();
    addPage(api);
    type('Name', 'Henry Ford');
    window.dispatchEvent(new Event('pagehide'));
    expect(drafts()).toHaveLength(1);
    save();
    await waitFor(() => expect(window.location.pathname).toBe('/customers/50'));
    expect(drafts()).toEqual([]);
  });

  it('D41 leaving by choice (Leave without saving) removes the draft', async () => {
    const { api } = customersApi();
    addPage(api);
    type('Name', 'Henry Ford');
    window.dispatchEvent(new Event('pagehide'));
    fireEvent.click(screen.getByRole('link', { name: 'Cancel' }));
    const dialog = await screen.findByRole('dialog', { name: LEAVE_TITLE });
    fireEvent.click(within(dialog).getByRole('button', { name: /^Leave/ }));
    await waitFor(() => expect(window.location.pathname).toBe('/customers'));
    expect(drafts()).toEqual([]);
  });

  it('D41 logout removes the drafts', async () => {
    const { api } = customersApi();
    const t = addPage(api);
    type('Name', 'Henry Ford');
    window.dispatchEvent(new Event('pagehide'));
    expect(drafts()).toHaveLength(1);
    await t.session.logout();
    expect(drafts()).toEqual([]);
  });

  it('D41 an expired session keeps the draft, even when the person then leaves the form', async () => {
    const { api } = customersApi();
    const t = addPage(api);
    type('Name', 'Henry Ford');
    api.validAccess.clear();
    api.validRefresh.clear(); // the next call's refresh fails: SPEC §8, the session expires
    await t.session.client.get('/v1/customers/duplicates/').catch(() => undefined);
    await waitFor(() => expect(t.session.store.getState().expired).toBe(true));
    fireEvent.click(screen.getByRole('link', { name: 'Cancel' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: LEAVE_TITLE })).getByRole('button', { name: /^Leave/ }));
    await waitFor(() => expect(window.location.pathname).toBe('/customers'));
    expect(drafts()).toHaveLength(1);
  });

  it('D41 another user, or another organization, does not see the draft', async () => {
    const { api } = customersApi();
    addPage(api);
    type('Name', 'Henry Ford');
    reload();
    addPage(api, { state: { ...AS_MEMBER, user: { ...USER, email: 'mo@example.com' } } });
    await expectNoOffer();
    cleanup();
    addPage(api, { org: '2' });
    await expectNoOffer();
    cleanup();
    addPage(api);
    expect(await findOffer()).toBeTruthy(); // still there for its own user and organization
  });
});

describe('D41 drafts on Edit Customer', () => {
  it('D41 a 403 permission_denied on save keeps the person on the form with the message', async () => {
    const { api } = customersApi({ patch: () => denied('customers:update') });
    const t = editPage(api);
    await screen.findByDisplayValue('Ann Patel');
    type('Name', 'Ann Patel-Shah');
    save();
    expect((await screen.findByRole('alert')).textContent).toBe('You no longer have permission to edit customers. Your changes are kept as a draft.');
    await waitFor(() => expect(t.session.store.getState().permissions).toEqual(VIEWER));
    expect(window.location.pathname).toBe('/customers/7/edit');
    expect(box('Name').value).toBe('Ann Patel-Shah');
  });

  it('D41 a draft restored over a newer record still meets D31: the save is a conflict showing who changed what', async () => {
    const { api, setAnn } = customersApi();
    editPage(api);
    await screen.findByDisplayValue('Ann Patel');
    type('Company', 'Patel Bakery');
    reload();
    setAnn({ ...ANN, email: 'ann@patel.example', version: 4, updated_by: { id: 2, name: 'Grace' } }); // someone saved meanwhile
    editPage(api);
    await screen.findByDisplayValue('ann@patel.example');
    fireEvent.click(await screen.findByRole('button', { name: DRAFT_RESTORE }));
    expect(box('Company').value).toBe('Patel Bakery');
    save();
    expect(await screen.findByRole('heading', { name: CONFLICT_TITLE })).toBeTruthy();
    const patch = api.calls.filter((c) => c.method === 'PATCH').at(-1)!;
    expect(patch.body).toEqual({ company: 'Patel Bakery', version: 3 }); // the version the draft was typed against
  });
});

describe('D41 drafts of a note', () => {
  function notePage(record?: (r: FakeRecord) => void, state: Partial<SessionState> = AS_MEMBER) {
    const api = new FakeApi();
    const r = api.record;
    record?.(r);
    const t = mount(api, <CustomerDashboardPage />, { path: '/customers/101', params: { id: '101' }, state });
    return { t, r };
  }
  const note = () => screen.findByRole('textbox', { name: 'Add a note' }) as Promise<HTMLTextAreaElement>;

  it('D41 a 403 on Add note keeps the box, its text and says so, after the permissions reload', async () => {
    const { t } = notePage((r) => r.failures.set('POST /v1/customers/101/notes/', [{ status: 403, body: { detail: 'no', code: 'permission_denied' } }]));
    fireEvent.change(await note(), { target: { value: 'Gate code 4411' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add note' }));
    expect((await screen.findByText(/^You no longer have permission/)).textContent).toBe('You no longer have permission to add notes. Your changes are kept as a draft.');
    await waitFor(() => expect(t.session.store.getState().permissions).toEqual(VIEWER));
    expect((await note()).value).toBe('Gate code 4411');
  });

  it('D41 the box taken away with customers:update keeps the note; when it comes back it is offered', async () => {
    const { t } = notePage();
    fireEvent.change(await note(), { target: { value: 'Gate code 4411' } });
    t.session.store.setState((s) => ({ ...s, permissions: VIEWER }));
    await waitFor(() => expect(screen.queryByRole('textbox', { name: 'Add a note' })).toBeNull());
    t.session.store.setState((s) => ({ ...s, permissions: MEMBER }));
    expect((await note()).value).toBe('');
    fireEvent.click(await screen.findByRole('button', { name: DRAFT_RESTORE }));
    expect((await note()).value).toBe('Gate code 4411');
  });

  it('D41 adding the note removes its draft; Discard removes it too', async () => {
    notePage();
    fireEvent.change(await note(), { target: { value: 'Gate code 4411' } });
    reload();
    notePage();
    fireEvent.click(await screen.findByRole('button', { name: DRAFT_DISCARD }));
    expect(drafts()).toEqual([]);
    fireEvent.change(await note(), { target: { value: 'Dog in the yard' } });
    window.dispatchEvent(new Event('pagehide'));
    expect(drafts()).toHaveLength(1);
    fireEvent.click(screen.getByRole('button', { name: 'Add note' }));
    await waitFor(() => expect((screen.getByRole('textbox', { name: 'Add a note' }) as HTMLTextAreaElement).value).toBe(''));
    expect(drafts()).toEqual([]);
  });
});
