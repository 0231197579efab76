// D27: a CSV of customers, previewed and then committed. Both steps take the same file and check every
// row the same way; the commit writes all rows or none, in one transaction with one audit entry.
import {
  CUSTOMER_INPUT_FIELDS, IMPORT_MAX_ROWS, type CustomerInput, type CustomerInputField, type ImportDuplicateMode, type ImportPreview,
  type ImportPreviewRow, type ImportResult, type PersonRef,
} from '../../../contract/customers';
import type { Queryable } from '../../db';
import { num } from '../../db';
import { HttpError } from '../../http';
import { CsvError, parseCsv } from './csv';
import { customerFields } from './schema';

/** Rows per INSERT statement: few round trips, well under PostgreSQL's 65,535 parameters. */
const INSERT_BATCH = 500;

/** Header spellings people's spreadsheets use for D22's fields. */
const ALIASES: Record<string, CustomerInputField> = {
  address: 'address_line', street: 'address_line', zip: 'postal_code', zip_code: 'postal_code', postcode: 'postal_code',
  state: 'region', province: 'region', tag: 'tags', organization: 'company',
};

const headerKey = (h: string) => h.trim().toLowerCase().replace(/[\s-]+/g, '_');

interface CheckedRow extends ImportPreviewRow {
  input: CustomerInput | null;
}

/** Parses and checks the file: each row's values, its errors by field, and the live customer with its email. */
export async function checkImport(db: Queryable, orgId: number, csv: string): Promise<{ rows: CheckedRow[]; ignored: string[] }> {
  let table: { line: number; cells: string[] }[];
  try {
    table = parseCsv(csv, IMPORT_MAX_ROWS + 1);
  } catch (err) {
    if (err instanceof CsvError) throw new HttpError(400, 'invalid_csv', `The file is not valid CSV: ${err.message}`);
    throw err;
  }
  const [header, ...data] = table;
  if (!header) throw new HttpError(400, 'invalid_csv', 'The file is empty; it needs a header row naming the columns');
  const columns = header.cells.map((h) => {
    const key = headerKey(h);
    return (CUSTOMER_INPUT_FIELDS as readonly string[]).includes(key) ? (key as CustomerInputField) : (ALIASES[key] ?? null);
  });
  if (!columns.includes('name')) throw new HttpError(400, 'invalid_csv', 'The header row must have a "name" column');
  const ignored = header.cells.filter((_, i) => columns[i] === null);

  const firstLineOf = new Map<string, number>();
  const rows: CheckedRow[] = data.map(({ line, cells }) => {
    const values: ImportPreviewRow['values'] = {};
    columns.forEach((field, i) => {
      if (field && values[field] === undefined) values[field] = cells[i] ?? '';
    });
    const errors: ImportPreviewRow['errors'] = [];
    const input: Record<string, unknown> = {};
    for (const field of CUSTOMER_INPUT_FIELDS) {
      const raw = values[field];
      const value = field === 'tags' && raw !== undefined ? raw.split(/[;,]/).map((t) => t.trim()).filter(Boolean) : raw === '' ? undefined : raw;
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
    return { line, values, errors, duplicate: null, input: errors.length ? null : (input as unknown as CustomerInput) };
  });

  const emails = [...firstLineOf.keys()];
  if (emails.length) {
    const found = await db.query<{ id: unknown; name: string; email: string }>(
      'select id, name, email from customers where org_id = $1 and deleted_at is null and email = any(string_to_array($2, chr(1)))',
      [orgId, emails.join('\u0001')],
    );
    const byEmail = new Map(found.map((r) => [r.email, { id: num(r.id), name: r.name } satisfies PersonRef]));
    for (const row of rows) {
      const email = row.input?.email ?? (typeof row.values.email === 'string' ? row.values.email.trim().toLowerCase() : null);
      if (email) row.duplicate = byEmail.get(email) ?? null;
    }
  }
  return { rows, ignored };
}

const view = ({ input: _input, ...row }: CheckedRow): ImportPreviewRow => row;

export async function previewImport(db: Queryable, orgId: number, csv: string): Promise<ImportPreview> {
  const { rows, ignored } = await checkImport(db, orgId, csv);
  const invalid = rows.filter((r) => r.errors.length).length;
  return {
    rows: rows.map(view),
    ignored_columns: ignored,
    summary: { total: rows.length, valid: rows.length - invalid, invalid, duplicates: rows.filter((r) => r.duplicate).length },
  };
}

const COLUMNS = CUSTOMER_INPUT_FIELDS;

/**
 * D27: writes the file in the caller's transaction: new customers inserted, duplicates (by email)
 * skipped or updated. Any row with an error refuses the whole file (400 import_invalid with the rows).
 */
export async function commitImport(
  db: Queryable, orgId: number, userId: number, csv: string, mode: ImportDuplicateMode, now: Date,
): Promise<ImportResult & { customerIds: number[] }> {
  const { rows } = await checkImport(db, orgId, csv);
  const bad = rows.filter((r) => r.errors.length);
  if (bad.length) {
    throw new HttpError(400, 'import_invalid', `${bad.length === 1 ? '1 row needs' : `${bad.length} rows need`} fixing; nothing was imported`, {}, { rows: bad.map(view) });
  }
  const fresh = rows.filter((r) => !r.duplicate).map((r) => r.input!);
  const dupes = rows.filter((r) => r.duplicate);
  const ids: number[] = [];
  for (let i = 0; i < fresh.length; i += INSERT_BATCH) {
    const batch = fresh.slice(i, i + INSERT_BATCH);
    const width = COLUMNS.length;
    const values = batch.map((_, r) => `(${COLUMNS.map((__, c) => `$${r * width + c + 4}`).join(', ')}, $1, $2, $3, $2, $3)`).join(', ');
    const inserted = await db.query<{ id: unknown }>(
      `insert into customers (${COLUMNS.join(', ')}, org_id, created_at, created_by, updated_at, updated_by) values ${values} returning id`,
      [orgId, now, userId, ...batch.flatMap((input) => COLUMNS.map((c) => input[c]))] as never,
    );
    ids.push(...inserted.map((r) => num(r.id)));
  }
  let updated = 0;
  if (mode === 'update') {
    for (const row of dupes) {
      // Only the cells the file filled in: an empty cell never wipes what the customer already has.
      const given = COLUMNS.filter((c) => (row.values[c] ?? '').trim() !== '');
      if (!given.length) continue;
      await db.query(
        `update customers set ${given.map((c, i) => `${c} = $${i + 3}`).join(', ')}, version = version + 1,
                updated_at = $${given.length + 3}, updated_by = $${given.length + 4}
          where org_id = $1 and id = $2 and deleted_at is null`,
        [orgId, row.duplicate!.id, ...given.map((c) => row.input![c]), now, userId] as never,
      );
      ids.push(row.duplicate!.id);
      updated += 1;
    }
  }
  return { created: fresh.length, updated, skipped: dupes.length - updated, customerIds: ids };
}
