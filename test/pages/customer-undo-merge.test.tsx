// D49 'Undo this merge' on the customer's timeline, after the toast has gone: on the page's own
// `customer.merged` entry, for who has customers:merge, within MERGE_UNDO_DAYS and not once a later
// `customer.merge_undone` names the same merge; asked first, then the undo call, a toast and the page read
// again; a 409 or 410 said in words, another failure said in the dialog.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import '../ui/no-console';
import type { TimelineItem } from '../../contract/customers';
import { MERGE_UNDO_DAYS } from '../../contract/merge';
import { DAY_MS } from '../../contract/time';
import { navigate } from '../../src/router/location';
import { toasts } from '../../src/ui/toast';
import { audit, janeDoe, OLIVIA, SAM } from '../helpers/fake-customer';
import { json } from '../helpers/fake-http';
import { as, EDITOR, loaded, region, showCustomer, timelineTexts, toastTexts } from '../helpers/customer-page';

const MERGER = as('customers:update', 'customers:merge');
const ANNA = { id: 102, name: 'Anna Lee' };
const UNDO_PATH = '/v1/customers/merges/900/undo/';
/** An entry made `days` ago (the undo window counts from now). */
const ago = (item: TimelineItem, days: number): TimelineItem => ({
  ...(item as Extract<TimelineItem, { kind: 'audit' }>),
  at: new Date(Date.now() - days * DAY_MS).toISOString(),
});
const merged = (days = 1, mergeId = 900) => ago(audit(20, 'customer.merged', SAM, 0, { merge_id: mergeId, merged_customer: ANNA }), days);
const undoneEntry = (mergeId = 900) => ago(audit(21, 'customer.merge_undone', SAM, 0, { merge_id: mergeId, merged_customer: ANNA }), 0);
const CREATED = audit(10, 'customer.created', OLIVIA, 0, { name: 'Jane Doe' });
const undoButtons = () => within(region('Notes and history')).queryAllByRole('button', { name: 'Undo this merge' });

async function shown(items: TimelineItem[], state = MERGER) {
  const page = showCustomer({}, state, items);
  await loaded();
  await waitFor(() => expect(timelineTexts()).toHaveLength(items.length));
  return page;
}

beforeEach(() => {
  navigate('/', { replace: true });
  toasts.setState([]);
});

describe('D49 undo a merge from the timeline', () => {
  it('asks first, then undoes: the undo call, a toast in words, the timeline read again, the button gone, focus on the timeline', async () => {
    const { api, record } = await shown([merged(), CREATED]);
    api.routes.set(UNDO_PATH, () => {
      record.items = [undoneEntry(), ...record.items];
      return json(200, { survivor: janeDoe(), merged: janeDoe({ ...ANNA, email: 'anna@example.com' }) });
    });
    fireEvent.click(undoButtons()[0]!);
    const dialog = await screen.findByRole('dialog', { name: 'Undo this merge?' });
    expect(dialog.textContent).toContain('This customer and Anna Lee become separate again');
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Cancel' })); // D15
    expect(record.calls(UNDO_PATH)).toHaveLength(0);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Undo merge' }));
    await waitFor(() => expect(timelineTexts()[0]).toBe('Sam undid the merge of Anna Lee into this customer'));
    expect(record.calls(UNDO_PATH, 'POST')).toHaveLength(1);
    expect(toastTexts()).toContain('Merge undone: Jane Doe and Anna Lee are separate again');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(undoButtons()).toEqual([]); // the merge entry is undone now
    // The focus moves a frame after the dialog has handed it back (UndoMerge), not with the timeline's text.
    await waitFor(() => expect(document.activeElement).toBe(within(region('Notes and history')).getByRole('heading', { level: 2 })));
  });

  it('Cancel undoes nothing', async () => {
    const { record } = await shown([merged(), CREATED]);
    fireEvent.click(undoButtons()[0]!);
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(record.calls(UNDO_PATH)).toHaveLength(0);
  });

  it('D9 not offered without customers:merge', async () => {
    await shown([merged(), CREATED], EDITOR);
    expect(undoButtons()).toEqual([]);
  });

  it(`not offered once older than ${MERGE_UNDO_DAYS} days`, async () => {
    await shown([merged(MERGE_UNDO_DAYS + 1), CREATED]);
    expect(undoButtons()).toEqual([]);
  });

  it(`offered just within ${MERGE_UNDO_DAYS} days`, async () => {
    await shown([merged(MERGE_UNDO_DAYS - 1), CREATED]);
    expect(undoButtons()).toHaveLength(1);
  });

  it('not offered when a later entry undid the same merge', async () => {
    await shown([undoneEntry(900), merged(2, 900), CREATED]);
    expect(undoButtons()).toEqual([]);
  });

  it('not offered when the undo is on a later-loaded page before the merge’s (pages 2 and 3 after "Show more")', async () => {
    const edits = (from: number) =>
      Array.from({ length: 20 }, (_, i) => ago(audit(100 + from + i, 'customer.updated', SAM, 0, { city: { from: `C${i}`, to: `C${i + 1}` } }), 1));
    const items = [...edits(0), undoneEntry(900), ...edits(20), merged(2, 900), CREATED];
    showCustomer({}, MERGER, items);
    await loaded();
    for (const shown of [20, 40, items.length]) {
      await waitFor(() => expect(timelineTexts()).toHaveLength(shown));
      if (shown < items.length) fireEvent.click(within(region('Notes and history')).getByRole('button', { name: 'Show more' }));
    }
    expect(timelineTexts().at(-2)).toBe('Sam merged Anna Lee into this customer');
    expect(undoButtons()).toEqual([]);
  });

  it('a later undo of another merge does not hide it', async () => {
    await shown([undoneEntry(899), merged(2, 900), CREATED]);
    expect(undoButtons()).toHaveLength(1);
  });

  it('not offered on the entry of a customer merged into this one (its target is that customer)', async () => {
    await shown([ago(audit(20, 'customer.merged', SAM, 0, { merge_id: 800, merged_customer: { id: 103, name: 'Al Lee' } }, { id: 102, label: 'Anna Lee' }), 1), CREATED]);
    expect(undoButtons()).toEqual([]);
  });

  it.each([
    [410, 'merge_expired', 'A merge can be undone for 30 days; this one is older', 'Could not undo the merge: A merge can be undone for 30 days; this one is older.'],
    [409, 'merge_undone', 'This merge was already undone', 'Could not undo the merge: This merge was already undone.'],
  ])('a %i is said in words and the page read again', async (status, code, detail, words) => {
    const { api, record } = await shown([merged(), CREATED]);
    api.routes.set(UNDO_PATH, () => json(status, { detail, code }));
    const gets = record.calls('/v1/customers/101/timeline/', 'GET').length;
    fireEvent.click(undoButtons()[0]!);
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Undo merge' }));
    await waitFor(() => expect(toasts.getState().map((t) => t.message)).toContain(words));
    expect(screen.queryByRole('dialog')).toBeNull();
    await waitFor(() => expect(record.calls('/v1/customers/101/timeline/', 'GET').length).toBeGreaterThan(gets));
  });

  it("issue 34 item 9 the merged customer's creation on the survivor's timeline names it, not a second 'added this customer'", async () => {
    await shown([merged(), audit(11, 'customer.created', OLIVIA, 0, { name: ANNA.name }, { id: ANNA.id, label: ANNA.name }), CREATED]);
    expect(timelineTexts().slice(1)).toEqual(['Olivia added Anna Lee, later merged into this customer', 'Olivia added this customer']);
  });

  it('another failure is said in the dialog, which stays for another try', async () => {
    const { api } = await shown([merged(), CREATED]);
    api.routes.set(UNDO_PATH, () => json(500, { detail: 'boom', code: 'error' }));
    fireEvent.click(undoButtons()[0]!);
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Undo merge' }));
    expect((await within(dialog).findByRole('alert')).textContent).toMatch(/^Could not undo the merge\./);
    expect(screen.getByRole('dialog')).toBe(dialog);
  });
});
