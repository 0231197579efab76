import { fireEvent, screen } from '@testing-library/react';
import type { ComponentType } from 'react';
import { beforeEach, describe, expect, it } from 'vitest';
import '../ui/no-console';
import CallsPage from '../../src/pages/calls/CallsPage';
import AddCustomerPage from '../../src/pages/customers/AddCustomerPage';
import CustomerDashboardPage from '../../src/pages/customers/CustomerDashboardPage';
import CustomersPage from '../../src/pages/customers/CustomersPage';
import EditCustomerPage from '../../src/pages/customers/EditCustomerPage';
import DashboardPage from '../../src/pages/dashboard/DashboardPage';
import EmailPage from '../../src/pages/email/EmailPage';
import ForbiddenPage from '../../src/pages/forbidden/ForbiddenPage';
import JobsPage from '../../src/pages/jobs/JobsPage';
import PermissionsPage from '../../src/pages/permissions/PermissionsPage';
import SmsPage from '../../src/pages/sms/SmsPage';
import TeamPage from '../../src/pages/team/TeamPage';
import { navigate } from '../../src/router/location';
import { matchPath } from '../../src/router/match';
import { ParamsContext } from '../../src/router/params';
import { FakeApi, json } from '../helpers/fake-api';
import { renderPage, renderWithSession } from '../helpers/render';
import { pageSession, WITH_ORG } from '../helpers/session';

/** Renders a page with the :params the app would give it for the current path. */
const PATTERNS = ['/customers/:id/edit', '/customers/:id'];
function show(Page: ComponentType, state = WITH_ORG) {
  const params = PATTERNS.map((p) => matchPath(p, window.location.pathname)).find(Boolean) ?? {};
  return renderWithSession(
    pageSession({ state }),
    <ParamsContext.Provider value={params}>
      <Page />
    </ParamsContext.Provider>,
  );
}
const title = () => screen.getByRole('heading', { level: 1 }).textContent;

beforeEach(() => navigate('/', { replace: true }));

describe('pages', () => {
  it.each([
    ['SMS', SmsPage],
    ['Email', EmailPage],
    ['Calls', CallsPage],
    ['Jobs', JobsPage],
  ] as const)('SPEC §1 the %s page is a placeholder showing only placeholder text', (name, Page) => {
    show(Page);
    expect(title()).toBe(name);
    expect(screen.getByText(/placeholder/)).toBeTruthy();
    expect(screen.queryByRole('button')).toBeNull();
    expect(screen.queryByRole('textbox')).toBeNull();
  });

  it.each([
    ['Dashboard', DashboardPage, '/dashboard'],
    ['Customers', CustomersPage, '/customers'],
    ['Customer Dashboard', CustomerDashboardPage, '/customers/12'],
    ['Add Customer', AddCustomerPage, '/customers/new'],
    ['Edit Customer', EditCustomerPage, '/customers/12/edit'],
    ['Team', TeamPage, '/team'],
    ['Permissions', PermissionsPage, '/permissions'],
  ] as const)('SPEC §2 the %s page shows its title', (name, Page, path) => {
    navigate(path);
    show(Page);
    expect(title()).toBe(name);
  });

  it("SPEC §2 /forbidden shows 'You do not have permission to view this page.'", () => {
    show(ForbiddenPage);
    expect(screen.getByText('You do not have permission to view this page.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to Dashboard' }).getAttribute('href')).toBe('/dashboard');
  });

  it.each(['/customers/abc', '/customers/0', '/customers/-3', '/customers/1.5', '/customers/abc/edit'])(
    'D12 a customer id that is not a positive integer (%s) shows a not-found state',
    (path) => {
      navigate(path);
      show(path.endsWith('/edit') ? EditCustomerPage : CustomerDashboardPage);
      expect(title()).toBe('Customer not found');
      expect(screen.getByRole('link', { name: 'Back to Customers' }).getAttribute('href')).toBe('/customers');
    },
  );

  it.each(['/customers/042', '/customers/1e3', '/customers/99999999999999999'])('D12 customer ids are positive integers only: %s is not found', (path) => {
    navigate(path);
    show(CustomerDashboardPage);
    expect(title()).toBe('Customer not found');
  });

  it('STYLE useParams: the page reads the id the app matched, not the path', async () => {
    const fake = new FakeApi();
    fake.routes.set('/v1/customers/43/', () => json(404, { detail: 'No such customer', code: 'not_found' }));
    const t = renderPage('/customers/42', <CustomerDashboardPage />, { fake, params: { id: '43' } });
    expect(await screen.findByRole('heading', { level: 1, name: 'Customer not found' })).toBeTruthy();
    expect(t.api.calls.map((c) => c.path)).toContain('/api/v1/customers/43/');
    expect(t.api.calls.map((c) => c.path)).not.toContain('/api/v1/customers/42/');
  });

  it('SPEC §2 Add Customer and Edit Customer share one form; Cancel goes back', () => {
    navigate('/customers/7/edit');
    show(EditCustomerPage);
    fireEvent.click(screen.getByRole('link', { name: 'Cancel' }));
    expect(window.location.pathname).toBe('/customers/7');
  });

  it('D9 Add Customer is offered on the list only to people with customers:create', () => {
    show(CustomersPage, { ...WITH_ORG, permissions: ['dashboard:view', 'customers:view'] });
    expect(screen.queryByRole('link', { name: 'Add Customer' })).toBeNull();
  });

  it('the dashboard greets the person in their organization', () => {
    show(DashboardPage);
    expect(screen.getByText(/^Welcome( back)?, Olive. You are working in Acme Plumbing.$/)).toBeTruthy(); // first visit or not: home-dashboard.test.tsx
  });
});
