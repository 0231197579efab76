// D32 the home dashboard: customers by status, new this week and month, recently updated, and with
// audit:view the latest activity in plain words; parts the API returns null for are not shown; an empty
// organization is told so honestly. One call: GET /v1/dashboard/.
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import '../ui/no-console';
import type { AuditAction, AuditEntryView } from '../../contract/audit';
import { NEW_THIS_WEEK_DAYS, type DashboardData } from '../../contract/customers';
import { DAY_MS } from '../../contract/time';
import DashboardPage, { WELCOMED_KEY } from '../../src/pages/dashboard/DashboardPage';
import { navigate } from '../../src/router/location';
import type { SessionState } from '../../src/session/types';
import { FakeApi } from '../helpers/fake-api';
import { at, type FakeRecord, OLIVIA, SAM } from '../helpers/fake-customer';
import { renderPage } from '../helpers/render';
import { WITH_ORG } from '../helpers/session';

const as = (...permissions: string[]): Partial<SessionState> => ({ ...WITH_ORG, permissions: ['dashboard:view', ...permissions] });
const OWNER = as('customers:view', 'customers:create', 'customers:update', 'audit:view', 'team:view', 'permissions:view');

const entry = (id: number, action: AuditAction, target: AuditEntryView['target'], changes: Record<string, unknown> = {}, actor = SAM): AuditEntryView => ({
  id,
  at: at(id),
  actor,
  action,
  target,
  changes,
});
const customer = (id: number, label: string) => ({ type: 'customer', id, label });

const ACTIVITY: AuditEntryView[] = [
  entry(9, 'customer.updated', customer(101, 'Jane Doe'), { phone: { from: '1', to: '2' }, status: { from: 'lead', to: 'active' } }),
  entry(8, 'note.added', { type: 'note', id: 5, label: 'Jane Doe' }, { customer_id: 101, body: 'Hi' }),
  entry(7, 'customer.deleted', customer(102, 'Old Customer')),
  entry(6, 'customers.imported', { type: 'import', id: null, label: '12 created, 3 updated, 1 skipped' }, {}, OLIVIA),
  entry(5, 'invitation.created', { type: 'invitation', id: 3, label: 'new@example.com' }, { role: 'member' }, OLIVIA),
  entry(4, 'member.role_changed', { type: 'member', id: 4, label: 'Max' }, { role: { from: 'member', to: 'admin' } }, OLIVIA),
  entry(3, 'permissions.reset', { type: 'permissions', id: null, label: 'Permissions' }, {}, OLIVIA),
];

function data(over: Partial<NonNullable<DashboardData['customers']>> = {}, activity: AuditEntryView[] | null = ACTIVITY): DashboardData {
  return {
    customers: {
      total: 30,
      by_status: { lead: 1, active: 20, inactive: 9 },
      new_this_week: 2,
      new_this_month: 7,
      recently_updated: [
        {
          id: 101,
          name: 'Jane Doe',
          company: null,
          email: null,
          phone: null,
          city: null,
          status: 'active',
          tags: [],
          type: 'residential',
          do_not_service: false,
          custom: {},
          assigned_to: null,
          created_at: at(0),
          updated_at: at(9),
        },
        {
          id: 103,
          name: 'Bo Chen',
          company: null,
          email: null,
          phone: null,
          city: null,
          status: 'lead',
          tags: [],
          type: 'residential',
          do_not_service: false,
          custom: {},
          assigned_to: null,
          created_at: at(0),
          updated_at: at(2),
        },
      ],
      ...over,
    },
    activity,
  };
}

function show(state: Partial<SessionState> = OWNER, setup: (r: FakeRecord) => void = (r) => (r.dashboard = data())) {
  const api = new FakeApi();
  const record = api.record;
  setup(record);
  renderPage('/dashboard', <DashboardPage />, { as: state, fake: api });
  return { record };
}

const region = (name: string) => screen.findByRole('region', { name });
const href = (el: HTMLElement) => el.getAttribute('href');

beforeEach(() => navigate('/', { replace: true }));

describe('D32 dashboard', () => {
  it("greets the person in their organization: 'Welcome' on a first visit, 'Welcome back' after", () => {
    localStorage.removeItem(WELCOMED_KEY);
    show();
    expect(screen.getByText('Welcome, Olive. You are working in Acme Plumbing.')).toBeTruthy();
    cleanup();
    show();
    expect(screen.getByText('Welcome back, Olive. You are working in Acme Plumbing.')).toBeTruthy();
  });

  it('D32 one call; the total, each status linking to the list filtered by it, new this week and this month', async () => {
    const { record } = show();
    const total = await region('Customers');
    expect(total.querySelector('.stat-value')!.textContent).toBe('30');
    expect(href(within(total).getByRole('link', { name: 'View customer list' }))).toBe('/customers');
    const status = screen.getByRole('region', { name: 'By status' });
    expect(href(within(status).getByRole('link', { name: '1 lead' }))).toBe('/customers?status=lead');
    expect(href(within(status).getByRole('link', { name: '20 active' }))).toBe('/customers?status=active');
    expect(href(within(status).getByRole('link', { name: '9 inactive' }))).toBe('/customers?status=inactive');
    const fresh = screen.getByRole('region', { name: 'New customers' });
    expect(within(fresh).getByText('This week').nextElementSibling!.textContent).toBe('2');
    expect(within(fresh).getByText('This month').nextElementSibling!.textContent).toBe('7');
    // Issue 34 item 9: the list of those added this week (the card's count), newest first.
    const since = new Date(Date.now() - NEW_THIS_WEEK_DAYS * DAY_MS).toISOString().slice(0, 15);
    expect(href(within(fresh).getByRole('link', { name: 'View newest customers' }))).toMatch(new RegExp(`^/customers\\?sort=-created_at&created_since=${since}`));
    expect(record.calls('/v1/dashboard/')).toHaveLength(1);
    expect(record.calls('/v1/customers/')).toHaveLength(0);
  });

  it('D32 the most recently updated customers link to their pages, with when', async () => {
    show();
    const recent = await region('Recently updated');
    const links = within(recent).getAllByRole('link');
    expect(links.map((l) => [l.textContent, href(l)])).toEqual([
      ['Jane Doe', '/customers/101'],
      ['Bo Chen', '/customers/103'],
    ]);
    expect(recent.querySelector('time')!.getAttribute('dateTime')).toBe(at(9));
  });

  it('D32 with audit:view the latest activity in plain words, linking to the customer or member, and "See all activity"', async () => {
    show();
    const activity = await region('Latest activity');
    const lines = within(activity)
      .getAllByRole('listitem')
      .map((li) => li.firstElementChild!.textContent);
    expect(lines).toEqual([
      'Sam changed phone and status of Jane Doe',
      'Sam added a note to Jane Doe',
      'Sam deleted Old Customer',
      'Olivia imported customers from a CSV file: 12 created, 3 updated, 1 skipped',
      'Olivia invited new@example.com as member',
      'Olivia changed the role of Max from member to admin',
      'Olivia reset the permissions to the defaults',
    ]);
    const items = within(activity).getAllByRole('listitem');
    expect(href(within(items[0]!).getByRole('link', { name: 'Jane Doe' }))).toBe('/customers/101');
    expect(href(within(items[1]!).getByRole('link', { name: 'Jane Doe' }))).toBe('/customers/101');
    expect(within(items[2]!).queryByRole('link')).toBeNull(); // a deleted customer's page is a 404
    expect(href(within(items[5]!).getByRole('link', { name: 'Max' }))).toBe('/team');
    expect(href(within(items[6]!).getByRole('link', { name: 'the permissions' }))).toBe('/permissions');
    expect(href(within(activity).getByRole('link', { name: 'See all activity' }))).toBe('/activity');
  });

  it('D9 links to Team and Permissions only for who may open them', async () => {
    show(as('customers:view', 'audit:view'));
    const activity = await region('Latest activity');
    expect(within(activity).queryByRole('link', { name: 'Max' })).toBeNull();
    expect(within(activity).queryByRole('link', { name: 'the permissions' })).toBeNull();
    expect(within(activity).getByText(/changed the role of Max/)).toBeTruthy();
  });

  it('D32 without audit:view (activity null) there is no activity section', async () => {
    show(as('customers:view'), (r) => (r.dashboard = data({}, null)));
    await region('Customers');
    expect(screen.queryByRole('region', { name: 'Latest activity' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'See all activity' })).toBeNull();
  });

  it('D32 without customers:view (customers null) only the activity shows', async () => {
    show(as('audit:view'), (r) => (r.dashboard = { customers: null, activity: ACTIVITY }));
    await region('Latest activity');
    expect(screen.queryByRole('region', { name: 'Customers' })).toBeNull();
    expect(screen.queryByRole('region', { name: 'Recently updated' })).toBeNull();
  });

  it('D9 with neither customers:view nor audit:view nothing is asked for', () => {
    const { record } = show(as());
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Dashboard');
    expect(record.calls('/v1/dashboard/')).toEqual([]);
  });

  it('D32 a new organization: "No customers yet" with Add your first customer (and import) when allowed', async () => {
    show(OWNER, (r) => (r.dashboard = data({ total: 0, by_status: { lead: 0, active: 0, inactive: 0 }, new_this_week: 0, new_this_month: 0, recently_updated: [] }, [])));
    const empty = await region('No customers yet');
    expect(href(within(empty).getByRole('link', { name: 'Add your first customer' }))).toBe('/customers/new');
    expect(href(within(empty).getByRole('link', { name: 'import them from a CSV file' }))).toBe('/customers/import');
    expect(screen.queryByRole('region', { name: 'Customers' })).toBeNull();
    expect(screen.queryByRole('region', { name: 'Recently updated' })).toBeNull();
    expect(within(screen.getByRole('region', { name: 'Latest activity' })).getByText('Nothing has happened yet.')).toBeTruthy();
  });

  it('D9 a new organization without customers:create is not offered to add one', async () => {
    show(as('customers:view'), (r) => (r.dashboard = data({ total: 0, by_status: { lead: 0, active: 0, inactive: 0 }, recently_updated: [] }, null)));
    const empty = await region('No customers yet');
    expect(within(empty).queryByRole('link')).toBeNull();
  });

  it('shows a loading state, and an error with Retry', async () => {
    show(OWNER, (r) => {
      r.dashboard = data();
      r.failures.set('GET /v1/dashboard/', [503]);
    });
    expect(screen.getByRole('status').textContent).toContain('Loading the dashboard…');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Could not load the dashboard. Please try again.');
    fireEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(screen.getByRole('region', { name: 'Customers' })).toBeTruthy());
  });
});
