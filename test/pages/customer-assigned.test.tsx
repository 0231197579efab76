// D59 the customer form's 'Assigned to': None or a member, kept in the draft, a server refusal on it, and
// fixed for a person whose role sees only their own customers.
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import '../ui/no-console';
import AddCustomerPage from '../../src/pages/customers/AddCustomerPage';
import EditCustomerPage from '../../src/pages/customers/EditCustomerPage';
import { ASSIGNED_YOU } from '../../src/pages/customers/form/AssignedField';
import { MSG_NOT_YOURS } from '../../src/pages/customers/CustomerForm';
import { createQueryCache } from '../../src/query/cache';
import { navigate } from '../../src/router/location';
import { matchPath } from '../../src/router/match';
import { toasts } from '../../src/ui/toast';
import { FakeApi, json } from '../helpers/fake-api';
import { ANN, GRACE, OLIVE } from '../helpers/fake-records';
import { renderPage } from '../helpers/render';
import { WITH_ORG } from '../helpers/session';

const SCOPED = { ...WITH_ORG, role: 'member', customersScope: 'assigned' as const };

function show(path: string, as = WITH_ORG) {
  const api = new FakeApi();
  const fake = api.records;
  const page = path.endsWith('/new') ? <AddCustomerPage /> : <EditCustomerPage />;
  const r = renderPage(path, page, { fake: api, as, params: matchPath('/customers/:id/edit', path) ?? {}, cache: createQueryCache({ retries: 0 }) });
  return { ...r, fake };
}
const select = () => screen.findByRole('combobox', { name: 'Assigned to' }) as Promise<HTMLSelectElement>;
const save = () => act(async () => void fireEvent.click(screen.getByRole('button', { name: /^(Save|Saving…)$/ })));
const body = (api: FakeApi, method: string) =>
  api.calls.filter((c) => c.method === method && c.path.startsWith('/api/v1/customers/')).at(-1)?.body as Record<string, unknown>;

beforeEach(() => {
  navigate('/', { replace: true });
  toasts.setState([]);
});

describe('D59 the customer form’s Assigned to', () => {
  it('D59 Add offers None and the members the server names (asked once, through the cache); the one chosen is sent', async () => {
    const { api } = show('/customers/new');
    const s = await select();
    await waitFor(() => expect([...s.options].map((o) => o.textContent)).toEqual(['None', 'Olive', 'Grace']));
    expect(s.value).toBe('');
    expect(api.calls.filter((c) => c.path === '/api/v1/customers/assignees/')).toHaveLength(1);
    fireEvent.change(screen.getByRole('textbox', { name: 'Name' }), { target: { value: 'Cleo' } });
    fireEvent.change(s, { target: { value: String(GRACE.id) } });
    await save();
    await waitFor(() => expect(body(api, 'POST')?.assigned_to).toBe(GRACE.id));
  });

  it('D59 Add with None leaves the assignee to the server (nothing sent)', async () => {
    const { api } = show('/customers/new');
    await select();
    fireEvent.change(screen.getByRole('textbox', { name: 'Name' }), { target: { value: 'Cleo' } });
    await save();
    await waitFor(() => expect(body(api, 'POST')).toBeTruthy());
    expect('assigned_to' in body(api, 'POST')).toBe(false);
  });

  it('D59 Edit shows the saved assignee and sends only a change of it; None unassigns', async () => {
    const { api, fake } = show(`/customers/${ANN.id}/edit`);
    fake.rows.set(ANN.id, { ...ANN, assigned_to: GRACE });
    const s = await select();
    await waitFor(() => expect(s.value).toBe(String(GRACE.id)));
    fireEvent.change(s, { target: { value: '' } });
    await save();
    await waitFor(() => expect(body(api, 'PATCH')).toEqual({ assigned_to: null, version: ANN.version }));
  });

  it('D59 a server refusal naming assigned_to is said on the field, tied to it', async () => {
    const { api, fake } = show('/customers/new');
    const s = await select();
    fireEvent.change(screen.getByRole('textbox', { name: 'Name' }), { target: { value: 'Cleo' } });
    fireEvent.change(s, { target: { value: '1' } });
    fake.next.push(json(400, { detail: 'assigned_to: is not a member of this organization', code: 'invalid', field: 'assigned_to' }));
    await save();
    await waitFor(() => expect(s.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(s.getAttribute('aria-describedby')!)!.textContent).toBe('Assigned to is not a member of this organization');
    expect(api.calls.some((c) => c.method === 'POST')).toBe(true);
  });

  it('D59 D41 the assignee chosen is kept in the draft like every field', async () => {
    show('/customers/new');
    const s = await select();
    await waitFor(() => expect(s.options).toHaveLength(3));
    fireEvent.change(s, { target: { value: String(GRACE.id) } });
    await waitFor(() => expect(JSON.stringify(drafts())).toContain(`\\"assigned_to\\":\\"${GRACE.id}\\"`));
  });

  it('D59 a person who sees only their own customers reads the assignee as fixed text, no select, nothing asked', async () => {
    const { api } = show('/customers/new', SCOPED);
    expect(await screen.findByText(ASSIGNED_YOU)).toBeTruthy();
    expect(screen.queryByRole('combobox', { name: 'Assigned to' })).toBeNull();
    expect(api.calls.some((c) => c.path === '/api/v1/customers/assignees/')).toBe(false);
    fireEvent.change(screen.getByRole('textbox', { name: 'Name' }), { target: { value: 'Cleo' } });
    await save();
    await waitFor(() => expect(body(api, 'POST')).toBeTruthy());
    expect('assigned_to' in body(api, 'POST')).toBe(false); // the server assigns it to them
  });

  it('D59 an edit saved after the customer was assigned away (404) says so to a scoped person, keeping what was typed', async () => {
    const { fake } = show(`/customers/${ANN.id}/edit`, SCOPED);
    const name = (await screen.findByRole('textbox', { name: 'Name' })) as HTMLInputElement;
    fireEvent.change(name, { target: { value: 'Ann P.' } });
    fake.rows.delete(ANN.id);
    await save();
    expect(await screen.findByText(MSG_NOT_YOURS)).toBeTruthy();
    expect(name.value).toBe('Ann P.');
  });

  it('D59 D31 a conflict lists a change of assignee by name, not by id, and only when it changed', async () => {
    const { fake } = show(`/customers/${ANN.id}/edit`);
    const s = await select();
    await waitFor(() => expect(s.options).toHaveLength(3));
    fireEvent.change(s, { target: { value: String(OLIVE.id) } });
    fake.changeBehind(ANN.id, { assigned_to: GRACE });
    await save();
    const table = await screen.findByRole('table', { name: /^Fields .* changed$/ });
    const row = within(table).getByRole('rowheader', { name: 'Assigned to' }).closest('tr')!;
    expect([...row.querySelectorAll('td')].map((td) => td.textContent)).toEqual(['Olive', 'Grace']);
    expect(within(table).getAllByRole('row')).toHaveLength(2); // the header and the assignee alone
  });

  it('D59 a refusal naming assigned_to is said beside the fixed text for a scoped person', async () => {
    const { fake } = show('/customers/new', SCOPED);
    await screen.findByText(ASSIGNED_YOU);
    fireEvent.change(screen.getByRole('textbox', { name: 'Name' }), { target: { value: 'Cleo' } });
    fake.next.push(json(400, { detail: 'assigned_to: can only be you: your role sees only the customers assigned to you', code: 'invalid', field: 'assigned_to' }));
    await save();
    expect((await screen.findByRole('alert')).textContent).toBe('Assigned to can only be you: your role sees only the customers assigned to you');
  });
});

/** D41: the drafts this tab keeps (sessionStorage). */
const drafts = () =>
  Object.fromEntries(
    Object.keys(sessionStorage)
      .filter((k) => k.startsWith('draft:'))
      .map((k) => [k, sessionStorage.getItem(k)]),
  );
