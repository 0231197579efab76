// D27 D34 D44: committing an import. The file is read and checked, and its duplicates found, before any
// transaction (import.ts: in memory, a statement per 2,000 emails); then one short transaction applies it in a handful of
// set-based statements, all rows or none: the new customers in one insert per 1,000 rows, the changed
// duplicates in one update per 1,000 rows that change the same fields (only those whose version is still the one read), and the import's
// one audit entry, which holds each updated customer's changes for its timeline. A duplicate the file would not change is not written at all.
// D60: a customer is a group of rows; the new ones' locations, contacts and notes follow in a statement per
// batch each, and the mapping is kept for the next file with the same header row.
import type { ImportDuplicateMode, ImportResult, PersonRef } from '../../../contract/customers';
import { importCountsText } from '../../../contract/import-summary';
import type { Actor } from '../../audit';
import { writeAudit } from '../../audit';
import { seen, type CustomerScope } from '../../customer-scope';
import type { Db, Queryable } from '../../db';
import { num } from '../../db';
import { HttpError } from '../../http';
import { IMPORT_FIELDS } from './import-checks';
import { checkImport, rowView, type CheckedGroup, type MappingChoice } from './import';
import { uniqueValueErrors } from './import-groups';
import { headerHash } from './import-map';
import { insertAddedParts, insertParts, newCustomerIds, PARTS_COLUMNS, PARTS_WRITES } from './import-repo';
import { saveMapping } from './import-mapping-repo';

/**
 * D34: rows per statement. Each statement is short (tens of milliseconds on PGlite), and between two of
 * them the embedded database answers the health check.
 */
const APPLY_BATCH = 1_000;

const batches = <T>(rows: T[]): T[][] => Array.from({ length: Math.ceil(rows.length / APPLY_BATCH) }, (_, i) => rows.slice(i * APPLY_BATCH, (i + 1) * APPLY_BATCH));

/** PostgreSQL: the apply step may take longer than an ordinary call's statement timeout (D34). */
const APPLY_STATEMENT_TIMEOUT_MS = 30_000;

/**
 * D34: the search indexes (GIN) take an import's entries into their pending list (appended, cheap) instead
 * of merging them into the index each time the list passes the default 4 MB (a tenth to a third of the
 * transaction's time); the merge is then done after the commit, in a step of its own (cleanPendingLists).
 */
const APPLY_GIN_PENDING_LIMIT = '64MB';
/** D34: the tables the apply writes (the counts through customers' triggers): reads naming none may share it (db-share.ts). */
export const APPLY_WRITES = ['customers', 'customer_counts', 'customer_tags', 'audit_log', ...PARTS_WRITES];

/**
 * D34: merges the pending lists of the search indexes (GIN) of the tables an import fills after the commit, one
 * statement (0.1–0.2 s for 10,000 rows on PGlite), so no later call (one customer's edit) merges them, nor a
 * search reads a long list. The indexes come from the catalog, so one a later migration adds is never left out.
 * The import is committed already: a failure here only leaves the merge to the next insert or vacuum.
 */
async function cleanPendingLists(db: Queryable): Promise<void> {
  await db
    .query(
      `select gin_clean_pending_list(i.indexrelid::regclass)
         from pg_index i join pg_class c on c.oid = i.indexrelid join pg_am a on a.oid = c.relam
        where a.amname = 'gin' and i.indrelid in ('customers'::regclass, 'customer_locations'::regclass, 'customer_contacts'::regclass)`,
    )
    .catch(() => undefined);
}

const COLUMNS = [...IMPORT_FIELDS, 'custom', 'assigned_to']; // D59 assigned_to: a member's id
const TYPES: Record<string, string> = { tags: 'text[]', do_not_service: 'boolean', custom: 'jsonb', assigned_to: 'integer' };
const RECORD = COLUMNS.map((c) => `${c} ${TYPES[c] ?? 'text'}`).join(', ');

/** A new customer's column as the insert writes it: D59 the file's assignee, else the scoped importer ($5). */
const inserted = (c: string) => (c === 'custom' ? `coalesce(r.custom, '{}'::jsonb)` : c === 'assigned_to' ? 'coalesce(r.assigned_to, $5::integer)' : `r.${c}`);

/** D27 D60: the new customers, one statement per batch, under ids taken first (their locations and contacts name them). */
async function insertNew(tx: Queryable, scope: CustomerScope, userId: number, groups: CheckedGroup[], now: Date): Promise<number[]> {
  const ids = await newCustomerIds(tx, groups.length);
  const data = (g: CheckedGroup, i: number) => ({ ...g.input, custom: g.custom, id: ids[i], locs: g.locations, cons: g.contacts });
  for (const [b, batch] of batches(groups).entries()) // D34: a batch's rows made in the turn that sends it
    await tx.query(
      `insert into customers (id, ${COLUMNS.join(', ')}, parts_key, primary_city, org_id, created_at, created_by, updated_at, updated_by)
       select r.id, ${COLUMNS.map(inserted).join(', ')}, ${PARTS_COLUMNS}, $1, $2, $3, $2, $3
         from json_to_recordset($4::text::json) as r(id integer, ${RECORD}, locs json, cons json)`,
      // D59: an importer who sees only their own customers creates them assigned to themselves.
      [scope.orgId, now, userId, JSON.stringify(batch.map((g, i) => data(g, b * APPLY_BATCH + i))), scope.assignedTo],
    );
  return ids;
}

/** D44: the changed duplicates whose version is still the one read, one statement per batch; the ids written. */
async function updateChanged(tx: Queryable, scope: CustomerScope, userId: number, groups: CheckedGroup[], now: Date): Promise<Set<number>> {
  const done = new Set<number>();
  for (const batch of batches(groups)) for (const id of await updateBatch(tx, scope, userId, batch, now)) done.add(id);
  return done;
}

/**
 * D34: the rows grouped by the fields they change, so each update sets only those: a generated column
 * whose fields are not set (search_key, phone_digits, phone_tail, tag_keys) is not computed again.
 */
function byChangedFields(groups: CheckedGroup[]): { fields: string[]; groups: CheckedGroup[] }[] {
  const sets = new Map<string, { fields: string[]; groups: CheckedGroup[] }>();
  for (const g of groups) {
    const changed = Object.keys(g.changes ?? {});
    const fields = COLUMNS.filter((c) => (c === 'custom' ? changed.some((k) => k.startsWith('custom.')) : changed.includes(c)));
    const key = fields.join(',');
    const set = sets.get(key) ?? { fields, groups: [] };
    set.groups.push(g);
    sets.set(key, set);
  }
  return [...sets.values()];
}

async function updateBatch(tx: Queryable, scope: CustomerScope, userId: number, groups: CheckedGroup[], now: Date): Promise<number[]> {
  const ids: number[] = [];
  for (const set of byChangedFields(groups)) ids.push(...(await updateGroup(tx, scope, userId, set.fields, set.groups, now)));
  return ids;
}

async function updateGroup(tx: Queryable, scope: CustomerScope, userId: number, fields: string[], groups: CheckedGroup[], now: Date): Promise<number[]> {
  const data = groups.map((g) => ({ ...g.merged, id: g.existing!.id, version: g.existing!.version }));
  // D56: the file's custom values merged into the customer's (an empty cell clears none).
  const set = fields.map((col) => (col === 'custom' ? 'custom = c.custom || r.custom' : `${col} = r.${col}`)).map((s) => `${s}, `);
  const written = await tx.query<{ id: unknown }>(
    `update customers c set ${set.join('')}version = c.version + 1, updated_at = $2, updated_by = $3
       from json_to_recordset($4::text::json) as r(id bigint, version integer, ${RECORD})
      where c.org_id = $1 and c.id = r.id and c.version = r.version and c.deleted_at is null${seen('c', scope)}
     returning c.id`,
    [scope.orgId, now, userId, JSON.stringify(data)],
  );
  return written.map((r) => num(r.id));
}

const uniqueValueRace = () =>
  new HttpError(409, 'conflict', 'Another customer was given one of these unique values while the file was imported; nothing was imported. Preview the file again.');

const duplicateEmailRace = () =>
  new HttpError(409, 'conflict', 'Another customer was given one of these emails while the file was imported; nothing was imported. Preview the file again.');

/**
 * D27: all rows or none; any row with an error refuses the whole file (400 import_invalid with those
 * rows). D44: with `previewedAt`, a duplicate changed after it is reported and left alone.
 */
export async function commitImport(
  db: Db,
  /** D59: what the importer sees: the duplicates it may update, and whom its new customers are assigned to. */
  scope: CustomerScope,
  actor: Actor & { id: number },
  file: { bytes: Uint8Array; charset: string | null },
  mode: ImportDuplicateMode,
  previewedAt: Date | null,
  now: Date,
  /** D38: the caller's membership and permissions read again, first thing inside the write's transaction. */
  recheck: (tx: Queryable) => Promise<void>,
  choice?: MappingChoice,
): Promise<ImportResult> {
  const orgId = scope.orgId;
  const checked = await checkImport(db, scope, file.bytes, file.charset, choice);
  const { rows, groups } = checked;
  const bad = rows.filter((r) => r.errors.length);
  if (bad.length) {
    throw new HttpError(
      400,
      'import_invalid',
      `${bad.length === 1 ? '1 row needs' : `${bad.length} rows need`} fixing; nothing was imported`,
      {},
      { rows: bad.map(rowView) },
    );
  }
  const fresh = groups.filter((g) => !g.existing);
  const dupes = groups.filter((g) => g.existing);
  const movedSince = (r: CheckedGroup) => previewedAt !== null && r.existing!.updated_at.getTime() > previewedAt.getTime();
  // D60: an update that only adds locations or contacts is a change too.
  const adds = (r: CheckedGroup) => !!(r.adds?.locations.length || r.adds?.contacts.length);
  const changed = mode === 'update' ? dupes.filter((r) => Object.keys(r.changes ?? {}).length > 0 || adds(r)) : [];
  // D44: with Skip too (a customer created meanwhile with a row's email: that row was new in the preview).
  const moved = (mode === 'update' ? changed : dupes).filter(movedSince);
  const toWrite = changed.filter((r) => !movedSince(r));
  const unchanged = mode === 'update' ? dupes.length - changed.length : 0;

  // D34: nothing to write (every row a duplicate that is skipped or already up to date): no transaction,
  // no audit entry; sending the same file again changes nothing.
  const apply = fresh.length > 0 || toWrite.length > 0;
  // D60: the mapping this file was imported with, offered again for the next file with this header row.
  const mapping = { columns: checked.targets, groupBy: checked.groupBy };
  const hash = headerHash(checked.header);
  if (!apply) await saveMapping(db, orgId, hash, mapping, now);
  const { created, written, parts } = !apply
    ? { created: [] as number[], written: new Set<number>(), parts: { locations: 0, contacts: 0, notes: 0 } }
    : await db.transaction(
        async (tx) => {
          await recheck(tx);
          if (db.kind === 'postgres') await tx.query(`set local statement_timeout = ${APPLY_STATEMENT_TIMEOUT_MS}`);
          await tx.query(`set local gin_pending_list_limit = '${APPLY_GIN_PENDING_LIMIT}'`);
          // D56: a unique value someone gave another customer since the check refuses the file (under the fields' locks).
          if ((await uniqueValueErrors(tx, orgId, checked.fields, [...fresh, ...toWrite])).length) throw uniqueValueRace();
          let ids: number[];
          try {
            ids = await insertNew(tx, scope, actor.id, fresh, now);
          } catch (err) {
            if (err instanceof Error && 'code' in err && err.code === '23505') throw duplicateEmailRace();
            throw err;
          }
          const parts = await insertParts(
            tx,
            orgId,
            actor.id,
            fresh.map((g, i) => ({ customerId: ids[i]!, locations: g.locations, contacts: g.contacts, notes: g.notes })),
            now,
          );
          const done = await updateChanged(tx, scope, actor.id, toWrite, now);
          const added = await insertAddedParts(
            tx,
            orgId,
            toWrite.filter((r) => done.has(r.existing!.id) && adds(r)).map((r) => ({ customerId: r.existing!.id, ...r.adds!, notes: [] })),
            now,
          );
          parts.locations += added.locations;
          parts.contacts += added.contacts;
          await saveMapping(tx, orgId, hash, mapping, now);
          const counts = { created: ids.length, updated: done.size, unchanged, skipped: dupes.length - done.size - unchanged };
          // The import's one entry (D27): the customers it created, and each updated customer's changes
          // before → after (D44), which that customer's timeline shows as an edit (notes-repo.ts).
          const updates = Object.fromEntries(toWrite.filter((r) => done.has(r.existing!.id)).map((r) => [r.existing!.id, r.changes]));
          await writeAudit(
            tx,
            orgId,
            actor,
            'customers.imported',
            {
              target: { type: 'import', id: null, label: importCountsText(counts) },
              changes: {
                ...counts,
                on_duplicate: mode,
                customer_ids: ids,
                updates,
                ...(parts.locations || parts.contacts ? { locations: parts.locations, contacts: parts.contacts } : {}),
              },
            },
            now,
          );
          return { created: ids, written: done, parts };
        },
        { shareReads: { writes: APPLY_WRITES } },
      );
  if (apply) await cleanPendingLists(db);
  // A version that moved between the check and the write counts as changed since the preview too.
  const lost = toWrite.filter((r) => !written.has(r.existing!.id));
  const changedSince: PersonRef[] = [...moved, ...lost].map((r) => ({ id: r.existing!.id, name: r.existing!.name }));
  return {
    created: created.length,
    updated: written.size,
    unchanged,
    skipped: dupes.length - written.size - unchanged,
    changed_since_preview: changedSince,
    ...(parts.locations || parts.contacts ? { locations: parts.locations, contacts: parts.contacts } : {}),
  };
}
