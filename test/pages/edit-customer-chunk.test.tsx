// D40 on Edit Customer: the form's code is a chunk loaded beside the customer's data call; when it
// cannot load, the page says so with Retry (never a spinner for ever), and the person's way back stays.
import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import '../ui/no-console';
import EditCustomerPage from '../../src/pages/customers/EditCustomerPage';
import { navigate } from '../../src/router/location';
import { FakeApi } from '../helpers/fake-api';
import { ANN } from '../helpers/fake-records';
import { renderPage } from '../helpers/render';

// A chunk that fails as a dynamic import does when the file cannot be fetched.
vi.mock('../../src/pages/customers/CustomerForm', () => {
  throw new TypeError('Failed to fetch dynamically imported module');
});

beforeEach(() => navigate('/', { replace: true }));

describe("Edit Customer's form chunk", () => {
  it('D40 a form whose code cannot load says so with Retry (not a spinner for ever); Cancel still leads back', async () => {
    const api = new FakeApi();
    void api.records; // Ann's record answers
    renderPage(`/customers/${ANN.id}/edit`, <EditCustomerPage />, { fake: api, params: { id: String(ANN.id) } });
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByRole('button', { name: 'Retry' })).toBeTruthy();
    expect(within(alert).getByText('Could not load the form. Please try again.')).toBeTruthy();
    expect(screen.queryByRole('textbox', { name: 'Name' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Cancel' }).getAttribute('href')).toBe(`/customers/${ANN.id}`);
  });
});
