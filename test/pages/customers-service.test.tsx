// D48 on the customers list: the type filter and 'Do not service only' (in the URL and the request, D26),
// Status and City sorting, the city the server sends (D46) and the do-not-service marker in words.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import '../ui/no-console';
import { exportPath } from '../../src/api/customers';
import CustomersPage from '../../src/pages/customers/CustomersPage';
import { CITY_HINT } from '../../src/pages/customers/CustomerTable';
import { exportParams, listHref, DEFAULT_LIST, readListParams } from '../../src/pages/customers/list-params';
import { navigate } from '../../src/router/location';
import { demoCustomers, FakeApi, type FakeCustomer } from '../helpers/fake-api';
import { renderPage } from '../helpers/render';

/** The demo customers, three of them commercial, two flagged, one in Tigard and one without a city. */
function rows(): FakeCustomer[] {
  return demoCustomers().map((c, i) => ({
    ...c,
    type: i % 10 === 0 ? 'commercial' : 'residential',
    do_not_service: i === 1 || i === 4,
    city: i === 2 ? 'Tigard' : i === 3 ? null : c.city,
  }));
}
const ALL = rows();

function showList(path = '/customers') {
  const api = new FakeApi();
  api.customers.rows = rows();
  renderPage(path, <CustomersPage />, { fake: api });
  return { api, customers: api.customers };
}
const table = () => screen.findByRole('table');
const names = () =>
  within(screen.getByRole('table'))
    .getAllByRole('row')
    .slice(1)
    .map((r) => r.querySelector('td:not(.col-pick)')!.querySelector('a')!.textContent); // D58: after the row's checkbox
const url = () => window.location.pathname + window.location.search;
const header = (name: string) => screen.getByRole('columnheader', { name });
const typeFilter = () => screen.getByRole('combobox', { name: 'Type' }) as HTMLSelectElement;
const flagFilter = () => screen.getByRole('checkbox', { name: 'Do not service only' }) as HTMLInputElement;
const row = (name: string) => screen.getByRole('link', { name }).closest('tr')!;

beforeEach(() => navigate('/', { replace: true }));

describe('D48 the customers list: type and do-not-service filters, status and city sorts, the marker', () => {
  it('D48 the type filter is in the URL and the request, from page 1; All types takes it off', async () => {
    const { customers } = showList('/customers?page=2');
    await table();
    expect([...typeFilter().options].map((o) => o.textContent)).toEqual(['All types', 'Residential', 'Commercial']);
    fireEvent.change(typeFilter(), { target: { value: 'commercial' } });
    expect(url()).toBe('/customers?type=commercial');
    await waitFor(() => expect(names()).toEqual(ALL.filter((c) => c.type === 'commercial').map((c) => c.name)));
    expect(customers.listQueries.at(-1)).toBe('?type=commercial&sort=name&page=1&page_size=25');
    fireEvent.change(typeFilter(), { target: { value: '' } });
    expect(url()).toBe('/customers');
  });

  it("D48 'Do not service only' lists the flagged customers (do_not_service=true); a link with it shows it checked; Clear filters clears it", async () => {
    const { customers } = showList('/customers?do_not_service=true&type=residential');
    await table();
    expect(flagFilter().checked).toBe(true);
    expect(typeFilter().value).toBe('residential');
    await waitFor(() => expect(names()).toEqual(ALL.filter((c) => c.do_not_service && c.type === 'residential').map((c) => c.name)));
    expect(customers.listQueries.at(-1)).toBe('?type=residential&do_not_service=true&sort=name&page=1&page_size=25');
    fireEvent.click(flagFilter());
    expect(url()).toBe('/customers?type=residential');
    fireEvent.click(flagFilter());
    fireEvent.change(typeFilter(), { target: { value: 'commercial' } });
    expect(await screen.findByText('No customers match.')).toBeTruthy(); // no commercial customer is flagged
    fireEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    expect(url()).toBe('/customers');
    expect([flagFilter().checked, typeFilter().value]).toEqual([false, '']);
  });

  it('D48 Status and City sort from their headers (each click the other way), in the URL and the request', async () => {
    const { customers } = showList('/customers?page_size=50');
    await table();
    fireEvent.click(within(header('Service city')).getByRole('button'));
    expect(url()).toBe('/customers?sort=city&page_size=50');
    expect(header('Service city').getAttribute('aria-sort')).toBe('ascending');
    await waitFor(() => expect(customers.listQueries.at(-1)).toBe('?sort=city&page=1&page_size=50'));
    // Portland, then Tigard, then the customer without a city; descending the other way round.
    await waitFor(() => expect(names().slice(-2)).toEqual([ALL[2]!.name, ALL[3]!.name]));
    fireEvent.click(within(header('Service city')).getByRole('button'));
    expect(url()).toBe('/customers?sort=-city&page_size=50');
    await waitFor(() => expect(names().slice(0, 2)).toEqual([ALL[3]!.name, ALL[2]!.name]));
    fireEvent.click(within(header('Status')).getByRole('button'));
    expect(url()).toBe('/customers?sort=status&page_size=50');
    expect(header('Status').getAttribute('aria-sort')).toBe('ascending');
    expect(header('Service city').getAttribute('aria-sort')).toBe('none');
    await waitFor(() => expect(customers.listQueries.at(-1)).toBe('?sort=status&page=1&page_size=50'));
  });

  it("issue 34 item 10 the city column says which city it shows: 'Service city', explained on hover and to screen readers", async () => {
    showList('/customers?page_size=50');
    await table();
    const button = within(header('Service city')).getByRole('button');
    expect(button.getAttribute('title')).toBe(CITY_HINT);
    expect(CITY_HINT).toMatch(/primary service location.*billing/);
    expect(within(row(ALL[2]!.name)).getAllByRole('cell')[4]!.getAttribute('data-label')).toBe('Service city');
    expect(screen.getByRole('option', { name: 'Service city, A–Z' })).toBeTruthy(); // the phone-width 'Sort by'
  });

  it('D46 the Service city column shows the city the server sends, a dash without one', async () => {
    showList('/customers?page_size=50');
    await table();
    const city = (name: string) => within(row(name)).getAllByRole('cell')[4]!.textContent;
    expect(city(ALL[2]!.name)).toBe('Tigard');
    expect(city(ALL[3]!.name)).toBe('—');
    expect(city(ALL[0]!.name)).toBe('Portland');
  });

  it('D48 a customer not to be served is marked in words beside the name, the others not', async () => {
    showList('/customers?page_size=50');
    await table();
    for (const c of ALL) {
      const marker = within(row(c.name)).queryByText('Do not service');
      expect(Boolean(marker), c.name).toBe(c.do_not_service);
    }
  });

  it('D48 the URL keeps type and do_not_service (defaults left out); the export carries them', () => {
    const state = readListParams('?type=commercial&do_not_service=true&sort=-city&page=2');
    expect(state).toMatchObject({ type: 'commercial', doNotService: true, sort: '-city', page: 2 });
    expect(listHref(state)).toBe('/customers?type=commercial&do_not_service=true&sort=-city&page=2');
    expect(readListParams('?type=industrial&do_not_service=yes&sort=zip')).toEqual(DEFAULT_LIST);
    expect(exportPath(exportParams(state))).toBe('/v1/customers/export.csv?type=commercial&do_not_service=true&sort=-city');
  });
});
