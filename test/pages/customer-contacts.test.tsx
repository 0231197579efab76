// D47 the customer page's other contacts: name, role, mailto: and tel: links (D39) and a note, edited in
// place by who has customers:update (D9): add, change, remove (asked first), the limit said on Add; D15
// focus into each form and back; what was typed kept through a 400, a network error and offline.
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import '../ui/no-console';
import { MAX_CONTACTS } from '../../contract/customer-parts';
import { setOnline } from '../../src/http/connectivity';
import { MSG_PART_OFFLINE } from '../../src/pages/customers/parts/PartForm';
import { navigate } from '../../src/router/location';
import { toasts } from '../../src/ui/toast';
import { contact } from '../helpers/fake-parts';
import { section, showCustomer, timelineTexts, toastTexts, VIEWER } from '../helpers/customer-page';

const TOM = contact(1, { name: 'Tom Lee', role: 'tenant', email: 'tom@example.com', phone: '+1 503 555 0177 ext. 12', note: 'Works nights.\nCall after 2 pm.' });
const PAM = contact(2, { name: 'Pam Ruiz', role: 'property manager', phone: '(503) 555-0142' });
const CONTACTS = 'Contacts';
const row = (name: string) => screen.getByRole('article', { name });
const box = (form: HTMLElement, label: string) => within(form).getByLabelText(label) as HTMLInputElement;
const type = (form: HTMLElement, label: string, value: string) => fireEvent.change(box(form, label), { target: { value } });
const newForm = () => screen.getByRole('form', { name: 'New contact' });
const addButton = () => within(screen.getByRole('region', { name: CONTACTS })).getByRole('button', { name: 'Add contact' });

beforeEach(() => {
  navigate('/', { replace: true });
  toasts.setState([]);
  setOnline(true);
});

describe('D47 contacts as read', () => {
  it('empty: says so, and Add is offered', async () => {
    const s = await (showCustomer(), section(CONTACTS));
    expect(within(s).getByText('No other contacts yet.')).toBeTruthy();
    expect(within(s).getByRole('button', { name: 'Add contact' })).toBeTruthy();
  });

  it('each with name, role, a mailto: and a tel: link (the extension apart) and the note with its line breaks', async () => {
    const s = await (showCustomer({ contacts: [TOM, PAM] }), section(CONTACTS));
    expect(
      within(s)
        .getAllByRole('article')
        .map((r) => r.getAttribute('aria-label')),
    ).toEqual(['Tom Lee', 'Pam Ruiz']);
    expect(within(row('Tom Lee')).getByText('tenant')).toBeTruthy();
    expect(within(row('Tom Lee')).getByRole('link', { name: 'tom@example.com' }).getAttribute('href')).toBe('mailto:tom@example.com');
    expect(within(row('Tom Lee')).getByRole('link', { name: '+1 503 555 0177 ext. 12' }).getAttribute('href')).toBe('tel:+15035550177;ext=12');
    expect(within(row('Tom Lee')).getByText(/Works nights/).textContent).toBe('Works nights.\nCall after 2 pm.');
    expect(within(row('Pam Ruiz')).getByRole('link', { name: '(503) 555-0142' }).getAttribute('href')).toBe('tel:5035550142');
    expect(within(row('Pam Ruiz')).queryByRole('link', { name: /@/ })).toBeNull();
  });

  it('D9 without customers:update: the contacts, but no Add, Edit or Remove', async () => {
    const s = await (showCustomer({ contacts: [TOM] }, VIEWER), section(CONTACTS));
    expect(within(s).getAllByRole('article')).toHaveLength(1);
    expect(within(s).queryAllByRole('button')).toEqual([]);
  });
});

describe('D47 contacts edited in place', () => {
  it('adds one: the form takes the focus, sends the fields trimmed (empty ones null), lists it, focus back on Add, a timeline entry', async () => {
    const { parts } = showCustomer();
    await section(CONTACTS);
    fireEvent.click(addButton());
    expect(document.activeElement).toBe(box(newForm(), 'Name'));
    type(newForm(), 'Name', ' Pam Ruiz ');
    type(newForm(), 'Role', 'property manager');
    type(newForm(), 'Phone', '(503) 555-0142');
    fireEvent.click(within(newForm()).getByRole('button', { name: 'Add contact' }));
    await waitFor(() => expect(screen.queryByRole('form', { name: 'New contact' })).toBeNull());
    expect(parts.calls('contacts', 'POST')[0]!.body).toEqual({ name: 'Pam Ruiz', role: 'property manager', email: null, phone: '(503) 555-0142', note: null });
    expect(toastTexts()).toContain('Added Pam Ruiz');
    expect(await screen.findByRole('article', { name: 'Pam Ruiz' })).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(addButton()));
    await waitFor(() => expect(timelineTexts()[0]).toBe('Olivia added the contact “Pam Ruiz” to this customer'));
  });

  it('checked before sending: a name, an email’s shape, a phone’s digits; the first wrong box takes the focus', async () => {
    const { parts } = showCustomer();
    await section(CONTACTS);
    fireEvent.click(addButton());
    type(newForm(), 'Email', 'tom@');
    type(newForm(), 'Phone', '555');
    fireEvent.click(within(newForm()).getByRole('button', { name: 'Add contact' }));
    await waitFor(() => expect(document.activeElement).toBe(box(newForm(), 'Name')));
    expect(within(newForm()).getByText('Name is required')).toBeTruthy();
    expect(within(newForm()).getByText('Enter an email address like name@example.com')).toBeTruthy();
    expect(within(newForm()).getByText('Phone must have at least 7 digits')).toBeTruthy();
    expect(parts.calls('contacts', 'POST')).toEqual([]);
  });

  it('a 400 lands on its field; a network error is said above the form; what was typed stays; then it saves', async () => {
    const { parts } = showCustomer();
    parts.failures.set('POST contacts', [{ status: 400, body: { detail: 'email: must be an email address', code: 'invalid_field', field: 'email' } }, 'network']);
    await section(CONTACTS);
    fireEvent.click(addButton());
    type(newForm(), 'Name', 'Tom Lee');
    type(newForm(), 'Email', 'tom@example.com');
    fireEvent.click(within(newForm()).getByRole('button', { name: 'Add contact' }));
    expect(await within(newForm()).findByText('Email: must be an email address')).toBeTruthy();
    expect(box(newForm(), 'Email').getAttribute('aria-invalid')).toBe('true');
    fireEvent.click(within(newForm()).getByRole('button', { name: 'Add contact' }));
    await waitFor(() => expect(within(newForm()).getByRole('alert').textContent).toMatch(/^Could not save the contact: the server could not be reached/));
    expect(box(newForm(), 'Name').value).toBe('Tom Lee');
    expect(box(newForm(), 'Email').value).toBe('tom@example.com');
    act(() => setOnline(true));
    fireEvent.click(within(newForm()).getByRole('button', { name: 'Add contact' }));
    expect(await screen.findByRole('article', { name: 'Tom Lee' })).toBeTruthy();
  });

  it('offline: the form says what was typed is kept', async () => {
    showCustomer({ contacts: [TOM] });
    await section(CONTACTS);
    fireEvent.click(screen.getByRole('button', { name: 'Edit Tom Lee' }));
    const form = screen.getByRole('form', { name: 'Edit Tom Lee' });
    type(form, 'Role', 'landlord');
    act(() => setOnline(false));
    expect(within(form).getByText(MSG_PART_OFFLINE)).toBeTruthy();
    expect(box(form, 'Role').value).toBe('landlord');
  });

  it('changes one: its values to start from, only what changed is sent, focus back on its Edit', async () => {
    const { parts } = showCustomer({ contacts: [TOM, PAM] });
    await section(CONTACTS);
    fireEvent.click(screen.getByRole('button', { name: 'Edit Tom Lee' }));
    const form = screen.getByRole('form', { name: 'Edit Tom Lee' });
    expect(document.activeElement).toBe(box(form, 'Name'));
    expect(box(form, 'Note').value).toBe('Works nights.\nCall after 2 pm.');
    type(form, 'Role', 'former tenant');
    fireEvent.click(within(form).getByRole('button', { name: 'Save contact' }));
    await waitFor(() => expect(within(row('Tom Lee')).getByText('former tenant')).toBeTruthy());
    expect(parts.calls('contacts/1', 'PATCH')[0]!.body).toEqual({ role: 'former tenant' });
    await waitFor(() => expect(document.activeElement?.getAttribute('aria-label')).toBe('Edit Tom Lee'));
    await waitFor(() => expect(timelineTexts()[0]).toBe('Olivia changed role from tenant to former tenant (the contact “Tom Lee”)'));
  });

  it('removes one after asking; focus on the heading after', async () => {
    const { parts } = showCustomer({ contacts: [TOM, PAM] });
    const s = await section(CONTACTS);
    fireEvent.click(screen.getByRole('button', { name: 'Remove Pam Ruiz' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove Pam Ruiz?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove contact' }));
    await waitFor(() => expect(screen.queryByRole('article', { name: 'Pam Ruiz' })).toBeNull());
    expect(parts.calls('contacts/2', 'DELETE')).toHaveLength(1);
    await waitFor(() => expect(document.activeElement).toBe(within(s).getByRole('heading', { level: 2 })));
  });

  it('a refused removal is said in the dialog, and the contact stays', async () => {
    const { parts } = showCustomer({ contacts: [TOM] });
    parts.failures.set('DELETE contacts', [500]);
    await section(CONTACTS);
    fireEvent.click(screen.getByRole('button', { name: 'Remove Tom Lee' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove Tom Lee?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove contact' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Could not remove Tom Lee. Please try again.');
    expect(row('Tom Lee')).toBeTruthy();
  });

  it(`at the limit (${MAX_CONTACTS}) Add says why and opens nothing`, async () => {
    const many = Array.from({ length: MAX_CONTACTS }, (_, i) => contact(i + 1));
    await (showCustomer({ contacts: many }), section(CONTACTS));
    const add = addButton();
    expect(add.getAttribute('aria-disabled')).toBe('true');
    expect(document.getElementById(add.getAttribute('aria-describedby')!)!.textContent).toBe(
      `A customer can have at most ${MAX_CONTACTS} contacts: remove one to add another.`,
    );
    fireEvent.click(add);
    expect(screen.queryByRole('form', { name: 'New contact' })).toBeNull();
  });
});
