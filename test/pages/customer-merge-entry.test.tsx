// D49 the ways into a merge and out of a merged customer's address: the duplicate warning's 'Merge' on the
// edit form, 'Merge with…' and its customer search on the customer page, each only with customers:merge;
// and a merged customer's page (or edit page) leading to the survivor's with a note.
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import '../ui/no-console';
import { customerKeys } from '../../src/api/customers';
import AddCustomerPage from '../../src/pages/customers/AddCustomerPage';
import CustomerDashboardPage from '../../src/pages/customers/CustomerDashboardPage';
import EditCustomerPage from '../../src/pages/customers/EditCustomerPage';
import { DUPLICATE_DEBOUNCE_MS } from '../../src/pages/customers/form/DuplicateWarning';
import { PICKER_DEBOUNCE_MS } from '../../src/pages/customers/merge/MergePicker';
import { createQueryCache } from '../../src/query/cache';
import { navigate, useLocation } from '../../src/router/location';
import { ParamsContext } from '../../src/router/params';
import { ALL_PERMISSIONS } from '../helpers/session';
import { FakeApi } from '../helpers/fake-api';
import { ANNA_LEE, FakeMerge } from '../helpers/fake-merge';
import { ANN } from '../helpers/fake-records';
import type { Customer } from '../../contract/customers';
import { renderPage } from '../helpers/render';

const WITHOUT_MERGE = ALL_PERMISSIONS.filter((p) => p !== 'customers:merge');
const type = (name: string, value: string) => fireEvent.change(screen.getByRole('textbox', { name }), { target: { value } });

/** The customer page or its edit page by the address, as the app's route switch would pick them. */
function Routed() {
  const { pathname } = useLocation();
  const [, , id, edit] = pathname.split('/');
  return <ParamsContext.Provider value={{ id: id ?? '' }}>{edit ? <EditCustomerPage /> : <CustomerDashboardPage />}</ParamsContext.Provider>;
}

beforeEach(() => navigate('/', { replace: true }));
afterEach(() => vi.useRealTimers());

describe('D49 D23 the duplicate warning offers Merge', () => {
  async function typeBensPhone(page: 'add' | 'edit', as: readonly string[] = ALL_PERMISSIONS) {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const api = new FakeApi();
    void api.records;
    if (page === 'edit') renderPage(`/customers/${ANN.id}/edit`, <EditCustomerPage />, { fake: api, as, params: { id: String(ANN.id) } });
    else renderPage('/customers/new', <AddCustomerPage />, { fake: api, as });
    await screen.findByRole('textbox', { name: 'Name' });
    type('Phone', '503-555-0199');
    await act(() => vi.advanceTimersByTimeAsync(DUPLICATE_DEBOUNCE_MS));
    return (await screen.findByRole('link', { name: 'Ben Okafor' })).closest('p')!;
  }

  it('D49 on the edit form each match offers Merge, this customer kept, where the person may merge', async () => {
    const warning = await typeBensPhone('edit');
    expect(within(warning).getByRole('link', { name: 'Merge' }).getAttribute('href')).toBe(`/customers/merge?survivor=${ANN.id}&merged=8`);
  });

  it('D49 D9 without customers:merge the warning offers no Merge', async () => {
    expect(within(await typeBensPhone('edit', WITHOUT_MERGE)).queryByRole('link', { name: 'Merge' })).toBeNull();
  });

  it('D49 the add form’s warning offers no Merge: there is no customer yet to merge', async () => {
    expect(within(await typeBensPhone('add')).queryByRole('link', { name: 'Merge' })).toBeNull();
  });
});

describe("D49 the customer page's 'Merge with…'", () => {
  function showAnn(as: readonly string[] = ALL_PERMISSIONS) {
    const api = new FakeApi();
    const merge = new FakeMerge(api);
    renderPage('/customers/21', <CustomerDashboardPage />, { fake: api, as, params: { id: '21' } });
    return merge;
  }

  it('D49 opens a customer search in a dialog; each other customer found leads to the merge screen with this one kept', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const merge = showAnn();
    await screen.findByRole('heading', { level: 1, name: 'Ann Lee' });
    fireEvent.click(screen.getByRole('button', { name: 'Merge with…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Merge Ann Lee with…' });
    const search = within(dialog).getByRole('searchbox', { name: 'Search customers' });
    await waitFor(() => expect(document.activeElement).toBe(search));
    fireEvent.change(search, { target: { value: 'lee' } });
    await act(() => vi.advanceTimersByTimeAsync(PICKER_DEBOUNCE_MS));
    const found = await within(dialog).findByRole('list', { name: 'Customers found' });
    expect(merge.calls('/v1/customers/', 'GET').map((c) => c.search)).toEqual(['?q=lee&page_size=10']);
    const links = within(found).getAllByRole('link');
    expect(links.map((l) => [l.textContent, l.getAttribute('href')])).toEqual([
      ['Anna Lee Same phone (503) 555-0142 · Tigard', '/customers/merge?survivor=21&merged=22'],
    ]);
    expect(within(dialog).getByRole('status').textContent).toBe('1 found');
    fireEvent.change(search, { target: { value: 'ann lee' } }); // only this customer: none to merge with
    await act(() => vi.advanceTimersByTimeAsync(PICKER_DEBOUNCE_MS));
    await waitFor(() => expect(within(dialog).getByRole('status').textContent).toBe('No other customer matches.'));
    expect(within(dialog).queryByRole('list')).toBeNull();
    fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it("D23 D49 'Merge with…' offers the likely duplicates (same email, phone or name) before anything is typed, and first among the results, each saying why", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const api = new FakeApi();
    const merge = new FakeMerge(api);
    const other = (id: number, name: string, extra: Partial<Customer> = {}): Customer => ({ ...ANNA_LEE, id, name, email: null, phone: `(971) 555-01${id}`, ...extra });
    for (const c of [other(23, 'Aaron Lee'), other(24, 'ANN LÉE'), other(25, 'Zed Lee', { email: 'ann@example.com' })]) merge.rows.set(c.id, c);
    renderPage('/customers/21', <CustomerDashboardPage />, { fake: api, params: { id: '21' } });
    await screen.findByRole('heading', { level: 1, name: 'Ann Lee' });
    fireEvent.click(screen.getByRole('button', { name: 'Merge with…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Merge Ann Lee with…' });
    const offered = async (label: string) =>
      within(await within(dialog).findByRole('list', { name: label }))
        .getAllByRole('link')
        .map((l) => [l.textContent, l.getAttribute('href')]);
    expect(await offered('Likely duplicates')).toEqual([
      ['Anna Lee Same phone (503) 555-0142', '/customers/merge?survivor=21&merged=22'],
      ['ANN LÉE Same name (971) 555-0124', '/customers/merge?survivor=21&merged=24'],
      ['Zed Lee Same email ann@example.com · (971) 555-0125', '/customers/merge?survivor=21&merged=25'],
    ]);
    expect(within(dialog).getByRole('status').textContent).toBe('3 likely duplicates: the same email, phone or name.');
    expect(new URLSearchParams(merge.calls('/v1/customers/duplicates/')[0]!.search).get('exclude')).toBe('21');
    fireEvent.change(within(dialog).getByRole('searchbox', { name: 'Search customers' }), { target: { value: 'lee' } });
    await act(() => vi.advanceTimersByTimeAsync(PICKER_DEBOUNCE_MS));
    // By name otherwise (Aaron Lee would come first): the likely duplicates lead, each with why.
    await waitFor(async () =>
      expect((await offered('Customers found')).map(([t]) => t)).toEqual([
        'Anna Lee Same phone (503) 555-0142 · Tigard',
        'ANN LÉE Same name (971) 555-0124 · Tigard',
        'Zed Lee Same email ann@example.com · (971) 555-0125 · Tigard',
        'Aaron Lee (971) 555-0123 · Tigard',
      ]),
    );
  });

  it('D49 D9 without customers:merge the customer page offers no Merge with…', async () => {
    showAnn(WITHOUT_MERGE);
    await screen.findByRole('heading', { level: 1, name: 'Ann Lee' });
    expect(screen.queryByRole('button', { name: 'Merge with…' })).toBeNull();
  });
});

describe("D49 a merged customer's address", () => {
  function open(path: string, setup: (cache: ReturnType<typeof createQueryCache>) => Promise<void> = async () => {}) {
    const api = new FakeApi();
    const merge = new FakeMerge(api);
    merge.mergedInto.set(ANNA_LEE.id, 21);
    const cache = createQueryCache({ retries: 0 });
    return setup(cache).then(() => renderPage(path, <Routed />, { fake: api, cache }));
  }
  const note = () => screen.findByText(/was merged into this customer\./);

  it('D49 leads to the survivor’s page, replacing the address, with a dismissible note naming the merged customer', async () => {
    await open('/customers/22', async (cache) => {
      // The page knew Anna Lee from an earlier visit: its refetch answers 404 merged.
      await cache.fetchQuery(customerKeys.detail(1, 22), async () => structuredClone(ANNA_LEE));
      cache.invalidate(customerKeys.detail(1, 22));
    });
    const before = window.history.length;
    await screen.findByRole('heading', { level: 1, name: 'Ann Lee' });
    expect(window.location.pathname).toBe('/customers/21');
    expect(window.history.length).toBe(before); // replaced, so Back does not lead to the merged address again
    const shown = await note();
    expect(shown.textContent).toBe('Anna Lee was merged into this customer.');
    expect(shown.closest('[role="status"]')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByText(/was merged into this customer/)).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('heading', { level: 1, name: 'Ann Lee' }));
  });

  it('D49 from the edit page too; without the name known the note still says what happened', async () => {
    await open('/customers/22/edit');
    await screen.findByRole('heading', { level: 1, name: 'Ann Lee' });
    expect(window.location.pathname).toBe('/customers/21');
    expect((await note()).textContent).toBe('The customer you opened was merged into this customer.');
  });
});
