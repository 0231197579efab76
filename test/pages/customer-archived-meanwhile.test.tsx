// D56: a field archived while someone's form is open: their save keeps every other change, leaves that
// field's value out, and says so; a refusal of anything else still lands on its field with nothing retried.
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import '../ui/no-console';
import EditCustomerPage from '../../src/pages/customers/EditCustomerPage';
import { createQueryCache } from '../../src/query/cache';
import { navigate } from '../../src/router/location';
import { toasts } from '../../src/ui/toast';
import { FakeApi, json } from '../helpers/fake-api';
import { demoFields, serveFieldDefs } from '../helpers/fake-field-defs';
import { ANN } from '../helpers/fake-records';
import { renderPage } from '../helpers/render';

const ARCHIVED = { detail: 'custom.gate_code: is archived: restore the field to change its values', code: 'field_archived', field: 'custom.gate_code' };

function showEdit(refusal: Record<string, unknown>) {
  const api = new FakeApi();
  serveFieldDefs(api, demoFields());
  const fake = api.records;
  fake.byMethod.set('PATCH', () => {
    fake.byMethod.delete('PATCH'); // once: the next save is answered as the server would
    return json(400, refusal);
  });
  renderPage(`/customers/${ANN.id}/edit`, <EditCustomerPage />, { fake: api, params: { id: String(ANN.id) }, cache: createQueryCache({ retries: 0 }) });
  return api;
}
const patches = (api: FakeApi) => api.calls.filter((c) => c.method === 'PATCH').map((c) => c.body as { custom?: Record<string, unknown> });
const fill = async () => {
  fireEvent.change(await screen.findByRole('textbox', { name: 'Gate code' }), { target: { value: '4471' } });
  fireEvent.change(screen.getByRole('textbox', { name: 'Units' }), { target: { value: '3' } });
  await act(async () => void fireEvent.click(screen.getByRole('button', { name: 'Save' })));
};

beforeEach(() => {
  navigate('/', { replace: true });
  toasts.setState([]);
  sessionStorage.clear();
});

describe('D56 a field archived while the form is open', () => {
  it('D56 the save keeps every other change, leaves the archived field out, and says what it left out', async () => {
    const api = showEdit({ ...ARCHIVED, errors: { 'custom.gate_code': 'is archived' }, archived: ['custom.gate_code'] });
    await fill();
    await waitFor(() => expect(patches(api)).toHaveLength(2));
    expect(patches(api)[0]!.custom).toEqual({ gate_code: '4471', units: 3 });
    expect(patches(api)[1]!.custom).toEqual({ units: 3 });
    await waitFor(() => expect(toasts.getState().map((t) => t.message)).toContain('Changes saved. Left out, archived meanwhile: Gate code'));
    expect(window.location.pathname).toBe(`/customers/${ANN.id}`);
  });

  it('D56 when another field is refused too, nothing is sent again and the refusal stays on its field', async () => {
    const api = showEdit({ ...ARCHIVED, errors: { 'custom.gate_code': 'is archived', 'custom.units': 'must be a number' }, archived: ['custom.gate_code'] });
    await fill();
    await screen.findByText(/is archived/);
    expect(patches(api)).toHaveLength(1);
    expect(window.location.pathname).toBe(`/customers/${ANN.id}/edit`);
  });
});
