// D27: a CSV of customers, previewed and then committed. Both steps read the same file the same way
// (D43: its encoding and delimiter; export's formula guard undone) and check every row alike. D34: the
// work is bounded: parsing is linear and yields, only the known columns are kept, the duplicates of the
// whole file are found in one query, and the commit (import-apply.ts) writes in a few set-based statements.
import {
  CUSTOMER_INPUT_FIELDS,
  IMPORT_IGNORED_NAMES_SHOWN,
  IMPORT_MAX_ROWS,
  IMPORT_PREVIEW_CELL_MAX,
  type Customer,
  type CustomerInput,
  type CustomerInputField,
  type FieldChanges,
  type ImportDelimiter,
  type ImportEncoding,
  type ImportPreview,
  type ImportPreviewRow,
} from '../../../contract/customers';
import type { Queryable } from '../../db';
import { num } from '../../db';
import { HttpError } from '../../http';
import { CsvError, decodeCsv, detectDelimiter, parseCsv } from './csv-read';
import { customerFields } from './schema';

/** Rows checked between two turns of the event loop. */
const CHECK_YIELD_ROWS = 1_000;
const IGNORED_NAME_MAX = 100;

/** Header spellings people's spreadsheets use for D22's fields. */
const ALIASES: Record<string, CustomerInputField> = {
  address: 'address_line',
  street: 'address_line',
  zip: 'postal_code',
  zip_code: 'postal_code',
  postcode: 'postal_code',
  state: 'region',
  province: 'region',
  tag: 'tags',
  organization: 'company',
};

const headerKey = (h: string) =>
  h
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');

/** D43: export puts ' before a cell a spreadsheet would run (D27); reading it back takes exactly that off. */
const GUARDED = /^'[=+\-@\t\r]/;
export const unguard = (cell: string) => (GUARDED.test(cell) ? cell.slice(1) : cell);

/** The duplicate's current values, as the one duplicates query reads them. */
export type Existing = Pick<Customer, 'id' | 'name' | 'version' | CustomerInputField> & { updated_at: Date };

export interface CheckedRow extends ImportPreviewRow {
  input: CustomerInput | null;
  /** The live customer with this email, as it is now. */
  existing: Existing | null;
  /** D44: the fields an update would write (the cells the file fills in that differ). */
  merged: CustomerInput | null;
}

export interface CheckedFile {
  rows: CheckedRow[];
  ignored: string[];
  ignoredCount: number;
  encoding: ImportEncoding;
  delimiter: ImportDelimiter;
}

const yieldLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Parses and checks the file: each row's values, its errors by field, and the live customer with its email. */
export async function checkImport(db: Queryable, orgId: number, bytes: Uint8Array, charset: string | null): Promise<CheckedFile> {
  const { text, encoding } = decodeCsv(bytes, charset);
  const delimiter = detectDelimiter(text);
  let table: { line: number; cells: string[] }[];
  try {
    table = await parseCsv(text, delimiter, IMPORT_MAX_ROWS + 1);
  } catch (err) {
    if (err instanceof CsvError) throw new HttpError(400, 'invalid_csv', `The file is not valid CSV: ${err.message}`);
    throw err;
  }
  const [header, ...data] = table;
  if (!header) throw new HttpError(400, 'invalid_csv', 'The file is empty; it needs a header row naming the columns');
  // D34: only the known columns are read from each row (the first of a field wins).
  const known: [index: number, field: CustomerInputField][] = [];
  const ignored: string[] = [];
  header.cells.forEach((h, i) => {
    const key = headerKey(h);
    const field = (CUSTOMER_INPUT_FIELDS as readonly string[]).includes(key) ? (key as CustomerInputField) : (ALIASES[key] ?? null);
    if (field === null) ignored.push(h.slice(0, IGNORED_NAME_MAX));
    else if (!known.some(([, f]) => f === field)) known.push([i, field]);
  });
  if (!known.some(([, f]) => f === 'name')) throw new HttpError(400, 'invalid_csv', 'The header row must have a "name" column');

  const firstLineOf = new Map<string, number>();
  const rows: CheckedRow[] = [];
  for (const [n, { line, cells }] of data.entries()) {
    if (n > 0 && n % CHECK_YIELD_ROWS === 0) await yieldLoop();
    const values: ImportPreviewRow['values'] = {};
    for (const [i, field] of known) values[field] = unguard(cells[i] ?? '');
    const errors: ImportPreviewRow['errors'] = [];
    const input: Record<string, unknown> = {};
    for (const field of CUSTOMER_INPUT_FIELDS) {
      const raw = values[field];
      const value =
        field === 'tags' && raw !== undefined
          ? raw
              .split(/[;,]/)
              .map((t) => t.trim())
              .filter(Boolean)
          : raw === ''
            ? undefined
            : raw;
      try {
        input[field] = customerFields[field](value, field);
      } catch (err) {
        if (!(err instanceof HttpError)) throw err;
        errors.push({ field, detail: err.detail.replace(`${field}: `, '') });
      }
    }
    const email = typeof input.email === 'string' ? input.email : null;
    if (email) {
      const first = firstLineOf.get(email);
      if (first !== undefined) errors.push({ field: 'email', detail: `is the same as on line ${first}` });
      else firstLineOf.set(email, line);
    }
    for (const [field, v] of Object.entries(values))
      if (v.length > IMPORT_PREVIEW_CELL_MAX) values[field as CustomerInputField] = `${v.slice(0, IMPORT_PREVIEW_CELL_MAX)}…`;
    rows.push({ line, values, errors, duplicate: null, changes: null, existing: null, merged: null, input: errors.length ? null : (input as unknown as CustomerInput) });
  }

  const byEmail = await findByEmails(db, orgId, [...firstLineOf.keys()]);
  for (const row of rows) {
    const email = row.input?.email ?? (typeof row.values.email === 'string' ? row.values.email.trim().toLowerCase() : null);
    const existing = email ? byEmail.get(email) : undefined;
    if (!existing) continue;
    row.existing = existing;
    row.duplicate = { id: existing.id, name: existing.name, version: existing.version };
    if (row.input) {
      const { merged, changes } = updateOf(existing, row.input, row.values);
      row.merged = merged;
      row.changes = changes;
    }
  }
  return { rows, ignored: ignored.slice(0, IMPORT_IGNORED_NAMES_SHOWN), ignoredCount: ignored.length, encoding, delimiter };
}

const EXISTING_COLUMNS = `id, version, updated_at, ${CUSTOMER_INPUT_FIELDS.join(', ')}`;

/** D34: the live customers with any of these emails, in one query for the whole file. */
async function findByEmails(db: Queryable, orgId: number, emails: string[]): Promise<Map<string, Existing>> {
  if (!emails.length) return new Map();
  const found = await db.query<Existing & { id: unknown; version: unknown }>(
    `select ${EXISTING_COLUMNS} from customers where org_id = $1 and deleted_at is null and email = any(string_to_array($2, chr(1)))`,
    [orgId, emails.join('\u0001')],
  );
  return new Map(found.map((r) => [r.email!, { ...r, id: num(r.id), version: num(r.version), tags: r.tags ?? [] }]));
}

/**
 * D44: what an update writes: only the cells the file fills in (an empty cell never wipes what the
 * customer has), and of those only the ones that differ, before → after, as an edit records them.
 */
function updateOf(existing: Existing, input: CustomerInput, values: ImportPreviewRow['values']): { merged: CustomerInput; changes: FieldChanges } {
  const merged = Object.fromEntries(CUSTOMER_INPUT_FIELDS.map((f) => [f, existing[f]])) as Record<CustomerInputField, unknown>;
  const changes: FieldChanges = {};
  for (const field of CUSTOMER_INPUT_FIELDS) {
    if ((values[field] ?? '').trim() === '') continue;
    const to = input[field];
    if (JSON.stringify(to) === JSON.stringify(existing[field])) continue;
    changes[field] = { from: existing[field], to };
    merged[field] = to;
  }
  return { merged: merged as unknown as CustomerInput, changes };
}

export const rowView = ({ input: _i, existing: _e, merged: _m, ...row }: CheckedRow): ImportPreviewRow => row;

export async function previewImport(db: Queryable, orgId: number, bytes: Uint8Array, charset: string | null, now: Date): Promise<ImportPreview> {
  const { rows, ignored, ignoredCount, encoding, delimiter } = await checkImport(db, orgId, bytes, charset);
  const invalid = rows.filter((r) => r.errors.length).length;
  return {
    rows: rows.map(rowView),
    ignored_columns: ignored,
    ignored_column_count: ignoredCount,
    encoding,
    delimiter,
    previewed_at: now.toISOString(),
    summary: {
      total: rows.length,
      valid: rows.length - invalid,
      invalid,
      duplicates: rows.filter((r) => r.duplicate).length,
      unchanged: rows.filter((r) => r.changes && Object.keys(r.changes).length === 0).length,
    },
  };
}
