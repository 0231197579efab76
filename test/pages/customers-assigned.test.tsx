// D59 the customers list: an 'Assigned to' column, and an 'Assigned to' filter (Anyone, Me, Unassigned,
// each member; a menu in the tabs' row, so the toolbar keeps its one row) carried in the URL as
// assigned= (D26) and sent to the API; not offered to a person who sees only their own customers.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import '../ui/no-console';
import CustomersPage from '../../src/pages/customers/CustomersPage';
import { DEFAULT_LIST, exportParams, listHref, readListParams } from '../../src/pages/customers/list-params';
import { navigate } from '../../src/router/location';
import type { SessionState } from '../../src/session/types';
import { toasts } from '../../src/ui/toast';
import { FakeApi, type FakeCustomers } from '../helpers/fake-api';
import { renderPage } from '../helpers/render';
import { WITH_ORG } from '../helpers/session';

const TESS = { id: 4, name: 'Tess Tech' };

function showList(path = '/customers', state: Partial<SessionState> = WITH_ORG) {
  const api = new FakeApi();
  const customers: FakeCustomers = api.customers;
  // Ava Patel is Tess's, Ava Okafor Olive's, the rest nobody's.
  customers.rows.find((r) => r.name === 'Ava Patel')!.assigned_to = TESS;
  customers.rows.find((r) => r.name === 'Ava Okafor')!.assigned_to = { id: 1, name: 'Olive' };
  renderPage(path, <CustomersPage />, { as: state, fake: api });
  return { api, customers };
}
/** The menu in the tabs' row, opened as a person opens it (its summary), and its select. */
async function filter(): Promise<HTMLSelectElement> {
  const summary = await screen.findByText(/^Assigned to/, { selector: 'summary' });
  if (!summary.closest('details')!.open) fireEvent.click(summary);
  return screen.getByRole('combobox', { name: 'Assigned to' }) as HTMLSelectElement;
}
const url = () => window.location.pathname + window.location.search;
const rowOf = (name: string) => screen.getByRole('link', { name }).closest('tr')!;

beforeEach(() => {
  navigate('/', { replace: true });
  toasts.setState([]);
});

describe('D59 the list’s Assigned to', () => {
  it('D59 a column says who each customer is assigned to, or —', async () => {
    showList();
    const table = await screen.findByRole('table');
    expect(within(table).getByRole('columnheader', { name: 'Assigned to' })).toBeTruthy();
    await waitFor(() => expect(rowOf('Ava Patel').querySelector('td[data-label="Assigned to"]')!.textContent).toBe('Tess Tech'));
    expect(rowOf('Ben Patel').querySelector('td[data-label="Assigned to"]')!.textContent).toBe('—');
  });

  it('D59 the filter offers Anyone, Me, Unassigned and each member; a choice lands in the URL and is sent to the API', async () => {
    const { customers } = showList();
    const s = await filter();
    await waitFor(() => expect([...s.options].map((o) => o.textContent)).toEqual(['Anyone', 'Me', 'Unassigned', 'Olive', 'Tess Tech']));
    expect(s.value).toBe('');
    fireEvent.change(s, { target: { value: String(TESS.id) } });
    await waitFor(() => expect(url()).toBe('/customers?assigned=4'));
    expect(screen.getByText('Assigned to: Tess Tech', { selector: 'summary' })).toBeTruthy(); // what is in force, said on the menu
    await waitFor(() => expect(customers.listQueries.at(-1)).toContain('assigned=4'));
    await waitFor(() => expect(screen.getAllByRole('row')).toHaveLength(2)); // the header and Ava Patel
    fireEvent.change(s, { target: { value: 'me' } });
    await waitFor(() => expect(url()).toBe('/customers?assigned=me'));
    await waitFor(() => expect(screen.getByRole('link', { name: 'Ava Okafor' })).toBeTruthy());
  });

  it('D59 D26 a link with assigned=none shows the unassigned customers with the filter set', async () => {
    const { customers } = showList('/customers?assigned=none');
    const s = await filter();
    await waitFor(() => expect(s.value).toBe('none'));
    expect(screen.getByText('Assigned to: Unassigned', { selector: 'summary' })).toBeTruthy();
    expect(customers.listQueries[0]).toContain('assigned=none');
    await screen.findByRole('table');
    expect(screen.queryByRole('link', { name: 'Ava Patel' })).toBeNull();
  });

  it('D59 a malformed assigned= is ignored (the whole list), never sent', () => {
    expect(readListParams('?assigned=bob').assigned).toBe('');
    expect(readListParams('?assigned=0').assigned).toBe('');
    expect(readListParams('?assigned=12').assigned).toBe('12');
    expect(listHref({ ...DEFAULT_LIST, assigned: 'me' })).toBe('/customers?assigned=me');
    expect(listHref(DEFAULT_LIST)).toBe('/customers');
  });

  it('D59 D27 D58 the export and a bulk action on all matching carry the filter', () => {
    expect(exportParams({ ...DEFAULT_LIST, assigned: 'none' }).assigned).toBe('none');
    expect(exportParams(DEFAULT_LIST).assigned).toBeUndefined();
  });

  it('D59 a person who sees only their own customers is not offered the filter, nor asks for the members', async () => {
    const { api } = showList('/customers', { ...WITH_ORG, role: 'member', customersScope: 'assigned' });
    await screen.findByRole('table');
    await screen.findByRole('combobox', { name: 'Type' });
    await new Promise((r) => setTimeout(r, 20));
    expect(screen.queryByRole('combobox', { name: 'Assigned to' })).toBeNull();
    expect(screen.queryByText(/^Assigned to/, { selector: 'summary' })).toBeNull();
    expect(api.calls.some((c) => c.path === '/api/v1/customers/assignees/')).toBe(false);
  });
});
