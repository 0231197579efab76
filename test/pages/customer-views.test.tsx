// D57: the customers list's saved views: offered by name (personal and shared apart), opened by
// /customers?view={id} with the person's changes on top, saved, changed, renamed, removed, a default per
// person, and what a view names that is gone said. A small stand-in for /v1/views/ (the rules are the
// server's, test/server/views.test.ts).
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import '../ui/no-console';
import type { SavedView } from '../../contract/views';
import CustomersPage from '../../src/pages/customers/CustomersPage';
import { navigate } from '../../src/router/location';
import { FakeApi, json, type Call } from '../helpers/fake-api';
import { renderPage } from '../helpers/render';
import { ALL_PERMISSIONS } from '../helpers/session';

const url = () => window.location.pathname + window.location.search;

function view(over: Partial<SavedView> & { id: number; name: string }): SavedView {
  return {
    shared: false,
    mine: true,
    is_default: false,
    params: {},
    columns: [],
    created_by: null,
    created_at: '2026-01-01T00:00:00Z',
    updated_at: '2026-01-01T00:00:00Z',
    left_out: [],
    ...over,
  };
}

/** Serves GET/POST /v1/views/, PATCH/DELETE /v1/views/{id}/ and PUT /v1/views/default/ from `views`. */
function serveViews(api: FakeApi, views: SavedView[]) {
  const one = (id: number) => (call: Call) => {
    const i = views.findIndex((v) => v.id === id);
    if (call.method === 'DELETE') {
      views.splice(i, 1);
      return new Response(null, { status: 204 });
    }
    const changed: SavedView = { ...(views[i] as SavedView), ...(call.body as Partial<SavedView>) };
    views[i] = changed;
    return json(200, changed);
  };
  const route = (v: SavedView) => api.routes.set(`/v1/views/${v.id}/`, one(v.id));
  views.forEach(route);
  api.routes.set('/v1/views/', (call) => {
    if (call.method === 'GET') return json(200, { results: views });
    const body = call.body as { name: string; shared?: boolean; params: Record<string, string>; columns?: string[] };
    if (views.some((v) => v.name === body.name)) return json(409, { detail: 'You already have a view with this name.', code: 'duplicate_view_name' });
    const made = view({ id: 100 + views.length, name: body.name, shared: Boolean(body.shared), params: body.params, columns: body.columns ?? [] });
    views.push(made);
    route(made);
    return json(201, made);
  });
  api.routes.set('/v1/views/default/', (call) => {
    const id = (call.body as { view_id: number | null }).view_id;
    for (const v of views) v.is_default = v.id === id;
    return json(200, { view_id: id });
  });
  return views;
}

const VIEWS = () => [
  view({ id: 7, name: 'Landlords', params: { tag: 'landlord', sort: 'name' } }),
  view({ id: 8, name: 'Commercial leads', shared: true, mine: false, params: { type: 'commercial', status: 'lead' } }),
];

function showList(path: string, views = VIEWS(), as: readonly string[] = ALL_PERMISSIONS) {
  const api = new FakeApi();
  void api.customers; // the list's part of the fake, made before the page asks
  serveViews(api, views);
  renderPage(path, <CustomersPage />, { fake: api, as });
  return { api, views };
}
const picker = () => screen.findByRole('combobox', { name: 'Saved view' });
const lastWrite = (api: FakeApi, method: string) => api.calls.filter((c) => c.method === method && c.path.startsWith('/api/v1/views/')).at(-1);

beforeEach(() => navigate('/', { replace: true }));

describe('D57 saved views on the customers list', () => {
  it('D57 views are offered by name, the person’s own apart from those shared with everyone; choosing one opens its filters with view={id}', async () => {
    const { api } = showList('/customers');
    const select = await picker();
    await within(select).findByRole('option', { name: 'Landlords' });
    expect(within(select).getByRole('group', { name: 'Your views' })).toBeTruthy();
    expect(within(within(select).getByRole('group', { name: 'Shared with everyone' })).getByRole('option', { name: 'Commercial leads' })).toBeTruthy();
    fireEvent.change(select, { target: { value: '8' } });
    await waitFor(() => expect(url()).toBe('/customers?type=commercial&status=lead&view=8'));
    await waitFor(() => expect(api.customers.listQueries.at(-1)).toMatch(/type=commercial/));
    expect(api.customers.listQueries.at(-1)).toMatch(/status=lead/);
    fireEvent.change(select, { target: { value: '' } });
    await waitFor(() => expect(url()).toBe('/customers'));
  });

  it('D57 a link naming only the view (/customers?view=7) opens it as saved; the person’s changes on top stay in the URL', async () => {
    showList('/customers?view=7');
    await waitFor(() => expect(url()).toBe('/customers?tag=landlord&sort=name&view=7'));
    expect(((await picker()) as HTMLSelectElement).value).toBe('7');
    navigate('/customers?tag=landlord&sort=-name&view=7');
    await screen.findByRole('button', { name: 'Save changes to “Landlords”' });
    expect(url()).toBe('/customers?tag=landlord&sort=-name&view=7');
  });

  it('D57 Save as view… keeps the list’s filters and sort (not the page) under a name; a name used twice is refused and what was typed stays', async () => {
    const { api } = showList('/customers?status=active&q=ann&page=2');
    fireEvent.click(await screen.findByRole('button', { name: 'Save as view…' }));
    const name = await screen.findByRole('textbox', { name: /Name/ });
    fireEvent.change(name, { target: { value: 'Landlords' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save view' }));
    expect(await screen.findByText('You already have a view with this name.')).toBeTruthy();
    expect((screen.getByRole('textbox', { name: /Name/ }) as HTMLInputElement).value).toBe('Landlords');
    fireEvent.change(name, { target: { value: 'Active Anns' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save view' }));
    await screen.findByText('View saved');
    expect(lastWrite(api, 'POST')?.body).toEqual({ name: 'Active Anns', shared: false, params: { status: 'active', q: 'ann' }, columns: [] });
    await waitFor(() => expect(url()).toBe(`/customers?q=ann&status=active&view=102`));
  });

  it('D57 a view keeps the custom columns shown: saved with them, opened with them, and a change of columns is a change on top', async () => {
    const { api } = showList('/customers?status=lead&columns=units,gate_code', [
      ...VIEWS(),
      view({ id: 9, name: 'Gates', params: { tag: 'gate' }, columns: ['cf.gate_code'] }),
    ]);
    fireEvent.click(await screen.findByRole('button', { name: 'Save as view…' }));
    fireEvent.change(await screen.findByRole('textbox', { name: /Name/ }), { target: { value: 'Leads by unit' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save view' }));
    await screen.findByText('View saved');
    expect(lastWrite(api, 'POST')?.body).toMatchObject({ params: { status: 'lead' }, columns: ['cf.units', 'cf.gate_code'] });
    await waitFor(() => expect(url()).toBe('/customers?status=lead&columns=units%2Cgate_code&view=103'));
    navigate('/customers?view=9');
    await waitFor(() => expect(url()).toBe('/customers?tag=gate&columns=gate_code&view=9'));
    navigate('/customers?tag=gate&columns=gate_code%2Cunits&view=9');
    fireEvent.click(await screen.findByRole('button', { name: 'Save changes to “Gates”' }));
    await waitFor(() => expect(lastWrite(api, 'PATCH')?.body).toEqual({ params: { tag: 'gate' }, columns: ['cf.gate_code', 'cf.units'] }));
  });

  it('D57 D61 sharing with everyone is offered only with views:manage; without it a shared view cannot be renamed, changed or removed', async () => {
    const noManage = ALL_PERMISSIONS.filter((p) => p !== 'views:manage');
    showList('/customers?type=commercial&status=lead&view=8', VIEWS(), noManage);
    await screen.findByRole('button', { name: 'Make default' });
    expect(screen.queryByRole('button', { name: 'Rename' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete view' })).toBeNull();
    navigate('/customers?type=commercial&view=8');
    await screen.findByRole('button', { name: 'Save as view…' });
    expect(screen.queryByRole('button', { name: /Save changes/ })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Save as view…' }));
    await screen.findByRole('textbox', { name: /Name/ });
    expect(screen.queryByRole('checkbox', { name: /Share/ })).toBeNull();
  });

  it('D57 with views:manage a view can be shared with everyone when it is saved', async () => {
    const { api } = showList('/customers?tag=vip');
    fireEvent.click(await screen.findByRole('button', { name: 'Save as view…' }));
    fireEvent.change(await screen.findByRole('textbox', { name: /Name/ }), { target: { value: 'VIPs' } });
    fireEvent.click(screen.getByRole('checkbox', { name: /Share/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Save view' }));
    await screen.findByText('View saved');
    expect(lastWrite(api, 'POST')?.body).toMatchObject({ name: 'VIPs', shared: true, params: { tag: 'vip' } });
  });

  it('D57 changes on top are saved into the view; a view is renamed and removed', async () => {
    const { api, views } = showList('/customers?tag=landlord&sort=-name&view=7');
    fireEvent.click(await screen.findByRole('button', { name: 'Save changes to “Landlords”' }));
    await waitFor(() => expect(lastWrite(api, 'PATCH')?.body).toEqual({ params: { tag: 'landlord', sort: '-name' }, columns: [] }));
    fireEvent.click(screen.getByRole('button', { name: 'Rename' }));
    const name = await screen.findByRole('textbox', { name: /Name/ });
    fireEvent.change(name, { target: { value: 'All landlords' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save view' }));
    await screen.findByText('View renamed');
    expect(lastWrite(api, 'PATCH')?.body).toEqual({ name: 'All landlords' });
    fireEvent.click(screen.getByRole('button', { name: 'Delete view' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete view' }));
    await screen.findByText('View deleted');
    expect(lastWrite(api, 'DELETE')?.path).toBe('/api/v1/views/7/');
    expect(views.map((v) => v.id)).toEqual([8]);
    await waitFor(() => expect(url()).toBe('/customers'));
  });

  it('D57 the person’s default view opens when the list is opened as it comes', async () => {
    const views = VIEWS().map((v) => ({ ...v, is_default: v.id === 8 }));
    showList('/customers', views);
    await waitFor(() => expect(url()).toBe('/customers?type=commercial&status=lead&view=8'));
    expect(await screen.findByRole('button', { name: 'Default view' })).toBeTruthy();
  });

  it('D57 Make default sends the view to PUT /v1/views/default/, and pressing it again returns the list to as it comes', async () => {
    const { api } = showList('/customers?tag=landlord&sort=name&view=7');
    fireEvent.click(await screen.findByRole('button', { name: 'Make default' }));
    await screen.findByText('The list now opens with “Landlords”');
    expect(lastWrite(api, 'PUT')?.body).toEqual({ view_id: 7 });
    fireEvent.click(await screen.findByRole('button', { name: 'Default view' }));
    await screen.findByText('The list now opens as it comes');
    expect(lastWrite(api, 'PUT')?.body).toEqual({ view_id: null });
  });

  it('D57 a view naming an archived or deleted field opens and says what it left out', async () => {
    const views = [
      view({
        id: 9,
        name: 'Old plan',
        params: { status: 'active' },
        left_out: [
          { param: 'cf.plan', label: 'Maintenance plan', reason: 'field_archived' },
          { param: 'cf.tank', label: null, reason: 'field_deleted' },
        ],
      }),
    ];
    showList('/customers?status=active&view=9', views);
    const said = await screen.findByText(/left out/);
    expect(said.textContent).toBe('This view names what is no longer there, left out: Maintenance plan (archived), a deleted field.');
  });

  it('D57 a view that is gone (deleted, or another person’s) opens the list and says so, with a way to drop it from the URL', async () => {
    showList('/customers?status=lead&view=55');
    const said = await screen.findByText(/no longer there/);
    expect(said.textContent).toContain('This saved view is no longer there: it was deleted, or it is not shared with you.');
    fireEvent.click(within(said).getByRole('button', { name: 'Show the list without it' }));
    await waitFor(() => expect(url()).toBe('/customers?status=lead'));
    expect(screen.queryByText(/no longer there/)).toBeNull();
  });
});
