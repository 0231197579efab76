// D60 the import's mapping screen: each column of the file with a labelled select of targets (grouped
// Customer, Custom fields, Service location, Contact, and 'Do not import'), the guessed or saved one chosen;
// how rows become customers; every change previews again with `columns=` and `group_by=`, and the import
// sends the mapping shown; errors name the target and the file's column; a row joining another says so.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import '../ui/no-console';
import type { ImportPreview, ImportPreviewRow } from '../../contract/customers';
import type { ImportColumn, ImportGrouping } from '../../contract/import-mapping';
import ImportCustomersPage from '../../src/pages/customers/ImportCustomersPage';
import { navigate } from '../../src/router/location';
import type { SessionState } from '../../src/session/types';
import { toasts } from '../../src/ui/toast';
import { FakeApi, json } from '../helpers/fake-api';
import type { FakeRecord } from '../helpers/fake-customer';
import { renderPage } from '../helpers/render';
import { WITH_ORG } from '../helpers/session';

const as: Partial<SessionState> = { ...WITH_ORG, permissions: ['dashboard:view', 'customers:view', 'customers:create'] };
const CSV = 'Customer Name,Email,Property Address,Tenant Name,Notes\r\nHarbor,ops@h.example,12 Elm St,Ana,x\r\n';

const TARGETS: ImportPreview['targets'] = [
  { target: 'name', label: 'Name', group: 'customer' },
  { target: 'email', label: 'Email', group: 'customer' },
  { target: 'note', label: 'Note on the customer', group: 'customer' },
  { target: 'cf.plan', label: 'Plan', group: 'custom' },
  { target: 'location.address_line', label: 'Street', group: 'location' },
  { target: 'location.city', label: 'City', group: 'location' },
  { target: 'contact.name', label: 'Name', group: 'contact' },
  { target: 'contact.phone', label: 'Phone', group: 'contact' },
];
const COLUMNS: ImportColumn[] = [
  { header: 'Customer Name', target: 'name', sample: 'Harbor' },
  { header: 'Email', target: 'email', sample: 'ops@h.example' },
  { header: 'Property Address', target: 'location.address_line', sample: '12 Elm St' },
  { header: 'Tenant Name', target: 'contact.name', sample: 'Ana' },
  { header: 'Notes', target: null, sample: 'x' },
];
const row = (line: number, over: Partial<ImportPreviewRow> = {}): ImportPreviewRow => ({
  line,
  values: { name: 'Harbor', email: 'ops@h.example' },
  errors: [],
  duplicate: null,
  changes: null,
  ...over,
});

function preview(
  over: { columns?: ImportColumn[]; grouping?: Partial<ImportGrouping>; mapping?: ImportPreview['mapping']; rows?: ImportPreviewRow[] } = {},
): ImportPreview {
  const rows = over.rows ?? [row(2), row(3, { joins: 2 }), row(4, { joins: 2 }), row(5, { values: { name: 'Dee' } })];
  const columns = over.columns ?? COLUMNS;
  const ignored = columns.filter((c) => c.target === null).map((c) => c.header);
  const invalid = rows.filter((r) => r.errors.length).length;
  return {
    rows,
    ignored_columns: ignored,
    ignored_column_count: ignored.length,
    encoding: 'utf-8',
    delimiter: ',',
    previewed_at: '2026-03-02T10:00:00.000Z',
    summary: { total: rows.length, valid: rows.length - invalid, invalid, duplicates: 0, unchanged: 0 },
    columns,
    targets: TARGETS,
    mapping: over.mapping ?? 'guessed',
    grouping: { by: 'email', customers: 2, locations: 4, contacts: 2, ...over.grouping },
  };
}

let api: FakeApi;
function show(setup: (r: FakeRecord) => void) {
  api = new FakeApi();
  setup(api.record);
  renderPage('/customers/import', <ImportCustomersPage />, { as, fake: api });
  fireEvent.change(screen.getByLabelText('CSV file'), { target: { files: [new File([CSV], 'properties.csv', { type: 'text/csv' })] } });
  return api.record;
}
const select = (name: string) => screen.getByRole('combobox', { name }) as HTMLSelectElement;
const params = (search: string) => Object.fromEntries(new URLSearchParams(search));

beforeEach(() => {
  navigate('/', { replace: true });
  toasts.setState([]);
});

describe('D60 the mapping screen', () => {
  it('D60 each column has a select named by its column, grouped Customer, Custom fields, Service location, Contact, with Do not import; the guess is chosen', async () => {
    show((r) => (r.preview = preview()));
    await screen.findByRole('heading', { name: 'Preview' });
    const email = select('Email');
    expect(email.value).toBe('email');
    expect(select('Property Address').value).toBe('location.address_line');
    expect(select('Notes').value).toBe('-');
    const groups = within(email)
      .getAllByRole('group')
      .map((g) => g.getAttribute('label'));
    expect(groups).toEqual(['Customer', 'Custom fields', 'Service location', 'Contact']);
    expect(within(email).getByRole('option', { name: 'Do not import' })).toBeTruthy();
    expect(within(email).getByRole('option', { name: 'Service location: Street' })).toBeTruthy();
    expect(within(email).getByRole('option', { name: 'Contact: Phone' })).toBeTruthy();
    expect(within(email).getByRole('option', { name: 'Plan' })).toBeTruthy();
    // The column's example describes its select, so a screen reader hears what the column holds.
    expect(email.getAttribute('aria-describedby')).toBeTruthy();
    expect(document.getElementById(email.getAttribute('aria-describedby')!)!.textContent).toBe('e.g. ops@h.example');
    expect(screen.getByText('Guessed from the column names. Change any column before importing.')).toBeTruthy();
    expect(screen.getByText('Not imported: Notes.')).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe('4 rows → 2 customers, 4 locations, 2 contacts');
  });

  it("D60 changing a column's target previews the same file again with columns= (one target per column, - for none) and shows the new answer", async () => {
    const record = show((r) => (r.preview = preview()));
    await screen.findByRole('heading', { name: 'Preview' });
    record.preview = preview({ columns: COLUMNS.map((c) => (c.header === 'Notes' ? { ...c, target: 'note' } : c)), mapping: 'chosen' });
    fireEvent.change(select('Notes'), { target: { value: 'note' } });
    await waitFor(() => expect(record.calls('/v1/customers/import/preview/', 'POST')).toHaveLength(2));
    const second = record.calls('/v1/customers/import/preview/', 'POST')[1]!;
    expect(params(second.search)).toEqual({ columns: 'name,email,location.address_line,contact.name,note', group_by: 'email' });
    expect(second.body).toBe(CSV);
    expect(await screen.findByText('As you chose.')).toBeTruthy();
    expect(select('Notes').value).toBe('note');
    expect(screen.queryByText(/^Not imported/)).toBeNull();
  });

  it('D60 the grouping choice: same email, each row its own, or the same value in a column; sent as group_by', async () => {
    const record = show((r) => (r.preview = preview()));
    await screen.findByRole('heading', { name: 'Preview' });
    const grouping = select('Rows become customers');
    expect(grouping.value).toBe('email');
    expect(within(grouping).getByRole('option', { name: 'Same Customer Name' })).toBeTruthy();
    record.preview = preview({ grouping: { by: 'none', customers: 4 }, rows: [row(2), row(3), row(4), row(5)] });
    fireEvent.change(grouping, { target: { value: 'none' } });
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('4 rows → 4 customers, 4 locations, 2 contacts'));
    expect(params(record.calls('/v1/customers/import/preview/', 'POST')[1]!.search).group_by).toBe('none');
    fireEvent.change(select('Rows become customers'), { target: { value: '0' } });
    await waitFor(() => expect(record.calls('/v1/customers/import/preview/', 'POST')).toHaveLength(3));
    expect(params(record.calls('/v1/customers/import/preview/', 'POST')[2]!.search).group_by).toBe('0');
  });

  it('D60 the import sends the mapping shown, so the file is read the same way; the summary counts the locations and contacts added', async () => {
    const record = show((r) => {
      r.preview = preview({ mapping: 'saved' });
      r.importAnswer = () => json(200, { created: 2, updated: 0, unchanged: 0, skipped: 0, changed_since_preview: [], locations: 4, contacts: 1 });
    });
    await screen.findByRole('heading', { name: 'Preview' });
    expect(screen.getByText('Your choices from the last import of a file with these columns.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Import' }));
    await screen.findByRole('heading', { name: 'Import finished' });
    expect(screen.getByText('2 created, 0 updated, 0 skipped; 4 locations and 1 contact added')).toBeTruthy();
    const [call] = record.calls('/v1/customers/import/', 'POST');
    expect(params(call!.search)).toMatchObject({ on_duplicate: 'skip', columns: 'name,email,location.address_line,contact.name,-', group_by: 'email' });
  });

  it("D60 a row's error names its target and the file's column; a row that adds to another customer says which line", async () => {
    const rows = [row(2), row(3, { joins: 2, errors: [{ field: 'location.city', detail: 'must be at most 200 characters' }] })];
    show((r) => (r.preview = preview({ rows, columns: [...COLUMNS, { header: 'Town', target: 'location.city', sample: 'x' }] })));
    await screen.findByRole('heading', { name: 'Preview' });
    expect(screen.getByText('Service location city (column “Town”) must be at most 200 characters')).toBeTruthy();
    expect(screen.getByText('Adds to the customer of line 2')).toBeTruthy();
  });

  it('D60 two changes before the first answer add up: the second preview asks for both', async () => {
    const record = show((r) => (r.preview = preview()));
    await screen.findByRole('heading', { name: 'Preview' });
    api.holdRequests = true; // the first change's answer does not come before the second change
    fireEvent.change(select('Notes'), { target: { value: 'note' } });
    expect(select('Notes').value).toBe('note');
    fireEvent.change(select('Tenant Name'), { target: { value: '-' } });
    await waitFor(() => expect(record.calls('/v1/customers/import/preview/', 'POST')).toHaveLength(3));
    expect(params(record.calls('/v1/customers/import/preview/', 'POST')[2]!.search).columns).toBe('name,email,location.address_line,-,note');
    api.holdRequests = false;
    api.release();
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('4 rows → 2 customers, 4 locations, 2 contacts'));
  });

  it('D60 empty columns not imported wait behind a button (aria-expanded); an empty column that imports is always shown', async () => {
    const columns = [
      ...COLUMNS,
      { header: 'Fax', target: null, sample: '' },
      { header: 'Pager', target: null, sample: '' },
      { header: 'City', target: 'location.city', sample: '' },
    ];
    show((r) => (r.preview = preview({ columns })));
    await screen.findByRole('heading', { name: 'Preview' });
    expect(screen.queryByRole('combobox', { name: 'Fax' })).toBeNull();
    expect(select('City').value).toBe('location.city');
    const more = screen.getByRole('button', { name: 'Show 2 empty columns (not imported)' });
    expect(more.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(more);
    expect(select('Fax').value).toBe('-');
    expect(select('Pager').value).toBe('-');
    expect(screen.getByRole('button', { name: 'Hide the 2 empty columns' }).getAttribute('aria-expanded')).toBe('true');
  });

  it('D60 while the new preview is on its way the status says so and the changed select keeps the focus; a refused mapping is an alert and the last preview stays', async () => {
    const record = show((r) => (r.preview = preview()));
    await screen.findByRole('heading', { name: 'Preview' });
    record.failures.set('POST /v1/customers/import/preview/', [
      { status: 400, body: { code: 'invalid_field', detail: 'columns: column 5 ("Notes") and column 1 ("Customer Name") both fill "name"; only one may' } },
    ]);
    select('Notes').focus();
    fireEvent.change(select('Notes'), { target: { value: 'name' } });
    expect(screen.getByRole('status').textContent).toBe('Updating the preview…');
    expect(select('Notes').disabled).toBe(false);
    expect(document.activeElement).toBe(select('Notes'));
    expect(screen.getByRole('list', { name: 'Columns of the file' }).getAttribute('aria-busy')).toBe('true');
    expect((await screen.findByRole('alert')).textContent).toMatch(/both fill "name"/);
    expect(select('Notes').value).toBe('-');
    expect(screen.getByRole('list', { name: 'Columns of the file' }).getAttribute('aria-busy')).toBe('false');
  });
});
