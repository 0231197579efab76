// The customers list and the dashboard's customer card, by role and name, against an injected fetch
// that answers GET /api/v1/customers/ with real Response objects the way the server does.
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { beforeEach, describe, expect, it } from 'vitest';
import '../ui/no-console';
import type { CustomerListItem } from '../../contract/customers';
import { customerKeys, listPath } from '../../src/api/customers';
import { hashKey, startsWith } from '../../src/query/cache';
import CustomersPage from '../../src/pages/customers/CustomersPage';
import { listHref, readListParams } from '../../src/pages/customers/list-params';
import DashboardPage from '../../src/pages/dashboard/DashboardPage';
import { createQueryCache } from '../../src/query/cache';
import { QueryProvider } from '../../src/query/use-query';
import { navigate } from '../../src/router/location';
import type { SessionState } from '../../src/session/types';
import { accessToken, json, MemoryStorage } from '../helpers/fake-api';
import { renderWithSession } from '../helpers/render';
import { pageSession, WITH_ORG } from '../helpers/session';

const FIRST = ['Ava', 'Ben', 'Chloe', 'Diego', 'Emma', 'Fatima', 'Grace', 'Hannah', 'Isaac', 'Kenji'];
const LAST = ['Patel', 'Okafor', 'Nguyen'];
/** 30 customers of organization 1, in the server's order (name, then id). */
const PEOPLE: CustomerListItem[] = FIRST.flatMap((first, i) =>
  LAST.map((last, j) => ({
    id: 100 + i * 3 + j,
    name: `${first} ${last}`,
    email: `${first}.${last}@example.com`.toLowerCase(),
    phone: `(503) 555-01${String(i * 3 + j).padStart(2, '0')}`,
    company: null,
    city: 'Portland',
    status: 'active' as const,
    tags: [],
    updated_at: '2024-01-01T00:00:00Z',
  })),
).sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id);

interface Seen {
  url: URL;
  headers: Headers;
}

/** GET /api/v1/customers/ like the server: token and organization checked, q, page and page_size applied. */
function customersApi() {
  const api = {
    seen: [] as Seen[],
    /** Answers to give before the normal one, in order ('network' throws like fetch does offline). */
    failures: [] as (number | 'network')[],
    /** While set, requests wait until release() is called. */
    held: null as Promise<void> | null,
    release: () => {},
    hold() {
      api.held = new Promise<void>((r) => (api.release = r));
    },
    fetch: async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
      const url = new URL(String(input), 'http://localhost');
      const headers = new Headers(init.headers);
      api.seen.push({ url, headers });
      if (api.held) await api.held;
      const failure = api.failures.shift();
      if (failure === 'network') throw new TypeError('Failed to fetch');
      if (failure) return json(failure, { detail: 'failed', code: 'x' });
      if (url.pathname !== '/api/v1/customers/') return json(404, { detail: 'No such endpoint', code: 'not_found' });
      if (!headers.get('authorization')?.startsWith('Bearer ')) return json(401, { detail: 'Authentication required', code: 'not_authenticated' });
      if (headers.get('x-organization-id') !== '1') return json(403, { detail: 'not a member', code: 'not_a_member' });
      const q = (url.searchParams.get('q') ?? '').toLowerCase();
      const page = Number(url.searchParams.get('page') ?? 1);
      const size = Number(url.searchParams.get('page_size') ?? 25);
      const matches = PEOPLE.filter((c) => [c.name, c.email, c.phone].some((v) => v?.toLowerCase().includes(q)));
      return json(200, { count: matches.length, results: matches.slice((page - 1) * size, page * size) });
    },
    /** The customers calls made, as their query strings. */
    queries: () => api.seen.map((s) => s.url.search),
  };
  return api;
}

type Api = ReturnType<typeof customersApi>;

/** Renders a page at `path` with a fresh cache (no retries); `setup` programs the API first. */
function show(Page: () => ReactNode, path: string, state: Partial<SessionState> = WITH_ORG, setup: (api: Api) => void = () => {}) {
  navigate(path, { replace: true });
  const api = customersApi();
  setup(api);
  const t = pageSession({ state, fetch: api.fetch, kv: new MemoryStorage({ access_token: accessToken(), refresh_token: 'r', current_org_id: '1' }) });
  renderWithSession(
    t,
    <QueryProvider cache={createQueryCache({ retries: 0 })}>
      <Page />
    </QueryProvider>,
  );
  return api;
}

const showList = (path = '/customers', state: Partial<SessionState> = WITH_ORG, setup?: (api: Api) => void) => show(CustomersPage, path, state, setup);
const search = () => screen.getByRole('searchbox', { name: 'Search customers' }) as HTMLInputElement;
const table = () => screen.findByRole('table');
const nameLinks = () => within(screen.getByRole('table')).getAllByRole('link');
const url = () => window.location.pathname + window.location.search;

beforeEach(() => navigate('/', { replace: true }));

describe('customers list', () => {
  it('D9 shows the first page as a table of Name, Email and Phone; names link to /customers/{id}', async () => {
    const api = showList();
    const t = await table();
    expect(within(t).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Name', 'Email', 'Phone']);
    const rows = within(t).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(25);
    const first = PEOPLE[0]!;
    expect(within(rows[0]!).getAllByRole('cell').map((c) => c.textContent)).toEqual([first.name, first.email, first.phone]);
    expect(within(rows[0]!).getByRole('link', { name: first.name }).getAttribute('href')).toBe(`/customers/${first.id}`);
    expect(screen.getByText('30 customers')).toBeTruthy();
    // D21: the tab's organization and the bearer token go with the call; one page of 25 is asked for.
    expect(api.seen).toHaveLength(1);
    expect(api.seen[0]!.headers.get('x-organization-id')).toBe('1');
    expect(api.seen[0]!.headers.get('authorization')).toMatch(/^Bearer /);
    expect(api.queries()).toEqual(['?page=1&page_size=25']);
  });

  it('shows a loading state until the list arrives', async () => {
    const api = showList('/customers', WITH_ORG, (a) => a.hold());
    expect(screen.getByRole('status').textContent).toContain('Loading customers…');
    expect(screen.queryByRole('table')).toBeNull();
    await act(async () => api.release());
    expect(await table()).toBeTruthy();
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('search is debounced, keeps its text, puts ?q= in the URL and asks the server for it from page 1', async () => {
    const api = showList('/customers?page=2');
    await table();
    fireEvent.change(search(), { target: { value: 'p' } });
    fireEvent.change(search(), { target: { value: 'pat' } });
    fireEvent.change(search(), { target: { value: 'PATEL ' } });
    expect(url()).toBe('/customers?page=2'); // nothing yet: the person is still typing
    await waitFor(() => expect(url()).toBe('/customers?q=PATEL'));
    await waitFor(() => expect(screen.getByText('10 customers match “PATEL”')).toBeTruthy());
    expect(search().value).toBe('PATEL '); // what was typed stays as typed
    expect(api.queries()).toEqual(['?page=2&page_size=25', '?q=PATEL&page=1&page_size=25']); // one call for the settled text
    expect(nameLinks().map((a) => a.textContent)).toEqual(PEOPLE.filter((c) => c.name.endsWith('Patel')).map((c) => c.name));
  });

  it('Enter searches at once', async () => {
    showList();
    await table();
    fireEvent.change(search(), { target: { value: 'okafor' } });
    fireEvent.submit(search());
    expect(url()).toBe('/customers?q=okafor');
  });

  it('the URL carries the search and page: a reload opens the same list, and Back/Forward update the box', async () => {
    const api = showList('/customers?q=nguyen');
    await table();
    expect(search().value).toBe('nguyen');
    expect(api.queries()).toEqual(['?q=nguyen&page=1&page_size=25']);
    act(() => navigate('/customers?q=okafor')); // as popstate would after Back or Forward
    expect(search().value).toBe('okafor');
    await waitFor(() => expect(nameLinks().every((a) => a.textContent?.endsWith('Okafor'))).toBe(true));
  });

  it("paging: Previous/Next with 'Page X of Y', each page in the URL", async () => {
    const api = showList();
    await table();
    const pager = screen.getByRole('navigation', { name: 'Pages' });
    expect(within(pager).getByText('Page 1 of 2')).toBeTruthy();
    expect((within(pager).getByRole('button', { name: 'Previous' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(within(pager).getByRole('button', { name: 'Next' }));
    expect(url()).toBe('/customers?page=2');
    await waitFor(() => expect(within(pager).getByText('Page 2 of 2')).toBeTruthy());
    await waitFor(() => expect(nameLinks().map((a) => a.textContent)).toEqual(PEOPLE.slice(25).map((c) => c.name)));
    expect((within(pager).getByRole('button', { name: 'Next' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(within(pager).getByRole('button', { name: 'Previous' }));
    expect(url()).toBe('/customers');
    await waitFor(() => expect(nameLinks()).toHaveLength(25));
    expect(api.queries()).toEqual(['?page=1&page_size=25', '?page=2&page_size=25']); // page 1 came from the cache
  });

  it('a page past the end goes to the last page', async () => {
    showList('/customers?page=9');
    await waitFor(() => expect(url()).toBe('/customers?page=2'));
    await waitFor(() => expect(nameLinks()).toHaveLength(5));
  });

  it("an empty result says 'No customers match …' and Clear search brings the list back", async () => {
    showList('/customers?q=zebra');
    expect(await screen.findByText('No customers match “zebra”.')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Clear search' }));
    expect(url()).toBe('/customers');
    expect(search().value).toBe('');
    expect(await table()).toBeTruthy();
  });

  it('an error shows a message with Retry, and Retry loads the list', async () => {
    const api = showList('/customers', WITH_ORG, (a) => a.failures.push(500));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Could not load customers. Please try again.');
    expect(screen.queryByRole('table')).toBeNull();
    fireEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await table()).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(api.seen).toHaveLength(2);
  });

  it('SPEC §8 no response: the error says the server could not be reached', async () => {
    showList('/customers', WITH_ORG, (a) => a.failures.push('network'));
    expect((await screen.findByRole('alert')).textContent).toContain('Could not reach the server. Check your connection and try again.');
  });

  it('D9 a 403 says the person may not view these customers', async () => {
    showList('/customers', WITH_ORG, (a) => a.failures.push(403));
    expect((await screen.findByRole('alert')).textContent).toContain('You do not have permission to view the customers of this organization.');
  });

  it('D9 Add Customer is offered only with customers:create', async () => {
    showList();
    expect(screen.getByRole('link', { name: 'Add Customer' }).getAttribute('href')).toBe('/customers/new');
    await table();
  });

  it('D9 without customers:create there is no Add Customer', async () => {
    showList('/customers', { ...WITH_ORG, permissions: ['dashboard:view', 'customers:view'] });
    await table();
    expect(screen.queryByRole('link', { name: 'Add Customer' })).toBeNull();
  });
});

describe('customers list URL and cache keys', () => {
  it('reads ?q= and ?page=, falling back to no search and page 1', () => {
    expect(readListParams('?q=%20ann%20&page=3')).toEqual({ q: 'ann', page: 3 });
    for (const bad of ['?page=0', '?page=-1', '?page=abc', '?page=1.5', '?page=01', '']) expect(readListParams(bad).page).toBe(1);
    expect(readListParams(`?q=${'x'.repeat(150)}`).q).toHaveLength(100); // the server's limit
  });

  it('writes only what differs from the defaults', () => {
    expect(listHref({ q: '', page: 1 })).toBe('/customers');
    expect(listHref({ q: 'a&b', page: 2 })).toBe('/customers?q=a%26b&page=2');
    expect(listPath({ q: 'a b', page: 2, page_size: 25 })).toBe('/v1/customers/?q=a+b&page=2&page_size=25');
  });

  it('D21 the cache key tells organizations, searches and pages apart, all under the organization prefix', () => {
    const base = { q: '', page: 1, page_size: 25 };
    const keys = [
      customerKeys.list(1, base), customerKeys.list(2, base), customerKeys.list(1, { ...base, q: 'a' }),
      customerKeys.list(1, { ...base, page: 2 }), customerKeys.list(1, { ...base, page_size: 1 }),
    ];
    expect(new Set(keys.map(hashKey)).size).toBe(keys.length);
    expect(keys.filter((k) => startsWith(k, customerKeys.all(1)))).toHaveLength(4);
  });
});

describe('dashboard customer card', () => {
  it('D9 shows the total from page_size=1 and links to the list', async () => {
    const api = show(DashboardPage, '/dashboard');
    const card = await screen.findByRole('region', { name: 'Customers' });
    await waitFor(() => expect(within(card).getByText('30')).toBeTruthy());
    expect(within(card).getByRole('link', { name: 'View customer list' }).getAttribute('href')).toBe('/customers');
    expect(api.queries()).toEqual(['?page=1&page_size=1']);
  });

  it('D9 is not shown without customers:view, and nothing is fetched', () => {
    const api = show(DashboardPage, '/dashboard', { ...WITH_ORG, permissions: ['dashboard:view'] });
    expect(screen.queryByRole('region', { name: 'Customers' })).toBeNull();
    expect(api.seen).toEqual([]);
  });

  it('an error offers Retry', async () => {
    show(DashboardPage, '/dashboard', WITH_ORG, (a) => a.failures.push(503));
    const card = screen.getByRole('region', { name: 'Customers' });
    expect(await within(card).findByText(/Could not load the total/)).toBeTruthy();
    fireEvent.click(within(card).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(within(card).getByText('30')).toBeTruthy());
  });
});
