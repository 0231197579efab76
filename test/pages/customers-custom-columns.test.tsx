// D56 D26: the customers list by custom field, by role and name against the fake API: 'Columns' adds a
// field as a column, its header sorts by it, 'Filter by a custom field' adds a condition as a chip, and the
// URL carries all of it (a reload or a link shows the same list); a link naming an archived field still
// shows the list without it.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import '../ui/no-console';
import CustomersPage from '../../src/pages/customers/CustomersPage';
import { DEFAULT_LIST, listHref, readListParams } from '../../src/pages/customers/list-params';
import { navigate } from '../../src/router/location';
import { FakeApi } from '../helpers/fake-api';
import { demoFields, serveFieldDefs } from '../helpers/fake-field-defs';
import { renderPage } from '../helpers/render';
import { WITH_ORG } from '../helpers/session';

function showList(path = '/customers') {
  const api = new FakeApi();
  const customers = api.customers;
  customers.rows[0]!.custom = { gate_code: '4512', units: 3, plan: 'o2' };
  serveFieldDefs(api, demoFields());
  renderPage(path, <CustomersPage />, { as: WITH_ORG, fake: api });
  return { api, customers };
}

const url = () => window.location.pathname + window.location.search;
const params = () => new URLSearchParams(window.location.search);
const lastQuery = (c: { listQueries: string[] }) => new URLSearchParams(c.listQueries.at(-1));
const headers = () =>
  within(screen.getByRole('table'))
    .getAllByRole('columnheader')
    .map((h) => h.textContent);

beforeEach(() => navigate('/', { replace: true }));

describe('D56 the customers list by custom field', () => {
  it('D56: Columns adds a custom field as a column; the URL carries it and a link shows it again', async () => {
    showList();
    await screen.findByRole('table');
    fireEvent.click(await screen.findByText('Columns'));
    const group = screen.getByRole('group', { name: 'Custom fields shown in the list' });
    // Active fields only: the archived one is not offered.
    expect(within(group).queryByRole('checkbox', { name: 'Old field' })).toBeNull();
    fireEvent.click(within(group).getByRole('checkbox', { name: 'Gate code' }));
    await waitFor(() => expect(params().get('columns')).toBe('gate_code'));
    fireEvent.click(within(group).getByRole('checkbox', { name: 'Plan' }));
    await waitFor(() => expect(params().get('columns')).toBe('gate_code,plan'));
    await waitFor(() =>
      expect(headers()).toEqual([
        'Select every customer on this page' /* the selection's checkbox (D58), its words out of sight beside the table */,
        'Name',
        'Email',
        'Phone',
        'Service city',
        'Status',
        'Tags',
        'Assigned to', // D59
        'Created',
        'Updated',
        'Gate code',
        'Plan',
      ]),
    );
    // The value in words (a choice by its option's label), a dash where none.
    const rows = within(screen.getByRole('table')).getAllByRole('row');
    const withValues = rows.find((r) => r.textContent?.includes('4512'))!;
    expect(within(withValues).getByText('Premium')).toBeTruthy();
    expect(readListParams(window.location.search).columns).toEqual(['gate_code', 'plan']);
  });

  it('D15 D56: Escape closes the Columns and filter menus and puts focus on their button; adding a filter closes its menu', async () => {
    showList();
    await screen.findByRole('table');
    const columns = screen.getByText('Columns');
    fireEvent.click(columns);
    const menu = columns.closest('details')!;
    expect(menu.open).toBe(true);
    fireEvent.keyDown(within(menu).getAllByRole('checkbox')[0]!, { key: 'Escape' });
    expect(menu.open).toBe(false);
    expect(document.activeElement).toBe(columns);
    const form = screen.getByRole('form', { name: 'Filter by a custom field' });
    const filter = form.closest('details')!;
    filter.open = true;
    fireEvent.change(within(form).getByRole('combobox', { name: 'Field' }), { target: { value: 'gate_code' } });
    fireEvent.change(within(form).getByRole('combobox', { name: 'Condition' }), { target: { value: 'contains' } });
    fireEvent.change(within(form).getByRole('textbox', { name: 'Value' }), { target: { value: '451' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Add filter' }));
    await waitFor(() => expect(params().get('cf.gate_code.contains')).toBe('451'));
    expect(filter.open).toBe(false);
  });

  it("D56: a custom column's header sorts by the field, then the other way; the API is asked sort=cf.<key>", async () => {
    const { customers } = showList('/customers?columns=units');
    const header = await screen.findByRole('columnheader', { name: 'Units' });
    expect(header.getAttribute('aria-sort')).toBe('none');
    fireEvent.click(within(header).getByRole('button', { name: 'Units' }));
    await waitFor(() => expect(params().get('sort')).toBe('cf.units'));
    await waitFor(() => expect(lastQuery(customers).get('sort')).toBe('cf.units'));
    expect(screen.getByRole('columnheader', { name: 'Units' }).getAttribute('aria-sort')).toBe('ascending');
    fireEvent.click(within(screen.getByRole('columnheader', { name: 'Units' })).getByRole('button', { name: 'Units' }));
    await waitFor(() => expect(params().get('sort')).toBe('-cf.units'));
    // At phone width the Sort by menu offers it too.
    const menu = screen.getByRole('combobox', { name: 'Sort by' }) as HTMLSelectElement;
    expect(menu.value).toBe('-cf.units');
  });

  it('D56: Filter by a custom field adds a condition (cf.<key>.contains=…) as a chip that removes it; the API is asked it', async () => {
    const { customers } = showList();
    await screen.findByRole('table');
    const form = screen.getByRole('form', { name: 'Filter by a custom field' });
    fireEvent.change(within(form).getByRole('combobox', { name: 'Field' }), { target: { value: 'gate_code' } });
    fireEvent.change(within(form).getByRole('combobox', { name: 'Condition' }), { target: { value: 'contains' } });
    fireEvent.change(within(form).getByRole('textbox', { name: 'Value' }), { target: { value: '451' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Add filter' }));
    await waitFor(() => expect(params().get('cf.gate_code.contains')).toBe('451'));
    await waitFor(() => expect(lastQuery(customers).get('cf.gate_code.contains')).toBe('451'));
    const remove = screen.getByRole('button', { name: 'Remove the filter Gate code contains 451' });
    fireEvent.click(remove);
    await waitFor(() => expect(params().has('cf.gate_code.contains')).toBe(false));
    // The list without it again (from the cache: it was asked before), and no chip.
    expect(screen.queryByRole('list', { name: 'Field filters' })).toBeNull();
  });

  it('D56: a choice is picked by its label and sent as its option id; a range is two conditions; is empty needs no value', async () => {
    const { customers } = showList();
    await screen.findByRole('table');
    const form = screen.getByRole('form', { name: 'Filter by a custom field' });
    const field = within(form).getByRole('combobox', { name: 'Field' });
    fireEvent.change(field, { target: { value: 'plan' } });
    fireEvent.change(within(form).getByRole('combobox', { name: 'Value' }), { target: { value: 'o2' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Add filter' }));
    await waitFor(() => expect(params().get('cf.plan')).toBe('o2'));
    expect(screen.getByRole('button', { name: 'Remove the filter Plan is Premium' })).toBeTruthy();
    fireEvent.change(field, { target: { value: 'units' } });
    fireEvent.change(within(form).getByRole('combobox', { name: 'Condition' }), { target: { value: 'from' } });
    fireEvent.change(within(form).getByRole('spinbutton', { name: 'Value' }), { target: { value: '2' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Add filter' }));
    await waitFor(() => expect(params().get('cf.units.from')).toBe('2'));
    fireEvent.change(within(form).getByRole('combobox', { name: 'Condition' }), { target: { value: 'empty' } });
    expect(within(form).queryByLabelText('Value')).toBeNull();
    fireEvent.click(within(form).getByRole('button', { name: 'Add filter' }));
    await waitFor(() => expect(params().get('cf.units.empty')).toBe('true'));
    await waitFor(() => expect(lastQuery(customers).get('cf.plan')).toBe('o2'));
    expect(lastQuery(customers).get('page')).toBe('1');
  });

  it('D56: a contains of fewer than 3 characters is refused in words; what was typed stays', async () => {
    showList();
    await screen.findByRole('table');
    const form = screen.getByRole('form', { name: 'Filter by a custom field' });
    fireEvent.change(within(form).getByRole('combobox', { name: 'Condition' }), { target: { value: 'contains' } });
    const value = within(form).getByRole('textbox', { name: 'Value' }) as HTMLInputElement;
    fireEvent.change(value, { target: { value: '45' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Add filter' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Enter at least 3 characters.');
    expect(value.value).toBe('45');
    expect(value.getAttribute('aria-invalid')).toBe('true');
    expect(params().has('cf.gate_code.contains')).toBe(false);
  });

  it('D56: a link naming an archived or unknown field shows the list, asking the API without that part', async () => {
    const { customers } = showList('/customers?cf.old=x&cf.nope=1&cf.units=3&sort=-cf.old&columns=old,units');
    await screen.findByRole('table');
    const asked = lastQuery(customers);
    expect(asked.get('cf.units')).toBe('3');
    expect(asked.has('cf.old')).toBe(false);
    expect(asked.has('cf.nope')).toBe(false);
    expect(asked.get('sort')).toBe('name');
    expect(headers().at(-1)).toBe('Units');
  });

  it('D56 D26: the URL round-trips conditions, a custom sort and columns; malformed ones fall back to nothing', () => {
    const state = { ...DEFAULT_LIST, sort: '-cf.units' as const, columns: ['units', 'plan'], custom: [{ key: 'gate_code', op: 'contains' as const, value: '45 12' }] };
    const href = listHref(state);
    expect(href).toBe('/customers?sort=-cf.units&cf.gate_code.contains=45+12&columns=units%2Cplan');
    expect(readListParams(href.slice('/customers'.length))).toEqual(state);
    const bad = readListParams('?cf.Bad-Key=1&cf.units.near=2&cf.units=&sort=cf.&columns=Units,ok');
    expect(bad.custom).toEqual([]);
    expect(bad.sort).toBe('name');
    expect(bad.columns).toEqual(['ok']);
    expect(url()).toBe('/');
  });
});
