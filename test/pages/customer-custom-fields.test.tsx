// D56 custom fields in Add and Edit Customer (D41 drafts, D31 conflicts), through the real client, query
// cache and router, against the fake record endpoints and a fake GET /v1/custom-fields/.
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ComponentType } from 'react';
import { beforeEach, describe, expect, it } from 'vitest';
import '../ui/no-console';
import type { CustomField } from '../../contract/custom-fields';
import { DRAFT_RESTORE } from '../../src/drafts/DraftOffer';
import AddCustomerPage from '../../src/pages/customers/AddCustomerPage';
import EditCustomerPage from '../../src/pages/customers/EditCustomerPage';
import { CONFLICT_TITLE } from '../../src/pages/customers/form/ConflictPanel';
import { createQueryCache, type QueryCache } from '../../src/query/cache';
import { navigate } from '../../src/router/location';
import { matchPath } from '../../src/router/match';
import { toasts } from '../../src/ui/toast';
import { FakeApi, json } from '../helpers/fake-api';
import { demoFields, serveFieldDefs } from '../helpers/fake-field-defs';
import { ANN } from '../helpers/fake-records';
import { renderPage } from '../helpers/render';

function show(
  Page: ComponentType,
  path: string,
  { fields = demoFields(), api = new FakeApi(), cache = createQueryCache({ retries: 0 }) }: { fields?: CustomField[]; api?: FakeApi; cache?: QueryCache } = {},
) {
  const defs = serveFieldDefs(api, fields);
  renderPage(path, <Page />, { fake: api, params: matchPath('/customers/:id/edit', path) ?? {}, cache });
  return { api, fake: api.records, defs, cache };
}
const showAdd = (o?: Parameters<typeof show>[2]) => show(AddCustomerPage, '/customers/new', o);
const showEdit = (o?: Parameters<typeof show>[2]) => show(EditCustomerPage, `/customers/${ANN.id}/edit`, o);

const box = (name: string) => screen.getByRole('textbox', { name }) as HTMLInputElement;
const select = (name: string) => screen.getByRole('combobox', { name }) as HTMLSelectElement;
const dateBox = () => screen.getByLabelText('Contract end') as HTMLInputElement;
const change = (el: HTMLElement, value: string) => fireEvent.change(el, { target: { value } });
const ready = () => screen.findByRole('textbox', { name: 'Gate code' });
const save = () => act(async () => void fireEvent.click(screen.getByRole('button', { name: /^(Save|Saving…)$/ })));
const writes = (api: FakeApi) => api.calls.filter((c) => c.method !== 'GET');
const described = (el: Element) =>
  (el.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .filter(Boolean)
    .map((id) => document.getElementById(id)?.textContent);
const path = () => window.location.pathname;

beforeEach(() => {
  navigate('/', { replace: true });
  toasts.setState([]);
  sessionStorage.clear();
});

describe('D56 custom fields in the customer form', () => {
  it('D56 each active customer field in its order with the control of its type; archived and location fields are not shown', async () => {
    showAdd();
    await ready();
    const section = screen.getByRole('group', { name: 'More details' });
    const labels = [...section.querySelectorAll('label[for], legend')].map((l) => l.textContent);
    expect(labels).toEqual(['More details', 'Gate code', 'Units', 'Contract end', 'Plan', 'Pets', 'Key held', 'Site notes']);
    expect(box('Gate code').maxLength).toBe(500);
    expect(box('Units').getAttribute('inputmode')).toBe('decimal');
    expect(dateBox().type).toBe('date');
    expect([...select('Plan').options].map((o) => o.textContent)).toEqual(['Not set', 'Basic', 'Premium']);
    expect(select('Plan').required).toBe(true);
    expect([...select('Key held').options].map((o) => o.textContent)).toEqual(['Not set', 'Yes', 'No']);
    const pets = screen.getByRole('group', { name: 'Pets' });
    expect(
      within(pets)
        .getAllByRole('checkbox')
        .map((c) => c.parentElement!.textContent),
    ).toEqual(['Dog', 'Cat', 'Bird']);
    expect(box('Site notes').tagName).toBe('TEXTAREA');
    expect(box('Site notes').maxLength).toBe(5000);
    expect(screen.queryByText('Old field')).toBeNull();
    expect(screen.queryByText('Floor')).toBeNull();
  });

  it("D56 the field's help text is tied to its control", async () => {
    showAdd();
    expect(described(await ready())).toEqual(['Four to six digits']);
  });

  it('D56 a new customer sends each set value by type (a number as a number, yes/no as true or false, choices as option ids); nothing for the empty ones', async () => {
    const { api } = showAdd();
    await ready();
    change(box('Name'), 'Cara Diaz');
    change(box('Gate code'), ' 4321 ');
    change(box('Units'), '1,250.5');
    change(dateBox(), '2026-03-01');
    change(select('Plan'), 'o2');
    fireEvent.click(screen.getByRole('checkbox', { name: 'Bird' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Dog' }));
    change(select('Key held'), 'no');
    await save();
    await waitFor(() => expect(path()).toBe('/customers/50'));
    expect((writes(api)[0]!.body as { custom: unknown }).custom).toEqual({
      gate_code: '4321',
      units: 1250.5,
      contract_end: '2026-03-01',
      plan: 'o2',
      pets: ['o1', 'o3'], // in the options' order
      key_held: false,
    });
  });

  it('D56 checked before sending: a required choice left empty and a number that is not one; the first takes the focus, what was typed stays', async () => {
    const { api } = showAdd();
    await ready();
    change(box('Name'), 'Cara');
    change(box('Units'), 'twelve');
    await save();
    expect(described(select('Plan'))).toEqual(['Plan is required']);
    expect(select('Plan').getAttribute('aria-invalid')).toBe('true');
    expect(described(box('Units'))).toEqual(['Units must be a number, like 12 or 4.5']);
    expect(document.activeElement).toBe(box('Units'));
    expect(box('Units').value).toBe('twelve');
    expect(writes(api)).toEqual([]);
  });

  it("D56 the server's 400 naming custom.<key> lands on that control in the form's words, with the focus; every value stays", async () => {
    const { api, fake } = showAdd();
    fake.next.push(
      json(400, {
        detail: 'custom.units: must be a number custom.plan: is required',
        code: 'invalid_field',
        field: 'custom.units',
        errors: { 'custom.units': 'must be a number', 'custom.plan': 'is required' },
      }),
    );
    await ready();
    change(box('Name'), 'Cara');
    change(select('Plan'), 'o1');
    change(box('Units'), '3');
    await save();
    expect(described(box('Units'))).toEqual(['Units must be a number']);
    expect(document.activeElement).toBe(box('Units'));
    expect([box('Name').value, select('Plan').value, box('Units').value]).toEqual(['Cara', 'o1', '3']);
    expect(writes(api)).toHaveLength(1);
  });

  it('D56 a 409 duplicate_custom_value (a unique value another customer has) is said on its control with the focus', async () => {
    const { fake } = showAdd();
    fake.next.push(
      json(409, { detail: 'Ben Okafor already has this Gate code: it must be unique', code: 'duplicate_custom_value', field: 'custom.gate_code', label: 'Gate code' }),
    );
    await ready();
    change(box('Name'), 'Cara');
    change(select('Plan'), 'o1');
    change(box('Gate code'), '1111');
    await save();
    expect(described(box('Gate code'))).toEqual(['Four to six digits', 'Ben Okafor already has this Gate code: it must be unique']);
    expect(document.activeElement).toBe(box('Gate code'));
    change(box('Gate code'), '2222');
    expect(described(box('Gate code'))).toEqual(['Four to six digits']); // editing clears the error
  });

  it('D56 an edit shows the saved values and sends only the changed ones under custom, a cleared one as null', async () => {
    const api = new FakeApi();
    api.records.rows.set(ANN.id, { ...ANN, custom: { gate_code: '9', units: 2, plan: 'o1', pets: ['o2'], key_held: true } });
    showEdit({ api });
    await ready();
    expect([box('Gate code').value, box('Units').value, select('Plan').value, select('Key held').value]).toEqual(['9', '2', 'o1', 'yes']);
    expect((screen.getByRole('checkbox', { name: 'Cat' }) as HTMLInputElement).checked).toBe(true);
    change(box('Gate code'), '');
    change(box('Units'), '2.0'); // the same number: not a change
    change(select('Key held'), 'no');
    await save();
    await waitFor(() => expect(path()).toBe(`/customers/${ANN.id}`));
    expect(writes(api)[0]!.body).toEqual({ custom: { gate_code: null, key_held: false }, version: ANN.version });
  });

  it('D56 an edit that changes no custom value sends no custom', async () => {
    const api = new FakeApi();
    api.records.rows.set(ANN.id, { ...ANN, custom: { plan: 'o1' } });
    showEdit({ api });
    await ready();
    change(box('City'), 'Salem');
    await save();
    await waitFor(() => expect(writes(api)).toHaveLength(1));
    expect(writes(api)[0]!.body).toEqual({ city: 'Salem', version: ANN.version });
  });

  it('D56 the definitions are asked for once and shared by the cache, also when the organization has none', async () => {
    const cache = createQueryCache({ retries: 0 });
    const api = new FakeApi();
    const { defs } = showAdd({ fields: [], api, cache });
    await screen.findByRole('textbox', { name: 'Name' });
    await waitFor(() => expect(defs.calls()).toBe(1));
    expect(screen.queryByRole('group', { name: 'More details' })).toBeNull();
    cleanup();
    showAdd({ fields: [], api, cache });
    await act(() => new Promise((r) => setTimeout(r, 0)));
    expect(defs.calls()).toBe(1);
  });
});

describe('D41 drafts keep custom values', () => {
  it('D41 reload → Restore puts the custom values back, with the rest', async () => {
    const api = new FakeApi();
    showAdd({ api });
    await ready();
    change(box('Name'), 'Henry Ford');
    change(box('Gate code'), '7788');
    change(select('Plan'), 'o2');
    fireEvent.click(screen.getByRole('checkbox', { name: 'Cat' }));
    window.dispatchEvent(new Event('pagehide'));
    cleanup();
    showAdd({ api });
    fireEvent.click(await screen.findByRole('button', { name: DRAFT_RESTORE }));
    await ready();
    expect([box('Name').value, box('Gate code').value, select('Plan').value]).toEqual(['Henry Ford', '7788', 'o2']);
    expect((screen.getByRole('checkbox', { name: 'Cat' }) as HTMLInputElement).checked).toBe(true);
  });
});

describe('D31 conflicts list custom fields', () => {
  it('D31 the conflict panel lists a custom field the other person changed, in words, beside yours', async () => {
    const api = new FakeApi();
    api.records.rows.set(ANN.id, { ...ANN, custom: { plan: 'o1' } });
    const { fake } = showEdit({ api });
    await ready();
    change(box('Gate code'), '55');
    fake.changeBehind(ANN.id, { custom: { plan: 'o2', key_held: true } });
    await save();
    const panel = await screen.findByRole('region', { name: CONFLICT_TITLE });
    const rows = within(panel)
      .getAllByRole('row')
      .map((r) => [...r.children].map((c) => c.textContent));
    expect(rows).toEqual([
      ['Field', 'Your value', 'Current value'],
      ['Plan', 'Basic', 'Premium'],
      ['Key held', '(empty)', 'Yes'],
    ]);
  });
});
