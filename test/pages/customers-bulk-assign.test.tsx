// D59 D58: 'Assign to…' on the selected customers: a member or Unassigned, asked with the count, sent as
// the assign action with assigned_to beside the selection (as set_status sends its status); not offered
// to a person who sees only their own customers.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import '../ui/no-console';
import CustomersPage from '../../src/pages/customers/CustomersPage';
import { navigate } from '../../src/router/location';
import type { SessionState } from '../../src/session/types';
import { toasts } from '../../src/ui/toast';
import { FakeApi, json, type Call } from '../helpers/fake-api';
import { renderPage } from '../helpers/render';
import { WITH_ORG } from '../helpers/session';

function showList(as: Partial<SessionState> = WITH_ORG, answer: (call: Call) => Response = () => json(200, { bulk_id: 9, action: 'assign', changed: 2, unchanged: 0 })) {
  const api = new FakeApi();
  void api.customers;
  api.routes.set('/v1/views/', () => json(200, { results: [] }));
  const sent: Call[] = [];
  api.routes.set('/v1/customers/bulk/', (call) => (sent.push(call), answer(call)));
  renderPage('/customers', <CustomersPage />, { fake: api, as });
  return { api, sent };
}
const box = (name: string) => screen.findByRole('checkbox', { name });
const actions = () => screen.findByRole('group', { name: 'Actions on the selected customers' });
async function openAssign() {
  fireEvent.click(await box('Select Ava Nguyen'));
  fireEvent.click(await box('Select Ava Okafor'));
  fireEvent.click(within(await actions()).getByRole('button', { name: 'Assign to…' }));
  return screen.findByRole('dialog', { name: 'Assign customers' });
}

beforeEach(() => {
  navigate('/', { replace: true });
  toasts.setState([]);
});

describe('D59 bulk Assign to…', () => {
  it('D59 offers the members and Unassigned, asks with the count and the name, and sends assign with the member’s id', async () => {
    const { sent } = showList();
    const dialog = await openAssign();
    const select = within(dialog).getByRole('combobox', { name: 'Assign to' }) as HTMLSelectElement;
    await waitFor(() => expect([...select.options].map((o) => o.textContent)).toEqual(['Choose a member', 'Unassigned', 'Olive', 'Tess Tech']));
    fireEvent.change(select, { target: { value: '4' } });
    expect(within(dialog).getByText('Assign 2 customers to Tess Tech?')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Assign 2 customers' }));
    await screen.findByText('2 customers changed');
    expect(sent).toHaveLength(1);
    expect(sent[0]!.body).toMatchObject({ action: 'assign', assigned_to: 4 });
    expect([...(sent[0]!.body as { ids: number[] }).ids].sort()).toEqual([101, 102]); // Ava Okafor and Ava Nguyen
  });

  it('D59 Unassigned sends assigned_to: null', async () => {
    const { sent } = showList();
    const dialog = await openAssign();
    fireEvent.change(within(dialog).getByRole('combobox', { name: 'Assign to' }), { target: { value: 'none' } });
    expect(within(dialog).getByText('Unassign 2 customers?')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Unassign 2 customers' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]!.body).toMatchObject({ action: 'assign', assigned_to: null });
  });

  it('D59 nothing chosen is said on the field and nothing is sent; a 400 naming assigned_to lands on it', async () => {
    const { sent } = showList(WITH_ORG, () => json(400, { detail: 'assigned_to: is not a member of this organization', code: 'invalid', field: 'assigned_to' }));
    const dialog = await openAssign();
    const select = within(dialog).getByRole('combobox', { name: 'Assign to' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Assign 2 customers' }));
    await waitFor(() => expect(select.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(select.getAttribute('aria-describedby')!)!.textContent).toBe('Choose a member, or Unassigned');
    expect(sent).toHaveLength(0);
    fireEvent.change(select, { target: { value: '1' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Assign 2 customers' }));
    await waitFor(() => expect(select.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(select.getAttribute('aria-describedby')!)!.textContent).toContain('is not a member of this organization');
  });

  it('D59 a person who sees only their own customers is not offered Assign to…', async () => {
    showList({ ...WITH_ORG, role: 'member', customersScope: 'assigned' });
    fireEvent.click(await box('Select Ava Nguyen'));
    const group = await actions();
    expect(within(group).getByRole('button', { name: 'Add tag' })).toBeTruthy();
    expect(within(group).queryByRole('button', { name: 'Assign to…' })).toBeNull();
  });
});
