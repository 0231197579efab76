// The Customer Dashboard (customers/{id}): D22 the record, D24 notes and timeline, D25 delete with
// Undo, D12 not found, D9 what is offered per permission, D15 names, dialogs and focus. Through the real
// client and query cache against the fake record (test/helpers/fake-customer.ts).
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import '../ui/no-console';
import type { TimelineItem } from '../../contract/customers';
import CustomerDashboardPage from '../../src/pages/customers/CustomerDashboardPage';
import { TIMELINE_PAGE_SIZE } from '../../src/pages/customers/detail/Timeline';
import { navigate } from '../../src/router/location';
import type { SessionState } from '../../src/session/types';
import { toasts } from '../../src/ui/toast';
import { FakeApi } from '../helpers/fake-api';
import { audit, type FakeRecord, note, OLIVIA, SAM } from '../helpers/fake-customer';
import { renderPage } from '../helpers/render';
import { WITH_ORG } from '../helpers/session';

const BASE = ['dashboard:view', 'customers:view'];
const as = (...permissions: string[]): Partial<SessionState> => ({ ...WITH_ORG, permissions: [...BASE, ...permissions] });
const EVERYTHING = as('customers:create', 'customers:update', 'customers:delete');

/** Renders /customers/{id} against a fresh fake API and cache (no retries); `setup` programs the record first. */
function show(state: Partial<SessionState> = EVERYTHING, setup: (r: FakeRecord, api: FakeApi) => void = () => {}, id = '101') {
  const api = new FakeApi();
  const record = api.record;
  record.items = [
    note(2, 'Prefers morning visits.', SAM, 90),
    note(1, 'Boiler serviced in March.', OLIVIA, 30),
    audit(10, 'customer.created', OLIVIA, 0, { name: 'Jane Doe' }),
  ];
  setup(record, api);
  // Signed in as user 1 (Olivia): the access token's subject.
  renderPage(`/customers/${id}`, <CustomerDashboardPage />, { as: state, fake: api, params: { id } });
  return { api, record };
}

const loaded = () => screen.findByRole('heading', { level: 1, name: 'Jane Doe' });
const timeline = () => screen.getByRole('region', { name: 'Notes and history' });
const entries = () =>
  within(timeline())
    .getAllByRole('listitem')
    .filter((li) => li.classList.contains('timeline-item'));
/** Each entry's sentence, without its time. */
const entryTexts = () => entries().map((li) => li.querySelector('.timeline-line > span')!.textContent!.replace(/\s+/g, ' ').trim());
const noteBy = (name: string) => screen.getByRole('article', { name: `Note by ${name}` });
const composer = () => screen.getByRole('textbox', { name: 'Add a note' }) as HTMLTextAreaElement;
const toastTexts = () => toasts.getState().length;

beforeEach(() => {
  navigate('/', { replace: true });
  toasts.setState([]);
});

describe('customer page states', () => {
  it('shows a loading state, then the customer: name as the heading, status, tags, contact links, address, who and when', async () => {
    const { api } = show(EVERYTHING, (_r, a) => (a.holdRequests = true));
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Customer Dashboard');
    expect(screen.getByRole('status').textContent).toContain('Loading customer…');
    await act(async () => {
      api.holdRequests = false;
      api.release();
    });
    await loaded();
    const contact = screen.getByRole('region', { name: 'Contact' });
    expect(within(contact).getByRole('link', { name: 'jane@example.com' }).getAttribute('href')).toBe('mailto:jane@example.com');
    expect(within(contact).getByRole('link', { name: '(503) 555-0199' }).getAttribute('href')).toBe('tel:5035550199');
    expect(within(contact).getByRole('link', { name: 'vip' }).getAttribute('href')).toBe('/customers?tag=vip');
    expect(screen.getByText('Active', { selector: '.page-description .status' })).toBeTruthy();
    expect(screen.getByText('Doe Plumbing Supplies', { selector: '.customer-company' })).toBeTruthy();
    const address = contact.querySelector('address')!;
    expect([...address.children].map((l) => l.textContent)).toEqual(['12 Oak Street', 'Portland, OR 97201', 'USA']);
    expect(within(contact).getByText(/Added by Olivia/)).toBeTruthy();
    expect(within(contact).getByText(/Last changed by Sam/)).toBeTruthy();
    const time = contact.querySelector('time')!;
    expect(time.getAttribute('dateTime')).toBe('2025-03-01T10:00:00.000Z');
    expect(time.getAttribute('title')).toMatch(/2025/); // the exact date on hover
  });

  it('D12 a 404 (missing, deleted or another organization’s customer) shows the not-found state', async () => {
    show(EVERYTHING, (r) => (r.deleted = true));
    expect(await screen.findByRole('heading', { level: 1, name: 'Customer not found' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to Customers' }).getAttribute('href')).toBe('/customers');
  });

  it('D12 a bad id never calls the API', () => {
    const { api } = show(EVERYTHING, () => {}, 'abc');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Customer not found');
    expect(api.calls.filter((c) => c.path.startsWith('/api/v1/customers'))).toEqual([]);
  });

  it('an error says so with Retry, and Retry loads the customer', async () => {
    show(EVERYTHING, (r) => r.failures.set('GET /v1/customers/101/', [500]));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Could not load this customer. Please try again.');
    fireEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await loaded()).toBeTruthy();
  });

  it('STYLE useParams: the page asks for the id the app matched', async () => {
    const { record } = show();
    await loaded();
    expect(record.calls('/v1/customers/101/', 'GET')).toHaveLength(1);
  });

  it('D9 a viewer sees the customer, but no Edit, no Delete, no note box and no note buttons', async () => {
    show(as());
    await loaded();
    await waitFor(() => expect(entries()).toHaveLength(3));
    expect(screen.queryByRole('link', { name: 'Edit' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete' })).toBeNull();
    expect(screen.queryByRole('textbox', { name: 'Add a note' })).toBeNull();
    expect(within(noteBy('Sam')).queryByRole('button', { name: 'Edit note' })).toBeNull();
  });

  it('D9 customers:update offers Edit (to /customers/{id}/edit) but not Delete; customers:delete offers Delete', async () => {
    show(as('customers:update'));
    await loaded();
    expect(screen.getByRole('link', { name: 'Edit' }).getAttribute('href')).toBe('/customers/101/edit');
    expect(screen.queryByRole('button', { name: 'Delete' })).toBeNull();
  });

  it('D9 customers:delete alone offers Delete but not Edit', async () => {
    show(as('customers:delete'));
    await loaded();
    expect(screen.getByRole('button', { name: 'Delete' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Edit' })).toBeNull();
  });
});

describe('D24 notes', () => {
  it('adds a note: a count of 0/5,000, the text sent trimmed, the box emptied, a toast, the note in the timeline', async () => {
    const { record } = show();
    await loaded();
    expect(screen.getByText('0/5,000')).toBeTruthy();
    expect(composer().maxLength).toBe(5000);
    fireEvent.change(composer(), { target: { value: '  Gate code 4321  ' } });
    expect(screen.getByText('18/5,000')).toBeTruthy();
    expect(composer().getAttribute('aria-describedby')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Add note' }));
    await waitFor(() => expect(composer().value).toBe(''));
    expect(record.calls('/v1/customers/101/notes/', 'POST')[0]!.body).toEqual({ body: 'Gate code 4321' });
    expect(toasts.getState().map((t) => t.message)).toEqual(['Note added']);
    await waitFor(() => expect(within(timeline()).getByText('Gate code 4321')).toBeTruthy());
  });

  it('an empty note is not sent: "Write something first."', async () => {
    const { record } = show();
    await loaded();
    fireEvent.change(composer(), { target: { value: '   ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add note' }));
    expect(screen.getByRole('alert').textContent).toBe('Write something first.');
    expect(composer().getAttribute('aria-invalid')).toBe('true');
    expect(record.calls('/v1/customers/101/notes/', 'POST')).toEqual([]);
  });

  it('a failed save keeps the text and says why (the server’s words for a 400)', async () => {
    show(EVERYTHING, (r) =>
      r.failures.set('POST /v1/customers/101/notes/', [{ status: 400, body: { detail: 'body: contains a control character', code: 'invalid', field: 'body' } }, 500]),
    );
    await loaded();
    fireEvent.change(composer(), { target: { value: 'Call back Tuesday' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add note' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Could not add the note: body: contains a control character.');
    expect(composer().value).toBe('Call back Tuesday');
    fireEvent.click(screen.getByRole('button', { name: 'Add note' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('Could not add the note. Please try again.'));
    expect(composer().value).toBe('Call back Tuesday');
  });

  it('edits a note in place: its text to start from, Save sends the new text, a toast, the note shows it', async () => {
    const { record } = show();
    await loaded();
    await waitFor(() => expect(noteBy('Sam')).toBeTruthy());
    fireEvent.click(within(noteBy('Sam')).getByRole('button', { name: 'Edit note' }));
    const box = within(noteBy('Sam')).getByRole('textbox', { name: 'Edit note' }) as HTMLTextAreaElement;
    expect(box.value).toBe('Prefers morning visits.');
    expect(document.activeElement).toBe(box);
    fireEvent.change(box, { target: { value: 'Prefers afternoon visits.' } });
    fireEvent.click(within(noteBy('Sam')).getByRole('button', { name: 'Save note' }));
    await waitFor(() => expect(within(noteBy('Sam')).getByText('Prefers afternoon visits.')).toBeTruthy());
    expect(record.calls('/v1/customers/101/notes/2/', 'PATCH')[0]!.body).toEqual({ body: 'Prefers afternoon visits.' });
    expect(toasts.getState().map((t) => t.message)).toEqual(['Note saved']);
    expect(within(noteBy('Sam')).getByText(/edited/)).toBeTruthy();
  });

  it('Cancel leaves the note as it was', async () => {
    const { record } = show();
    await loaded();
    await waitFor(() => expect(noteBy('Sam')).toBeTruthy());
    fireEvent.click(within(noteBy('Sam')).getByRole('button', { name: 'Edit note' }));
    fireEvent.change(within(noteBy('Sam')).getByRole('textbox', { name: 'Edit note' }), { target: { value: 'changed' } });
    fireEvent.click(within(noteBy('Sam')).getByRole('button', { name: 'Cancel' }));
    expect(within(noteBy('Sam')).getByText('Prefers morning visits.')).toBeTruthy();
    expect(record.calls('/v1/customers/101/notes/2/')).toEqual([]);
  });

  it('deletes a note after asking; Cancel in the dialog keeps it and gives the focus back', async () => {
    const { record } = show();
    await loaded();
    await waitFor(() => expect(noteBy('Sam')).toBeTruthy());
    const remove = within(noteBy('Sam')).getByRole('button', { name: 'Delete note' });
    remove.focus();
    fireEvent.click(remove);
    const dialog = await screen.findByRole('dialog', { name: 'Delete this note?' }); // its code loads on its own
    // D15: focus moves in (an effect after the dialog's first paint, so it may come a moment after it shows)
    await waitFor(() => expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Cancel' })));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(remove);
    expect(record.calls('/v1/customers/101/notes/2/')).toEqual([]);

    fireEvent.click(remove);
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete note' }));
    await waitFor(() => expect(screen.queryByRole('article', { name: 'Note by Sam' })).toBeNull());
    expect(record.calls('/v1/customers/101/notes/2/', 'DELETE')).toHaveLength(1);
    expect(toasts.getState().map((t) => t.message)).toEqual(['Note deleted']);
  });

  it('D24 without customers:update: no note box, and only the person’s own notes can be edited or deleted', async () => {
    show(as(), (r) => r.permissions.delete('customers:update'));
    await loaded();
    await waitFor(() => expect(noteBy('Olivia')).toBeTruthy());
    expect(screen.queryByRole('textbox', { name: 'Add a note' })).toBeNull();
    expect(within(noteBy('Olivia')).getByRole('button', { name: 'Edit note' })).toBeTruthy();
    expect(within(noteBy('Olivia')).getByRole('button', { name: 'Delete note' })).toBeTruthy();
    expect(within(noteBy('Sam')).queryByRole('button', { name: 'Edit note' })).toBeNull();
    expect(within(noteBy('Sam')).queryByRole('button', { name: 'Delete note' })).toBeNull();
  });
});

describe('D24 timeline', () => {
  it('D24 says each action in plain words, newest first, with each changed field before → after', async () => {
    show(EVERYTHING, (r) => {
      r.items = [
        audit(9, 'customer.updated', SAM, 500, { phone: { from: '(503) 555-0101', to: '(503) 555-0199' } }),
        audit(8, 'customer.updated', SAM, 400, { status: { from: 'lead', to: 'active' }, tags: { from: ['vip'], to: ['vip', 'boiler'] } }),
        audit(7, 'customer.updated', OLIVIA, 300, { company: { from: null, to: 'Doe Plumbing Supplies' } }),
        audit(6, 'customer.updated', OLIVIA, 250, { region: { from: 'WA', to: null } }),
        audit(5, 'customer.restored', SAM, 200),
        audit(4, 'customer.deleted', SAM, 150),
        audit(
          3,
          'customers.imported',
          OLIVIA,
          100,
          { created: 12, updated: 3, skipped: 1, on_duplicate: 'update' },
          { type: 'import', id: null, label: '12 created, 3 updated, 1 skipped' },
        ),
        note(2, 'Prefers morning visits.', SAM, 90),
        audit(1, 'customer.created', OLIVIA, 0, { name: 'Jane Doe' }),
        audit(0, 'customer.created', null, 0),
      ];
    });
    await loaded();
    await waitFor(() => expect(entries()).toHaveLength(10));
    expect(entryTexts()).toEqual([
      'Sam changed phone from (503) 555-0101 to (503) 555-0199',
      'Sam made 2 changes:',
      'Olivia set company to Doe Plumbing Supplies',
      'Olivia cleared region (was WA)',
      'Sam restored this customer',
      'Sam deleted this customer',
      'Olivia imported this customer from a CSV file',
      'Sam added a note',
      'Olivia added this customer',
      'Someone added this customer',
    ]);
    const two = within(entries()[1]!)
      .getAllByRole('listitem')
      .map((li) => li.textContent);
    // A status in the words the app shows (Lead, Active), not as stored; tags as lists.
    expect(two).toEqual(['changed status from Lead to Active', 'changed tags from vip to vip, boiler']);
    expect(entries()[0]!.querySelector('.change-from')!.textContent).toBe('(503) 555-0101');
    expect(entries()[0]!.querySelector('.change-to')!.textContent).toBe('(503) 555-0199');
    for (const li of entries()) expect(li.querySelector('time')!.getAttribute('title')).toBeTruthy(); // relative, and the exact time
  });

  it(`D24 paged: ${TIMELINE_PAGE_SIZE} at first, "Show more" adds the next page and moves the focus to its first item`, async () => {
    const many: TimelineItem[] = Array.from({ length: 25 }, (_, i) => audit(100 - i, 'customer.updated', SAM, 1000 - i, { city: { from: `A${i}`, to: `B${i}` } }));
    const { record } = show(EVERYTHING, (r) => (r.items = many));
    await loaded();
    await waitFor(() => expect(entries()).toHaveLength(TIMELINE_PAGE_SIZE));
    fireEvent.click(screen.getByRole('button', { name: 'Show more' }));
    await waitFor(() => expect(entries()).toHaveLength(25));
    expect(document.activeElement).toBe(entries()[TIMELINE_PAGE_SIZE]);
    expect(screen.queryByRole('button', { name: 'Show more' })).toBeNull();
    expect(record.calls('/v1/customers/101/timeline/').map((c) => c.search)).toEqual(['?page=1&page_size=20', '?page=2&page_size=20']);
  });

  it('a timeline that fails to load says so with Retry', async () => {
    show(EVERYTHING, (r) => r.failures.set('GET /v1/customers/101/timeline/', [500]));
    await loaded();
    const alert = await within(timeline()).findByRole('alert');
    expect(alert.textContent).toContain('Could not load the timeline.');
    fireEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(entries()).toHaveLength(3));
  });
});

describe('D25 delete and undo', () => {
  it('D25 Delete asks first ("Delete Jane Doe?"); Cancel sends nothing and gives the focus back to Delete', async () => {
    const { record } = show();
    await loaded();
    const button = screen.getByRole('button', { name: 'Delete' });
    button.focus();
    fireEvent.click(button);
    const dialog = await screen.findByRole('dialog', { name: 'Delete Jane Doe?' });
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(within(dialog).getByText('You can restore it from Deleted for 30 days.')).toBeTruthy();
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(button);
    expect(record.calls('/v1/customers/101/', 'DELETE')).toEqual([]);
  });

  it('D25 confirmed: deleted, back to /customers, a toast "Jane Doe deleted" whose Undo restores the customer', async () => {
    const { record } = show();
    await loaded();
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete customer' }));
    await waitFor(() => expect(window.location.pathname).toBe('/customers'));
    expect(record.calls('/v1/customers/101/', 'DELETE')).toHaveLength(1);
    const region = screen.getByRole('region', { name: /Notifications/ });
    const deleted = within(region).getByText(/Jane Doe deleted/);
    fireEvent.click(within(deleted).getByRole('button', { name: 'Undo' }));
    await waitFor(() => expect(within(region).getByText(/restored/).textContent).toBe('Jane Doe restored'));
    expect(record.calls('/v1/customers/101/restore/', 'POST')).toHaveLength(1);
    expect(record.deleted).toBe(false);
    expect(within(region).queryByText(/Jane Doe deleted/)).toBeNull();
  });

  it('D25 Undo of a customer restored meanwhile (elsewhere) says it is restored, not that it no longer exists', async () => {
    const { record } = show();
    await loaded();
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete customer' }));
    const undo = await screen.findByRole('button', { name: 'Undo' });
    record.deleted = false; // restored from the Deleted view of another tab
    fireEvent.click(undo);
    const region = screen.getByRole('region', { name: /Notifications/ });
    await waitFor(() => expect(within(region).getByText(/restored/).textContent).toBe('Jane Doe restored'));
    expect(toasts.getState().map((t) => t.kind)).toEqual(['success']);
    expect(region.textContent).not.toContain('no longer exists');
  });

  it('D25 an Undo refused with 409 duplicate_email shows the server’s words', async () => {
    const { record } = show(EVERYTHING, (r) =>
      r.failures.set('POST /v1/customers/101/restore/', [
        { status: 409, body: { detail: 'Jane Smith already has this email', code: 'duplicate_email', field: 'email' } },
      ]),
    );
    await loaded();
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete customer' }));
    const undo = await screen.findByRole('button', { name: 'Undo' });
    fireEvent.click(undo);
    await waitFor(() => expect(toasts.getState().at(-1)?.message).toBe('Could not restore Jane Doe: Jane Smith already has this email.'));
    expect(toasts.getState().at(-1)?.kind).toBe('error');
    expect(record.deleted).toBe(true);
  });

  it('a failed delete says so in the dialog and stays on the page', async () => {
    show(EVERYTHING, (r) => r.failures.set('DELETE /v1/customers/101/', [500]));
    await loaded();
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete customer' }));
    const alert = await within(await screen.findByRole('dialog')).findByRole('alert');
    expect(alert.textContent).toBe('Could not delete Jane Doe. Please try again.');
    expect(window.location.pathname).toBe('/customers/101');
    expect(toastTexts()).toBe(0);
  });
});
