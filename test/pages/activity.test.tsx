// D30 the activity log: each action in plain words with its links, filters (person, action, target)
// kept in the URL, paging; the person filter from the team (team:view) or from the entries seen.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import '../ui/no-console';
import type { AuditAction, AuditEntryView } from '../../contract/audit';
import { AUDIT_PAGE_SIZE } from '../../src/api/team';
import ActivityPage from '../../src/pages/activity/ActivityPage';
import { activityHref, readActivityParams } from '../../src/pages/activity/activity-params';
import { PERMISSIONS } from '../../contract/permissions';
import { describe as words, describeText } from '../../src/audit/describe';
import { PERMISSION_TEXT } from '../../src/pages/permissions/PermissionsPage';
import { ACTIONS, EMPTY_VALUE, VALUE_MAX_CHARS } from '../../src/audit/words';
import { navigate } from '../../src/router/location';
import type { SessionState } from '../../src/session/types';
import { FakeApi } from '../helpers/fake-api';
import type { FakeTeam } from '../helpers/fake-team';
import { renderPage } from '../helpers/render';
import { WITH_ORG } from '../helpers/session';

const OLIVIA = { id: 1, name: 'Olivia' };
let serial = 0;
function entry(action: AuditAction, target: AuditEntryView['target'], changes: Record<string, unknown> = {}, actor: AuditEntryView['actor'] = OLIVIA): AuditEntryView {
  return { id: ++serial, at: new Date(Date.UTC(2024, 5, 1, 12, 0, serial)).toISOString(), actor, action, target, changes };
}
const JANE = { type: 'customer', id: 42, label: 'Jane Doe' };
const NOTE = { type: 'note', id: 7, label: 'Jane Doe' };
const SAM = { type: 'member', id: 5, label: 'Sam' };
const INVITE = { type: 'invitation', id: 9, label: 'sam@example.com' };
const MATRIX = { type: 'permissions', id: null, label: 'Permissions' };
const ORG = { type: 'organization', id: 1, label: 'Acme' };
const FIELD = { type: 'custom_field', id: 3, label: 'Gate code' };

/** One entry per D30 action, with the sentence it must read as. */
const WORDED: [AuditEntryView, string][] = [
  [entry('customer.created', JANE, { name: 'Jane Doe' }), 'Olivia added the customer Jane Doe'],
  [entry('customer.updated', JANE, { phone: { from: '555-0100', to: '555-0199' } }), 'Olivia changed Jane Doe’s phone from 555-0100 to 555-0199'],
  [
    entry('customer.updated', JANE, { company: { from: null, to: 'Acme' }, postal_code: { from: '97201', to: '97202' }, tags: { from: ['vip'], to: ['vip', 'north'] } }),
    `Olivia changed Jane Doe’s company from ${EMPTY_VALUE} to Acme, postal code from 97201 to 97202 and tags from vip to vip, north`,
  ],
  [entry('customer.deleted', JANE), 'Olivia deleted the customer Jane Doe'],
  [entry('customer.restored', JANE), 'Olivia restored the customer Jane Doe'],
  [entry('customers.imported', { type: 'import', id: null, label: '3 created, 1 updated, 0 skipped' }), 'Olivia imported customers: 3 created, 1 updated, 0 skipped'],
  [entry('note.added', NOTE, { customer_id: 42, body: 'Called about the boiler' }), 'Olivia added a note to Jane Doe: “Called about the boiler”'],
  [entry('note.edited', NOTE, { customer_id: 42, body: { from: 'a', to: 'Boiler fixed' } }), 'Olivia edited a note on Jane Doe: “Boiler fixed”'],
  [entry('note.deleted', NOTE, { customer_id: 42, body: 'old' }), 'Olivia deleted a note on Jane Doe'],
  [entry('member.role_changed', SAM, { role: { from: 'member', to: 'admin' } }), 'Olivia changed Sam’s role from member to admin'],
  [entry('member.removed', SAM, { role: 'member', email: 'sam@example.com' }), 'Olivia removed Sam (member) from the team'],
  [entry('invitation.created', INVITE, { email: 'sam@example.com', role: 'member' }), 'Olivia invited sam@example.com as member'],
  [entry('invitation.revoked', INVITE, { email: 'sam@example.com', role: 'member' }), 'Olivia revoked the invitation for sam@example.com'],
  [entry('invitation.renewed', INVITE, { email: 'sam@example.com', role: 'member', replaces: 8 }), 'Olivia renewed the invitation for sam@example.com'],
  [
    entry('invitation.accepted', SAM, { email: 'sam@example.com', role: 'member', new_account: true }, { id: 5, name: 'Sam' }),
    'Sam joined the team as member (invited as sam@example.com)',
  ],
  [
    entry('permissions.changed', MATRIX, { member: { added: ['customers:delete'], removed: [] } }),
    'Olivia changed the permissions: gave the member role “Delete and restore customers”',
  ],
  [
    entry('permissions.changed', MATRIX, { member: { added: ['customers:delete'], removed: ['jobs:view'] }, viewer: { added: ['sms:view'], removed: [] } }),
    'Olivia changed the permissions: gave the member role “Delete and restore customers” and took “View jobs” from it; gave the viewer role “View text messages (SMS)”',
  ],
  [
    entry('permissions.reset', MATRIX, { member: { added: [], removed: ['customers:delete'] } }),
    'Olivia reset the permissions to the defaults (took “Delete and restore customers” from the member role)',
  ],
];

/** D54: two-step sign-in and the organization's settings. */
const ACCOUNT_WORDED: [AuditEntryView, string][] = [
  // D51–D53: the person's own account.
  [entry('account.updated', { type: 'member', id: 1, label: 'Olivia' }, { email: { from: 'a@x.test', to: 'b@x.test' } }), 'Olivia changed their account (email)'],
  [entry('account.password_changed', { type: 'member', id: 1, label: 'Olivia' }), 'Olivia changed their password'],
  [entry('account.session_revoked', { type: 'member', id: 1, label: 'Olivia' }, { ended_sessions: 2 }), 'Olivia signed out their other sessions'],
  [entry('account.session_revoked', { type: 'member', id: 1, label: 'Olivia' }), 'Olivia signed out a session'],
  [entry('account.reset_link_created', SAM), 'Olivia created a password reset link for Sam'],
  [entry('account.password_reset', SAM, {}, { id: 5, name: 'Sam' }), 'Sam set a new password with a reset link'],
  [entry('account.mfa_enabled', { type: 'member', id: 1, label: 'Olivia' }), 'Olivia turned on two-step sign-in'],
  [entry('account.mfa_disabled', { type: 'member', id: 1, label: 'Olivia' }), 'Olivia turned off two-step sign-in'],
  [entry('account.mfa_reset', SAM), 'Olivia reset the two-step sign-in of Sam'],
  [entry('account.mfa_recovery_codes_renewed', { type: 'member', id: 1, label: 'Olivia' }), 'Olivia made new recovery codes for two-step sign-in'],
  [entry('organization.settings_updated', ORG, { require_mfa: { from: false, to: true } }), 'Olivia required two-step sign-in for everyone'],
  [entry('organization.settings_updated', ORG, { require_mfa: { from: true, to: false } }), 'Olivia stopped requiring two-step sign-in'],
];

/** D46 D47: the location and contact actions, with the sentence each must read as. */
const PART_WORDED: [AuditEntryView, string][] = [
  [entry('location.added', JANE, { location_id: 3, location: 'Home', city: 'Tigard' }), 'Olivia added the location “Home” to Jane Doe'],
  [
    entry('location.updated', JANE, { location_id: 3, location: 'Home', city: { from: 'Tigard', to: 'Salem' } }),
    'Olivia changed the location “Home” of Jane Doe: city from Tigard to Salem',
  ],
  [entry('location.removed', JANE, { location_id: 3, location: 'Home' }), 'Olivia removed the location “Home” from Jane Doe'],
  [entry('contact.added', JANE, { contact_id: 4, contact: 'Pat' }), 'Olivia added the contact “Pat” to Jane Doe'],
  [
    entry('contact.updated', JANE, { contact_id: 4, contact: 'Pat', phone: { from: null, to: '555-0100' } }),
    `Olivia changed the contact “Pat” of Jane Doe: phone from ${EMPTY_VALUE} to 555-0100`,
  ],
  [entry('contact.removed', JANE, { contact_id: 4, contact: 'Pat' }), 'Olivia removed the contact “Pat” from Jane Doe'],
  // D49: the survivor's entries name the customer merged into it.
  [entry('customer.merged', JANE, { merge_id: 2, merged_customer: { id: 7, name: 'Jane Do' } }), 'Olivia merged Jane Do into Jane Doe'],
  [entry('customer.merge_undone', JANE, { merge_id: 2, merged_customer: { id: 7, name: 'Jane Do' } }), 'Olivia undid the merge of Jane Do into Jane Doe'],
  // D56: a custom field's definition, by its label.
  [entry('custom_field.created', FIELD, { key: 'gate_code' }), 'Olivia added the custom field “Gate code”'],
  [entry('custom_field.updated', FIELD, { help: { from: null, to: 'At the side door' } }), 'Olivia changed the custom field “Gate code” (help)'],
  [entry('custom_field.archived', FIELD, { key: 'gate_code' }), 'Olivia archived the custom field “Gate code”'],
  [entry('custom_field.restored', FIELD, { key: 'gate_code' }), 'Olivia restored the custom field “Gate code”'],
  [entry('custom_field.deleted', FIELD, { key: 'gate_code', records_with_value: 2 }), 'Olivia deleted the custom field “Gate code” and its values on 2 records'],
  [entry('custom_field.reordered', { type: 'custom_field', id: null, label: 'customer' }, { order: ['Gate code'] }), 'Olivia reordered the custom fields'],
  // D57: a shared view by its name, a personal one unnamed.
  [entry('view.created', { type: 'view', id: 2, label: 'Leads' }, { shared: true }), 'Olivia shared the view “Leads”'],
  [entry('view.updated', { type: 'view', id: 2, label: 'Personal view' }, { fields: ['name'] }), 'Olivia changed a personal view'],
  [entry('view.deleted', { type: 'view', id: 2, label: 'Leads' }, { name: 'Leads' }), 'Olivia removed the view “Leads”'],
  [entry('view.default_changed', { type: 'view', id: 2, label: 'Leads' }, { view_id: { from: null, to: 2 } }), 'Olivia chose their default view'],
  // D58: a bulk action's one entry; D67: everything downloaded.
  [
    entry('customers.bulk_changed', { type: 'bulk_action', id: 5, label: '12 customers' }, { action: 'remove_tag', tag: 'vip', changed: 12 }),
    'Olivia removed the tag “vip” from 12 customers',
  ],
  [entry('customers.bulk_deleted', { type: 'bulk_action', id: 5, label: '2 customers' }, { action: 'delete', changed: 2 }), 'Olivia deleted 2 customers'],
  [
    entry('customers.bulk_undone', { type: 'bulk_action', id: 5, label: '2 customers' }, { action: 'delete', restored: 2, changed_since: 0 }),
    'Olivia undid a bulk change to 2 customers',
  ],
  [
    entry('organization.exported', { type: 'organization', id: 1, label: 'Everything' }, { files: ['customers.csv'] }),
    'Olivia downloaded all of the organization’s data',
  ],
];

describe('D30 activity wording', () => {
  it.each([...WORDED, ...PART_WORDED, ...ACCOUNT_WORDED].map(([e, text]) => [e.action, text, e] as const))('D30 %s reads "%s"', (_action, text, e) => {
    expect(describeText(e)).toBe(text);
  });

  it("D30 a status change reads in the app's words (Lead, Active), not as stored", () => {
    expect(describeText(entry('customer.updated', JANE, { status: { from: 'lead', to: 'active' } }))).toBe('Olivia changed Jane Doe’s status from Lead to Active');
  });

  it("D24 D46 D47 on a customer's timeline a location's or contact's change reads as the customer's do, naming which", () => {
    const changed = entry('location.updated', JANE, { location_id: 3, location: 'Home', city: { from: 'Tigard', to: 'Salem' } });
    expect(describeText(changed, 'timeline')).toBe('Olivia changed city from Tigard to Salem (the location “Home”)');
    expect(describeText(entry('contact.added', JANE, { contact_id: 4, contact: 'Pat' }), 'timeline')).toBe('Olivia added the contact “Pat” to this customer');
  });

  it("issue 34 item 9 D55 a permission change in the log says each permission in the matrix's words, not its code", () => {
    for (const p of PERMISSIONS) {
      const text = describeText(entry('permissions.changed', MATRIX, { viewer: { added: [p], removed: [] } }));
      expect(text).toBe(`Olivia changed the permissions: gave the viewer role “${PERMISSION_TEXT[p]}”`);
      expect(text).not.toContain(p);
    }
  });

  it('D30 every action the filter offers has its own wording', () => {
    const worded = new Set([...WORDED, ...PART_WORDED, ...ACCOUNT_WORDED].map(([e]) => e.action));
    expect(ACTIONS.map((a) => a.action).filter((a) => !worded.has(a))).toEqual([]);
  });

  it('D30 links: the customer (a note’s via changes.customer_id), a member → /team; none without the right (D9)', () => {
    const link = (e: AuditEntryView, rights = { customers: true, team: true }) => words(e, 'log', { permissions: true, ...rights }).filter((p) => typeof p !== 'string');
    expect(link(WORDED[0]![0])).toEqual([{ text: 'Jane Doe', to: '/customers/42' }]);
    expect(link(WORDED[6]![0])).toEqual([{ text: 'Jane Doe', to: '/customers/42' }]);
    expect(link(WORDED[9]![0])).toEqual([{ text: 'Sam', to: '/team' }]);
    expect(link(WORDED[0]![0], { customers: false, team: true })).toEqual([]);
    expect(link(WORDED[9]![0], { customers: true, team: false })).toEqual([]);
  });

  it('long values are cut, an unknown action still reads as a sentence, and no actor is "Someone"', () => {
    const long = 'x'.repeat(VALUE_MAX_CHARS + 50);
    expect(describeText(entry('note.added', NOTE, { customer_id: 42, body: long }))).toHaveLength('Olivia added a note to Jane Doe: “”'.length + VALUE_MAX_CHARS);
    expect(describeText(entry('thing.frobbed' as AuditAction, { type: 'thing', id: 1, label: 'Widget' }))).toBe('Olivia thing frobbed Widget');
    expect(describeText(entry('customer.deleted', JANE, {}, null))).toBe('Someone deleted the customer Jane Doe');
  });
});

describe('D30 activity URL', () => {
  it('reads and writes filters and page; malformed values fall back to their defaults', () => {
    const s = readActivityParams('?actor=3&action=customer.updated&target_type=customer&page=2');
    expect(s).toEqual({ actor: 3, action: 'customer.updated', targetType: 'customer', page: 2 });
    expect(activityHref(s)).toBe('/activity?actor=3&action=customer.updated&target_type=customer&page=2');
    expect(readActivityParams('?actor=x&action=DROP%20TABLE&target_type=1&page=0')).toEqual({ actor: null, action: '', targetType: '', page: 1 });
    expect(activityHref(readActivityParams(''))).toBe('/activity');
  });
});

function show(path = '/activity', state: Partial<SessionState> = WITH_ORG, setup: (team: FakeTeam) => void = () => {}) {
  const api = new FakeApi();
  const team = api.team;
  team.audit = WORDED.map(([e]) => e).reverse();
  setup(team);
  renderPage(path, <ActivityPage />, { as: state, fake: api });
  return { api, team };
}

const auditQueries = (api: FakeApi) => api.calls.filter((c) => c.path === '/api/v1/audit/').map((c) => c.search);
const url = () => window.location.pathname + window.location.search;
const pick = (name: string, value: string) => fireEvent.change(screen.getByRole('combobox', { name }), { target: { value } });
const rows = () => within(screen.getByRole('table')).getAllByRole('row').slice(1);

beforeEach(() => navigate('/', { replace: true }));

describe('D30 activity page', () => {
  it('D30 lists the entries newest first in a table with headers and a caption, each in words with its links', async () => {
    show();
    const table = await screen.findByRole('table', { name: /Activity, newest first, page 1 of 1/ });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['When', 'What happened']);
    expect(rows()[0]!.textContent).toContain('Olivia reset the permissions to the defaults');
    const created = rows().find((r) => r.textContent?.includes('added the customer'))!;
    expect(within(created).getByRole('link', { name: 'Jane Doe' }).getAttribute('href')).toBe('/customers/42');
    const role = rows().find((r) => r.textContent?.includes('’s role from'))!;
    expect(within(role).getByRole('link', { name: 'Sam' }).getAttribute('href')).toBe('/team');
    expect(screen.getByText(`${WORDED.length} entries`)).toBeTruthy();
  });

  it('D30 filters go into the URL and the call; Clear filters empties them', async () => {
    const { api } = show();
    await screen.findByRole('table');
    pick('Action', 'customer.updated');
    expect(url()).toBe('/activity?action=customer.updated');
    await waitFor(() => expect(rows()).toHaveLength(2));
    pick('About', 'customer');
    expect(url()).toBe('/activity?action=customer.updated&target_type=customer');
    pick('Person', '1');
    expect(url()).toBe('/activity?actor=1&action=customer.updated&target_type=customer');
    await waitFor(() => expect(auditQueries(api).at(-1)).toBe(`?actor=1&action=customer.updated&target_type=customer&page=1&page_size=${AUDIT_PAGE_SIZE}`));
    fireEvent.click(screen.getAllByRole('button', { name: 'Clear filters' })[0]!);
    expect(url()).toBe('/activity');
  });

  it('D30 a shared link with filters shows the same entries (filters read from the URL)', async () => {
    const { api } = show('/activity?target_type=invitation');
    await waitFor(() => expect(rows()).toHaveLength(3));
    expect((screen.getByRole('combobox', { name: 'About' }) as HTMLSelectElement).value).toBe('invitation');
    expect(auditQueries(api)).toEqual([`?target_type=invitation&page=1&page_size=${AUDIT_PAGE_SIZE}`]);
  });

  it('D30 pages: Next and Previous move through the log, the page in the URL', async () => {
    const many = Array.from({ length: AUDIT_PAGE_SIZE + 5 }, (_, i) => entry('customer.created', { type: 'customer', id: 100 + i, label: `Customer ${i}` }));
    const { api } = show('/activity', WITH_ORG, (team) => (team.audit = many));
    await screen.findByRole('table', { name: /page 1 of 2/ });
    expect(rows()).toHaveLength(AUDIT_PAGE_SIZE);
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(url()).toBe('/activity?page=2');
    await screen.findByRole('table', { name: /page 2 of 2/ });
    await waitFor(() => expect(rows()).toHaveLength(5));
    expect(auditQueries(api).at(-1)).toBe(`?page=2&page_size=${AUDIT_PAGE_SIZE}`);
    expect((screen.getByRole('button', { name: 'Next' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Previous' }));
    expect(url()).toBe('/activity');
  });

  it('D30 the person filter lists the team with team:view', async () => {
    show();
    await screen.findByRole('table');
    await waitFor(() =>
      expect(
        within(screen.getByRole('combobox', { name: 'Person' }))
          .getAllByRole('option')
          .map((o) => o.textContent),
      ).toEqual(['Anyone', 'Olive', 'Ada', 'Mo', 'Vi', 'Sam']),
    ); // a former member (Sam) from the entries too;
  });

  it('D30 without team:view the person filter lists the people seen in the entries, and the team is never asked', async () => {
    const { api } = show('/activity', { ...WITH_ORG, permissions: ['dashboard:view', 'audit:view', 'customers:view'] });
    await screen.findByRole('table');
    await waitFor(() =>
      expect(
        within(screen.getByRole('combobox', { name: 'Person' }))
          .getAllByRole('option')
          .map((o) => o.textContent),
      ).toEqual(['Anyone', 'Olivia', 'Sam']),
    );
    expect(api.calls.some((c) => c.path === '/api/v1/team/members/')).toBe(false);
    const role = rows().find((r) => r.textContent?.includes('’s role from'))!;
    expect(within(role).queryByRole('link')).toBeNull(); // no link to a page they cannot open
  });

  it('empty, and filtered to nothing, say so', async () => {
    show('/activity?action=note.deleted', WITH_ORG, (team) => (team.audit = []));
    expect(await screen.findByText('No activity matches these filters.')).toBeTruthy();
    fireEvent.click(screen.getAllByRole('button', { name: 'Clear filters' }).at(-1)!);
    expect(await screen.findByText('No activity yet.')).toBeTruthy();
  });

  it('a log that cannot be loaded says so, with Retry', async () => {
    show('/activity', WITH_ORG, (team) => team.refuse('GET', '/v1/audit/', 403, 'permission_denied', 'Your role does not grant audit:view'));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('You do not have permission to view the activity of this organization.');
    fireEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('table')).toBeTruthy();
  });
});
