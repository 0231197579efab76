// D27 Import (customers/import): the file checked in the browser (CSV, at most 5 MB), the preview with
// each row's errors and duplicates, skip or update, the commit and its summary, a refused commit.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import '../ui/no-console';
import { IMPORT_MAX_BYTES, type ImportPreview, type ImportPreviewRow } from '../../contract/customers';
import ImportCustomersPage from '../../src/pages/customers/ImportCustomersPage';
import { PREVIEW_CLEAN_ROWS } from '../../src/pages/customers/import/PreviewTable';
import { navigate } from '../../src/router/location';
import type { SessionState } from '../../src/session/types';
import { toasts } from '../../src/ui/toast';
import { FakeApi, json } from '../helpers/fake-api';
import type { FakeRecord } from '../helpers/fake-customer';
import { renderPage } from '../helpers/render';
import { WITH_ORG } from '../helpers/session';

const CREATE = ['dashboard:view', 'customers:view', 'customers:create'];
const as = (...extra: string[]): Partial<SessionState> => ({ ...WITH_ORG, permissions: [...CREATE, ...extra] });
const CSV = 'name,email,phone,notes\nAnn Lee,ann@example.com,503 555 0101,x\n';

const row = (line: number, name: string, email: string, over: Partial<ImportPreviewRow> = {}): ImportPreviewRow => ({
  line,
  values: { name, email, phone: '(503) 555-0101' },
  errors: [],
  duplicate: null,
  changes: null,
  ...over,
});

function preview(rows: ImportPreviewRow[], ignored: string[] = ['notes']): ImportPreview {
  const invalid = rows.filter((r) => r.errors.length).length;
  return {
    rows,
    ignored_columns: ignored,
    ignored_column_count: ignored.length,
    encoding: 'utf-8',
    delimiter: ',',
    previewed_at: '2026-03-02T10:00:00.000Z',
    summary: {
      total: rows.length,
      valid: rows.length - invalid,
      invalid,
      duplicates: rows.filter((r) => r.duplicate).length,
      unchanged: rows.filter((r) => r.changes && !Object.keys(r.changes).length).length,
    },
    columns: [],
    targets: [],
    mapping: 'guessed',
    grouping: { by: 'none', customers: rows.length, locations: 0, contacts: 0 },
  };
}

const CLEAN = preview([row(2, 'Ann Lee', 'ann@example.com'), row(3, 'Bo Chen', 'bo@example.com')]);
const WITH_ERRORS = preview([
  row(2, 'Ann Lee', 'ann@example.com'),
  row(3, '', 'not-an-email', {
    errors: [
      { field: 'name', detail: 'is required' },
      { field: 'email', detail: 'is not a valid email address' },
    ],
  }),
  row(4, 'Cy Diaz', 'cy@example.com', { errors: [{ field: 'status', detail: 'must be lead, active or inactive' }] }),
]);
const WITH_DUPLICATE = preview([
  row(2, 'Ann Lee', 'ann@example.com'),
  row(3, 'Jane S.', 'jane@example.com', { duplicate: { id: 7, name: 'Jane Smith', version: 3 }, changes: { name: { from: 'Jane Smith', to: 'Jane S.' } } }),
]);

function show(state: Partial<SessionState> = as('customers:update'), setup: (r: FakeRecord) => void = () => {}) {
  const api = new FakeApi();
  const record = api.record;
  setup(record);
  renderPage('/customers/import', <ImportCustomersPage />, { as: state, fake: api });
  return { api, record };
}

const input = () => screen.getByLabelText('CSV file') as HTMLInputElement;
function choose(file: File) {
  fireEvent.change(input(), { target: { files: [file] } });
}
const csvFile = (text = CSV, name = 'customers.csv', type = 'text/csv') => new File([text], name, { type });
const importButton = () => screen.getByRole('button', { name: 'Import' }) as HTMLButtonElement;
const rowOf = (line: number) => screen.getAllByRole('row').find((r) => within(r).queryByRole('rowheader')?.textContent === String(line))!;

beforeEach(() => {
  navigate('/', { replace: true });
  toasts.setState([]);
});

describe('D27 import: the file', () => {
  it('asks for a CSV file with a labelled file input', () => {
    show();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Import Customers');
    expect(input().type).toBe('file');
    expect(input().accept).toBe('.csv,text/csv');
  });

  it('D27 a file over 5 MB is refused in the browser with a clear message, and nothing is sent', () => {
    const { record } = show();
    const big = csvFile();
    Object.defineProperty(big, 'size', { value: IMPORT_MAX_BYTES + 1 });
    choose(big);
    expect(screen.getByRole('alert').textContent).toBe(
      '“customers.csv” is over 5 MB; a file can be at most 5 MB. Split it into smaller files and import them one by one.',
    );
    expect(input().getAttribute('aria-invalid')).toBe('true');
    expect(record.calls('/v1/customers/import/preview/')).toEqual([]);
  });

  it('D27 sizes are told in megabytes; a 413 from the server says the file is too large', async () => {
    const { record } = show(as(), (r) => r.failures.set('POST /v1/customers/import/preview/', [{ status: 413, body: { detail: 'Body too large', code: 'too_large' } }]));
    const big = csvFile('x', 'big.csv');
    Object.defineProperty(big, 'size', { value: 6.2 * 1024 * 1024 });
    choose(big);
    expect(screen.getByRole('alert').textContent).toMatch(/^“big.csv” is 6.2 MB; a file can be at most 5 MB/);
    choose(csvFile());
    expect((await screen.findByRole('alert')).textContent).toMatch(/^“customers.csv” is too large; a file can be at most 5 MB/);
    expect(record.calls('/v1/customers/import/preview/')).toHaveLength(1);
  });

  it('a file that is not a CSV is refused in the browser', () => {
    const { record } = show();
    choose(csvFile('x', 'photo.png', 'image/png'));
    expect(screen.getByRole('alert').textContent).toMatch(/^Choose a CSV file/);
    expect(record.calls('/v1/customers/import/preview/')).toEqual([]);
  });

  it('D27 the file is sent as it is (text/csv) for a preview; nothing is written', async () => {
    const { record } = show(as('customers:update'), (r) => (r.preview = CLEAN));
    choose(csvFile());
    expect(await screen.findByRole('heading', { name: 'Preview' })).toBeTruthy();
    const [call] = record.calls('/v1/customers/import/preview/', 'POST');
    expect(call!.body).toBe(CSV);
    expect(call!.blobType).toBe('text/csv');
    expect(record.calls('/v1/customers/import/')).toEqual([]);
    expect(screen.getByText('“customers.csv”: 2 rows. 2 ready, 0 with errors, 0 with an email that already exists.')).toBeTruthy();
    expect(screen.getByText('Not imported: notes.')).toBeTruthy();
    expect(screen.getByText('Nothing is saved until you press Import.')).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Preview' })));
  });

  it('a file the server cannot read shows its words and asks for another', async () => {
    show(as(), (r) =>
      r.failures.set('POST /v1/customers/import/preview/', [{ status: 400, body: { detail: 'The header row must have a "name" column', code: 'invalid_csv' } }]),
    );
    choose(csvFile());
    expect((await screen.findByRole('alert')).textContent).toBe('The header row must have a "name" column.');
    expect(input()).toBeTruthy();
  });
});

describe('D27 import: the preview', () => {
  it('D27 shows each row with its errors in words; Import is disabled until the file is fixed', async () => {
    const { record } = show(as(), (r) => (r.preview = WITH_ERRORS));
    choose(csvFile());
    await screen.findByRole('table');
    expect(within(rowOf(3)).getByText('Name is required')).toBeTruthy();
    expect(within(rowOf(3)).getByText('Email is not a valid email address')).toBeTruthy();
    expect(within(rowOf(4)).getByText('Status must be lead, active or inactive')).toBeTruthy();
    expect(within(rowOf(2)).getByText('Ready')).toBeTruthy();
    expect(rowOf(3).getAttribute('data-state')).toBe('error');
    expect(importButton().disabled).toBe(true);
    const why = screen.getByText('Fix the file and upload it again: 2 rows have errors.');
    expect(importButton().getAttribute('aria-describedby')).toBe(why.id);
    expect(record.calls('/v1/customers/import/')).toEqual([]);
  });

  it('shows every row with a problem but only the first clean ones, and says how many are left out', async () => {
    const rows = Array.from({ length: PREVIEW_CLEAN_ROWS + 5 }, (_, i) => row(i + 2, `P${i}`, `p${i}@example.com`));
    rows.push(row(999, 'Bad', 'x', { errors: [{ field: 'email', detail: 'is not a valid email address' }] }));
    show(as(), (r) => (r.preview = preview(rows)));
    choose(csvFile());
    await screen.findByRole('table');
    expect(screen.getAllByRole('row')).toHaveLength(PREVIEW_CLEAN_ROWS + 2); // the header, the clean ones, the bad one
    expect(rowOf(999)).toBeTruthy();
    expect(screen.getByText(/^5 more rows without problems are not shown/)).toBeTruthy();
  });

  it('D27 a duplicate links to the customer who has that email; skipped by default, or updated when chosen', async () => {
    const { record } = show(as('customers:update'), (r) => {
      r.preview = WITH_DUPLICATE;
      r.importAnswer = () => json(200, { created: 1, updated: 1, skipped: 0 });
    });
    choose(csvFile());
    await screen.findByRole('table');
    const link = within(rowOf(3)).getByRole('link', { name: 'Jane Smith' });
    expect(link.getAttribute('href')).toBe('/customers/7');
    expect(rowOf(3).textContent).toContain('Email already belongs to Jane Smith: will be skipped');
    const choice = screen.getByRole('group', { name: 'Rows whose email already exists' });
    expect((within(choice).getByRole('radio', { name: 'Skip them' }) as HTMLInputElement).checked).toBe(true);
    fireEvent.click(within(choice).getByRole('radio', { name: /Update them/ }));
    expect(rowOf(3).textContent).toContain('will be updated');
    fireEvent.click(importButton());
    expect(await screen.findByRole('heading', { name: 'Import finished' })).toBeTruthy();
    const [call] = record.calls('/v1/customers/import/', 'POST');
    expect(call!.search).toBe('?on_duplicate=update&previewed_at=2026-03-02T10%3A00%3A00.000Z');
    expect(call!.body).toBe(CSV);
  });

  it('D9 without customers:update there is no Update choice, and duplicates are skipped', async () => {
    const { record } = show(as(), (r) => (r.preview = WITH_DUPLICATE));
    choose(csvFile());
    await screen.findByRole('table');
    expect(screen.queryByRole('radio', { name: /Update them/ })).toBeNull();
    expect(screen.getByText(/these rows will be skipped/)).toBeTruthy();
    fireEvent.click(importButton());
    await screen.findByRole('heading', { name: 'Import finished' });
    expect(record.calls('/v1/customers/import/', 'POST')[0]!.search).toBe('?on_duplicate=skip&previewed_at=2026-03-02T10%3A00%3A00.000Z');
  });

  it('Choose another file goes back to the file input', async () => {
    show(as(), (r) => (r.preview = CLEAN));
    choose(csvFile());
    await screen.findByRole('table');
    fireEvent.click(screen.getByRole('button', { name: 'Choose another file' }));
    expect(input()).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });
});

describe('D27 import: the commit', () => {
  it('D27 commits and sums up "12 created, 3 updated, 1 skipped" with a link back to the list, announced', async () => {
    show(as('customers:update'), (r) => {
      r.preview = CLEAN;
      r.importAnswer = () => json(200, { created: 12, updated: 3, skipped: 1 });
    });
    choose(csvFile());
    await screen.findByRole('table');
    fireEvent.click(importButton());
    const done = await screen.findByRole('region', { name: 'Import finished' });
    expect(within(done).getByText('12 created, 3 updated, 1 skipped')).toBeTruthy();
    expect(within(done).getByRole('link', { name: 'Back to Customers' }).getAttribute('href')).toBe('/customers');
    await waitFor(() => expect(document.activeElement).toBe(within(done).getByRole('heading', { name: 'Import finished' })));
    expect(toasts.getState().map((t) => t.message)).toEqual(['Import finished: 12 created, 3 updated, 1 skipped']);
    fireEvent.click(within(done).getByRole('button', { name: 'Import another file' }));
    expect(input()).toBeTruthy();
  });

  it('D27 a 400 import_invalid from the commit says why and previews the file again: the summary, the rows and Import say what holds now', async () => {
    const bad = row(3, 'Bo Chen', 'bo@example.com', { errors: [{ field: 'assigned_to', detail: 'is not a member of this organization' }] });
    const { record } = show(as(), (r) => {
      r.preview = CLEAN;
      r.importAnswer = () => {
        r.preview = preview([row(2, 'Ann Lee', 'ann@example.com'), bad]); // the member was removed since the preview
        return json(400, { detail: '1 row needs fixing; nothing was imported', code: 'import_invalid', rows: [bad] });
      };
    });
    choose(csvFile());
    await screen.findByRole('table');
    expect(importButton().disabled).toBe(false);
    fireEvent.click(importButton());
    expect((await screen.findByRole('alert')).textContent).toBe('1 row needs fixing; nothing was imported.');
    await waitFor(() => expect(screen.getByText(/2 rows\. 1 ready, 1 with errors/)).toBeTruthy());
    expect(importButton().disabled).toBe(true);
    expect(within(rowOf(3)).getByText('Assigned to is not a member of this organization')).toBeTruthy();
    expect(screen.queryByRole('table', { name: 'Rows the server refused' })).toBeNull(); // once, in the rows
    expect(record.calls('/v1/customers/import/preview/', 'POST')).toHaveLength(2);
    expect(screen.queryByRole('heading', { name: 'Import finished' })).toBeNull();
  });

  it('D27 the refused rows stay shown when the preview again fails', async () => {
    const bad = row(3, 'Bo Chen', 'ann@example.com', { errors: [{ field: 'email', detail: 'is the same as on line 2' }] });
    const { api } = show(as(), (r) => (r.preview = CLEAN));
    api.record.importAnswer = () => {
      api.routes.set('/v1/customers/import/preview/', () => json(503, { detail: 'Service unavailable', code: 'server_busy' }));
      return json(400, { detail: '1 row needs fixing; nothing was imported', code: 'import_invalid', rows: [bad] });
    };
    choose(csvFile());
    await screen.findByRole('table');
    fireEvent.click(importButton());
    expect((await screen.findByRole('alert')).textContent).toBe('1 row needs fixing; nothing was imported.');
    const refused = await screen.findByRole('table', { name: 'Rows the server refused' });
    expect(within(refused).getByText('Email is the same as on line 2')).toBeTruthy();
  });

  it('D27 a 409 conflict (an email taken while the file was imported) previews the file again, which shows the duplicate', async () => {
    show(as('customers:update'), (r) => {
      r.preview = CLEAN;
      r.importAnswer = () => {
        r.preview = WITH_DUPLICATE;
        return json(409, {
          detail: 'Another customer was given one of these emails while the file was imported; nothing was imported. Preview the file again',
          code: 'conflict',
        });
      };
    });
    choose(csvFile());
    await screen.findByRole('table');
    fireEvent.click(importButton());
    expect((await screen.findByRole('alert')).textContent).toMatch(/^Another customer was given one of these emails/);
    await waitFor(() => expect(screen.getByText(/1 with an email that already exists/)).toBeTruthy());
    expect(screen.getByRole('group', { name: 'Rows whose email already exists' })).toBeTruthy();
  });
});

describe('D43 D44 import: how the file was read and what an update changes', () => {
  it('D43 the preview says which encoding and delimiter it read', async () => {
    show(as(), (r) => (r.preview = { ...CLEAN, encoding: 'windows-1252', delimiter: ';' }));
    choose(csvFile());
    await screen.findByRole('table');
    expect(screen.getByText('Read as Windows-1252 (Excel on Windows), columns separated by semicolons.')).toBeTruthy();
  });

  it('D34 many ignored columns: the names the server gave and how many more', async () => {
    show(as(), (r) => (r.preview = { ...CLEAN, ignored_columns: ['a', 'b'], ignored_column_count: 150 }));
    choose(csvFile());
    await screen.findByRole('table');
    expect(screen.getByText('Not imported: a, b and 148 more.')).toBeTruthy();
  });

  it("D44 updating shows each duplicate's fields before → after; one already up to date says so", async () => {
    const rows = [
      row(2, 'Jane S.', 'jane@example.com', {
        duplicate: { id: 7, name: 'Jane Smith', version: 3 },
        changes: {
          name: { from: 'Jane Smith', to: 'Jane S.' },
          tags: { from: ['a'], to: ['b', 'c'] },
          assigned_to: { from: null, to: { id: 4, name: 'Theo' } }, // D59: a member by name
        },
      }),
      row(3, 'Bo Chen', 'bo@example.com', { duplicate: { id: 8, name: 'Bo Chen', version: 1 }, changes: {} }),
    ];
    show(as('customers:update'), (r) => (r.preview = preview(rows)));
    choose(csvFile());
    await screen.findByRole('table');
    expect(screen.getByText(/1 of them already up to date/)).toBeTruthy();
    fireEvent.click(screen.getByRole('radio', { name: /Update them/ }));
    const changes = within(rowOf(2))
      .getAllByRole('listitem')
      .map((li) => li.textContent);
    expect(changes).toContain('Name: Jane Smith → Jane S.');
    expect(changes).toContain('Tags: a → b; c');
    expect(changes).toContain('Assigned to: (empty) → Theo');
    expect(rowOf(3).textContent).toContain('already up to date, nothing to change');
  });

  it("D60: a duplicate whose update only adds parts says 'will be updated, adds 1 location and 2 contacts'", async () => {
    const rows = [row(2, 'Bo Chen', 'bo@example.com', { duplicate: { id: 8, name: 'Bo Chen', version: 1 }, changes: {}, adds: { locations: 1, contacts: 2 } })];
    show(as('customers:update'), (r) => (r.preview = preview(rows)));
    choose(csvFile());
    await screen.findByRole('table');
    fireEvent.click(screen.getByRole('radio', { name: /Update them/ }));
    expect(rowOf(2).textContent).toContain('will be updated, adds 1 location and 2 contacts');
  });

  it('D44 the summary lists the customers changed by someone else after the preview, as links', async () => {
    show(as('customers:update'), (r) => {
      r.preview = WITH_DUPLICATE;
      r.importAnswer = () => json(200, { created: 1, updated: 0, unchanged: 0, skipped: 1, changed_since_preview: [{ id: 7, name: 'Jane Smith' }] });
    });
    choose(csvFile());
    await screen.findByRole('table');
    fireEvent.click(screen.getByRole('radio', { name: /Update them/ }));
    fireEvent.click(importButton());
    const done = await screen.findByRole('region', { name: 'Import finished' });
    expect(within(done).getByText(/1 customer was changed by someone else after the preview/)).toBeTruthy();
    expect(within(done).getByRole('link', { name: 'Jane Smith' }).getAttribute('href')).toBe('/customers/7');
  });

  it('D44 the problems come right after the line number, before the values, so a wide table never hides them', async () => {
    show(as(), (r) => (r.preview = WITH_ERRORS));
    choose(csvFile());
    const table = await screen.findByRole('table');
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((h) => h.textContent);
    expect(headers.slice(0, 3)).toEqual(['Line', 'Problems', 'Name']);
    const cells = rowOf(3).querySelectorAll('td');
    expect(cells[0]!.getAttribute('data-label')).toBe('Problems');
    expect(cells[0]!.textContent).toContain('Name is required');
  });
});
