// D27 D34 D43 D44: the customers list as a CSV file, and a CSV file's import (preview, then commit).
import { assignedFilter, scopeOf } from '../../customer-scope';
import type { CustomValue } from '../../../contract/custom-fields';
import { IMPORT_MAX_BYTES } from '../../../contract/customers';
import { permissionDenied, recheckMember } from '../../auth/access';
import type { Queryable } from '../../db';
import { BASE_SECURITY_HEADERS, HttpError } from '../../http';
import { defineRoute, RAW } from '../../route';
import { EXPORT_COLUMNS, exportCustomers } from './export-repo';
import { exportQuery, importMappingQuery, importQuery } from './schema';
import { customListOf } from '../../custom-list';
import { csvLine } from '../../csv';
import { customCell, listFields } from '../../custom-fields';
import { previewImport } from './import';
import { commitImport } from './import-apply';
import { charsetOf, isReadableCharset } from './csv-read';

const EXPORT_CHUNK_BYTES = 64 * 1024; // written in pieces this size, waiting for the client to drain each
const isCsv = (mime: string) => ['text/csv', 'application/csv', 'text/plain', 'application/vnd.ms-excel'].includes(mime);
/** D43: the file's bytes, decoded by the import itself (UTF-8, UTF-16 or Windows-1252). */
const csvUpload = { maxBytes: IMPORT_MAX_BYTES, accepts: isCsv, expected: 'a CSV file (Content-Type: text/csv)', raw: { charsets: isReadableCharset } };

/** GET /v1/customers/export.csv: D27 the list as filtered, streamed batch by batch (flat memory). */
const exportCsv = defineRoute({
  method: 'GET',
  path: '/v1/customers/export.csv',
  access: 'org',
  permission: 'customers:export',
  query: exportQuery,
  async handler({ tx, ctx, res, caller, query }) {
    // D56: its custom conditions too (a 400 before anything is sent); sorted by a custom field, the file is in the list's default order.
    const { custom, sort } = await customListOf(tx, caller.org.id, query);
    const day = new Date(ctx.now()).toISOString().slice(0, 10);
    res.writeHead(200, {
      ...BASE_SECURITY_HEADERS,
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="customers-${day}.csv"`,
      'Cache-Control': 'no-store',
    });
    const closed = new Promise<void>((resolve) => res.once('close', resolve));
    // D56: then the active custom fields, by label, each value in words (a choice by its option's label).
    const fields = (await listFields(tx, caller.org.id, 'customer')).filter((f) => !f.archived);
    // A BOM so spreadsheets read UTF-8 (D27), then the header row an import reads back.
    let chunk = `\uFEFF${csvLine([...EXPORT_COLUMNS, ...fields.map((f) => f.label)])}`;
    const flush = async () => {
      if (!res.write(chunk)) await Promise.race([new Promise((resolve) => res.once('drain', resolve)), closed]);
      chunk = '';
    };
    try {
      for await (const rows of exportCustomers(tx, scopeOf(caller), {
        ...query,
        custom,
        sort,
        doNotService: query.do_not_service === 'true',
        createdSince: query.created_since,
        assigned: assignedFilter(query.assigned, caller), // D59
      })) {
        for (const r of rows) {
          chunk += csvLine([
            ...EXPORT_COLUMNS.map((c) => {
              const v = r[c];
              return v instanceof Date ? v.toISOString() : Array.isArray(v) ? v.join('; ') : v === null || v === undefined ? '' : String(v);
            }),
            ...fields.map((f) => customCell(f, r.custom?.[f.key] as CustomValue | undefined)),
          ]);
          if (chunk.length >= EXPORT_CHUNK_BYTES) await flush();
          if (res.destroyed) return RAW; // the client went away: stop reading
        }
      }
      res.end(chunk);
    } catch (err) {
      // Headers are gone: the only honest signal left is a cut-off download.
      ctx.log.error(`customers export failed: ${err instanceof Error ? err.message : String(err)}`);
      res.destroy();
    }
    return RAW;
  },
});

/** POST /v1/customers/import/preview/: D27 each row's errors and duplicates (D44 with what would change); nothing is written. */
const importPreview = defineRoute({
  method: 'POST',
  path: '/v1/customers/import/preview/',
  access: 'org',
  permission: 'customers:create',
  textBody: csvUpload,
  query: importMappingQuery,
  transaction: false,
  handler: ({ tx, ctx, req, caller, bytes, query }) =>
    previewImport(tx, scopeOf(caller), bytes, charsetOf(req), new Date(ctx.now()), { columns: query.columns, groupBy: query.group_by }),
});

/**
 * POST /v1/customers/import/?on_duplicate=skip|update&previewed_at=…&columns=…&group_by=…: D27 D60 all rows or none. D34: checked
 * outside any transaction, then applied in one short one of its own (import-apply.ts), which writes the
 * import's audit entry and each updated customer's (D44).
 */
const importCommit = defineRoute({
  method: 'POST',
  path: '/v1/customers/import/',
  access: 'org',
  permission: 'customers:create',
  textBody: csvUpload,
  query: importQuery,
  transaction: false,
  async handler({ ctx, req, caller, bytes, query }) {
    if (query.on_duplicate === 'update' && !caller.org.permissions.has('customers:update')) throw permissionDenied(caller.org.role, 'customers:update');
    const actor = { id: caller.userId, label: caller.firstName };
    // D38: the write runs in a transaction of its own (transaction: false), so it re-reads the caller there.
    const recheck = async (tx: Queryable) => {
      const current = await recheckMember(tx, caller, 'customers:create', ctx.now(), false);
      // D59 D38: a scope changed since the file was checked: its duplicates were read under the old one.
      if (current.org.seesOnlyAssigned !== caller.org.seesOnlyAssigned) throw scopeChanged();
      if (query.on_duplicate === 'update' && !current.org.permissions.has('customers:update')) throw permissionDenied(current.org.role, 'customers:update');
    };
    const choice = { columns: query.columns, groupBy: query.group_by }; // D60: the mapping the preview showed
    return commitImport(ctx.db, scopeOf(caller), actor, { bytes, charset: charsetOf(req) }, query.on_duplicate, query.previewed_at, new Date(ctx.now()), recheck, choice);
  },
});

const scopeChanged = () =>
  new HttpError(409, 'conflict', 'What your role sees of customers changed while the file was checked; nothing was imported. Preview the file again.');

export const csvRoutes = [exportCsv, importPreview, importCommit];
