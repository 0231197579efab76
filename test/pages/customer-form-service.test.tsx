// D48 on Add and Edit Customer: type (a radio pair), lead source with the organization's earlier sources
// suggested, and the do-not-service flag with its reason, each sent and kept through a 400, a 409, a
// network error and a reload (D41), with the contract's limits.
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ComponentType } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import '../ui/no-console';
import { DO_NOT_SERVICE_REASON_MAX_LENGTH, LEAD_SOURCE_MAX_LENGTH } from '../../contract/customers';
import { DRAFT_RESTORE } from '../../src/drafts/DraftOffer';
import { setOnline } from '../../src/http/connectivity';
import AddCustomerPage from '../../src/pages/customers/AddCustomerPage';
import { MSG_OFFLINE } from '../../src/pages/customers/CustomerForm';
import EditCustomerPage from '../../src/pages/customers/EditCustomerPage';
import { CONFLICT_TITLE } from '../../src/pages/customers/form/ConflictPanel';
import { LEAD_SOURCE_DEBOUNCE_MS } from '../../src/pages/customers/form/ServiceFields';
import { navigate } from '../../src/router/location';
import { toasts } from '../../src/ui/toast';
import { FakeApi, json } from '../helpers/fake-api';
import { ANN, type FakeRecords } from '../helpers/fake-records';
import { renderPage } from '../helpers/render';

function show(Page: ComponentType, path: string, setup: (f: FakeRecords) => void = () => {}, api = new FakeApi()) {
  setup(api.records);
  renderPage(path, <Page />, { fake: api, params: path.endsWith('/edit') ? { id: String(ANN.id) } : {} });
  return { api, fake: api.records };
}
/** The form, once its D48 section (loaded apart) is there. */
async function showAdd(setup?: (f: FakeRecords) => void, api?: FakeApi) {
  const r = show(AddCustomerPage, '/customers/new', setup, api);
  await screen.findByRole('radio', { name: 'Residential' });
  return r;
}
async function showEdit(setup?: (f: FakeRecords) => void) {
  const r = show(EditCustomerPage, `/customers/${ANN.id}/edit`, setup);
  await screen.findByRole('radio', { name: 'Residential' });
  return r;
}

const box = (name: string) => screen.getByRole('textbox', { name }) as HTMLInputElement;
const type = (name: string, value: string) => fireEvent.change(box(name), { target: { value } });
const source = () => screen.getByRole('combobox', { name: 'Lead source' }) as HTMLInputElement;
const flag = () => screen.getByRole('checkbox', { name: 'Do not service' }) as HTMLInputElement;
const reason = () => screen.queryByRole('textbox', { name: 'Reason not to service' }) as HTMLInputElement | null;
const radio = (name: string) => screen.getByRole('radio', { name }) as HTMLInputElement;
const save = () => act(async () => void fireEvent.click(screen.getByRole('button', { name: /^(Save|Saving…)$/ })));
const writes = (api: FakeApi) => api.calls.filter((c) => c.method !== 'GET');
const errorOf = (el: HTMLElement) => document.getElementById(el.getAttribute('aria-describedby') ?? '')?.textContent ?? null;
const path = () => window.location.pathname;

/** Commercial, a lead source, and the flag with a reason. */
function fillService() {
  fireEvent.click(radio('Commercial'));
  fireEvent.change(source(), { target: { value: ' Yelp ' } });
  fireEvent.click(flag());
  fireEvent.change(reason()!, { target: { value: 'Unpaid invoices ' } });
}

beforeEach(() => {
  navigate('/', { replace: true });
  toasts.setState([]);
  sessionStorage.clear();
  setOnline(true);
});
afterEach(() => {
  vi.useRealTimers();
  setOnline(true);
});

describe('D48 the customer form: type, lead source, do not service', () => {
  it('D48 a new customer is Residential with no source and no flag; the reason shows only while the flag is on', async () => {
    await showAdd();
    const group = screen.getByRole('group', { name: 'Type' });
    expect(
      within(group)
        .getAllByRole('radio')
        .map((r) => [r.getAttribute('value'), (r as HTMLInputElement).checked]),
    ).toEqual([
      ['residential', true],
      ['commercial', false],
    ]);
    expect(source().value).toBe('');
    expect(flag().checked).toBe(false);
    expect(reason()).toBeNull();
    fireEvent.click(flag());
    expect(reason()!.value).toBe('');
  });

  it('D48 Add sends the type, the lead source and the flag with its reason, trimmed', async () => {
    const { api } = await showAdd();
    type('Name', 'Cara Diaz');
    fillService();
    await save();
    await waitFor(() => expect(path()).toBe('/customers/50'));
    expect(writes(api)[0]!.body).toMatchObject({ type: 'commercial', lead_source: 'Yelp', do_not_service: true, do_not_service_reason: 'Unpaid invoices' });
  });

  it('D48 the flag turned off hides the reason but keeps it while typing; a save with the flag off sends it empty', async () => {
    const { api } = await showAdd();
    type('Name', 'Cara Diaz');
    fillService();
    fireEvent.click(flag());
    expect(reason()).toBeNull();
    fireEvent.click(flag());
    expect(reason()!.value).toBe('Unpaid invoices ');
    fireEvent.click(flag());
    await save();
    await waitFor(() => expect(path()).toBe('/customers/50'));
    expect(writes(api)[0]!.body).toMatchObject({ do_not_service: false, do_not_service_reason: null });
  });

  it("D48 the lead source suggests the organization's earlier sources once the person works in it, narrowing as they type", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { fake } = await showAdd();
    const options = () => [...(document.getElementById(source().getAttribute('list')!)?.querySelectorAll('option') ?? [])].map((o) => o.value);
    expect(fake.leadSourceQueries).toEqual([]); // not asked for every form shown
    fireEvent.focus(source());
    await waitFor(() => expect(options()).toEqual(['Google', 'Yelp', 'Neighbor referral', 'Nextdoor']));
    fireEvent.change(source(), { target: { value: 'ne' } });
    await act(() => vi.advanceTimersByTimeAsync(LEAD_SOURCE_DEBOUNCE_MS));
    await waitFor(() => expect(options()).toEqual(['Neighbor referral', 'Nextdoor']));
    expect(fake.leadSourceQueries).toEqual(['', 'ne']);
  });

  it('D48 limits from the contract: a lead source over 100 and a reason over 500 characters are refused on their fields; nothing is sent', async () => {
    const { api } = await showAdd();
    type('Name', 'Cara Diaz');
    fireEvent.change(source(), { target: { value: 'x'.repeat(LEAD_SOURCE_MAX_LENGTH + 1) } });
    fireEvent.click(flag());
    fireEvent.change(reason()!, { target: { value: 'y'.repeat(DO_NOT_SERVICE_REASON_MAX_LENGTH + 1) } });
    await save();
    expect(errorOf(source())).toBe(`Lead source must be at most ${LEAD_SOURCE_MAX_LENGTH} characters`);
    expect(errorOf(reason()!)).toBe(`Reason not to service must be at most ${DO_NOT_SERVICE_REASON_MAX_LENGTH} characters`);
    expect(document.activeElement).toBe(source());
    expect(writes(api)).toEqual([]);
    // Exactly at the limits it saves; the reason is not required (the server takes the flag alone).
    fireEvent.change(source(), { target: { value: 'x'.repeat(LEAD_SOURCE_MAX_LENGTH) } });
    fireEvent.change(reason()!, { target: { value: '' } });
    await save();
    await waitFor(() => expect(path()).toBe('/customers/50'));
  });

  it('D48 a server 400 on the reason lands on it with the focus; a network error and offline keep every D48 value', async () => {
    const api = new FakeApi();
    await showAdd(
      (f) => f.next.push(json(400, { detail: 'do_not_service_reason: cannot contain control characters', code: 'invalid_field', field: 'do_not_service_reason' })),
      api,
    );
    type('Name', 'Cara Diaz');
    fillService();
    await save();
    expect(errorOf(reason()!)).toBe('Reason not to service cannot contain control characters');
    expect(document.activeElement).toBe(reason());
    api.offline = true;
    await save();
    expect(screen.getByText(MSG_OFFLINE)).toBeTruthy();
    expect([radio('Commercial').checked, source().value, flag().checked, reason()!.value]).toEqual([true, ' Yelp ', true, 'Unpaid invoices ']);
  });

  it('D48 D31 Edit sends only the D48 fields that changed, with the version', async () => {
    const { api } = await showEdit();
    fireEvent.click(radio('Commercial'));
    fireEvent.change(source(), { target: { value: 'Google' } });
    await save();
    await waitFor(() => expect(path()).toBe('/customers/7'));
    expect(writes(api).map((c) => c.body)).toEqual([{ type: 'commercial', lead_source: 'Google', version: 3 }]);
  });

  it('D48 D31 the conflict panel lists the D48 fields the other person changed, beside what the person has', async () => {
    const { fake } = await showEdit();
    fireEvent.change(source(), { target: { value: 'Yelp' } });
    fake.changeBehind(ANN.id, { type: 'commercial', lead_source: 'Google', do_not_service: true, do_not_service_reason: 'Dog bites' });
    await save();
    const panel = await screen.findByRole('region', { name: CONFLICT_TITLE });
    const rows = within(panel)
      .getAllByRole('row')
      .slice(1)
      .map((r) => [...r.children].map((c) => c.textContent));
    expect(rows).toEqual([
      ['Type', 'Residential', 'Commercial'],
      ['Lead source', 'Yelp', 'Google'],
      ['Do not service', 'No', 'Yes'],
      ['Reason not to service', '(empty)', 'Dog bites'],
    ]);
    expect(source().value).toBe('Yelp');
  });

  it('D41 a draft keeps the D48 fields: after a reload, Restore puts them back', async () => {
    await showAdd();
    type('Name', 'Cara Diaz');
    fillService();
    window.dispatchEvent(new Event('pagehide'));
    cleanup();
    await showAdd();
    fireEvent.click(await screen.findByRole('button', { name: DRAFT_RESTORE }));
    expect([radio('Commercial').checked, source().value, flag().checked, reason()!.value]).toEqual([true, ' Yelp ', true, 'Unpaid invoices ']);
  });
});
