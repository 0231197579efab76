// The customers list (D25 D26 D27 D9), by role and name, against the fake API's customers
// (test/helpers/fake-api.ts), through the real client and query cache. The dashboard: home-dashboard.test.tsx.
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import '../ui/no-console';
import { customerKeys, listPath } from '../../src/api/customers';
import CustomersPage from '../../src/pages/customers/CustomersPage';
import { showDeletedToast } from '../../src/pages/customers/detail/DeleteCustomer';
import { SEARCH_DEBOUNCE_MS, TAG_SUGGEST_DEBOUNCE_MS } from '../../src/pages/customers/ListToolbar';
import { DEFAULT_LIST, listHref, readListParams } from '../../src/pages/customers/list-params';
import { createQueryCache, hashKey, startsWith } from '../../src/query/cache';
import { navigate } from '../../src/router/location';
import type { SessionState } from '../../src/session/types';
import { toasts } from '../../src/ui/toast';
import { demoCustomers, FakeApi, type FakeCustomers } from '../helpers/fake-api';
import { renderPage } from '../helpers/render';
import { WITH_ORG } from '../helpers/session';

/** The demo customers in the server's default order (name, then id). */
const BY_NAME = demoCustomers().sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id);
const ONLY = (...permissions: string[]): Partial<SessionState> => ({ ...WITH_ORG, permissions: ['dashboard:view', 'customers:view', ...permissions] });

/** Renders a page at `path` against a fresh fake API and cache (no retries); `setup` programs the customers first. */
function show(Page: () => ReactNode, path: string, state: Partial<SessionState> = WITH_ORG, setup: (c: FakeCustomers) => void = () => {}) {
  const api = new FakeApi();
  const customers = api.customers;
  setup(customers);
  renderPage(path, <Page />, { as: state, fake: api });
  return { api, customers };
}

const showList = (path = '/customers', state: Partial<SessionState> = WITH_ORG, setup?: (c: FakeCustomers) => void) => show(CustomersPage, path, state, setup);
const table = () => screen.findByRole('table');
// Each row's first cell (a row's cells by role would ask for every ancestor's computed style, and the
// waits below read the names again on every change).
const names = () =>
  within(screen.getByRole('table'))
    .getAllByRole('row')
    .slice(1)
    .map((r) => r.querySelector('td:not(.col-pick)')!.firstChild!.textContent); // D58: after the row's checkbox
const url = () => window.location.pathname + window.location.search;
const searchBox = () => screen.getByRole('searchbox', { name: 'Search customers' }) as HTMLInputElement;
const header = (name: string) => screen.getByRole('columnheader', { name });
const pick = (name: string, value: string) => fireEvent.change(screen.getByRole('combobox', { name }), { target: { value } });

beforeEach(() => {
  navigate('/', { replace: true });
  toasts.setState([]);
});
afterEach(() => vi.useRealTimers());

describe('D26 customers list', () => {
  it('D26 shows the first page: names link to /customers/{id}, emails are mailto: and phones tel: links', async () => {
    const { api, customers } = showList();
    const t = await table();
    expect(
      within(t)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Select every customer on this page', 'Name', 'Email', 'Phone', 'Service city', 'Status', 'Tags', 'Assigned to', 'Created', 'Updated']); // D58: the page's checkbox first; D59 Assigned to
    expect(names()).toEqual(BY_NAME.slice(0, 25).map((c) => c.name));
    const first = BY_NAME[0]!;
    const row = within(t).getAllByRole('row')[1]!;
    expect(within(row).getByRole('link', { name: first.name }).getAttribute('href')).toBe(`/customers/${first.id}`);
    expect(within(row).getByRole('link', { name: first.email! }).getAttribute('href')).toBe(`mailto:${first.email}`);
    expect(within(row).getByRole('link', { name: first.phone! }).getAttribute('href')).toBe(`tel:${first.phone!.replace(/\D/g, '')}`);
    expect(screen.getByText('30 customers')).toBeTruthy();
    // D21: the tab's organization and the bearer token go with the call; one page of 25 by name.
    const call = api.calls.find((c) => c.path === '/api/v1/customers/')!;
    expect(call.headers['x-organization-id']).toBe('1');
    expect(call.headers.authorization).toMatch(/^Bearer /);
    expect(customers.listQueries).toEqual(['?sort=name&page=1&page_size=25']);
  });

  it('D39 an email is a mailto: link and a phone with an extension a tel: link with ;ext=, built by encoding', async () => {
    showList('/customers', WITH_ORG, (c) => {
      const first = BY_NAME[0]!;
      const row = c.rows.find((r) => r.id === first.id)!;
      row.phone = '+1 503 555 0177 ext. 1234';
      row.email = 'a&b@client.test';
    });
    const row = within(await table()).getAllByRole('row')[1]!;
    expect(within(row).getByRole('link', { name: '+1 503 555 0177 ext. 1234' }).getAttribute('href')).toBe('tel:+15035550177;ext=1234');
    expect(within(row).getByRole('link', { name: 'a&b@client.test' }).getAttribute('href')).toBe('mailto:a%26b@client.test');
  });

  it('shows a loading state until the list arrives', async () => {
    const { customers } = showList('/customers', WITH_ORG, (c) => c.hold());
    expect(screen.getByRole('status').textContent).toContain('Loading customers…');
    expect(screen.queryByRole('table')).toBeNull();
    await act(async () => customers.release());
    expect(await table()).toBeTruthy();
    expect(screen.queryByText('Loading customers…')).toBeNull();
  });

  it("an organization without customers says 'No customers yet' and offers Add Customer when allowed", async () => {
    showList('/customers', WITH_ORG, (c) => (c.rows = []));
    expect(await screen.findByText('No customers yet.')).toBeTruthy();
    const add = screen.getAllByRole('link', { name: 'Add Customer' });
    expect(add.map((a) => a.getAttribute('href'))).toEqual(['/customers/new', '/customers/new']); // header and empty state
    expect(screen.queryByRole('table')).toBeNull();
  });

  it("D9 'No customers yet' without customers:create offers no Add Customer", async () => {
    showList('/customers', ONLY(), (c) => (c.rows = []));
    expect(await screen.findByText('No customers yet.')).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Add Customer' })).toBeNull();
  });

  it("no match says 'No customers match' and Clear filters brings the whole list back (sort and page size kept)", async () => {
    showList('/customers?q=zebra&status=lead&sort=-name&page_size=50');
    expect(await screen.findByText('No customers match.')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    expect(url()).toBe('/customers?sort=-name&page_size=50');
    expect(searchBox().value).toBe('');
    expect(await table()).toBeTruthy();
    expect(names()[0]).toBe(BY_NAME.at(-1)!.name);
  });

  it('an error shows a message with Retry, and Retry loads the list', async () => {
    const { customers } = showList('/customers', WITH_ORG, (c) => c.failures.push(500));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Could not load customers. Please try again.');
    expect(screen.queryByRole('table')).toBeNull();
    fireEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await table()).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(customers.listQueries).toHaveLength(1); // the failed answer came before the list was read
  });

  it('SPEC §8 no response: the error says the server could not be reached', async () => {
    showList('/customers', WITH_ORG, (c) => c.failures.push('network'));
    expect((await screen.findByRole('alert')).textContent).toContain('Could not reach the server. Check your connection and try again.');
  });

  it('D9 a 403 says the person may not view these customers', async () => {
    showList('/customers', WITH_ORG, (c) => c.failures.push(403));
    expect((await screen.findByRole('alert')).textContent).toContain('You do not have permission to view the customers of this organization.');
  });

  it('D26 search is debounced (~300 ms), keeps its text, and asks the server from page 1, in the URL', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { customers } = showList('/customers?page=2');
    await table();
    fireEvent.change(searchBox(), { target: { value: 'p' } });
    fireEvent.change(searchBox(), { target: { value: 'pat' } });
    fireEvent.change(searchBox(), { target: { value: 'PATEL ' } });
    await act(() => vi.advanceTimersByTimeAsync(SEARCH_DEBOUNCE_MS - 50));
    expect(url()).toBe('/customers?page=2'); // the person is still typing
    expect(SEARCH_DEBOUNCE_MS).toBe(300);
    await act(() => vi.advanceTimersByTimeAsync(60));
    expect(url()).toBe('/customers?q=PATEL');
    await waitFor(() => expect(screen.getByText('10 customers match')).toBeTruthy());
    expect(searchBox().value).toBe('PATEL '); // what was typed stays as typed
    expect(customers.listQueries).toEqual(['?sort=name&page=2&page_size=25', '?q=PATEL&sort=name&page=1&page_size=25']);
    expect(names()).toEqual(BY_NAME.filter((c) => c.name.endsWith('Patel')).map((c) => c.name));
  });

  it('D26 a filter chosen while a search is pending is kept: the search merges into the URL as it is then', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    showList();
    await table();
    fireEvent.change(searchBox(), { target: { value: 'henry' } });
    await act(() => vi.advanceTimersByTimeAsync(SEARCH_DEBOUNCE_MS - 100));
    pick('Status', 'inactive');
    expect(url()).toBe('/customers?status=inactive');
    await act(() => vi.advanceTimersByTimeAsync(SEARCH_DEBOUNCE_MS + 1500));
    expect(url()).toBe('/customers?q=henry&status=inactive');
    expect((screen.getByRole('combobox', { name: 'Status' }) as HTMLSelectElement).value).toBe('inactive');
  });

  it('D26 a "Sort by" menu (for phone width, where the headers are out of sight) sorts the list from page 1, in the URL', async () => {
    const { customers } = showList('/customers?page=2');
    await table();
    const menu = screen.getByRole('combobox', { name: 'Sort by' }) as HTMLSelectElement;
    expect(menu.value).toBe('name');
    expect([...menu.options].map((o) => o.textContent)).toEqual([
      'Name, A–Z',
      'Name, Z–A',
      'Newest first',
      'Oldest first',
      'Recently updated',
      'Least recently updated',
      'Status, A–Z', // D48
      'Status, Z–A',
      'Service city, A–Z',
      'Service city, Z–A',
    ]);
    pick('Sort by', '-created_at');
    expect(url()).toBe('/customers?sort=-created_at');
    expect(menu.value).toBe('-created_at');
    expect(header('Created').getAttribute('aria-sort')).toBe('descending');
    await waitFor(() => expect(customers.listQueries.at(-1)).toBe('?sort=-created_at&page=1&page_size=25'));
  });

  it('Enter searches at once', async () => {
    showList();
    await table();
    fireEvent.change(searchBox(), { target: { value: 'okafor' } });
    fireEvent.keyDown(searchBox(), { key: 'Enter' });
    expect(url()).toBe('/customers?q=okafor');
  });

  it('D26 status and tag filters narrow the list from page 1; a tag in a row filters by it', async () => {
    const { customers } = showList('/customers?page=2');
    await table();
    pick('Status', 'lead');
    expect(url()).toBe('/customers?status=lead');
    await waitFor(() => expect(names()).toHaveLength(10));
    expect(screen.getByText('10 customers match')).toBeTruthy();
    fireEvent.click(within(screen.getByRole('table')).getAllByRole('button', { name: 'Show customers tagged vip' })[0]!);
    expect(url()).toBe('/customers?status=lead&tag=vip');
    expect((screen.getByRole('combobox', { name: 'Tag' }) as HTMLInputElement).value).toBe('vip');
    await waitFor(() => expect(customers.listQueries.at(-1)).toBe('?status=lead&tag=vip&sort=name&page=1&page_size=25'));
  });

  it("D45 the tag filter suggests the organization's tags as one types (a datalist); choosing one filters at once", async () => {
    const { customers } = showList();
    await table();
    // The test holds the clock: the typed tag's own pause (SEARCH_DEBOUNCE_MS) must not pass while the
    // suggestions load, however slow the machine.
    vi.useFakeTimers();
    const tag = screen.getByRole('combobox', { name: 'Tag' }) as HTMLInputElement;
    const options = () => [...(tag.list?.querySelectorAll('option') ?? [])].map((o) => o.value);
    // Nothing is asked for until the person works in the field.
    expect(customers.tagQueries).toEqual([]);
    fireEvent.focus(tag);
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(options()).toEqual(['boiler', 'north', 'vip']);
    fireEvent.change(tag, { target: { value: 'BO' } });
    await act(() => vi.advanceTimersByTimeAsync(TAG_SUGGEST_DEBOUNCE_MS - 1));
    expect(customers.tagQueries).toEqual(['']); // still typing
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(options()).toEqual(['boiler']);
    expect(customers.tagQueries).toEqual(['', 'BO'.toLowerCase()]);
    expect(url()).toBe('/customers');
    expect(TAG_SUGGEST_DEBOUNCE_MS).toBeLessThan(SEARCH_DEBOUNCE_MS);
    vi.useRealTimers();
    // The suggestion chosen (the browser puts it in the field): filtered without waiting for the pause.
    fireEvent.change(tag, { target: { value: 'boiler' } });
    expect(url()).toBe('/customers?tag=boiler');
    await waitFor(() => expect(customers.listQueries.at(-1)).toBe('?tag=boiler&sort=name&page=1&page_size=25'));
  });

  it('D26 sortable headers: aria-sort says how the list is sorted; a click sorts, a second the other way; the URL follows', async () => {
    showList();
    await table();
    expect(header('Name').getAttribute('aria-sort')).toBe('ascending');
    expect(header('Created').getAttribute('aria-sort')).toBe('none');
    expect(header('Updated').getAttribute('aria-sort')).toBe('none');
    expect(header('Email').hasAttribute('aria-sort')).toBe(false);

    fireEvent.click(within(header('Name')).getByRole('button', { name: 'Name' }));
    expect(url()).toBe('/customers?sort=-name');
    await waitFor(() => expect(names()[0]).toBe(BY_NAME.at(-1)!.name));
    expect(header('Name').getAttribute('aria-sort')).toBe('descending');

    fireEvent.click(within(header('Created')).getByRole('button', { name: 'Created' })); // dates: newest first
    expect(url()).toBe('/customers?sort=-created_at');
    await waitFor(() => expect(header('Created').getAttribute('aria-sort')).toBe('descending'));
    expect(header('Name').getAttribute('aria-sort')).toBe('none');
    await waitFor(() => expect(names()[0]).toBe('Kenji Nguyen')); // created last

    fireEvent.click(within(header('Created')).getByRole('button', { name: 'Created' }));
    expect(url()).toBe('/customers?sort=created_at');
    await waitFor(() => expect(names()[0]).toBe('Ava Patel'));
    expect(header('Created').getAttribute('aria-sort')).toBe('ascending');

    fireEvent.click(within(header('Updated')).getByRole('button', { name: 'Updated' }));
    expect(url()).toBe('/customers?sort=-updated_at');
    await waitFor(() => expect(names()[0]).toBe('Ava Patel')); // updated last
  });

  it("D26 paging: Previous/Next with 'Page X of Y', each page in the URL; the previous page stays on screen while the next loads", async () => {
    const { customers } = showList();
    await table();
    const pager = screen.getByRole('navigation', { name: 'Pages' });
    expect(within(pager).getByText('Page 1 of 2')).toBeTruthy();
    expect((within(pager).getByRole('button', { name: 'Previous' }) as HTMLButtonElement).disabled).toBe(true);
    customers.hold();
    fireEvent.click(within(pager).getByRole('button', { name: 'Next' }));
    expect(url()).toBe('/customers?page=2');
    await waitFor(() => expect(screen.getByRole('table').getAttribute('aria-busy')).toBe('true'));
    expect(names()).toHaveLength(25); // page 1, kept while page 2 loads
    await act(async () => customers.release());
    await waitFor(() => expect(names()).toEqual(BY_NAME.slice(25).map((c) => c.name)));
    expect(within(pager).getByText('Page 2 of 2')).toBeTruthy();
    fireEvent.click(within(pager).getByRole('button', { name: 'Previous' }));
    expect(url()).toBe('/customers');
    await waitFor(() => expect(names()).toHaveLength(25));
    expect(customers.listQueries).toHaveLength(2); // page 1 again came from the cache
  });

  it('D26 page size 25, 50 or 100: the list starts again at page 1', async () => {
    const { customers } = showList('/customers?page=2');
    await table();
    const size = screen.getByRole('combobox', { name: 'Per page' });
    expect([...size.querySelectorAll('option')].map((o) => o.textContent)).toEqual(['25', '50', '100']);
    pick('Per page', '50');
    expect(url()).toBe('/customers?page_size=50');
    await waitFor(() => expect(names()).toHaveLength(30));
    expect(screen.queryByRole('navigation', { name: 'Pages' })).toBeNull();
    expect(customers.listQueries.at(-1)).toBe('?sort=name&page=1&page_size=50');
  });

  it('a page past the end goes to the last page', async () => {
    showList('/customers?page=9');
    await waitFor(() => expect(url()).toBe('/customers?page=2'));
    await waitFor(() => expect(names()).toHaveLength(5));
  });

  it('D26 the URL carries the whole list: a shared link opens the same list, and Back/Forward bring the controls along', async () => {
    const link = '/customers?q=a&status=active&tag=vip&sort=-updated_at&page=1&page_size=100';
    const { customers } = showList(link);
    await table();
    expect(customers.listQueries).toEqual(['?q=a&status=active&tag=vip&sort=-updated_at&page=1&page_size=100']);
    expect(searchBox().value).toBe('a');
    expect((screen.getByRole('combobox', { name: 'Status' }) as HTMLSelectElement).value).toBe('active');
    expect((screen.getByRole('combobox', { name: 'Tag' }) as HTMLInputElement).value).toBe('vip');
    expect((screen.getByRole('combobox', { name: 'Per page' }) as HTMLSelectElement).value).toBe('100');
    expect(header('Updated').getAttribute('aria-sort')).toBe('descending');
    act(() => navigate('/customers?q=okafor')); // as popstate would after Back or Forward
    expect(searchBox().value).toBe('okafor');
    expect((screen.getByRole('combobox', { name: 'Status' }) as HTMLSelectElement).value).toBe('');
    expect(header('Name').getAttribute('aria-sort')).toBe('ascending');
    await waitFor(() => expect(names().every((n) => n?.endsWith('Okafor'))).toBe(true));
  });
});

describe('D9 what the list offers, by permission', () => {
  it('D9 with every customers permission: Import, Export CSV, Add Customer and the Deleted view', async () => {
    showList();
    await table();
    expect(screen.getByRole('link', { name: 'Add Customer' }).getAttribute('href')).toBe('/customers/new');
    expect(screen.getByRole('link', { name: 'Import' }).getAttribute('href')).toBe('/customers/import');
    expect(screen.getByRole('button', { name: 'Export CSV' })).toBeTruthy();
    expect(
      within(screen.getByRole('navigation', { name: 'Customer views' }))
        .getByRole('link', { name: 'Deleted' })
        .getAttribute('href'),
    ).toBe('/customers?view=deleted');
  });

  it.each([
    ['customers:view only', ONLY(), []],
    ['customers:create', ONLY('customers:create'), ['Import', 'Add Customer']],
    ['customers:export', ONLY('customers:export'), ['Export CSV']],
    ['customers:delete', ONLY('customers:delete'), ['Deleted']],
  ] as const)('D9 %s offers only what it allows', async (_name, state, offered) => {
    showList('/customers', state);
    await table();
    const present = ['Import', 'Export CSV', 'Add Customer', 'Deleted'].filter((name) => screen.queryByRole('link', { name }) ?? screen.queryByRole('button', { name }));
    expect(present).toEqual(offered);
  });

  it('D9 a link to the Deleted view without customers:delete shows the list instead, and asks nothing of deleted customers', async () => {
    const { customers } = showList('/customers?view=deleted', ONLY());
    await table();
    expect(customers.listQueries).toEqual(['?sort=name&page=1&page_size=25']);
    expect(screen.queryByRole('button', { name: /^Restore/ })).toBeNull();
  });
});

describe('D27 Export CSV', () => {
  it('D27 downloads the filtered list through fetch (with the bearer token) as a Blob behind an object URL', async () => {
    const created: Blob[] = [];
    const createObjectURL = vi.fn((b: Blob) => (created.push(b), 'blob:customers'));
    const revokeObjectURL = vi.fn();
    // On the URL class itself (the page calls URL.createObjectURL); put back after, for later files.
    const original = { createObjectURL: URL.createObjectURL, revokeObjectURL: URL.revokeObjectURL };
    Object.assign(URL, { createObjectURL, revokeObjectURL });
    const clicked: HTMLAnchorElement[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this);
    });
    try {
      const { api } = showList('/customers?q=patel&status=active&sort=-name&page=2');
      await table();
      fireEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
      await waitFor(() => expect(clicked).toHaveLength(1));
      const call = api.calls.find((c) => c.path === '/api/v1/customers/export.csv')!;
      expect(call.search).toBe('?q=patel&status=active&sort=-name'); // the list's filters, not its page
      expect(call.headers.authorization).toMatch(/^Bearer /);
      expect(clicked[0]!.getAttribute('href')).toBe('blob:customers');
      expect(clicked[0]!.download).toMatch(/^customers-\d{4}-\d{2}-\d{2}\.csv$/);
      expect(created[0]!.type).toBe('text/csv');
      expect(await created[0]!.text()).toContain('Ava Patel,ava.patel@example.com');
      expect(screen.getByRole('button', { name: 'Export CSV' })).toBeTruthy(); // not busy any more
    } finally {
      click.mockRestore();
      Object.assign(URL, original);
    }
  });

  it('a failed export says so in a toast', async () => {
    const { customers } = showList();
    await table();
    customers.failures.push(500);
    fireEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    const message = await screen.findByText('Could not export customers. Please try again.');
    expect(message.closest('[data-kind]')?.getAttribute('data-kind')).toBe('error');
  });
});

describe('D25 the Deleted view', () => {
  const deletedSetup = (c: FakeCustomers) => {
    c.remove(100, '2024-03-01T10:00:00Z');
    c.remove(104, '2024-03-02T10:00:00Z', { id: 2, name: 'Sam' });
  };

  it('D25 lists deleted customers, newest deleted first, with who deleted them, each with Restore; no filters or export', async () => {
    const { customers } = showList('/customers?view=deleted', WITH_ORG, deletedSetup);
    const t = await table();
    expect(
      within(t)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Name', 'Email', 'Deleted', 'Deleted by', 'Actions']);
    expect(names()).toEqual(['Ben Okafor', 'Ava Patel']);
    expect(screen.getByText('2 deleted customers')).toBeTruthy();
    expect(within(t).getAllByRole('row')[1]!.textContent).toContain('Sam');
    expect(within(t).queryAllByRole('link')).toEqual([]); // a deleted customer has no page to open
    expect(customers.listQueries).toEqual(['?deleted=true&page=1&page_size=25']);
    expect(screen.queryByRole('search')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Export CSV' })).toBeNull();
    expect(
      within(screen.getByRole('navigation', { name: 'Customer views' }))
        .getByRole('link', { name: 'Deleted' })
        .getAttribute('aria-current'),
    ).toBe('page');
  });

  it('D25 Restore brings the customer back with a success toast, and the lists catch up', async () => {
    const { customers } = showList('/customers?view=deleted', WITH_ORG, deletedSetup);
    await table();
    fireEvent.click(screen.getByRole('button', { name: 'Restore Ava Patel' }));
    await waitFor(() => expect(toasts.getState().map((t) => t.kind)).toEqual(['success']));
    const region = screen.getByRole('region', { name: /Notifications/ });
    expect(within(region).getByRole('link', { name: 'Ava Patel' }).parentElement?.textContent).toBe('Ava Patel restored');
    await waitFor(() => expect(names()).toEqual(['Ben Okafor']));
    expect(customers.rows.find((r) => r.id === 100)?.deleted_at).toBeUndefined();
  });

  it("D25 one restore, one toast: Restore in the Deleted view takes away that customer's delete toast and its Undo", async () => {
    const { customers } = showList('/customers?view=deleted', WITH_ORG, deletedSetup);
    await table();
    const api = { restore: { run: vi.fn(), invalidates: [] }, get: vi.fn() };
    act(() => showDeletedToast({ id: 100, name: 'Ava Patel' }, api as never, createQueryCache()));
    const region = screen.getByRole('region', { name: /Notifications/ });
    expect(within(region).getByRole('button', { name: 'Undo' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Restore Ava Patel' }));
    await waitFor(() => expect(customers.rows.find((r) => r.id === 100)?.deleted_at).toBeUndefined());
    await waitFor(() => expect(toasts.getState()).toHaveLength(1));
    expect(within(region).queryByRole('button', { name: 'Undo' })).toBeNull();
    expect(region.textContent).toContain('Ava Patel restored');
    expect(api.restore.run).not.toHaveBeenCalled();
  });

  it('D25 a restore refused with 409 duplicate_email says so in words, naming and linking the customer who has the email now', async () => {
    const { customers } = showList('/customers?view=deleted', WITH_ORG, (c) => {
      deletedSetup(c);
      c.rows.push({ ...c.rows[0]!, id: 500, name: 'Ava P. Newman', deleted_at: undefined, deleted_by: undefined }); // same email, live
    });
    await table();
    fireEvent.click(screen.getByRole('button', { name: 'Restore Ava Patel' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Ava Patel could not be restored: their email, ava.patel@example.com, now belongs to another customer, Ava P. Newman.');
    expect(within(alert).getByRole('link', { name: 'Ava P. Newman' }).getAttribute('href')).toBe('/customers/500');
    expect(names()).toEqual(['Ben Okafor', 'Ava Patel']); // still deleted
    expect(customers.rows.find((r) => r.id === 100)?.deleted_at).toBeDefined();
    fireEvent.click(within(alert).getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('D25 an empty Deleted view says there is nothing to restore', async () => {
    showList('/customers?view=deleted');
    expect(await screen.findByText('No deleted customers.')).toBeTruthy();
  });

  it('D25 the views are links: Deleted, then All customers again', async () => {
    showList('/customers?sort=-name');
    await table();
    fireEvent.click(screen.getByRole('link', { name: 'Deleted' }));
    expect(url()).toBe('/customers?sort=-name&view=deleted');
    fireEvent.click(await screen.findByRole('link', { name: 'All customers' }));
    expect(url()).toBe('/customers?sort=-name');
  });
});

describe('D15 every control of the list has an accessible name', () => {
  const ROLES = ['button', 'link', 'textbox', 'searchbox', 'combobox', 'checkbox'] as const;
  const expectAllNamed = (where: string) => {
    for (const role of ROLES) {
      const unnamed = screen.queryAllByRole(role, { name: (name) => !/[\p{L}\p{N}]/u.test(name) });
      expect(
        unnamed.map((el) => el.outerHTML.slice(0, 120)),
        `${where}: ${role} without a name`,
      ).toEqual([]);
    }
  };

  it('D15 the list, its empty states and the Deleted view', async () => {
    showList('/customers?page_size=50', WITH_ORG, (c) => c.remove(101, '2024-03-01T10:00:00Z'));
    await table();
    expect(screen.getAllByRole('button').length).toBeGreaterThan(5);
    expectAllNamed('list');
    fireEvent.click(screen.getByRole('link', { name: 'Deleted' }));
    await screen.findByRole('button', { name: 'Restore Ava Okafor' });
    expectAllNamed('deleted view');
    act(() => navigate('/customers?q=zebra'));
    await screen.findByRole('button', { name: 'Clear filters' });
    expectAllNamed('no match');
  });
});

describe('D26 list URL and cache keys', () => {
  it('reads every parameter, falling back to the default for anything malformed', () => {
    expect(readListParams('?q=%20ann%20&status=lead&tag=vip&sort=-created_at&page=3&page_size=100&view=deleted')).toEqual({
      q: 'ann',
      status: 'lead',
      tag: 'vip',
      type: '',
      doNotService: false,
      createdSince: '',
      assigned: '', // D59: customers-assigned.test.tsx
      sort: '-created_at',
      page: 3,
      pageSize: 100,
      deleted: true,
      custom: [], // D56: customers-custom-columns.test.tsx
      columns: [],
    });
    for (const bad of ['?page=0', '?page=-1', '?page=abc', '?page=1.5', '?page=01', '']) expect(readListParams(bad).page).toBe(1);
    expect(readListParams('?status=gone&sort=email&page_size=7&view=trash')).toEqual(DEFAULT_LIST);
    expect(readListParams(`?q=${'x'.repeat(150)}`).q).toHaveLength(100); // the server's limit
  });

  it('writes only what differs from the defaults', () => {
    expect(listHref(DEFAULT_LIST)).toBe('/customers');
    expect(listHref({ ...DEFAULT_LIST, q: 'a&b', page: 2 })).toBe('/customers?q=a%26b&page=2');
    expect(listHref({ ...DEFAULT_LIST, status: 'inactive', sort: 'updated_at', pageSize: 50, deleted: true })).toBe(
      '/customers?status=inactive&sort=updated_at&page_size=50&view=deleted',
    );
    expect(listPath({ q: 'a b', page: 2, page_size: 25 })).toBe('/v1/customers/?q=a+b&page=2&page_size=25');
  });

  it('D21 the cache key tells organizations, searches and pages apart, all under the organization prefix', () => {
    const base = { q: 'a', page: 1, page_size: 25 };
    const keys = [
      customerKeys.list(1, base),
      customerKeys.list(2, base),
      customerKeys.list(1, { ...base, q: 'b' }),
      customerKeys.list(1, { ...base, page: 2 }),
      customerKeys.list(1, { ...base, page_size: 50 }),
    ];
    expect(new Set(keys.map(hashKey)).size).toBe(keys.length);
    expect(keys.filter((k) => startsWith(k, customerKeys.all(1)))).toHaveLength(4);
  });
});
