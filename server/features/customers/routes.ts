// D22–D27: the customers API. Routes hold no SQL (repo.ts, notes-repo.ts do); each change is one
// transaction with its audit entry (the router writes the entries the handler records).
import { IMPORT_MAX_BYTES, type Customer, type CustomerInput } from '../../../contract/customers';
import { permissionDenied, recheckMember } from '../../auth/access';
import type { Queryable } from '../../db';
import { BASE_SECURITY_HEADERS, fieldError } from '../../http';
import { defineRoute, RAW, reply } from '../../route';
import { intText, pageQuery } from '../../schema';
import { addNote, deleteNote, editNote, getNote, listNotes, timeline } from './notes-repo';
import { listCustomers } from '../../customer-list';
import { createCustomer, deleteCustomer, EXPORT_COLUMNS, exportCustomers, getCustomer, listDeleted, restoreCustomer, updateCustomer } from './repo';
import { findDuplicates, suggestTags } from './search';
import { createBody, duplicatesQuery, importQuery, listFilters, listQuery, noteBody, tagsQuery, updateBody } from './schema';
import { csvLine } from './csv';
import { previewImport } from './import';
import { commitImport } from './import-apply';
import { charsetOf, isReadableCharset } from './csv-read';

const idParam = { id: intText() };
const noteParams = { id: intText(), note_id: intText() };
const target = (c: Pick<Customer, 'id' | 'name'>) => ({ type: 'customer', id: c.id, label: c.name });

/** The non-empty fields of a new record, as its audit entry's changes. */
const filled = (c: CustomerInput) => Object.fromEntries(Object.entries(c).filter(([, v]) => v !== null && !(Array.isArray(v) && v.length === 0)));

/** GET /v1/customers/: D26 one page of the organization's live customers and the total; D25 deleted=true. */
const list = defineRoute({
  // On PGlite a page is kept until anything is written (answer-cache.ts): browsing back and forth, and
  // many people looking at the same list, cost the database nothing. D34: the search is case-insensitive
  // and its statement's parameters are folded (customer-list.ts), so 'ACME' and 'acme' share one answer.
  method: 'GET',
  path: '/v1/customers/',
  access: 'org',
  permission: 'customers:view',
  query: listQuery,
  remember: true,
  handler: ({ tx, ctx, caller, query: q }) => {
    if (q.deleted === 'true') {
      // D25: only who may delete sees what was deleted (and may restore it). Read afresh: its window moves
      // with the clock, so a kept answer would never be asked for again.
      if (!caller.org.permissions.has('customers:delete')) throw permissionDenied(caller.org.role, 'customers:delete');
      return listDeleted(ctx.db, caller.org.id, q.page, q.page_size, new Date(ctx.now()));
    }
    return listCustomers(tx, caller.org.id, { q: q.q, status: q.status, tag: q.tag, sort: q.sort, page: q.page, pageSize: q.page_size });
  },
});

/** POST /v1/customers/: D22 a new customer; D23 409 duplicate_email. */
const create = defineRoute({
  method: 'POST',
  path: '/v1/customers/',
  access: 'org',
  permission: 'customers:create',
  body: createBody,
  audit: 'customer.created',
  async handler({ tx, ctx, caller, body, audit }) {
    const customer = await createCustomer(tx, caller.org.id, caller.userId, body, new Date(ctx.now()));
    audit({ target: target(customer), changes: filled(body) });
    return reply(201, customer);
  },
});

const read = defineRoute({
  method: 'GET',
  path: '/v1/customers/:id/',
  access: 'org',
  permission: 'customers:view',
  params: idParam,
  handler: ({ tx, caller, params }) => getCustomer(tx, caller.org.id, params.id),
});

/**
 * PATCH /v1/customers/{id}/: D31 with the version it was based on; 409 conflict with the current record.
 * A save that changes nothing writes nothing (no new version, no audit entry), so `audit` is not required.
 */
const update = defineRoute({
  method: 'PATCH',
  path: '/v1/customers/:id/',
  access: 'org',
  permission: 'customers:update',
  params: idParam,
  body: updateBody,
  partialBody: true,
  async handler({ tx, ctx, caller, params, body, audit }) {
    const { version, ...patch } = body;
    if (version === undefined) throw updateVersionMissing();
    const { after, changes } = await updateCustomer(tx, caller.org.id, caller.userId, params.id, patch, version, new Date(ctx.now()));
    if (Object.keys(changes).length > 0) audit({ action: 'customer.updated', target: target(after), changes });
    return after;
  },
});

const updateVersionMissing = () => fieldError('version', 'is required (D31: the version the change is based on)', 'missing_field');

/** DELETE /v1/customers/{id}/: D25 soft delete. */
const remove = defineRoute({
  method: 'DELETE',
  path: '/v1/customers/:id/',
  access: 'org',
  permission: 'customers:delete',
  params: idParam,
  audit: 'customer.deleted',
  async handler({ tx, ctx, caller, params, audit }) {
    const customer = await deleteCustomer(tx, caller.org.id, caller.userId, params.id, new Date(ctx.now()));
    audit({ target: target(customer) });
    return reply(204);
  },
});

/** POST /v1/customers/{id}/restore/: D25 within 30 days; 409 when its email now belongs to another. */
const restore = defineRoute({
  method: 'POST',
  path: '/v1/customers/:id/restore/',
  access: 'org',
  permission: 'customers:delete',
  params: idParam,
  audit: 'customer.restored',
  async handler({ tx, ctx, caller, params, audit }) {
    const customer = await restoreCustomer(tx, caller.org.id, caller.userId, params.id, new Date(ctx.now()));
    audit({ target: target(customer) });
    return customer;
  },
});

/** GET /v1/customers/duplicates/: D23 the warning while typing. */
const duplicates = defineRoute({
  method: 'GET',
  path: '/v1/customers/duplicates/',
  access: 'org',
  permission: 'customers:view',
  query: duplicatesQuery,
  handler: async ({ tx, caller, query }) => ({ results: await findDuplicates(tx, caller.org.id, query.email, query.phone, query.exclude) }),
});

/** GET /v1/customers/tags/?q=: D45 the organization's tags as one types in the tag filter, most used first. */
const tags = defineRoute({
  method: 'GET',
  path: '/v1/customers/tags/',
  access: 'org',
  permission: 'customers:view',
  query: tagsQuery,
  handler: async ({ tx, caller, query }) => ({ results: await suggestTags(tx, caller.org.id, query.q) }),
});

// ---- D24 notes and timeline ----

const notes = defineRoute({
  method: 'GET',
  path: '/v1/customers/:id/notes/',
  access: 'org',
  permission: 'customers:view',
  params: idParam,
  query: pageQuery,
  async handler({ tx, caller, params, query }) {
    await getCustomer(tx, caller.org.id, params.id);
    return listNotes(tx, caller.org.id, params.id, query.page, query.page_size);
  },
});

/** Adding a note is writing to the customer's record: customers:update. */
const addNoteRoute = defineRoute({
  method: 'POST',
  path: '/v1/customers/:id/notes/',
  access: 'org',
  permission: 'customers:update',
  params: idParam,
  body: noteBody,
  audit: 'note.added',
  async handler({ tx, ctx, caller, params, body, audit }) {
    const customer = await getCustomer(tx, caller.org.id, params.id, { lock: true });
    const note = await addNote(tx, caller.org.id, customer.id, caller.userId, body.body, new Date(ctx.now()));
    audit({ target: { type: 'note', id: note.id, label: customer.name }, changes: { customer_id: customer.id, body: note.body } });
    return reply(201, note);
  },
});

/** D24: the author, or anyone with customers:update, may edit or delete a note. */
async function editableNote(input: {
  tx: Parameters<typeof getNote>[0];
  caller: { userId: number; org: { id: number; role: string; permissions: ReadonlySet<string> } };
  params: { id: number; note_id: number };
}) {
  const { tx, caller, params } = input;
  const customer = await getCustomer(tx, caller.org.id, params.id, { lock: true });
  const note = await getNote(tx, caller.org.id, customer.id, params.note_id, { lock: true });
  if (note.author?.id !== caller.userId && !caller.org.permissions.has('customers:update')) throw permissionDenied(caller.org.role, 'customers:update');
  return { customer, note };
}

const editNoteRoute = defineRoute({
  method: 'PATCH',
  path: '/v1/customers/:id/notes/:note_id/',
  access: 'org',
  permission: 'customers:view',
  params: noteParams,
  body: noteBody,
  audit: 'note.edited',
  async handler(input) {
    const { customer, note } = await editableNote(input);
    const after = await editNote(input.tx, input.caller.org.id, customer.id, note.id, input.body.body, new Date(input.ctx.now()));
    input.audit({ target: { type: 'note', id: note.id, label: customer.name }, changes: { customer_id: customer.id, body: { from: note.body, to: after.body } } });
    return after;
  },
});

const deleteNoteRoute = defineRoute({
  method: 'DELETE',
  path: '/v1/customers/:id/notes/:note_id/',
  access: 'org',
  permission: 'customers:view',
  params: noteParams,
  audit: 'note.deleted',
  async handler(input) {
    const { customer, note } = await editableNote(input);
    await deleteNote(input.tx, input.caller.org.id, customer.id, note.id);
    input.audit({ target: { type: 'note', id: note.id, label: customer.name }, changes: { customer_id: customer.id, body: note.body } });
    return reply(204);
  },
});

const timelineRoute = defineRoute({
  method: 'GET',
  path: '/v1/customers/:id/timeline/',
  access: 'org',
  permission: 'customers:view',
  params: idParam,
  query: pageQuery,
  async handler({ tx, caller, params, query }) {
    await getCustomer(tx, caller.org.id, params.id);
    return timeline(tx, caller.org.id, params.id, query.page, query.page_size);
  },
});

// ---- D27 CSV ----

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
  query: listFilters,
  async handler({ tx, ctx, res, caller, query }) {
    const day = new Date(ctx.now()).toISOString().slice(0, 10);
    res.writeHead(200, {
      ...BASE_SECURITY_HEADERS,
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="customers-${day}.csv"`,
      'Cache-Control': 'no-store',
    });
    const closed = new Promise<void>((resolve) => res.once('close', resolve));
    // A BOM so spreadsheets read UTF-8 (D27), then the header row an import reads back.
    let chunk = `\uFEFF${csvLine([...EXPORT_COLUMNS])}`;
    const flush = async () => {
      if (!res.write(chunk)) await Promise.race([new Promise((resolve) => res.once('drain', resolve)), closed]);
      chunk = '';
    };
    try {
      for await (const rows of exportCustomers(tx, caller.org.id, query)) {
        for (const r of rows) {
          chunk += csvLine(
            EXPORT_COLUMNS.map((c) => {
              const v = r[c];
              return v instanceof Date ? v.toISOString() : Array.isArray(v) ? v.join('; ') : v === null || v === undefined ? '' : String(v);
            }),
          );
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
  transaction: false,
  handler: ({ tx, ctx, req, caller, bytes }) => previewImport(tx, caller.org.id, bytes, charsetOf(req), new Date(ctx.now())),
});

/**
 * POST /v1/customers/import/?on_duplicate=skip|update&previewed_at=…: D27 all rows or none. D34: checked
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
      if (query.on_duplicate === 'update' && !current.org.permissions.has('customers:update')) throw permissionDenied(current.org.role, 'customers:update');
    };
    return commitImport(ctx.db, caller.org.id, actor, { bytes, charset: charsetOf(req) }, query.on_duplicate, query.previewed_at, new Date(ctx.now()), recheck);
  },
});

export const customerRoutes = [
  exportCsv,
  importPreview,
  importCommit,
  list,
  create,
  read,
  update,
  remove,
  restore,
  duplicates,
  tags,
  notes,
  addNoteRoute,
  editNoteRoute,
  deleteNoteRoute,
  timelineRoute,
];
