// D49 the merge screen: both customers side by side, a radio pair per differing field, Swap, what moves,
// Merge → the kept customer's page with a toast offering Undo, and refusals in words with the choices
// kept. Through the real client and query cache against the fake merge API (test/helpers/fake-merge.ts).
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import '../ui/no-console';
import { customerKeys } from '../../src/api/customers';
import { setOnline } from '../../src/http/connectivity';
import MergePage, { MSG_PICK_TWO, MSG_SAME } from '../../src/pages/customers/merge/MergePage';
import { MSG_MERGE_OFFLINE } from '../../src/pages/customers/merge/MergeScreen';
import { createQueryCache } from '../../src/query/cache';
import { navigate } from '../../src/router/location';
import { ROUTES } from '../../src/shell/routes';
import { toasts } from '../../src/ui/toast';
import { FakeApi } from '../helpers/fake-api';
import { FakeMerge } from '../helpers/fake-merge';
import { renderPage } from '../helpers/render';

const MERGER = ['dashboard:view', 'customers:view', 'customers:update', 'customers:merge'];

function show(search = '?survivor=21&merged=22', setup: (m: FakeMerge) => void = () => {}) {
  const api = new FakeApi();
  const merge = new FakeMerge(api);
  setup(merge);
  const cache = createQueryCache({ retries: 0 });
  renderPage(`/customers/merge${search}`, <MergePage />, { as: MERGER, fake: api, cache });
  return { api, merge, cache };
}

const loaded = () => screen.findByRole('heading', { level: 2, name: 'Values to keep' });
const group = (legend: string) => screen.getByRole('group', { name: legend });
const radio = (legend: string, value: RegExp) => within(group(legend)).getByRole('radio', { name: value }) as HTMLInputElement;
const mergeButton = () => screen.getByRole('button', { name: 'Merge' });
const mergeBodies = (m: FakeMerge) => m.calls('/v1/customers/merge/', 'POST').map((c) => c.body);
const toastTexts = () => [...document.querySelectorAll('.toast-message')].map((t) => t.textContent);

beforeEach(() => {
  navigate('/', { replace: true });
  toasts.setState([]);
});
afterEach(() => setOnline(true));

describe('D49 the merge screen', () => {
  it('D49 shows both customers side by side and a fieldset per field whose values differ; choices send the right body', async () => {
    const { merge } = show();
    await loaded();
    expect(screen.getByRole('region', { name: 'Kept Ann Lee' })).toBeTruthy();
    expect(screen.getByRole('region', { name: 'Merged into it Anna Lee' })).toBeTruthy();
    const legends = screen.getAllByRole('group').map((g) => g.querySelector('legend')!.textContent);
    expect(legends).toEqual(['Name', 'Email', 'City', 'Status', 'Type', 'Lead source', 'Do not service']);
    expect(screen.getByText(/Same in both: Company, Phone, Street address/)).toBeTruthy();
    // The kept customer's values by default, each radio named by its value and whose it is.
    expect(radio('City', /Portland from Ann Lee/).checked).toBe(true);
    expect(radio('Do not service', /Yes: Unpaid invoice from Anna Lee/).checked).toBe(false);
    fireEvent.click(radio('City', /Tigard/));
    fireEvent.click(radio('Do not service', /Yes: Unpaid invoice/));
    expect(radio('City', /Tigard/).checked).toBe(true);
    await act(async () => fireEvent.click(mergeButton()));
    expect(mergeBodies(merge)).toEqual([
      {
        survivor_id: 21,
        merged_id: 22,
        fields: { name: 'survivor', email: 'survivor', city: 'merged', status: 'survivor', type: 'survivor', lead_source: 'survivor', do_not_service: 'merged' },
      },
    ]);
  });

  it('D49 the summary says what the merged customer brings: notes, locations, contacts, the tags the kept one lacks', async () => {
    show();
    const summary = await screen.findByRole('region', { name: 'What moves to Ann Lee' });
    expect([...summary.querySelectorAll('li')].map((li) => li.textContent)).toEqual(['3 notes', '1 location', '2 contacts', '1 tag: boiler']);
    expect(summary.textContent).toContain('undo the merge for 30 days');
  });

  it('D49 Swap keeps the other customer instead: the address turns round, the values chosen stay chosen, an empty value never wins by default', async () => {
    const { merge } = show();
    await loaded();
    fireEvent.click(radio('City', /Tigard/));
    const swap = screen.getByRole('button', { name: 'Swap: keep Anna Lee instead' });
    swap.focus();
    await act(async () => fireEvent.click(swap));
    expect(window.location.search).toBe('?survivor=22&merged=21&chosen=1'); // D66: chosen, no longer proposed
    await screen.findByRole('region', { name: 'What moves to Anna Lee' });
    await waitFor(() => expect(screen.getByRole('region', { name: 'Kept Anna Lee' })).toBeTruthy());
    expect(document.activeElement?.textContent).toBe('Swap: keep Ann Lee instead'); // the focus stays on Swap
    expect(radio('City', /Tigard from Anna Lee/).checked).toBe(true);
    // Anna Lee has no email: Ann Lee's is kept unless the person chooses otherwise.
    expect(radio('Email', /ann@example.com from Ann Lee/).checked).toBe(true);
    await act(async () => fireEvent.click(mergeButton()));
    expect(mergeBodies(merge)[0]).toMatchObject({ survivor_id: 22, merged_id: 21, fields: { city: 'survivor', email: 'merged', status: 'survivor' } });
  });

  it('D66 the customer with more history is proposed as kept, whichever the address names first, and the screen says why; Swap is the person’s choice and stays', async () => {
    const { merge } = show('?survivor=22&merged=21'); // started from Anna Lee, the misspelled one
    await loaded();
    expect(screen.getByRole('region', { name: 'Kept Ann Lee' })).toBeTruthy();
    const why = () => document.querySelector('.merge-proposal')!;
    expect(why().textContent).toBe('Proposed to keep: it has more history (4 notes and 6 other entries against 3 and 2).');
    expect(why().getAttribute('role')).toBe('status');
    expect(within(screen.getByRole('region', { name: 'Kept Ann Lee' })).getByText('4 notes and 6 other timeline entries')).toBeTruthy();
    expect(merge.calls('/v1/customers/merge/preview/').map((c) => c.search)).toEqual(['?survivor_id=22&merged_id=21&propose=true']);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Swap: keep Anna Lee instead' })));
    expect(window.location.search).toBe('?survivor=22&merged=21&chosen=1');
    await waitFor(() => expect(screen.getByRole('region', { name: 'Kept Anna Lee' })).toBeTruthy());
    await screen.findByRole('region', { name: 'What moves to Anna Lee' });
    expect(why().textContent).toBe('Ann Lee has more history (4 notes and 6 other entries against 3 and 2); you chose to keep Anna Lee.');
    expect(merge.calls('/v1/customers/merge/preview/').at(-1)!.search).toBe('?survivor_id=22&merged_id=21');
    await act(async () => fireEvent.click(mergeButton()));
    expect(mergeBodies(merge)[0]).toMatchObject({ survivor_id: 22, merged_id: 21 });
  });

  it('D66 with as much history the older record is proposed, and the screen says so', async () => {
    show('?survivor=22&merged=21', (m) => {
      m.history.set(21, { notes: 1, entries: 1 });
      m.history.set(22, { notes: 0, entries: 2 });
      m.rows.get(22)!.created_at = '2024-01-01T09:00:00Z'; // Anna Lee was entered first
    });
    await loaded();
    expect(screen.getByRole('region', { name: 'Kept Anna Lee' })).toBeTruthy();
    expect(document.querySelector('.merge-proposal')!.textContent).toBe('Proposed to keep: it is the older record, with as much history.');
  });

  it('D66 the summary says which email or phone the choices leave off the kept customer, kept as a contact named after whose it was', async () => {
    const { merge } = show('?survivor=21&merged=22', (m) => void (m.rows.get(22)!.phone = '(971) 555-0100'));
    const summary = await screen.findByRole('region', { name: 'What moves to Ann Lee' });
    const kept = () => [...summary.querySelectorAll('li')].map((li) => li.textContent).filter((t) => t!.startsWith('Kept'));
    expect(kept()).toEqual(['Kept as a contact named Anna Lee: (971) 555-0100']);
    fireEvent.click(radio('Phone', /\(971\) 555-0100 from Anna Lee/));
    fireEvent.click(radio('Email', /None from Anna Lee/));
    expect(kept()).toEqual(['Kept as a contact named Ann Lee: ann@example.com and (503) 555-0142']);
    await act(async () => fireEvent.click(mergeButton()));
    expect(merge.rows.get(21)!.contacts.map((c) => c.name)).toEqual(['Tom Tenant', 'Pat Manager', 'Ann Lee']);
    expect(mergeBodies(merge)[0]).toMatchObject({ fields: { email: 'merged', phone: 'merged' } });
  });

  it('D49 Merge goes to the kept customer’s page with a toast offering Undo; Undo restores both, says so, refreshes them and keeps the focus in the notifications', async () => {
    const { merge, cache } = show();
    await loaded();
    await act(async () => fireEvent.click(mergeButton()));
    expect(window.location.pathname).toBe('/customers/21');
    expect(toastTexts()).toEqual(['Anna Lee merged into Ann Lee Undo']);
    expect(merge.mergedInto.get(22)).toBe(21);
    // Both records read again after the merge, then Undo makes them stale once more.
    for (const id of [21, 22]) await cache.fetchQuery(customerKeys.detail(1, id), () => Promise.resolve({ id })).catch(() => undefined);
    expect(cache.isStale(customerKeys.detail(1, 21))).toBe(false);
    const undo = screen.getByRole('button', { name: 'Undo' });
    undo.focus();
    await act(async () => fireEvent.click(undo));
    expect(merge.calls('/v1/customers/merges/900/undo/', 'POST')).toHaveLength(1);
    expect(merge.mergedInto.has(22)).toBe(false);
    expect(toastTexts()).toEqual(['Merge undone: Ann Lee and Anna Lee are separate again']);
    expect(cache.isStale(customerKeys.detail(1, 21))).toBe(true);
    expect(cache.isStale(customerKeys.detail(1, 22))).toBe(true);
    expect(document.activeElement).toBe(screen.getByRole('region', { name: 'Notifications (Alt+T)' }));
  });

  it('D49 an Undo refused (410 older than 30 days, 409 already undone) says why in a toast', async () => {
    const { merge } = show();
    await loaded();
    await act(async () => fireEvent.click(mergeButton()));
    merge.fail('POST /v1/customers/merges/900/undo/', [410, 'merge_expired', 'This merge is older than 30 days and can no longer be undone']);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Undo' })));
    expect(toastTexts()).toEqual(['Could not undo the merge: This merge is older than 30 days and can no longer be undone.']);
  });

  it.each([
    ['409 already merged', [409, 'already_merged', 'Anna Lee was already merged into Ann Lee'] as const, 'Anna Lee was already merged into Ann Lee'],
    ['409 too many contacts', [409, 'too_many_contacts', 'Together they would have more than 20 contacts'] as const, 'more than 20 contacts'],
    ['404 gone', [404, 'not_found', 'Not found.'] as const, 'it no longer exists'],
  ])('D49 a refused merge (%s) is said in words beside the button; the choices stay and a retry sends them again', async (_name, answer, words) => {
    const { merge } = show();
    await loaded();
    fireEvent.click(radio('City', /Tigard/));
    merge.fail('POST /v1/customers/merge/', [...answer]);
    await act(async () => fireEvent.click(mergeButton()));
    expect(screen.getByRole('alert').textContent).toContain(words);
    expect(window.location.pathname).toBe('/customers/merge');
    expect(radio('City', /Tigard/).checked).toBe(true);
    await act(async () => fireEvent.click(mergeButton()));
    const [first, second] = mergeBodies(merge);
    expect(second).toEqual(first);
    expect(window.location.pathname).toBe('/customers/21');
  });

  it('D49 a lost connection is said, the choices stay; offline, Merge waits with a notice', async () => {
    const { merge } = show();
    await loaded();
    fireEvent.click(radio('Status', /Lead/));
    merge.fail('POST /v1/customers/merge/', 'network');
    await act(async () => fireEvent.click(mergeButton()));
    expect(screen.getByRole('alert').textContent).toContain('the server could not be reached');
    expect(radio('Status', /Lead/).checked).toBe(true);
    act(() => setOnline(false));
    expect((mergeButton() as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText(MSG_MERGE_OFFLINE)).toBeTruthy();
    act(() => setOnline(true));
    await act(async () => fireEvent.click(mergeButton()));
    expect(mergeBodies(merge)[1]).toMatchObject({ fields: { status: 'merged' } });
  });

  it('D49 D12 an address without two customers, with one customer twice, or naming one that is gone says so', async () => {
    show('?survivor=21');
    expect(screen.getByText(MSG_PICK_TWO)).toBeTruthy();
    cleanup(); // one page at a time: each reads the one address
    show('?survivor=21&merged=21');
    expect(screen.getByText(MSG_SAME)).toBeTruthy();
    cleanup();
    show('?survivor=21&merged=22', (m) => m.mergedInto.set(22, 21));
    expect(await screen.findByText('This customer was merged into Ann Lee.')).toBeTruthy();
  });

  it('D49 SPEC §8 a preview that could not load says so, with Retry', async () => {
    show(undefined, (m) => m.fail('GET /v1/customers/merge/preview/', 'network'));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Could not load these customers.');
    await act(async () => fireEvent.click(within(alert).getByRole('button', { name: 'Retry' })));
    expect(await loaded()).toBeTruthy();
  });

  it('D49 D9 the merge screen needs customers:merge', () => {
    expect(ROUTES.find((r) => r.path === '/customers/merge')).toMatchObject({ title: 'Merge Customers', permission: 'customers:merge' });
  });
});
