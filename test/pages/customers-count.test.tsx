// D26 a search matching very many: the server counts only so far and says 'more than' (count_exact:
// false); the list says so and its pager goes on past the pages it knows of.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import '../ui/no-console';
import type { CustomerListItem } from '../../contract/customers';
import CustomersPage from '../../src/pages/customers/CustomersPage';
import { navigate } from '../../src/router/location';
import { demoCustomers, FakeApi } from '../helpers/fake-api';
import { json, type Call } from '../helpers/fake-http';
import { renderPage } from '../helpers/render';

const ROWS: CustomerListItem[] = demoCustomers().slice(0, 25);

/** The list as a server answers a search matching more than it counts: `count` is a bound past page × size. */
function showBounded(path: string) {
  const api = new FakeApi();
  const asked: string[] = [];
  api.routes.set('/v1/customers/', (call: Call) => {
    asked.push(call.search);
    const page = Number(new URLSearchParams(call.search).get('page') ?? 1);
    return json(200, { count: Math.max(10_000, page * 25), count_exact: false, results: ROWS });
  });
  renderPage(path, <CustomersPage />, { fake: api });
  return asked;
}

beforeEach(() => navigate('/', { replace: true }));

describe('D26 a count that is a bound', () => {
  it("D26 says 'More than 10,000 customers match', and the pager reads 'of more than 400' with Next still on", async () => {
    const asked = showBounded('/customers?q=ann');
    expect(await screen.findByText('More than 10,000 customers match')).toBeTruthy();
    const pager = screen.getByRole('navigation', { name: 'Pages' });
    expect(within(pager).getByText('Page 1 of more than 400')).toBeTruthy();
    expect(screen.getByRole('table').querySelector('caption')?.textContent).toContain('page 1 of more than 400');
    fireEvent.click(within(pager).getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(asked.at(-1)).toContain('page=2'));
  });

  it('D26 a page past the counted ones is not taken for a page past the end: it stays, and Next goes on', async () => {
    const asked = showBounded('/customers?q=ann&page=401');
    expect(await screen.findByText('More than 10,025 customers match')).toBeTruthy();
    const pager = screen.getByRole('navigation', { name: 'Pages' });
    expect(within(pager).getByText('Page 401 of more than 401')).toBeTruthy();
    expect((within(pager).getByRole('button', { name: 'Next' }) as HTMLButtonElement).disabled).toBe(false);
    expect(asked.every((q) => q.includes('page=401'))).toBe(true);
    expect(window.location.search).toContain('page=401');
  });
});
