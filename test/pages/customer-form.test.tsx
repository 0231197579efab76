// Add and Edit Customer (SPEC §2, D22 D23 D31 D12 D15), by role and name as a person uses them, through
// the real client, query cache and router, against a fake of the customer record's endpoints.
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ComponentType } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import '../ui/no-console';
import { CUSTOMER_TEXT_LIMITS, MAX_TAGS, TAG_MAX_LENGTH, type CustomerInput } from '../../contract/customers';
import { setOnline } from '../../src/http/connectivity';
import AddCustomerPage from '../../src/pages/customers/AddCustomerPage';
import { MSG_ADDED, MSG_EDITED, MSG_GONE, MSG_OFFLINE, RECONNECT_CHECK_MS } from '../../src/pages/customers/CustomerForm';
import EditCustomerPage from '../../src/pages/customers/EditCustomerPage';
import { CONFLICT_TITLE } from '../../src/pages/customers/form/ConflictPanel';
import { DUPLICATE_DEBOUNCE_MS } from '../../src/pages/customers/form/DuplicateWarning';
import { LEAVE_TITLE } from '../../src/ui/leave-dialog';
import { TEXT_FIELDS, FIELD_LABELS, validateCustomer, EMPTY_VALUES, changedFields, toInput, toValues } from '../../src/pages/customers/form/values';
import { customerKeys } from '../../src/api/customers';
import { createQueryCache, QUERY_FRESH_MS } from '../../src/query/cache';
import { navigate } from '../../src/router/location';
import { matchPath } from '../../src/router/match';
import { toasts } from '../../src/ui/toast';
import { FakeApi, json } from '../helpers/fake-api';
import { ANN, MISSING_ID, type FakeRecords } from '../helpers/fake-records';
import { renderPage } from '../helpers/render';

function show(Page: ComponentType, path: string, setup: (f: FakeRecords) => void = () => {}, cache = createQueryCache({ retries: 0 })) {
  const api = new FakeApi();
  const fake = api.records;
  setup(fake);
  renderPage(path, <Page />, { fake: api, params: matchPath('/customers/:id/edit', path) ?? {}, cache });
  return { api, fake };
}
const showAdd = (setup?: (f: FakeRecords) => void) => show(AddCustomerPage, '/customers/new', setup);
async function showEdit(id = ANN.id, setup?: (f: FakeRecords) => void) {
  const r = show(EditCustomerPage, `/customers/${id}/edit`, setup);
  await screen.findByRole('textbox', { name: 'Name' });
  return r;
}

const box = (name: string) => screen.getByRole('textbox', { name }) as HTMLInputElement;
const type = (name: string, value: string) => fireEvent.change(box(name), { target: { value } });
const saveButton = () => screen.getByRole('button', { name: /^(Save|Saving…)$/ }) as HTMLButtonElement;
const save = () => act(async () => void fireEvent.click(saveButton()));
const errorOf = (el: HTMLElement) => {
  const id = el
    .getAttribute('aria-describedby')
    ?.split(' ')
    .find((i) => document.getElementById(i)?.classList.contains('field-error'));
  return id ? document.getElementById(id)!.textContent : null;
};
const writes = (api: FakeApi) => api.calls.filter((c) => c.method !== 'GET');
const dupCalls = (api: FakeApi) => api.calls.filter((c) => c.path === '/api/v1/customers/duplicates/');
const addTag = (tag: string) => {
  type('Tags', tag);
  fireEvent.keyDown(box('Tags'), { key: 'Enter' });
};
const path = () => window.location.pathname;

beforeEach(() => {
  navigate('/', { replace: true });
  toasts.setState([]);
  setOnline(true);
});
afterEach(() => {
  vi.useRealTimers();
  setOnline(true);
});

describe('D22 the customer form', () => {
  it('D22 Add shows every field with a visible label; a new customer is Active unless chosen', () => {
    showAdd();
    expect(screen.getByRole('heading', { level: 1, name: 'Add Customer' })).toBeTruthy();
    for (const f of TEXT_FIELDS) expect(box(FIELD_LABELS[f]).value).toBe('');
    expect(box('Tags')).toBeTruthy();
    const status = screen.getByRole('combobox', { name: 'Status' }) as HTMLSelectElement;
    expect(status.value).toBe('active');
    expect([...status.options].map((o) => o.textContent)).toEqual(['Lead', 'Active', 'Inactive']);
    expect(screen.getByRole('link', { name: 'Cancel' }).getAttribute('href')).toBe('/customers');
  });

  it('D15 a required name: the error is tied to the field, it gets the focus, and nothing is sent', async () => {
    const { api } = showAdd();
    type('Phone', '12');
    await save();
    expect(errorOf(box('Name'))).toBe('Name is required');
    expect(box('Name').getAttribute('aria-invalid')).toBe('true');
    expect(errorOf(box('Phone'))).toBe('Phone must have at least 7 digits');
    expect(document.activeElement).toBe(box('Name')); // the first invalid field
    expect(writes(api)).toEqual([]);
    type('Name', 'Ann');
    expect(errorOf(box('Name'))).toBeNull(); // editing a field clears its error
  });

  it.each(TEXT_FIELDS)('D22 %s: at most its contract limit, after trimming', (f) => {
    const max = CUSTOMER_TEXT_LIMITS[f];
    const fill = (n: number) => (f === 'email' ? `${'a'.repeat(n - 12)}@example.com` : f === 'phone' ? '5'.repeat(n) : 'x'.repeat(n));
    const ok = { ...EMPTY_VALUES, name: 'Ann', [f]: ` ${fill(max)} ` };
    expect(validateCustomer(ok)[f]).toBeUndefined();
    expect(validateCustomer({ ...ok, [f]: fill(max + 1) })[f]).toBe(`${FIELD_LABELS[f]} must be at most ${max} characters`);
  });

  it('D22 the rules: email shape, 7 phone digits however written, no control characters, status from the list', () => {
    const v = { ...EMPTY_VALUES, name: 'Ann' };
    expect(validateCustomer({ ...v, email: 'ann@example' }).email).toBe('Enter an email address like name@example.com');
    expect(validateCustomer({ ...v, email: 'ann @example.com' }).email).toBeDefined();
    expect(validateCustomer({ ...v, email: ' Ann@Example.com ' }).email).toBeUndefined();
    expect(validateCustomer({ ...v, phone: '(503) 555' }).phone).toBe('Phone must have at least 7 digits');
    expect(validateCustomer({ ...v, phone: '(503) 555-0' }).phone).toBeUndefined();
    expect(validateCustomer({ ...v, city: 'Port\tland' }).city).toBe('City cannot contain control characters (such as tabs)');
    expect(validateCustomer({ ...v, name: '   ' }).name).toBe('Name is required');
    expect(validateCustomer({ ...v, status: 'vip' as 'lead' }).status).toBe('Choose a status');
    expect(validateCustomer({ ...v, tags: Array.from({ length: MAX_TAGS + 1 }, (_, i) => `t${i}`) }).tags).toBe(`A customer can have at most ${MAX_TAGS} tags`);
    expect(validateCustomer(v)).toEqual({});
  });

  it('D39 the form refuses the emails and phones the server refuses (one check in contract/): no headers in an email, 7 digits before an extension', () => {
    const v = { ...EMPTY_VALUES, name: 'Ann' };
    for (const email of ['billing@client.test?bcc=spy%40evil.test', 'a&b@client.test', '"ann"@client.test', 'ann%40x@client.test']) {
      expect(validateCustomer({ ...v, email }).email, email).toBe('Enter an email address like name@example.com');
    }
    expect(validateCustomer({ ...v, email: 'josé@exämple.test' }).email).toBeUndefined();
    expect(validateCustomer({ ...v, phone: '555 ext. 1234567' }).phone).toBe('Phone must have at least 7 digits');
    expect(validateCustomer({ ...v, phone: '+1 503 555 0177 ext. 1234' }).phone).toBeUndefined();
  });

  it('D22 field errors show on the page: email and phone, with the focus on the first', async () => {
    showAdd();
    type('Name', 'Ann');
    type('Email', 'ann@');
    type('Phone', '555-01');
    await save();
    expect(errorOf(box('Email'))).toBe('Enter an email address like name@example.com');
    expect(errorOf(box('Phone'))).toBe('Phone must have at least 7 digits');
    expect(document.activeElement).toBe(box('Email'));
  });
});

describe('D22 tags', () => {
  it('D22 Enter or a comma adds a tag as a chip with a "Remove tag X" button; Enter in the box does not save', () => {
    const { api } = showAdd();
    addTag('vip');
    type('Tags', 'boiler, north,');
    const chips = within(screen.getByRole('list', { name: 'Tags added' })).getAllByRole('listitem');
    expect(chips.map((c) => c.textContent)).toEqual(['vip×', 'boiler×', 'north×']);
    expect(box('Tags').value).toBe('');
    expect(writes(api)).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: 'Remove tag boiler' }));
    expect(screen.queryByRole('button', { name: 'Remove tag boiler' })).toBeNull();
    expect(document.activeElement).toBe(box('Tags'));
    expect(screen.getByText('Removed tag boiler')).toBeTruthy(); // announced politely
  });

  it(`D22 a tag is 1–${TAG_MAX_LENGTH} characters, unique regardless of case, at most ${MAX_TAGS}; a refused tag stays typed with the reason`, () => {
    showAdd();
    addTag('x'.repeat(TAG_MAX_LENGTH + 1));
    expect(errorOf(box('Tags'))).toBe(`A tag can have at most ${TAG_MAX_LENGTH} characters`);
    expect(box('Tags').value).toBe('x'.repeat(TAG_MAX_LENGTH + 1));
    expect(box('Tags').getAttribute('aria-invalid')).toBe('true');
    addTag('x'.repeat(TAG_MAX_LENGTH));
    expect(errorOf(box('Tags'))).toBeNull();
    addTag('VIP');
    addTag('vip');
    expect(errorOf(box('Tags'))).toBe('"vip" is already a tag');
    addTag('   ');
    for (let i = 2; i < MAX_TAGS; i++) addTag(`t${i}`);
    expect(screen.getAllByRole('button', { name: /^Remove tag / })).toHaveLength(MAX_TAGS);
    addTag('one-more');
    expect(errorOf(box('Tags'))).toBe(`A customer can have at most ${MAX_TAGS} tags`);
  });

  it('D22 a tag typed but not added is saved with the rest (nothing typed is lost)', async () => {
    const { api } = showAdd();
    type('Name', 'Ann');
    addTag('vip');
    type('Tags', 'north');
    await save();
    await waitFor(() => expect(path()).toBe('/customers/50'));
    expect((writes(api)[0]!.body as CustomerInput).tags).toEqual(['vip', 'north']);
  });
});

describe('Add Customer: saving', () => {
  it("SPEC §2 a saved customer: 'Customer saved' and the customer's page; text is sent trimmed, empty fields as null", async () => {
    const { api } = showAdd();
    type('Name', '  Cara Diaz ');
    type('Email', 'cara@example.com');
    type('City', 'Salem');
    fireEvent.change(screen.getByRole('combobox', { name: 'Status' }), { target: { value: 'lead' } });
    addTag('new');
    await save();
    await waitFor(() => expect(path()).toBe('/customers/50'));
    expect(screen.getByText(MSG_ADDED)).toBeTruthy();
    const [post] = writes(api);
    expect(post!.method).toBe('POST');
    expect(post!.body).toEqual({
      name: 'Cara Diaz',
      company: null,
      email: 'cara@example.com',
      phone: null,
      address_line: null,
      city: 'Salem',
      region: null,
      postal_code: null,
      country: null,
      status: 'lead',
      tags: ['new'],
      type: 'residential', // D48's defaults
      lead_source: null,
      do_not_service: false,
      do_not_service_reason: null,
    });
  });

  it('D19 a server 400 naming a field lands on that field with the focus; every typed value stays', async () => {
    const { api } = showAdd((f) => f.next.push(json(400, { detail: 'name: is not valid Unicode text', code: 'invalid_field', field: 'name' })));
    type('Name', 'Ann');
    type('Company', 'Bakery');
    addTag('vip');
    await save();
    expect(errorOf(box('Name'))).toBe('Name is not valid Unicode text');
    expect(document.activeElement).toBe(box('Name'));
    expect([box('Name').value, box('Company').value]).toEqual(['Ann', 'Bakery']);
    expect(screen.getByRole('button', { name: 'Remove tag vip' })).toBeTruthy();
    expect(path()).toBe('/customers/new');
    expect(writes(api)).toHaveLength(1);
  });

  it('D19 a 400 about one tag (tags[2]) lands on the tags field', async () => {
    showAdd((f) => f.next.push(json(400, { detail: 'tags[2]: must be at most 30 characters', code: 'invalid_field', field: 'tags[2]' })));
    type('Name', 'Ann');
    await save();
    expect(errorOf(box('Tags'))).toBe('Tags must be at most 30 characters');
  });

  it('D23 a 409 duplicate_email puts "<Name> already has this email" with a link on the email field', async () => {
    showAdd();
    type('Name', 'Benjamin');
    type('Email', 'ben@example.com');
    await save();
    const email = box('Email');
    expect(errorOf(email)).toBe('Ben Okafor already has this email');
    const error = document.getElementById(email.getAttribute('aria-describedby')!)!;
    expect(within(error).getByRole('link', { name: 'Ben Okafor' }).getAttribute('href')).toBe('/customers/8');
    expect(document.activeElement).toBe(email);
    expect(box('Name').value).toBe('Benjamin');
    type('Email', 'benjamin@example.com');
    expect(errorOf(box('Email'))).toBeNull();
  });

  it('any other failure is said at the top of the form and the values stay', async () => {
    showAdd((f) => f.next.push(json(500, { detail: 'Something went wrong.', code: 'error' })));
    type('Name', 'Ann');
    await save();
    expect(screen.getByRole('alert').textContent).toBe('Something went wrong.');
    expect(box('Name').value).toBe('Ann');
  });
});

describe('D23 possible duplicates while typing', () => {
  it('D23 a complete email is looked up after a pause in typing and shown as a link in a polite region', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { api } = showAdd();
    type('Email', 'ben@exam'); // not an address yet: no look-up
    await act(() => vi.advanceTimersByTimeAsync(DUPLICATE_DEBOUNCE_MS * 2));
    expect(dupCalls(api)).toEqual([]);
    type('Email', 'ben@example.co');
    type('Email', 'Ben@Example.com');
    await act(() => vi.advanceTimersByTimeAsync(DUPLICATE_DEBOUNCE_MS - 50));
    expect(dupCalls(api)).toEqual([]);
    await act(() => vi.advanceTimersByTimeAsync(50));
    const region = await screen.findByText(/Possible duplicate:/);
    expect(region.closest('[role="status"]')).toBeTruthy();
    expect(within(region).getByRole('link', { name: 'Ben Okafor' }).getAttribute('href')).toBe('/customers/8');
    expect(region.textContent).toBe('Possible duplicate: Ben Okafor (same email)');
    expect(dupCalls(api).map((c) => c.search)).toEqual(['?email=ben%40example.com']); // one call, for the last value
    type('Email', 'ben@');
    expect(screen.queryByText(/Possible duplicate:/)).toBeNull();
  });

  it('D23 a phone is looked up once it has 7 digits, however it is written', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { api } = showAdd();
    type('Phone', '503 555');
    await act(() => vi.advanceTimersByTimeAsync(DUPLICATE_DEBOUNCE_MS));
    expect(dupCalls(api)).toEqual([]);
    type('Phone', '(503) 555-0199');
    await act(() => vi.advanceTimersByTimeAsync(DUPLICATE_DEBOUNCE_MS));
    const link = await screen.findByRole('link', { name: 'Ben Okafor' });
    expect(link.closest('p')!.textContent).toBe('Possible duplicate: Ben Okafor (same phone)');
  });

  it('D23 an existing customer’s exact name, typed in another case and without its accents, warns too; a warning, never a refusal', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { api } = showAdd();
    type('Name', 'ben okafor');
    await act(() => vi.advanceTimersByTimeAsync(DUPLICATE_DEBOUNCE_MS));
    const link = await screen.findByRole('link', { name: 'Ben Okafor' });
    expect(link.closest('p')!.textContent).toBe('Possible duplicate: Ben Okafor (same name)');
    expect(link.closest('[role="status"]')).toBeTruthy();
    expect(dupCalls(api).map((c) => c.search)).toEqual(['?name=ben+okafor']);
    type('Name', 'Bén Okafor Jr');
    await act(() => vi.advanceTimersByTimeAsync(DUPLICATE_DEBOUNCE_MS));
    await waitFor(() => expect(screen.queryByText(/Possible duplicate:/)).toBeNull());
    type('Name', 'BÉN OKAFOR');
    await act(() => vi.advanceTimersByTimeAsync(DUPLICATE_DEBOUNCE_MS));
    expect(await screen.findByText(/same name/)).toBeTruthy();
    await save();
    await waitFor(() => expect(writes(api).map((c) => [c.method, (c.body as { name?: string }).name])).toEqual([['POST', 'BÉN OKAFOR']]));
  });

  it('D23 Edit leaves out the customer being edited, and looks nothing up until email, phone or name changes', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { api } = await showEdit();
    await act(() => vi.advanceTimersByTimeAsync(DUPLICATE_DEBOUNCE_MS));
    expect(dupCalls(api)).toEqual([]);
    type('Phone', '503-555-0199');
    await act(() => vi.advanceTimersByTimeAsync(DUPLICATE_DEBOUNCE_MS));
    expect(await screen.findByRole('link', { name: 'Ben Okafor' })).toBeTruthy();
    expect(new URLSearchParams(dupCalls(api)[0]!.search).get('exclude')).toBe('7');
  });
});

describe('Edit Customer', () => {
  it('D31 the form starts from the record; a save sends only the changed fields and the version', async () => {
    const { api } = await showEdit();
    expect(screen.getByRole('heading', { level: 1, name: 'Edit Customer' })).toBeTruthy();
    expect(box('Name').value).toBe('Ann Patel');
    expect(box('Street address').value).toBe('1 Main St');
    expect(screen.getByRole('button', { name: 'Remove tag vip' })).toBeTruthy();
    type('City', 'Salem ');
    type('Company', '');
    addTag('north');
    await save();
    await waitFor(() => expect(path()).toBe('/customers/7'));
    const [patch] = writes(api);
    expect(patch!.method).toBe('PATCH');
    expect(patch!.path).toBe('/api/v1/customers/7/');
    expect(patch!.body).toEqual({ city: 'Salem', company: null, tags: ['vip', 'north'], version: 3 });
    expect(screen.getByText(MSG_EDITED)).toBeTruthy();
  });

  it('D31 a record cached more than 60 s ago is not the start: the form waits for the fresh one (no conflict the person did not cause)', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const cache = createQueryCache({ retries: 0 });
    await cache.fetchQuery(customerKeys.detail(1, ANN.id), async () => structuredClone(ANN)); // seen on the customer's page
    vi.setSystemTime(Date.now() + QUERY_FRESH_MS + 1000);
    const { api, fake } = show(EditCustomerPage, `/customers/${ANN.id}/edit`, (f) => f.changeBehind(ANN.id, { city: 'Bend' }), cache);
    expect(screen.queryByRole('textbox', { name: 'Name' })).toBeNull(); // not the cached values
    await screen.findByRole('textbox', { name: 'Name' });
    expect(box('City').value).toBe('Bend');
    type('Company', 'Patel & Co');
    await save();
    await waitFor(() => expect(path()).toBe(`/customers/${ANN.id}`));
    expect(writes(api)[0]!.body).toEqual({ company: 'Patel & Co', version: fake.rows.get(ANN.id)!.version - 1 });
  });

  it('D12 a missing, deleted or foreign customer (404) is the not-found state', async () => {
    show(EditCustomerPage, `/customers/${MISSING_ID}/edit`);
    expect(await screen.findByRole('heading', { name: 'Customer not found' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to Customers' }).getAttribute('href')).toBe('/customers');
  });

  it('a customer deleted while being edited: the save says so and the values stay', async () => {
    const { fake } = await showEdit();
    type('Name', 'Ann Smith');
    fake.rows.delete(ANN.id);
    await save();
    expect(screen.getByRole('alert').textContent).toBe(MSG_GONE);
    expect(box('Name').value).toBe('Ann Smith');
  });

  it('a failed load offers Retry', async () => {
    show(EditCustomerPage, '/customers/7/edit', (f) => f.next.push(json(500, { detail: 'x', code: 'error' })));
    const alert = await screen.findByRole('alert');
    fireEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('textbox', { name: 'Name' })).toBeTruthy();
  });
});

describe('D31 edit conflicts', () => {
  async function conflicted() {
    const r = await showEdit();
    type('Name', 'Ann P. Smith');
    type('State / region', 'WA');
    r.fake.changeBehind(ANN.id, { city: 'Salem', region: 'ID', phone: '503-555-0111' });
    await save();
    const panel = screen.getByRole('region', { name: CONFLICT_TITLE });
    return { ...r, panel };
  }

  it('D31 a 409 conflict says who changed the customer and when, lists their changes beside yours, and keeps what was typed', async () => {
    const { panel } = await conflicted();
    expect(within(panel).getByRole('alert').textContent).toMatch(/^Someone else changed this customerGrace saved changes on .*2025/);
    expect(document.activeElement).toBe(panel);
    const rows = within(panel)
      .getAllByRole('row')
      .map((r) => [...r.children].map((c) => c.textContent));
    expect(rows).toEqual([
      ['Field', 'Your value', 'Current value'],
      ['Phone', '(503) 555-0100', '503-555-0111'],
      ['City', 'Portland', 'Salem'],
      ['State / region', 'WA', 'ID'],
    ]);
    expect(box('Name').value).toBe('Ann P. Smith');
    expect(box('City').value).toBe('Portland');
  });

  it('D31 "Keep my changes and save" sends the person\'s changes on the current version', async () => {
    const { api, panel } = await conflicted();
    await act(async () => void fireEvent.click(within(panel).getByRole('button', { name: 'Keep my changes and save' })));
    await waitFor(() => expect(path()).toBe('/customers/7'));
    expect(writes(api).map((c) => c.body)).toEqual([
      { name: 'Ann P. Smith', region: 'WA', version: 3 },
      { name: 'Ann P. Smith', region: 'WA', version: 4 },
    ]);
    expect(screen.getByText(MSG_EDITED)).toBeTruthy();
  });

  it('D31 "Use their version" loads the current record into the form; a save then carries its version', async () => {
    const { api, panel } = await conflicted();
    fireEvent.click(within(panel).getByRole('button', { name: 'Use their version' }));
    expect(screen.queryByRole('region', { name: CONFLICT_TITLE })).toBeNull();
    expect([box('Name').value, box('City').value, box('Phone').value]).toEqual(['Ann Patel', 'Salem', '503-555-0111']);
    type('Company', 'Patel Bakes');
    await save();
    await waitFor(() => expect(path()).toBe('/customers/7'));
    expect(writes(api).at(-1)!.body).toEqual({ company: 'Patel Bakes', version: 4 });
  });
});

describe('offline: nothing typed is lost', () => {
  it('offline, Save waits and the form says the changes are kept', async () => {
    const { api } = showAdd();
    type('Name', 'Ann');
    act(() => setOnline(false));
    expect(saveButton().disabled).toBe(true);
    expect(screen.getByText(MSG_OFFLINE).id).toBe(saveButton().getAttribute('aria-describedby'));
    fireEvent.submit(screen.getByRole('form', { name: 'Customer' })); // Enter in a field sends nothing either
    expect(writes(api)).toEqual([]);
    act(() => setOnline(true));
    expect(saveButton().disabled).toBe(false);
    expect(screen.queryByText(MSG_OFFLINE)).toBeNull();
    expect(box('Name').value).toBe('Ann');
  });

  it('a network error on save says the same, keeps the values, and Save works once the server answers again', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { api } = showAdd();
    type('Name', 'Ann');
    addTag('vip');
    api.offline = true;
    await save();
    expect(screen.getByText(MSG_OFFLINE)).toBeTruthy();
    expect(saveButton().disabled).toBe(true);
    expect(box('Name').value).toBe('Ann');
    expect(screen.queryByRole('alert')).toBeNull();
    api.offline = false;
    await act(() => vi.advanceTimersByTimeAsync(RECONNECT_CHECK_MS)); // the form asks again by itself
    await waitFor(() => expect(saveButton().disabled).toBe(false));
    await save();
    await waitFor(() => expect(path()).toBe('/customers/50'));
  });
});

describe('unsaved changes', () => {
  it('leaving with unsaved changes asks "Leave without saving?" first; Keep editing stays with the values', async () => {
    showAdd();
    navigate('/customers/new'); // no change of address: nothing to ask
    type('Name', 'Ann');
    fireEvent.click(screen.getByRole('link', { name: 'Cancel' }));
    const dialog = await screen.findByRole('dialog', { name: LEAVE_TITLE });
    expect(path()).toBe('/customers/new');
    // D15: focus moves in (an effect after the dialog's first paint, so it may come a moment after it shows)
    await waitFor(() => expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Keep editing' })));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Keep editing' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(box('Name').value).toBe('Ann');
    act(() => navigate('/dashboard')); // any in-app navigation, not only links
    fireEvent.click(within(await screen.findByRole('dialog', { name: LEAVE_TITLE })).getByRole('button', { name: 'Leave without saving' }));
    expect(path()).toBe('/dashboard');
  });

  it('without changes (or with them undone) leaving does not ask', () => {
    showAdd();
    type('Name', 'Ann');
    type('Name', '');
    fireEvent.click(screen.getByRole('link', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(path()).toBe('/customers');
  });

  it('the browser asks before unloading while there are unsaved changes (a typed tag counts)', () => {
    showAdd();
    const unload = () => {
      const e = new Event('beforeunload', { cancelable: true });
      window.dispatchEvent(e);
      return e.defaultPrevented;
    };
    expect(unload()).toBe(false);
    type('Tags', 'vi');
    expect(unload()).toBe(true);
  });

  it('an edit asks only once something differs from the record', async () => {
    await showEdit();
    fireEvent.click(screen.getByRole('link', { name: 'Cancel' }));
    expect(path()).toBe('/customers/7');
  });
});

describe('D31 what an edit sends', () => {
  it('D31 only the fields that differ from the record the person started from', () => {
    const base = toInput(toValues(ANN));
    expect(changedFields(toValues(ANN), base)).toEqual({});
    expect(changedFields({ ...toValues(ANN), email: ' ann@example.com ', tags: ['vip'] }, base)).toEqual({});
    expect(changedFields({ ...toValues(ANN), phone: '', status: 'lead' }, base)).toEqual({ phone: null, status: 'lead' });
  });
});
