// D59: the customer's page shows who it is assigned to; a 404 for a customer this tab had shown (its page,
// a list it was in) says 'This customer is no longer assigned to you.' to a person who sees only their own
// customers, the not-found words to anyone else, and the lists are read again.
import { act, fireEvent, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import '../ui/no-console';
import { customerKeys } from '../../src/api/customers';
import CustomerDashboardPage from '../../src/pages/customers/CustomerDashboardPage';
import { MSG_NO_LONGER_ASSIGNED, MSG_NOT_FOUND } from '../../src/pages/customers/CustomerNotFound';
import EditCustomerPage from '../../src/pages/customers/EditCustomerPage';
import { createQueryCache } from '../../src/query/cache';
import { navigate } from '../../src/router/location';
import type { SessionState } from '../../src/session/types';
import { toasts } from '../../src/ui/toast';
import { EDITOR, loaded, section, showCustomer } from '../helpers/customer-page';
import { FakeApi } from '../helpers/fake-api';
import { renderPage } from '../helpers/render';

const SCOPED: Partial<SessionState> = { ...EDITOR, role: 'member', customersScope: 'assigned' };
const LIST = customerKeys.list(1, { page: 1 });

/** A cache holding a list page in which customer 101 was shown. */
async function cacheWithList() {
  const cache = createQueryCache({ retries: 0 });
  await cache.fetchQuery(LIST, async () => ({ count: 1, results: [{ id: 101, name: 'Jane Doe' }] }));
  return cache;
}
function open(Page: () => React.ReactNode, path: string, as: Partial<SessionState>, cache: ReturnType<typeof createQueryCache>) {
  const api = new FakeApi();
  api.record.deleted = true; // the server answers 404 for it now
  renderPage(path, <Page />, { as, fake: api, params: { id: '101' }, cache });
  return api;
}

beforeEach(() => {
  navigate('/', { replace: true });
  toasts.setState([]);
});

describe('D59 the customer page’s assignee', () => {
  it('D59 says who the customer is assigned to', async () => {
    showCustomer({ assigned_to: { id: 4, name: 'Tess Tech' } });
    await loaded();
    const dt = screen.getByText('Assigned to', { selector: 'dt' });
    expect(dt.nextElementSibling!.textContent).toBe('Tess Tech');
  });

  it('D59 says Unassigned when nobody is', async () => {
    showCustomer({ assigned_to: null });
    await loaded();
    expect(screen.getByText('Assigned to', { selector: 'dt' }).nextElementSibling!.textContent).toBe('Unassigned');
  });
});

describe('D59 a 404 after reassignment', () => {
  it('D59 a customer shown in a list, then 404: a scoped person reads that it is no longer assigned to them, and the lists go stale', async () => {
    const cache = await cacheWithList();
    open(CustomerDashboardPage, '/customers/101', SCOPED, cache);
    expect(await screen.findByText(MSG_NO_LONGER_ASSIGNED)).toBeTruthy();
    expect(cache.isStale(LIST)).toBe(true);
  });

  it('D59 the same for anyone who sees all customers reads the not-found words (the lists still go stale)', async () => {
    const cache = await cacheWithList();
    open(CustomerDashboardPage, '/customers/101', EDITOR, cache);
    expect(await screen.findByText(MSG_NOT_FOUND)).toBeTruthy();
    expect(cache.isStale(LIST)).toBe(true);
  });

  it('D59 a customer never shown in this tab is simply not found, even for a scoped person', async () => {
    open(CustomerDashboardPage, '/customers/101', SCOPED, createQueryCache({ retries: 0 }));
    expect(await screen.findByText(MSG_NOT_FOUND)).toBeTruthy();
  });

  it('D59 the edit form’s 404 for a customer in a list says the same', async () => {
    const cache = await cacheWithList();
    open(EditCustomerPage, '/customers/101/edit', SCOPED, cache);
    expect(await screen.findByText(MSG_NO_LONGER_ASSIGNED)).toBeTruthy();
  });

  it('D59 the page open, then reassigned away: adding a note answers 404, the record is asked again and the page says so', async () => {
    const { record } = showCustomer({}, SCOPED);
    await loaded();
    record.deleted = true;
    const box = await screen.findByRole('textbox', { name: 'Add a note' });
    fireEvent.change(box, { target: { value: 'Called' } });
    await act(async () => void fireEvent.click(screen.getByRole('button', { name: 'Add note' })));
    expect(await screen.findByText(MSG_NO_LONGER_ASSIGNED)).toBeTruthy();
  });

  it('D59 a location saved after the customer was assigned away (404): the record is asked again and the page says so', async () => {
    const { record, parts } = showCustomer({}, SCOPED);
    const locations = await section('Service locations');
    record.deleted = true;
    parts.failures.set('POST locations', [{ status: 404, body: { detail: 'No such customer', code: 'not_found' } }]);
    fireEvent.click(within(locations).getByRole('button', { name: 'Add location' }));
    const form = screen.getByRole('form', { name: 'New location' });
    fireEvent.change(within(form).getByLabelText('Label'), { target: { value: 'Cabin' } });
    await act(async () => void fireEvent.click(within(form).getByRole('button', { name: 'Add location' })));
    expect(await screen.findByText(MSG_NO_LONGER_ASSIGNED)).toBeTruthy();
  });
});
