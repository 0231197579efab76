// D56: a location field archived while the location form is open: the save keeps every other change,
// leaves that field's value out and says so; a refusal of anything else too stays on its field, not retried.
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import '../ui/no-console';
import type { CustomField } from '../../contract/custom-fields';
import CustomerDashboardPage from '../../src/pages/customers/CustomerDashboardPage';
import { navigate } from '../../src/router/location';
import { toasts } from '../../src/ui/toast';
import { FakeApi } from '../helpers/fake-api';
import { audit, OLIVIA } from '../helpers/fake-customer';
import { fieldDef, serveFieldDefs } from '../helpers/fake-field-defs';
import { fakeParts, location } from '../helpers/fake-parts';
import { EDITOR } from '../helpers/customer-page';
import { renderPage } from '../helpers/render';

const FIELDS = (): CustomField[] => [
  fieldDef({ key: 'floor', label: 'Floor', type: 'number', record_kind: 'location' }),
  fieldDef({ key: 'access', label: 'Access', type: 'choice', record_kind: 'location', options: ['Key', 'Code'] }),
];
const HOME = location(1, { label: 'Home', address_line: '12 Oak Street', primary: true, custom: { floor: 3, access: 'o2' } });
const ARCHIVED = { detail: 'custom.floor: is archived: restore the field to change its values', code: 'field_archived', field: 'custom.floor' };

async function editHome(refusal: Record<string, unknown>) {
  const api = new FakeApi();
  api.record.items = [audit(10, 'customer.created', OLIVIA, 0, { name: 'Jane Doe' })];
  api.record.customer = { ...api.record.customer!, locations: [{ ...HOME }] };
  const parts = fakeParts(api);
  serveFieldDefs(api, FIELDS());
  parts.failures.set('PATCH locations', [{ status: 400, body: refusal }]);
  renderPage('/customers/101', <CustomerDashboardPage />, { as: EDITOR, fake: api, params: { id: '101' } });
  await screen.findByRole('heading', { level: 1, name: 'Jane Doe' });
  const s = await screen.findByRole('region', { name: 'Service locations' });
  fireEvent.click(await within(s).findByRole('button', { name: 'Edit Home' }));
  const f = screen.getByRole('form', { name: 'Edit Home' });
  fireEvent.change(await within(f).findByRole('textbox', { name: 'Floor' }), { target: { value: '4' } });
  fireEvent.change(within(f).getByRole('combobox', { name: 'Access' }), { target: { value: 'o1' } });
  fireEvent.change(within(f).getByRole('textbox', { name: 'Label' }), { target: { value: 'Home 2' } });
  await act(async () => void fireEvent.click(within(f).getByRole('button', { name: 'Save location' })));
  return api;
}
const patches = (api: FakeApi) => api.calls.filter((c) => c.method === 'PATCH').map((c) => c.body);

beforeEach(() => {
  navigate('/', { replace: true });
  toasts.setState([]);
  sessionStorage.clear();
});

describe('D56 a location field archived while the location form is open', () => {
  it('D56 the location save keeps every other change, leaves the archived field out, and says what it left out', async () => {
    const api = await editHome({ ...ARCHIVED, errors: { 'custom.floor': 'is archived' }, archived: ['custom.floor'] });
    await waitFor(() => expect(patches(api)).toHaveLength(2));
    expect(patches(api)[0]).toEqual({ label: 'Home 2', custom: { floor: 4, access: 'o1' } });
    expect(patches(api)[1]).toEqual({ label: 'Home 2', custom: { access: 'o1' } });
    await waitFor(() => expect(toasts.getState().map((t) => t.message)).toContain('Saved Home 2. Left out, archived meanwhile: Floor'));
  });

  it('D56 when another location field is refused too, nothing is sent again and the refusal stays on its field', async () => {
    const api = await editHome({ ...ARCHIVED, errors: { 'custom.floor': 'is archived', 'custom.access': 'is not an option' }, archived: ['custom.floor'] });
    await screen.findByText(/is archived/);
    expect(patches(api)).toHaveLength(1);
    expect(screen.getByRole('form', { name: 'Edit Home' })).toBeTruthy();
  });
});
