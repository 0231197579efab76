// D56 D61 the custom fields screen (/settings/fields) through the real client, query cache and dialogs,
// against a fake of the definitions' calls (fake-custom-fields.ts): both groups in order, read-only without
// fields:manage, add and edit with the server's refusals on their fields, reorder by keyboard and by
// dragging, archive, restore and delete with the count.
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import '../ui/no-console';
import type { CustomField } from '../../contract/custom-fields';
import { DRAFT_RESTORE } from '../../src/drafts/DraftOffer';
import { setOnline } from '../../src/http/connectivity';
import { MSG_OFFLINE } from '../../src/pages/settings/fields/FieldDialog';
import FieldsPage, { MSG_ORDER_STALE, MSG_READ_ONLY } from '../../src/pages/settings/fields/FieldsPage';
import SettingsPage from '../../src/pages/settings/SettingsPage';
import { navigate } from '../../src/router/location';
import { NAV, visibleNav } from '../../src/shell/nav';
import { toasts } from '../../src/ui/toast';
import { FakeCustomFields } from '../helpers/fake-custom-fields';
import { FakeApi } from '../helpers/fake-api';
import { fieldDef } from '../helpers/fake-field-defs';
import { renderPage } from '../helpers/render';
import { ALL_PERMISSIONS } from '../helpers/session';

const fieldsOf = (): CustomField[] => [
  fieldDef({ key: 'gate_code', label: 'Gate code', type: 'text', unique: true, required: true, position: 1 }),
  fieldDef({ key: 'plan', label: 'Plan', type: 'choice', options: ['Basic', 'Premium'], position: 2 }),
  fieldDef({ key: 'units', label: 'Units', type: 'number', position: 3 }),
  fieldDef({ key: 'old', label: 'Old field', type: 'text', archived: true, archived_at: '2025-01-02T00:00:00Z', position: 4 }),
  fieldDef({ key: 'floor', label: 'Floor', type: 'number', record_kind: 'location', position: 1 }),
];

function show({ fields = fieldsOf(), as = ALL_PERMISSIONS as readonly string[] } = {}) {
  const api = new FakeApi();
  const fake = new FakeCustomFields(api, fields);
  renderPage('/settings/fields', <FieldsPage />, { fake: api, as });
  return { api, fake };
}
const group = (name: string) => screen.getByRole('region', { name });
const ready = () => screen.findByRole('region', { name: 'Customer fields' });
const rows = (name: string) =>
  within(within(group(name)).getAllByRole('list')[0]!)
    .getAllByRole('listitem')
    .map((li) => li.querySelector('.fd-label')!.textContent);
const row = (label: string) => screen.getAllByRole('listitem').find((li) => li.querySelector('.fd-label')?.textContent === label)!;
const dialog = () => screen.findByRole('dialog');
const box = (d: HTMLElement, name: string) => within(d).getByRole('textbox', { name }) as HTMLInputElement;
const type = (el: HTMLElement, value: string) => fireEvent.change(el, { target: { value } });
const messages = () => toasts.getState().map((t) => t.message);
const submit = (d: HTMLElement, name = /^(Add field|Save)$/) => act(async () => void fireEvent.click(within(d).getByRole('button', { name })));

beforeEach(() => {
  navigate('/', { replace: true });
  toasts.setState([]);
  setOnline(true);
  sessionStorage.clear();
});

describe('D56 the custom fields screen', () => {
  it('D56 two groups, each in its order, with label, key, type in words and required/unique badges; archived ones apart with Restore and Delete', async () => {
    show();
    await ready();
    expect(rows('Customer fields')).toEqual(['Gate code', 'Plan', 'Units']);
    expect(rows('Location fields')).toEqual(['Floor']);
    expect(row('Gate code').textContent).toContain('gate_code · Text');
    expect(within(row('Gate code')).getByText('Required')).toBeTruthy();
    expect(within(row('Gate code')).getByText('Unique')).toBeTruthy();
    expect(row('Plan').textContent).toContain('plan · One choice · Basic, Premium');
    expect(within(group('Customer fields')).getByText('4 of 50')).toBeTruthy(); // archived ones count (D56 limits)
    const archived = within(group('Customer fields')).getByRole('list', { name: 'Archived' });
    expect(within(archived).getByRole('button', { name: 'Restore Old field' })).toBeTruthy();
    expect(within(archived).getByRole('button', { name: 'Delete Old field' })).toBeTruthy();
    expect(within(row('Gate code')).queryByRole('button', { name: /Delete/ })).toBeNull(); // only archived ones
  });

  it('D61 without fields:manage the fields are read, not changed: no buttons, a sentence says why; the sidebar links there with fields:manage only', async () => {
    show({ as: ['dashboard:view', 'customers:view'] });
    await ready();
    expect(screen.getByText(MSG_READ_ONLY)).toBeTruthy();
    expect(rows('Customer fields')).toEqual(['Gate code', 'Plan', 'Units']);
    expect(screen.queryAllByRole('button')).toEqual([]);
    const links = (p: string[]) => visibleNav(p, NAV, 'member').flatMap((s) => s.links.map((l) => l.to));
    expect(links(['customers:view'])).not.toContain('/settings/fields');
    expect(links(['customers:view', 'fields:manage'])).toContain('/settings/fields');
  });

  it('D56 the Settings page links to the custom fields for who sees customers', async () => {
    renderPage('/settings', <SettingsPage />, { as: ['customers:view'] });
    expect(screen.getByRole('link', { name: 'Custom fields' }).getAttribute('href')).toBe('/settings/fields');
  });

  it('D56 adding a field: the key follows the label until edited, a choice gets its options, the field is sent and shown, with a toast', async () => {
    const { fake } = show();
    await ready();
    fireEvent.click(screen.getByRole('button', { name: 'Add customer field' }));
    const d = await dialog();
    expect(document.activeElement).toBe(box(d, 'Label'));
    type(box(d, 'Label'), 'Water heater model');
    expect(box(d, 'Key').value).toBe('water_heater_model');
    type(box(d, 'Key'), 'heater');
    type(box(d, 'Label'), 'Heater model');
    expect(box(d, 'Key').value).toBe('heater'); // edited: the label no longer suggests it
    fireEvent.change(within(d).getByRole('combobox', { name: 'Type' }), { target: { value: 'choices' } });
    expect(within(d).queryByRole('checkbox', { name: 'Unique' })).toBeNull(); // text and number only
    type(box(d, 'Option 1'), 'Gas');
    fireEvent.click(within(d).getByRole('button', { name: 'Add option' }));
    expect(document.activeElement).toBe(box(d, 'Option 2'));
    type(box(d, 'Option 2'), 'Electric');
    fireEvent.click(within(d).getByRole('checkbox', { name: 'Required' }));
    type(box(d, 'Help text (optional)'), 'On the label');
    await submit(d);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(fake.writes()).toEqual([
      [
        'POST',
        '/v1/custom-fields/',
        {
          record_kind: 'customer',
          label: 'Heater model',
          key: 'heater',
          type: 'choices',
          help: 'On the label',
          required: true,
          unique: false,
          options: [{ label: 'Gas' }, { label: 'Electric' }],
        },
      ],
    ]);
    await waitFor(() => expect(rows('Customer fields')).toEqual(['Gate code', 'Plan', 'Units', 'Heater model']));
    expect(messages()).toContain('“Heater model” added');
  });

  it('D56 checked before sending: an empty label, a label taken (archived ones too) and an option listed twice; the first takes the focus, nothing is sent', async () => {
    const { fake } = show();
    await ready();
    fireEvent.click(screen.getByRole('button', { name: 'Add customer field' }));
    const d = await dialog();
    await submit(d);
    expect(within(d).getByText('Label is required')).toBeTruthy();
    expect(document.activeElement).toBe(box(d, 'Label'));
    type(box(d, 'Label'), 'old FIELD');
    fireEvent.change(within(d).getByRole('combobox', { name: 'Type' }), { target: { value: 'choice' } });
    type(box(d, 'Option 1'), 'Yes');
    fireEvent.click(within(d).getByRole('button', { name: 'Add option' }));
    type(box(d, 'Option 2'), 'yes');
    await submit(d);
    expect(box(d, 'Label').getAttribute('aria-invalid')).toBe('true');
    expect(within(d).getByText('Another field is called “Old field”')).toBeTruthy();
    expect(within(d).getByText('“yes” is listed twice')).toBeTruthy();
    expect(document.activeElement).toBe(box(d, 'Label'));
    expect(fake.writes()).toEqual([]);
  });

  it("D56 the server's refusals land on the field they name, in the form's words, with the focus; what was typed stays (a 409 duplicate key, a 400 naming an option)", async () => {
    const { fake } = show();
    await ready();
    fireEvent.click(screen.getByRole('button', { name: 'Add customer field' }));
    const d = await dialog();
    type(box(d, 'Label'), 'Gate');
    type(box(d, 'Key'), 'gate_code');
    await submit(d);
    expect(within(d).getByText('Another field has the key gate_code')).toBeTruthy();
    expect(document.activeElement).toBe(box(d, 'Key'));
    expect(box(d, 'Label').value).toBe('Gate');
    type(box(d, 'Key'), 'gate');
    fireEvent.change(within(d).getByRole('combobox', { name: 'Type' }), { target: { value: 'choice' } });
    type(box(d, 'Option 1'), 'A');
    fake.failNext(400, { code: 'invalid_field', detail: 'options[0].label: must be at most 100 characters', field: 'options[0].label' });
    await submit(d);
    expect(within(d).getByText('Option 1 must be at most 100 characters')).toBeTruthy();
    expect(document.activeElement).toBe(box(d, 'Option 1'));
    fake.failNext(409, { code: 'too_many_custom_fields', detail: 'An organization can have at most 50 customer fields' });
    await submit(d);
    expect(within(d).getByRole('alert').textContent).toBe('An organization can have at most 50 customer fields');
    expect([box(d, 'Label').value, box(d, 'Key').value, box(d, 'Option 1').value]).toEqual(['Gate', 'gate', 'A']);
  });

  it('D56 a network error and offline keep what was typed; the dialog says so and Save works once the connection is back', async () => {
    const { api, fake } = show();
    await ready();
    fireEvent.click(screen.getByRole('button', { name: 'Add customer field' }));
    const d = await dialog();
    type(box(d, 'Label'), 'Panel brand');
    api.offline = true;
    await submit(d);
    expect(within(d).getByRole('alert').textContent).toBe('Could not reach the server. Check your connection and try again.');
    act(() => setOnline(false));
    expect(within(d).getByText(MSG_OFFLINE)).toBeTruthy();
    expect(box(d, 'Label').value).toBe('Panel brand');
    api.offline = false;
    act(() => setOnline(true));
    await submit(d);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(fake.byLabel('Panel brand').key).toBe('panel_brand');
  });

  it('D41 what was typed into the dialog is kept as a draft through a reload and offered back when it opens again; Cancel drops it', async () => {
    show();
    await ready();
    fireEvent.click(screen.getByRole('button', { name: 'Add customer field' }));
    let d = await dialog();
    type(box(d, 'Label'), 'Panel brand');
    fireEvent.change(within(d).getByRole('combobox', { name: 'Type' }), { target: { value: 'choice' } });
    type(box(d, 'Option 1'), 'Square D');
    act(() => void window.dispatchEvent(new Event('pagehide'))); // a reload
    cleanup();
    show();
    await ready();
    fireEvent.click(screen.getByRole('button', { name: 'Add customer field' }));
    d = await dialog();
    fireEvent.click(await within(d).findByRole('button', { name: DRAFT_RESTORE }));
    expect([box(d, 'Label').value, box(d, 'Key').value, box(d, 'Option 1').value]).toEqual(['Panel brand', 'panel_brand', 'Square D']);
    fireEvent.click(within(d).getByRole('button', { name: 'Cancel' }));
    expect(Object.keys(sessionStorage).filter((k) => k.startsWith('draft:'))).toEqual([]);
  });

  it('D41 a 403 permission_denied on Save keeps the dialog and what was typed as a draft, and says so', async () => {
    const { fake } = show();
    await ready();
    fireEvent.click(within(row('Units')).getByRole('button', { name: 'Edit Units' }));
    const d = await dialog();
    type(box(d, 'Label'), 'Unit count');
    fake.failNext(403, { code: 'permission_denied', detail: 'You need fields:manage' });
    await submit(d);
    expect(within(d).getByRole('alert').textContent).toBe('You no longer have permission to change custom fields. Your changes are kept as a draft.');
    expect(box(d, 'Label').value).toBe('Unit count');
    expect(Object.keys(sessionStorage).filter((k) => k.startsWith('draft:') && k.endsWith(`custom-field-edit:${fake.byLabel('Units').id}`))).toHaveLength(1);
  });

  it('D56 editing: the key cannot change, only types that keep every value are offered, only the changes are sent; options keep their ids through a rename and a move', async () => {
    const { fake } = show();
    await ready();
    fireEvent.click(within(row('Plan')).getByRole('button', { name: 'Edit Plan' }));
    const d = await dialog();
    expect(box(d, 'Key').readOnly).toBe(true);
    expect([...(within(d).getByRole('combobox', { name: 'Type' }) as HTMLSelectElement).options].map((o) => o.textContent)).toEqual(['One choice', 'Several choices']);
    type(box(d, 'Option 1'), 'Basic plus');
    fireEvent.click(within(d).getByRole('button', { name: 'Down option 1' }));
    expect(document.activeElement).toBe(within(d).getByRole('button', { name: 'Up option 2' })); // at the end: the other button
    fireEvent.click(within(d).getByRole('button', { name: 'Add option' }));
    type(box(d, 'Option 3'), 'Gold');
    await submit(d);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(fake.writes()).toEqual([
      [
        'PATCH',
        `/v1/custom-fields/${fake.byLabel('Plan').id}/`,
        {
          options: [{ id: 'o2', label: 'Premium' }, { id: 'o1', label: 'Basic plus' }, { label: 'Gold' }],
        },
      ],
    ]);
    expect(messages()).toContain('“Plan” saved');
  });

  it('D56 a type change refused and an option in use are said on Type and on Options', async () => {
    const { fake } = show();
    await ready();
    fireEvent.click(within(row('Plan')).getByRole('button', { name: 'Edit Plan' }));
    const d = await dialog();
    fireEvent.change(within(d).getByRole('combobox', { name: 'Type' }), { target: { value: 'choices' } });
    fake.failNext(409, { code: 'type_change_refused', detail: 'A One choice field cannot become Several choices: its values would be lost.', field: 'type' });
    await submit(d);
    const typeBox = within(d).getByRole('combobox', { name: 'Type' });
    expect(typeBox.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(typeBox.getAttribute('aria-describedby')!.split(' ')[0]!)!.textContent).toContain('cannot become Several choices');
    expect(document.activeElement).toBe(typeBox);
    fireEvent.click(within(d).getByRole('button', { name: 'Remove option 2' }));
    fake.failNext(409, { code: 'option_in_use', detail: '3 records have the option “Premium”: change them first', field: 'options' });
    await submit(d);
    expect(within(d).getByRole('group', { name: 'Options' }).textContent).toContain('3 records have the option “Premium”: change them first');
    expect(box(d, 'Option 1').value).toBe('Basic');
  });
});

describe('D56 reorder, archive, restore and delete', () => {
  it('D56 Move down by keyboard: the focus stays on the moved row, a live region says where it went, PUT order sends every field of the kind (archived ones last)', async () => {
    const { fake } = show();
    await ready();
    const down = within(row('Gate code')).getByRole('button', { name: 'Move down Gate code' });
    down.focus();
    fireEvent.click(down);
    expect(rows('Customer fields')).toEqual(['Plan', 'Gate code', 'Units']);
    expect(document.activeElement).toBe(within(row('Gate code')).getByRole('button', { name: 'Move down Gate code' }));
    expect(screen.getByText('Gate code moved to position 2 of 3')).toBeTruthy();
    fireEvent.click(document.activeElement!);
    expect(rows('Customer fields')).toEqual(['Plan', 'Units', 'Gate code']);
    expect(document.activeElement).toBe(within(row('Gate code')).getByRole('button', { name: 'Move up Gate code' })); // Move down is off at the end
    const [gate, plan, units, old] = ['Gate code', 'Plan', 'Units', 'Old field'].map((l) => fake.byLabel(l).id);
    await waitFor(() => expect(fake.writes().length).toBe(2));
    expect(fake.writes()[1]).toEqual(['PUT', '/v1/custom-fields/order/', { record_kind: 'customer', ids: [plan, units, gate, old] }]);
    await waitFor(() => expect(fake.byLabel('Gate code').position).toBe(3));
    expect(rows('Customer fields')).toEqual(['Plan', 'Units', 'Gate code']);
  });

  it('D56 dragging a row by pointer onto another puts it there, saved the same way', async () => {
    const { fake } = show();
    await ready();
    fireEvent.dragStart(row('Units'));
    fireEvent.dragOver(row('Gate code'));
    fireEvent.drop(row('Gate code'));
    expect(rows('Customer fields')).toEqual(['Units', 'Gate code', 'Plan']);
    await waitFor(() => expect(fake.writes()).toHaveLength(1));
    expect((fake.writes()[0]![2] as { ids: number[] }).ids[0]).toBe(fake.byLabel('Units').id);
  });

  it('D56 a new order the server refuses goes back and says why', async () => {
    const { fake } = show();
    await ready();
    fake.failNext(503, { code: 'busy', detail: 'The server is busy' });
    fireEvent.click(within(row('Plan')).getByRole('button', { name: 'Move up Plan' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Could not save the new order.');
    expect(rows('Customer fields')).toEqual(['Gate code', 'Plan', 'Units']);
  });

  it('D56 a new order refused because the fields changed meanwhile (400 on ids) says so and shows the fields as they are now', async () => {
    const { api, fake } = show();
    await ready();
    fake.failNext(400, { code: 'invalid_field', detail: 'ids: must list every customer field once (5)', field: 'ids' });
    fake.fields.push(fieldDef({ key: 'added', label: 'Added elsewhere', type: 'text', position: 9 }));
    const reads = api.count('/api/v1/custom-fields/', 'GET');
    fireEvent.click(within(row('Plan')).getByRole('button', { name: 'Move up Plan' }));
    expect((await screen.findByRole('alert')).textContent).toContain(MSG_ORDER_STALE);
    await waitFor(() => expect(rows('Customer fields')).toEqual(['Gate code', 'Plan', 'Units', 'Added elsewhere']));
    expect(api.count('/api/v1/custom-fields/', 'GET')).toBe(reads + 1);
  });

  it('D56 Archive keeps the values and moves the field to Archived, with Restore focused; Restore brings it back', async () => {
    const { fake } = show();
    await ready();
    fireEvent.click(within(row('Units')).getByRole('button', { name: 'Archive Units' }));
    await waitFor(() => expect(document.activeElement?.textContent).toBe('Restore Units'));
    expect(rows('Customer fields')).toEqual(['Gate code', 'Plan']);
    expect(messages()).toContain('“Units” archived. Its values are kept; Restore brings it back.');
    fireEvent.click(screen.getByRole('button', { name: 'Restore Units' }));
    await waitFor(() => expect(rows('Customer fields')).toEqual(['Gate code', 'Plan', 'Units']));
    expect(messages()).toContain('“Units” restored');
    expect(fake.writes().map((w) => w[1])).toEqual([`/v1/custom-fields/${fake.byLabel('Units').id}/archive/`, `/v1/custom-fields/${fake.byLabel('Units').id}/restore/`]);
  });

  it('D56 Delete (archived fields only) asks first, naming how many records hold a value; the toast after gives the count the server answered', async () => {
    const { fake } = show();
    fake.held.set(fake.byLabel('Old field').id, 12);
    await ready();
    fireEvent.click(screen.getByRole('button', { name: 'Delete Old field' }));
    const d = await dialog();
    expect(within(d).getByRole('heading').textContent).toBe('Delete “Old field”?');
    await within(d).findByText('12 customers hold a value of “Old field”; deleting removes those values for good.');
    expect(document.activeElement).toBe(within(d).getByRole('button', { name: 'Cancel' }));
    fireEvent.click(within(d).getByRole('button', { name: 'Delete field' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(messages()).toContain('“Old field” was deleted with its values on 12 customers.');
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Delete Old field' })).toBeNull());
    expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Customer fields' }));
  });

  it('D56 at the limit (archived ones count) Add is unavailable and says why', async () => {
    const many = Array.from({ length: 20 }, (_, i) =>
      fieldDef({
        key: `f${i}`,
        label: `Field ${i}`,
        type: 'text',
        record_kind: 'location',
        position: i,
        archived: i === 0,
        archived_at: i === 0 ? '2025-01-02T00:00:00Z' : null,
      }),
    );
    const { fake } = show({ fields: many });
    await ready();
    const add = screen.getByRole('button', { name: 'Add location field' });
    expect(add.getAttribute('aria-disabled')).toBe('true');
    expect(document.getElementById(add.getAttribute('aria-describedby')!)!.textContent).toBe(
      'The limit of 20 fields is reached; archived ones count until they are deleted.',
    );
    fireEvent.click(add);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(fake.writes()).toEqual([]);
  });
});
