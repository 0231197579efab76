// Issue 34 item 9, D26 D32: the list narrowed to the customers added since an instant (the dashboard's
// 'View newest customers'): carried by the URL and the request, said as a removable 'Added since' chip.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import '../ui/no-console';
import CustomersPage from '../../src/pages/customers/CustomersPage';
import { DEFAULT_LIST, exportParams, listHref, readListParams } from '../../src/pages/customers/list-params';
import { navigate } from '../../src/router/location';
import { absoluteTime } from '../../src/ui/when';
import { FakeApi } from '../helpers/fake-api';
import { renderPage } from '../helpers/render';

const SINCE = '2024-01-25T00:00:00.000Z'; // the demo customers are added one a day from 1 January 2024
const url = () => window.location.pathname + window.location.search;
const search = () => screen.getByRole('search', { name: 'Filter customers' });

function showList(path: string) {
  const api = new FakeApi();
  renderPage(path, <CustomersPage />, { fake: api });
  return api.customers;
}

beforeEach(() => navigate('/', { replace: true }));

describe('D32 added since', () => {
  it('issue 34 item 9 created_since is read from the URL, written back, sent to the list and the export; a malformed one is left out', () => {
    const state = readListParams(`?sort=-created_at&created_since=${SINCE}`);
    expect(state).toEqual({ ...DEFAULT_LIST, sort: '-created_at', createdSince: SINCE });
    expect(listHref(state)).toBe(`/customers?created_since=${encodeURIComponent(SINCE)}&sort=-created_at`);
    expect(exportParams(state).created_since).toBe(SINCE);
    // Any date is read as the instant it names, in the form the server takes; what is not a date is left out.
    expect(readListParams('?created_since=2024-06-01').createdSince).toBe('2024-06-01T00:00:00.000Z');
    expect(readListParams('?created_since=2024-06-01T12:00%2B02:00').createdSince).toBe('2024-06-01T10:00:00.000Z');
    for (const bad of ['yesterday', '2024-13-01', '%2B275760-09-13']) expect(readListParams(`?created_since=${bad}`).createdSince).toBe('');
  });

  it("issue 34 item 9 the list shows only those added since, says so in a chip 'Added since …', and the chip's × removes the filter", async () => {
    const customers = showList(`/customers?created_since=${SINCE}&sort=-created_at`);
    await screen.findByRole('table');
    await waitFor(() => expect(customers.listQueries.at(-1)).toContain(`created_since=${encodeURIComponent(SINCE)}`));
    expect(screen.getByText(/^\d+ customers? match/).textContent).toBe('6 customers match'); // 25 January to 30 January
    const chip = within(search()).getByText(`Added since ${absoluteTime(SINCE)}`, { exact: false });
    fireEvent.click(within(chip).getByRole('button', { name: 'Remove the filter Added since' }));
    await waitFor(() => expect(url()).toBe('/customers?sort=-created_at'));
    expect(within(search()).queryByText(/Added since/)).toBeNull();
    await waitFor(() => expect(customers.listQueries.at(-1)).not.toContain('created_since'));
  });

  it('issue 34 item 9 Clear filters removes it too', async () => {
    showList(`/customers?created_since=2030-01-01`);
    fireEvent.click(await screen.findByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(url()).toBe('/customers'));
  });
});
