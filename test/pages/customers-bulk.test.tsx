// D58: bulk actions on the customers list: a checkbox per row and for the page, 'Select all N matching'
// with N shown, a live count, the actions the person may do, a question naming the count, the answer's
// toast with Undo, a moved selection (409) asked again with its new count, and Undo in the activity log.
// A small stand-in for /v1/customers/bulk/ (the rules are the server's, test/server/customers-bulk.test.ts).
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import '../ui/no-console';
import type { AuditEntryView } from '../../contract/audit';
import type { BulkUndoResult } from '../../contract/bulk';
import { bulkApi } from '../../src/api/bulk';
import type { ApiContext } from '../../src/api/customers';
import ActivityPage from '../../src/pages/activity/ActivityPage';
import CustomersPage from '../../src/pages/customers/CustomersPage';
import { navigate } from '../../src/router/location';
import { toasts } from '../../src/ui/toast';
import { FakeApi, json, type Call } from '../helpers/fake-api';
import { fieldDef, serveFieldDefs } from '../helpers/fake-field-defs';
import { renderPage } from '../helpers/render';
import { ALL_PERMISSIONS } from '../helpers/session';

type Answer = (call: Call) => Response;
const ok =
  (changed: number, unchanged = 0, action = 'add_tag'): Answer =>
  () =>
    json(200, { bulk_id: 9, action, changed, unchanged });

/** Serves the bulk calls: each POST answered by the next of `answers` (the last one repeats). */
function serveBulk(api: FakeApi, answers: Answer[], undo: BulkUndoResult = { restored: 3, changed_since_count: 0, changed_since: [] }) {
  const sent: Call[] = [];
  const next = (call: Call) => (sent.push(call), (answers.length > 1 ? answers.shift()! : answers[0]!)(call));
  api.routes.set('/v1/customers/bulk/', next);
  api.routes.set('/v1/customers/bulk/delete/', next);
  const undone: Call[] = [];
  api.routes.set('/v1/customers/bulk/9/undo/', (call) => (undone.push(call), json(200, undo)));
  return { sent, undone };
}

function showList(path = '/customers', as: readonly string[] = ALL_PERMISSIONS) {
  const api = new FakeApi();
  void api.customers;
  api.routes.set('/v1/views/', () => json(200, { results: [] }));
  serveFieldDefs(api, [fieldDef({ key: 'units', label: 'Units', type: 'number' }), fieldDef({ key: 'serial', label: 'Serial', type: 'text', unique: true })]);
  renderPage(path, <CustomersPage />, { fake: api, as });
  return api;
}
const box = (name: string) => screen.findByRole('checkbox', { name });
const count = () => screen.getAllByRole('status').find((s) => s.classList.contains('bulk-count'))!;
const actions = () => screen.findByRole('group', { name: 'Actions on the selected customers' });
async function selectAllMatching() {
  fireEvent.click(await box('Select every customer on this page'));
  fireEvent.click(await screen.findByRole('button', { name: 'Select all 30 matching' }));
  await waitFor(() => expect(count().textContent).toBe('All 30 matching selected'));
}
async function open(action: string) {
  fireEvent.click(within(await actions()).getByRole('button', { name: action }));
  return screen.findByRole('dialog');
}

beforeEach(() => {
  navigate('/', { replace: true });
  toasts.setState([]);
});

describe('D58 selecting customers', () => {
  it('D58 a checkbox per row named after its customer, one for the page, then Select all N matching with N shown (focus then on Clear selection); a live count; Clear selection', async () => {
    showList();
    fireEvent.click(await box('Select Ava Nguyen'));
    await waitFor(() => expect(count().textContent).toBe('1 selected'));
    expect(screen.queryByRole('button', { name: /^Select all/ })).toBeNull(); // only once the whole page is picked
    fireEvent.click(await box('Select every customer on this page'));
    expect(count().textContent).toBe('25 selected');
    fireEvent.click(await screen.findByRole('button', { name: 'Select all 30 matching' }));
    await waitFor(() => expect(count().textContent).toBe('All 30 matching selected'));
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Clear selection' })); // not lost with the offer
    expect(((await box('Select Ava Nguyen')) as HTMLInputElement).checked).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Clear selection' }));
    expect(count().textContent).toBe('');
    expect(document.activeElement).toBe(await box('Select every customer on this page')); // not lost with the button
    expect(((await box('Select Ava Nguyen')) as HTMLInputElement).checked).toBe(false);
  });

  it('D58 Shift with a click picks the rows from the last one toggled to this one, and unpicks them the same way', async () => {
    showList();
    const names = (await screen.findAllByRole('checkbox', { name: /^Select (?!every)/ })).map((b) => b.getAttribute('aria-label')!);
    fireEvent.click(await box(names[2]!));
    fireEvent.click(await box(names[6]!), { shiftKey: true });
    await waitFor(() => expect(count().textContent).toBe('5 selected'));
    const checked = async () => (await screen.findAllByRole('checkbox', { name: /^Select (?!every)/ })).map((b) => (b as HTMLInputElement).checked);
    expect((await checked()).slice(0, 8)).toEqual([false, false, true, true, true, true, true, false]);
    fireEvent.click(await box(names[4]!), { shiftKey: true }); // from row 7 back to row 5, unpicked as row 5 is
    await waitFor(() => expect(count().textContent).toBe('2 selected'));
    fireEvent.click(await box(names[9]!)); // without Shift: that row alone
    expect(count().textContent).toBe('3 selected');
  });

  it('D58 the selection clears when the filters change (not when the page does)', async () => {
    showList();
    fireEvent.click(await box('Select Ava Nguyen'));
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByRole('checkbox', { name: 'Select Kenji Patel' });
    expect(count().textContent).toBe('1 selected');
    fireEvent.change(screen.getByRole('combobox', { name: 'Status' }), { target: { value: 'lead' } });
    await waitFor(() => expect(count().textContent).toBe(''));
  });

  it('D58 D9 the actions bar offers only what the person may do to one customer; without any, no checkboxes', async () => {
    showList('/customers', ['customers:view', 'customers:export']);
    fireEvent.click(await box('Select Ava Nguyen'));
    expect(
      within(await actions())
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Export']);
    navigate('/', { replace: true });
  });

  it('D58 D9 a viewer sees no checkboxes', async () => {
    showList('/customers', ['customers:view']);
    await screen.findByRole('link', { name: 'Ava Nguyen' });
    expect(screen.queryByRole('checkbox', { name: /^Select / })).toBeNull();
  });
});

describe('D58 an action', () => {
  it('D58 asks naming the count, sends the filter with the count seen, says what changed with Undo; Undo says Undone; the list is read again', async () => {
    const api = showList('/customers?tag=');
    const { sent, undone } = serveBulk(api, [ok(28, 2)]);
    await selectAllMatching();
    const dialog = await open('Add tag');
    fireEvent.change(within(dialog).getByRole('combobox', { name: 'Tag' }), { target: { value: 'landlord' } });
    expect(within(dialog).getByText('Tag 30 customers “landlord”?')).toBeTruthy();
    const lists = api.customers.listQueries.length;
    fireEvent.click(within(dialog).getByRole('button', { name: 'Tag 30 customers' }));
    await screen.findByText('28 customers changed (2 already were)');
    expect(sent[0]!.body).toEqual({ filter: '', count: 30, action: 'add_tag', tag: 'landlord' });
    await waitFor(() => expect(api.customers.listQueries.length).toBeGreaterThan(lists));
    expect(count().textContent).toBe(''); // done: the selection goes
    fireEvent.click(screen.getByRole('button', { name: 'Undo' }));
    await screen.findByText('Undone');
    expect(undone).toHaveLength(1);
  });

  it('D58 an action and its undo make the lists, the dashboard and the activity log stale', () => {
    const api = bulkApi({ client: {} as ApiContext['client'], orgId: 1 });
    for (const def of [api.run, api.undo])
      expect(def.invalidates).toEqual([
        ['customers', 1],
        ['dashboard', 1],
        ['audit', 1],
      ]);
  });

  it('D45 D58 the tag dialogs suggest the organization’s tags as one types', async () => {
    showList();
    fireEvent.click(await box('Select Ava Nguyen'));
    const dialog = await open('Remove tag');
    fireEvent.change(within(dialog).getByRole('combobox', { name: 'Tag' }), { target: { value: 'bo' } });
    await waitFor(() => expect([...dialog.querySelectorAll('datalist option')].map((o) => o.getAttribute('value'))).toEqual(['boiler']));
  });

  it('D58 an undo that finds customers changed since names them', async () => {
    const api = showList();
    serveBulk(api, [ok(3, 0, 'set_status')], { restored: 2, changed_since_count: 1, changed_since: [{ id: 101, name: 'Ava Okafor' }] });
    fireEvent.click(await box('Select Ava Nguyen'));
    fireEvent.click(await box('Select Ava Okafor'));
    fireEvent.click(await box('Select Ava Patel'));
    const dialog = await open('Set status');
    fireEvent.change(within(dialog).getByRole('combobox', { name: 'Status' }), { target: { value: 'inactive' } });
    expect(within(dialog).getByText('Set 3 customers to Inactive?')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Change 3 customers' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Undo' }));
    await screen.findByText('1 customer was changed since and was left as it is: Ava Okafor.');
  });

  it('D58 a selection that moved (409 selection_changed) says the new count and asks again with it; a 400 shows its words; what was chosen stays', async () => {
    const api = showList();
    const moved: Answer = () => json(409, { detail: 'The selection now holds 31 customers', code: 'selection_changed', count: 31 });
    const refused: Answer = () => json(400, { detail: 'status: must be one of lead, active, inactive', code: 'invalid', field: 'status' });
    const { sent } = serveBulk(api, [moved, refused, ok(31, 0, 'set_type')]);
    await selectAllMatching();
    const dialog = await open('Set type');
    fireEvent.change(within(dialog).getByRole('combobox', { name: 'Type' }), { target: { value: 'commercial' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Change 30 customers' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('The matching customers changed: now 31.');
    expect(within(dialog).getByText('Set 31 customers to Commercial?')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Change 31 customers' }));
    await within(dialog).findByText('status: must be one of lead, active, inactive');
    expect((within(dialog).getByRole('combobox', { name: 'Type' }) as HTMLSelectElement).value).toBe('commercial');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Change 31 customers' }));
    await screen.findByText('31 customers changed');
    expect(sent.map((c) => (c.body as { count: number }).count)).toEqual([30, 31, 31]);
  });

  it('D58 the customers picked are sent by id; do-not-service with its reason, as the customer form asks it', async () => {
    const api = showList();
    const { sent } = serveBulk(api, [ok(2, 0, 'set_do_not_service')]);
    fireEvent.click(await box('Select Ava Nguyen'));
    fireEvent.click(await box('Select Ben Patel'));
    const dialog = await open('Do not service…');
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Reason not to service' }), { target: { value: 'Unpaid invoices' } });
    expect(within(dialog).getByText('Mark 2 customers do-not-service?')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Change 2 customers' }));
    await screen.findByText('2 customers changed');
    expect(sent[0]!.body).toEqual({ ids: [102, 103], action: 'set_do_not_service', reason: 'Unpaid invoices' });
  });

  it('D58 rows picked one by one of which some are gone (409 selection_changed with the ones left) stay picked, and the button goes on with them', async () => {
    const api = showList();
    const { sent } = serveBulk(api, [
      () => json(409, { detail: 'The selection now holds 1 customers', code: 'selection_changed', count: 1, ids: [102] }),
      ok(1, 0, 'set_type'),
    ]);
    fireEvent.click(await box('Select Ava Nguyen'));
    fireEvent.click(await box('Select Ben Patel'));
    const dialog = await open('Set type');
    fireEvent.change(within(dialog).getByRole('combobox', { name: 'Type' }), { target: { value: 'commercial' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Change 2 customers' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Some of the selected customers are gone: 1 remains, still selected. Go on with it, or cancel.');
    await waitFor(() => expect(count().textContent).toBe('1 selected'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Change 1 customer' }));
    await screen.findByText('1 customer changed');
    expect(sent.map((c) => (c.body as { ids: number[] }).ids)).toEqual([[102, 103], [102]]); // Ava Nguyen, still there
  });

  it('D58 rows picked one by one of which some are gone, with no list of those left, say how many remain; the selection stays', async () => {
    const api = showList();
    serveBulk(api, [() => json(409, { detail: 'The selection now holds 1 customers', code: 'selection_changed', count: 1 })]);
    fireEvent.click(await box('Select Ava Nguyen'));
    fireEvent.click(await box('Select Ben Patel'));
    const dialog = await open('Set type');
    fireEvent.change(within(dialog).getByRole('combobox', { name: 'Type' }), { target: { value: 'commercial' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Change 2 customers' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Some of the selected customers are gone: 1 remains. Clear the selection and choose again.');
    expect(count().textContent).toBe('2 selected');
  });

  it('D56 D58 a custom field is set with the control of its type (a unique one is not offered), or cleared', async () => {
    const api = showList();
    const refused: Answer = () => json(400, { detail: 'custom.units: must be at most 1000', code: 'invalid', field: 'custom.units' });
    const { sent } = serveBulk(api, [refused, ok(1, 0, 'set_custom')]);
    fireEvent.click(await box('Select Ava Nguyen'));
    const dialog = await open('Custom field…');
    const field = within(dialog).getByRole('combobox', { name: 'Field' });
    expect(within(field).queryByRole('option', { name: 'Serial' })).toBeNull();
    fireEvent.change(field, { target: { value: 'units' } });
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Units' }), { target: { value: '1,250' } });
    expect(within(dialog).getByText('Set Units to “1250” on 1 customer?')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Change 1 customer' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Units must be at most 1000'); // in the field's words
    expect((within(dialog).getByRole('textbox', { name: 'Units' }) as HTMLInputElement).value).toBe('1,250');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Change 1 customer' }));
    await screen.findByText('1 customer changed');
    expect(sent[1]!.body).toEqual({ ids: [102], action: 'set_custom', custom: { units: 1250 } });
    fireEvent.click(await box('Select Ava Nguyen'));
    const again = await open('Custom field…');
    fireEvent.change(within(again).getByRole('combobox', { name: 'Field' }), { target: { value: 'units' } });
    fireEvent.click(within(again).getByRole('radio', { name: 'Clear' }));
    expect(within(again).queryByRole('textbox', { name: 'Units' })).toBeNull();
    fireEvent.click(within(again).getByRole('button', { name: 'Clear on 1 customer' }));
    await waitFor(() => expect(sent[2]?.body).toEqual({ ids: [102], action: 'clear_custom', custom: { units: null } }));
  });

  it('D58 Export the selection: the customers picked go to the list’s export as ids, all matching as the list’s filters', async () => {
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    const original = { createObjectURL: URL.createObjectURL, revokeObjectURL: URL.revokeObjectURL };
    Object.assign(URL, { createObjectURL: () => 'blob:x', revokeObjectURL: () => undefined });
    try {
      const api = showList('/customers?status=lead');
      fireEvent.click(await box('Select Ava Okafor'));
      const dialog = await open('Export');
      expect(within(dialog).getByText('Export 1 customer to a CSV file?')).toBeTruthy();
      fireEvent.click(within(dialog).getByRole('button', { name: 'Export 1 customer' }));
      await waitFor(() => expect(click).toHaveBeenCalledTimes(1));
      act(() => navigate('/customers?sort=-name'));
      await selectAllMatching();
      fireEvent.click(within(await open('Export')).getByRole('button', { name: 'Export 30 customers' }));
      await waitFor(() => expect(click).toHaveBeenCalledTimes(2));
      expect(api.calls.filter((c) => c.path.includes('export.csv')).map((c) => c.search)).toEqual(['?status=lead&sort=name&ids=101', '?sort=-name']);
    } finally {
      click.mockRestore();
      Object.assign(URL, original);
    }
  });

  it('D58 Delete asks naming the count, in the danger style, and its toast offers Undo', async () => {
    const api = showList();
    const { sent } = serveBulk(api, [() => json(200, { bulk_id: 9, action: 'delete', changed: 1, unchanged: 0 })]);
    fireEvent.click(await box('Select Ava Nguyen'));
    const dialog = await open('Delete');
    expect(within(dialog).getByText('Delete 1 customer?')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete 1 customer' }));
    await screen.findByText('1 customer deleted');
    expect(sent[0]!.path).toBe('/api/v1/customers/bulk/delete/');
    expect(screen.getByRole('button', { name: 'Undo' })).toBeTruthy();
  });
});

describe('D58 Undo in the activity log', () => {
  const at = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString();
  const entry = (id: number, action: AuditEntryView['action'], bulkId: number, daysAgo: number, changes = {}): AuditEntryView => ({
    id,
    at: at(daysAgo),
    actor: { id: 1, name: 'Olivia' },
    action,
    target: { type: 'bulk_action', id: bulkId, label: `${bulkId} customers` },
    changes: { action: 'add_tag', tag: 'landlord', changed: bulkId, unchanged: 0, ...changes },
  });

  it('D58 a bulk action’s entry offers Undo for 30 days; an undo’s own entry, one the log shows undone, and an older one do not', async () => {
    const api = new FakeApi();
    api.team.audit = [
      entry(1, 'customers.bulk_changed', 9, 1),
      entry(2, 'customers.bulk_changed', 4, 2),
      entry(3, 'customers.bulk_undone', 4, 1, { restored: 4, changed_since: 0 }),
      entry(4, 'customers.bulk_deleted', 5, 31),
    ];
    const { undone } = serveBulk(api, [ok(1)], { restored: 8, changed_since_count: 1, changed_since: [{ id: 3, name: 'Ann Lee' }] });
    renderPage('/activity', <ActivityPage />, { fake: api });
    const undos = await screen.findAllByRole('button', { name: /^Undo the bulk change/ });
    expect(undos.map((b) => b.getAttribute('aria-label'))).toEqual([expect.stringMatching(/^Undo the bulk change to 9 customers of /)]);
    fireEvent.click(undos[0]!);
    fireEvent.click(await within(await screen.findByRole('dialog')).findByRole('button', { name: 'Undo' }));
    await screen.findByText('1 customer was changed since and was left as it is: Ann Lee.');
    expect(undone).toHaveLength(1);
    await act(async () => undefined);
  });
});
