// D56 a service location's custom fields: in its form by type (D41 kept in its draft), the server's
// refusal on its control, only changed values sent on an edit, and the set values shown in the location.
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import '../ui/no-console';
import type { CustomField } from '../../contract/custom-fields';
import { DRAFT_RESTORE } from '../../src/drafts/DraftOffer';
import CustomerDashboardPage from '../../src/pages/customers/CustomerDashboardPage';
import { navigate } from '../../src/router/location';
import { FakeApi } from '../helpers/fake-api';
import { audit, OLIVIA } from '../helpers/fake-customer';
import { fieldDef, serveFieldDefs } from '../helpers/fake-field-defs';
import { fakeParts, location } from '../helpers/fake-parts';
import { EDITOR } from '../helpers/customer-page';
import { renderPage } from '../helpers/render';

const FIELDS = (): CustomField[] => [
  fieldDef({ key: 'floor', label: 'Floor', type: 'number', record_kind: 'location', help: 'Ground floor is 0' }),
  fieldDef({ key: 'access', label: 'Access', type: 'choice', record_kind: 'location', options: ['Key', 'Code'] }),
  fieldDef({ key: 'gate_code', label: 'Gate code', type: 'text' }), // a customer field
];
const HOME = location(1, { label: 'Home', address_line: '12 Oak Street', primary: true, custom: { floor: 3, access: 'o2' } });
const SECTION = 'Service locations';

function show(locations = [HOME], api = new FakeApi()) {
  api.record.items = [audit(10, 'customer.created', OLIVIA, 0, { name: 'Jane Doe' })];
  api.record.customer = { ...api.record.customer!, locations: locations.map((l) => ({ ...l })) };
  const parts = fakeParts(api);
  serveFieldDefs(api, FIELDS());
  renderPage('/customers/101', <CustomerDashboardPage />, { as: EDITOR, fake: api, params: { id: '101' } });
  return { api, parts };
}
const section = async () => {
  await screen.findByRole('heading', { level: 1, name: 'Jane Doe' });
  return screen.findByRole('region', { name: SECTION });
};
const writes = (api: FakeApi) => api.calls.filter((c) => c.method !== 'GET');
const form = (name: string) => screen.getByRole('form', { name });

beforeEach(() => {
  navigate('/', { replace: true });
  sessionStorage.clear();
});

describe('D56 location custom fields', () => {
  it('D56 a location shows its set values with their labels, a choice by its option label', async () => {
    show();
    const s = await section();
    const row = await within(s).findByRole('article', { name: /Home/ });
    await within(row).findByText('Floor');
    expect([...row.querySelectorAll('.part-custom dt')].map((dt) => [dt.textContent, dt.nextElementSibling?.textContent])).toEqual([
      ['Floor', '3'],
      ['Access', 'Code'],
    ]);
    expect(within(row).queryByText('Gate code')).toBeNull();
  });

  it('D56 a new location: the location fields by type with their help; the set values sent under custom', async () => {
    const { api } = show([]);
    const s = await section();
    fireEvent.click(within(s).getByRole('button', { name: 'Add location' }));
    const f = form('New location');
    const floor = (await within(f).findByRole('textbox', { name: 'Floor' })) as HTMLInputElement;
    expect(document.getElementById(floor.getAttribute('aria-describedby')!)!.textContent).toBe('Ground floor is 0');
    expect(within(f).queryByRole('textbox', { name: 'Gate code' })).toBeNull();
    fireEvent.change(within(f).getByRole('textbox', { name: 'Label' }), { target: { value: 'Shop' } });
    fireEvent.change(floor, { target: { value: '2' } });
    fireEvent.change(within(f).getByRole('combobox', { name: 'Access' }), { target: { value: 'o1' } });
    await act(async () => void fireEvent.click(within(f).getByRole('button', { name: 'Add location' })));
    await waitFor(() => expect(writes(api)).toHaveLength(1));
    expect(writes(api)[0]!.body).toMatchObject({ label: 'Shop', primary: false, custom: { floor: 2, access: 'o1' } });
  });

  it("D56 an edit sends only the changed custom value; the server's 400 naming custom.<key> lands on its control with the focus", async () => {
    const { api, parts } = show();
    const body = { detail: 'custom.floor: must be a number', code: 'invalid_field', field: 'custom.floor', errors: { 'custom.floor': 'must be a number' } };
    parts.failures.set('PATCH locations', [{ status: 400, body }]);
    const s = await section();
    fireEvent.click(await within(s).findByRole('button', { name: 'Edit Home' }));
    const f = form('Edit Home');
    const floor = (await within(f).findByRole('textbox', { name: 'Floor' })) as HTMLInputElement;
    expect(floor.value).toBe('3');
    fireEvent.change(floor, { target: { value: '4' } });
    await act(async () => void fireEvent.click(within(f).getByRole('button', { name: 'Save location' })));
    expect(writes(api)[0]!.body).toEqual({ custom: { floor: 4 } });
    await waitFor(() => expect(document.activeElement).toBe(floor));
    const described = floor
      .getAttribute('aria-describedby')!
      .split(' ')
      .map((id) => document.getElementById(id)!.textContent);
    expect(described).toEqual(['Ground floor is 0', 'Floor: must be a number']);
    expect(floor.value).toBe('4');
  });

  it('D41 a location draft keeps its custom values through a reload', async () => {
    const api = new FakeApi();
    show([], api);
    fireEvent.click(within(await section()).getByRole('button', { name: 'Add location' }));
    fireEvent.change(within(form('New location')).getByRole('textbox', { name: 'Label' }), { target: { value: 'Barn' } });
    fireEvent.change(await within(form('New location')).findByRole('combobox', { name: 'Access' }), { target: { value: 'o2' } });
    window.dispatchEvent(new Event('pagehide'));
    cleanup();
    show([], api);
    fireEvent.click(within(await section()).getByRole('button', { name: 'Add location' }));
    fireEvent.click(await screen.findByRole('button', { name: DRAFT_RESTORE }));
    expect(((await within(form('New location')).findByRole('combobox', { name: 'Access' })) as HTMLSelectElement).value).toBe('o2');
    expect((within(form('New location')).getByRole('textbox', { name: 'Label' }) as HTMLInputElement).value).toBe('Barn');
  });
});
