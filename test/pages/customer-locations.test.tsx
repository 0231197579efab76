// D46 the customer page's service locations: listed with label, address, access notes and a map link, the
// primary marked and first; edited in place by who has customers:update (D9): add, change, remove (asked
// first), make primary, the limit said on Add; D15 focus into each form and back; what was typed kept
// through a 400, a 409, a network error and offline. D48 the do-not-service warning and the billing address.
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import '../ui/no-console';
import { MAX_LOCATIONS } from '../../contract/customer-parts';
import { DRAFT_RESTORE } from '../../src/drafts/DraftOffer';
import { setOnline } from '../../src/http/connectivity';
import { MSG_NO_REASON } from '../../src/pages/customers/detail/ServiceWarning';
import { MSG_PART_OFFLINE } from '../../src/pages/customers/parts/PartForm';
import { MSG_LOCATION_EMPTY } from '../../src/pages/customers/parts/values';
import { navigate } from '../../src/router/location';
import { toasts } from '../../src/ui/toast';
import { location } from '../helpers/fake-parts';
import { reloadPermissions } from '../helpers/session';
import { loaded, section, showCustomer, timelineTexts, toastTexts, VIEWER } from '../helpers/customer-page';

const HOME = location(1, { label: 'Home', address_line: '12 Oak Street', city: 'Portland', postal_code: '97201', primary: true });
const RENTAL = location(2, { label: 'Rental on Oak St', address_line: '40 Oak St', access_notes: 'Gate code 4321\nDog in the yard', region: 'OR' });
const LOCATIONS = 'Service locations';
const row = (name: string) => screen.getByRole('article', { name });
const box = (form: HTMLElement, label: string) => within(form).getByLabelText(label) as HTMLInputElement;
const type = (form: HTMLElement, label: string, value: string) => fireEvent.change(box(form, label), { target: { value } });
const newForm = () => screen.getByRole('form', { name: 'New location' });
const addButton = () => within(screen.getByRole('region', { name: LOCATIONS })).getByRole('button', { name: 'Add location' });

afterEach(() => vi.useRealTimers());
beforeEach(() => {
  navigate('/', { replace: true });
  toasts.setState([]);
  setOnline(true);
});

describe('D46 locations as read', () => {
  it('empty: says so, and Add is offered', async () => {
    const s = await (showCustomer(), section(LOCATIONS));
    expect(within(s).getByText('No service locations yet.')).toBeTruthy();
    expect(within(s).getByRole('button', { name: 'Add location' })).toBeTruthy();
  });

  it('each with label, address, access notes (line breaks kept) and a map link to a new tab; the primary marked and first', async () => {
    const s = await (showCustomer({ locations: [HOME, RENTAL] }), section(LOCATIONS));
    const rows = within(s).getAllByRole('article');
    expect(rows.map((r) => r.getAttribute('aria-label'))).toEqual(['Home', 'Rental on Oak St']);
    expect(within(row('Home')).getByText('Primary')).toBeTruthy();
    expect(within(row('Rental on Oak St')).queryByText('Primary')).toBeNull();
    expect([...row('Rental on Oak St').querySelector('address')!.children].map((l) => l.textContent)).toEqual(['40 Oak St', 'Tigard, OR 97223', 'USA']);
    expect(within(row('Rental on Oak St')).getByText(/Gate code/).textContent).toBe('Gate code 4321\nDog in the yard');
    const map = within(row('Rental on Oak St')).getByRole('link', { name: 'Open map of Rental on Oak St in OpenStreetMap (opens in a new tab)' }) as HTMLAnchorElement;
    expect(map.getAttribute('href')).toBe('https://www.openstreetmap.org/search?query=40%20Oak%20St%2C%20Tigard%2C%20OR%2097223%2C%20USA');
    expect(map.target).toBe('_blank');
    expect(map.rel).toBe('noopener noreferrer');
  });

  it('a location with only a label has no map link', async () => {
    const bare = location(3, { label: 'Cabin', address_line: null, city: null, region: null, postal_code: null, country: null, primary: true });
    await (showCustomer({ locations: [bare] }), section(LOCATIONS));
    expect(within(row('Cabin')).queryByRole('link')).toBeNull();
  });

  it('D9 without customers:update: the locations, but no Add, Edit, Remove or Make primary', async () => {
    const s = await (showCustomer({ locations: [HOME, RENTAL] }, VIEWER), section(LOCATIONS));
    expect(within(s).getAllByRole('article')).toHaveLength(2);
    expect(within(s).queryAllByRole('button')).toEqual([]);
  });

  it('D48 the do-not-service warning heads the page in words, with its reason; the address is the billing address; type and source shown', async () => {
    showCustomer({ do_not_service: true, do_not_service_reason: 'Unpaid invoices since 2024', type: 'commercial', lead_source: 'Yard sign' });
    await loaded();
    const contact = screen.getByRole('region', { name: 'Contact' });
    expect([...contact.querySelectorAll('dt')].map((dt) => `${dt.textContent}: ${dt.nextElementSibling!.textContent}`)).toEqual(
      expect.arrayContaining(['Type: Commercial', 'Lead source: Yard sign']),
    );
    const alert = screen.getAllByRole('alert').find((a) => a.classList.contains('service-warning'))!;
    expect(alert.textContent).toBe('!Do not service. Unpaid invoices since 2024');
    expect(screen.getByRole('heading', { level: 2, name: 'Billing address' })).toBeTruthy();
    // Above the record: the first thing in the page's content.
    expect(alert.compareDocumentPosition(screen.getByRole('region', { name: 'Contact' })) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('D48 no reason given: the warning says so; a customer without the flag has no warning', async () => {
    showCustomer({ do_not_service: true, do_not_service_reason: null });
    await loaded();
    expect(screen.getByText(MSG_NO_REASON)).toBeTruthy();
  });

  it('D48 no flag, no warning', async () => {
    showCustomer();
    await loaded();
    expect(screen.queryByText('Do not service.')).toBeNull();
  });
});

describe('D46 locations edited in place', () => {
  it('adds one: the form takes the focus, sends every field, closes, lists it, focus back on Add, a timeline entry', async () => {
    const { parts } = showCustomer({ locations: [HOME] });
    await section(LOCATIONS);
    fireEvent.click(addButton());
    const form = newForm();
    expect(document.activeElement).toBe(box(form, 'Label'));
    type(form, 'Label', '  Rental on Oak St ');
    type(form, 'Street address', '40 Oak St');
    type(form, 'City', 'Tigard');
    type(form, 'Access notes', 'Gate code 4321\nDog');
    fireEvent.click(within(form).getByRole('button', { name: 'Add location' }));
    await waitFor(() => expect(screen.queryByRole('form', { name: 'New location' })).toBeNull());
    expect(parts.calls('locations', 'POST')[0]!.body).toEqual({
      label: 'Rental on Oak St',
      address_line: '40 Oak St',
      city: 'Tigard',
      region: null,
      postal_code: null,
      country: null,
      access_notes: 'Gate code 4321\nDog',
      primary: false,
    });
    expect(toastTexts()).toContain('Added Rental on Oak St');
    expect(await screen.findByRole('article', { name: 'Rental on Oak St' })).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(addButton()));
    await waitFor(() => expect(timelineTexts()[0]).toBe('Olivia added the location “Rental on Oak St” to this customer'));
  });

  it('nothing to find it by: said on the street address, nothing sent', async () => {
    const { parts } = showCustomer();
    await section(LOCATIONS);
    fireEvent.click(addButton());
    fireEvent.click(within(newForm()).getByRole('button', { name: 'Add location' }));
    await waitFor(() => expect(document.activeElement).toBe(box(newForm(), 'Street address')));
    expect(within(newForm()).getByText(MSG_LOCATION_EMPTY)).toBeTruthy();
    expect(parts.calls('locations', 'POST')).toEqual([]);
  });

  it('a 400 lands on its field in the form’s words; what was typed stays', async () => {
    const { parts } = showCustomer();
    parts.failures.set('POST locations', [{ status: 400, body: { detail: 'city: contains a control character', code: 'invalid_field', field: 'city' } }]);
    await section(LOCATIONS);
    fireEvent.click(addButton());
    type(newForm(), 'Label', 'Shop');
    type(newForm(), 'City', 'Tigard');
    fireEvent.click(within(newForm()).getByRole('button', { name: 'Add location' }));
    expect(await within(newForm()).findByText('City: contains a control character')).toBeTruthy();
    expect(box(newForm(), 'City').getAttribute('aria-invalid')).toBe('true');
    expect(box(newForm(), 'Label').value).toBe('Shop');
    expect(box(newForm(), 'City').value).toBe('Tigard');
  });

  it('a 409 (the limit reached meanwhile) and a network error are said above the form; what was typed stays; then it saves', async () => {
    const { parts } = showCustomer();
    parts.failures.set('POST locations', [
      { status: 409, body: { detail: 'A customer has at most 50 locations: remove one to add another', code: 'too_many_locations' } },
      'network',
    ]);
    await section(LOCATIONS);
    fireEvent.click(addButton());
    type(newForm(), 'Label', 'Shop');
    fireEvent.click(within(newForm()).getByRole('button', { name: 'Add location' }));
    expect((await within(newForm()).findByRole('alert')).textContent).toBe('A customer has at most 50 locations: remove one to add another');
    fireEvent.click(within(newForm()).getByRole('button', { name: 'Add location' }));
    await waitFor(() => expect(within(newForm()).getByRole('alert').textContent).toMatch(/could not be reached\. What you typed is kept/));
    expect(box(newForm(), 'Label').value).toBe('Shop');
    act(() => setOnline(true));
    fireEvent.click(within(newForm()).getByRole('button', { name: 'Add location' }));
    expect(await screen.findByRole('article', { name: 'Shop' })).toBeTruthy();
    expect(parts.calls('locations', 'POST')).toHaveLength(3);
  });

  it('offline: the form says what was typed is kept', async () => {
    showCustomer();
    await section(LOCATIONS);
    fireEvent.click(addButton());
    type(newForm(), 'Label', 'Shop');
    act(() => setOnline(false));
    expect(within(newForm()).getByText(MSG_PART_OFFLINE)).toBeTruthy();
    expect(box(newForm(), 'Label').value).toBe('Shop');
  });

  it('D41 what was typed survives a reload as a draft, offered when the form opens again; saving removes it', async () => {
    sessionStorage.clear();
    showCustomer();
    await section(LOCATIONS);
    fireEvent.click(addButton());
    type(newForm(), 'Label', 'Shop');
    type(newForm(), 'Access notes', 'Key under the mat');
    window.dispatchEvent(new Event('pagehide'));
    cleanup();
    showCustomer();
    await section(LOCATIONS);
    fireEvent.click(addButton());
    fireEvent.click(await within(newForm()).findByRole('button', { name: DRAFT_RESTORE }));
    expect(box(newForm(), 'Label').value).toBe('Shop');
    expect(box(newForm(), 'Access notes').value).toBe('Key under the mat');
    fireEvent.click(within(newForm()).getByRole('button', { name: 'Add location' }));
    expect(await screen.findByRole('article', { name: 'Shop' })).toBeTruthy();
    expect(Object.keys(sessionStorage).filter((k) => k.startsWith('draft:'))).toEqual([]);
  });

  it('D41 a 403 permission_denied keeps the form, its typing and says so, after the permissions reload (no Edit or Add then)', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { parts, t } = showCustomer();
    parts.failures.set('POST locations', [{ status: 403, body: { detail: 'no', code: 'permission_denied' } }]);
    await section(LOCATIONS);
    fireEvent.click(addButton());
    type(newForm(), 'Label', 'Shop');
    fireEvent.click(within(newForm()).getByRole('button', { name: 'Add location' }));
    expect((await within(newForm()).findByRole('alert')).textContent).toBe('You no longer have permission to change locations. Your changes are kept as a draft.');
    await reloadPermissions();
    await waitFor(() => expect(t.session.store.getState().permissions).not.toContain('customers:update'));
    expect(box(newForm(), 'Label').value).toBe('Shop');
    // The only 'Add location' left is the open form's own (no opener without customers:update).
    expect(within(screen.getByRole('region', { name: LOCATIONS })).getAllByRole('button', { name: 'Add location' })).toEqual([
      within(newForm()).getByRole('button', { name: 'Add location' }),
    ]);
  });

  it('changes one: its values to start from, only what changed is sent, focus back on its Edit', async () => {
    const { parts } = showCustomer({ locations: [HOME, RENTAL] });
    await section(LOCATIONS);
    fireEvent.click(within(row('Rental on Oak St')).getByRole('button', { name: 'Edit Rental on Oak St' }));
    const form = screen.getByRole('form', { name: 'Edit Rental on Oak St' });
    expect(document.activeElement).toBe(box(form, 'Label'));
    expect(box(form, 'Access notes').value).toBe('Gate code 4321\nDog in the yard');
    type(form, 'City', 'Beaverton');
    fireEvent.click(within(form).getByRole('button', { name: 'Save location' }));
    await waitFor(() => expect(within(row('Rental on Oak St')).getByText('Beaverton, OR 97223')).toBeTruthy());
    expect(parts.calls('locations/2', 'PATCH')[0]!.body).toEqual({ city: 'Beaverton' });
    await waitFor(() => expect(document.activeElement?.getAttribute('aria-label')).toBe('Edit Rental on Oak St'));
    await waitFor(() => expect(timelineTexts()[0]).toBe('Olivia changed city from Tigard to Beaverton (the location “Rental on Oak St”)'));
  });

  it('Cancel (or Escape) closes the form unsent, focus back on its Edit', async () => {
    const { parts } = showCustomer({ locations: [HOME] });
    await section(LOCATIONS);
    fireEvent.click(screen.getByRole('button', { name: 'Edit Home' }));
    type(screen.getByRole('form', { name: 'Edit Home' }), 'City', 'Salem');
    fireEvent.keyDown(box(screen.getByRole('form', { name: 'Edit Home' }), 'City'), { key: 'Escape' });
    expect(screen.queryByRole('form', { name: 'Edit Home' })).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Edit Home' })));
    fireEvent.click(screen.getByRole('button', { name: 'Edit Home' }));
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(within(row('Home')).getByText('Portland, OR 97201')).toBeTruthy();
    expect(parts.calls('locations/1')).toEqual([]);
  });

  it('removes one after asking; Cancel keeps it; focus on the heading after', async () => {
    const { parts } = showCustomer({ locations: [HOME, RENTAL] });
    const s = await section(LOCATIONS);
    fireEvent.click(screen.getByRole('button', { name: 'Remove Rental on Oak St' }));
    let dialog = await screen.findByRole('dialog', { name: 'Remove Rental on Oak St?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(parts.calls('locations/2')).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: 'Remove Rental on Oak St' }));
    dialog = await screen.findByRole('dialog', { name: 'Remove Rental on Oak St?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove location' }));
    await waitFor(() => expect(screen.queryByRole('article', { name: 'Rental on Oak St' })).toBeNull());
    expect(parts.calls('locations/2', 'DELETE')).toHaveLength(1);
    expect(toastTexts()).toContain('Removed Rental on Oak St');
    await waitFor(() => expect(document.activeElement).toBe(within(s).getByRole('heading', { level: 2 })));
    await waitFor(() => expect(timelineTexts()[0]).toBe('Olivia removed the location “Rental on Oak St” from this customer'));
  });

  it('makes one primary: sent alone, then it is first and marked, the other not', async () => {
    const { parts } = showCustomer({ locations: [HOME, RENTAL] });
    const s = await section(LOCATIONS);
    expect(screen.queryByRole('button', { name: 'Make primary: Home' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Make primary: Rental on Oak St' }));
    await waitFor(() => expect(within(s).getAllByRole('article')[0]!.getAttribute('aria-label')).toBe('Rental on Oak St'));
    expect(parts.calls('locations/2', 'PATCH')[0]!.body).toEqual({ primary: true });
    expect(within(row('Rental on Oak St')).getByText('Primary')).toBeTruthy();
    expect(within(row('Home')).queryByText('Primary')).toBeNull();
    await waitFor(() => expect(document.activeElement?.getAttribute('aria-label')).toBe('Edit Rental on Oak St'));
    await waitFor(() => expect(timelineTexts()[0]).toBe('Olivia made the location “Rental on Oak St” the primary location'));
  });

  it('D24 a change of several fields is one timeline entry listing each', async () => {
    showCustomer({ locations: [HOME] });
    await section(LOCATIONS);
    fireEvent.click(screen.getByRole('button', { name: 'Edit Home' }));
    const form = screen.getByRole('form', { name: 'Edit Home' });
    type(form, 'City', 'Salem');
    type(form, 'Postal code', '97301');
    fireEvent.click(within(form).getByRole('button', { name: 'Save location' }));
    await waitFor(() => expect(timelineTexts()[0]).toBe('Olivia changed the location “Home” of this customer'));
    const list = screen.getByRole('region', { name: 'Notes and history' }).querySelector('.change-list')!;
    expect([...list.children].map((li) => li.textContent)).toEqual(['changed city from Portland to Salem', 'changed postal code from 97201 to 97301']);
  });

  it(`at the limit (${MAX_LOCATIONS}) Add says why and opens nothing`, async () => {
    const many = Array.from({ length: MAX_LOCATIONS }, (_, i) => location(i + 1, { primary: i === 0 }));
    await (showCustomer({ locations: many }), section(LOCATIONS));
    const add = addButton();
    expect(add.getAttribute('aria-disabled')).toBe('true');
    expect(document.getElementById(add.getAttribute('aria-describedby')!)!.textContent).toBe(
      `A customer can have at most ${MAX_LOCATIONS} locations: remove one to add another.`,
    );
    fireEvent.click(add);
    expect(screen.queryByRole('form', { name: 'New location' })).toBeNull();
  });
});
