// D2: PGlite runs its queries as synchronous WebAssembly, so on the HTTP thread every query stalled new
// connections and the health check. This worker owns the one PGlite instance; server/db.ts talks to it
// with messages. Plain JavaScript so it runs as-is from source and from the build.
//
// Requests { id, op, ... }: query {text, params, replan?} | begin | txQuery {tx, text, params, replan?} | commit {tx} |
// rollback {tx} | ping | close. Replies { id, ok: true, rows? } or { id, ok: false, error }.
//
// Prepared statements (pglite-statements.mjs): PGlite's query() parses, describes and plans every call again (most of a small
// query's time). Here each select/insert/update/delete/with text is parsed once as a named statement and
// later calls send only Bind + Execute + Sync; rows are parsed by PGlite's own parsers, so they come back
// exactly as query() returns them. Anything else (DDL, migrations) takes query() as before, and a
// statement that may change the schema forgets every cached statement. A statement sent with `replan`
// (QueryOptions in server/db.ts) takes query() too: an unnamed statement, planned for its values each time.
import { parentPort, workerData } from 'node:worker_threads';
import { Mutex, PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { StatementCache } from './pglite-statements.mjs';

/** PostgreSQL error fields worth carrying across (err.code === '23505' must keep working for callers). */
const ERROR_FIELDS = ['code', 'severity', 'detail', 'hint', 'constraint', 'table', 'column', 'schema', 'dataType', 'routine', 'position', 'where'];
/** Statements worth preparing once: the application's queries. */
const CACHEABLE = new Set(['select', 'insert', 'update', 'delete', 'with']);
/** Statements that leave the schema alone; any other (create, alter, drop, do, set…) empties the cache. */
const SCHEMA_SAFE = new Set([
  ...CACHEABLE,
  'begin',
  'start',
  'commit',
  'end',
  'rollback',
  'abort',
  'savepoint',
  'release',
  'show',
  'explain',
  'vacuum',
  'analyze',
  'checkpoint',
  'lock',
  'listen',
  'unlisten',
  'notify',
  'values',
  'table',
]);
/** The first word of a statement, past blanks, comments and opening parentheses. */
const LEADING_KEYWORD = /^(?:\s|--[^\n]*(?:\n|$)|\/\*[\s\S]*?\*\/|\()*([a-z]+)/i;

const port = parentPort;
if (!port) throw new Error('pglite-worker.mjs must run as a worker thread');

const reply = (id, rows) => port.postMessage({ id, ok: true, rows });
const fail = (id, err) => port.postMessage({ id, ok: false, error: serializeError(err) });

function serializeError(err) {
  if (!(err instanceof Error)) return { message: String(err) };
  const out = { message: err.message };
  for (const key of ERROR_FIELDS) if (err[key] !== undefined && err[key] !== null) out[key] = String(err[key]);
  return out;
}

const keyword = (text) => LEADING_KEYWORD.exec(text)?.[1]?.toLowerCase() ?? '';

/** One open transaction per begin: its queries arrive as messages and are fed to it in order. */
const transactions = new Map();

/**
 * Runs one statement: a cacheable one through the cache, anything else through PGlite's query().
 * txn is the open transaction ({ tx, schemaChanged }) or null.
 */
async function runStatement(pg, cache, text, params = [], txn = null, replan = false) {
  const first = keyword(text);
  if (CACHEABLE.has(first) && !replan) return pg.runExclusive(() => cache.query(text, params, txn !== null));
  try {
    return (await (txn?.tx ?? pg).query(text, params)).rows;
  } finally {
    if (!SCHEMA_SAFE.has(first)) {
      if (txn) txn.schemaChanged = true;
      await pg.runExclusive(() => cache.forgetAll());
    }
  }
}

function begin(pg, cache, lock, id) {
  const inbox = [];
  let wake = null;
  const next = () => (inbox.length > 0 ? Promise.resolve(inbox.shift()) : new Promise((resolve) => (wake = resolve)));
  transactions.set(id, (msg) => (wake ? (wake(msg), (wake = null)) : inbox.push(msg)));
  let end = null; // the commit or rollback request, answered once PGlite has finished
  const txn = { tx: null, schemaChanged: false };
  // The lock keeps the worker's statements outside this transaction from running between its own.
  lock
    .runExclusive(() =>
      pg
        .transaction(async (tx) => {
          txn.tx = tx;
          reply(id);
          for (;;) {
            const msg = await next();
            if (msg.op === 'txQuery') {
              await runStatement(pg, cache, msg.text, msg.params, txn, msg.replan).then(
                (rows) => reply(msg.id, rows),
                (err) => fail(msg.id, err),
              );
            } else {
              end = msg;
              if (msg.op === 'rollback') await tx.rollback();
              return; // commit: PGlite commits when the callback returns
            }
          }
        })
        .finally(async () => {
          // A rollback undoes the schema change too: statements prepared since describe the wrong columns.
          if (txn.schemaChanged) await pg.runExclusive(() => cache.forgetAll());
        }),
    )
    .then(
      () => reply(end.id),
      (err) => fail(end?.id ?? id, err), // a failed BEGIN answers the begin; a failed COMMIT, the commit
    )
    .finally(() => {
      transactions.delete(id);
      for (const msg of inbox) fail(msg.id, new Error('the transaction is already over'));
    });
}

try {
  const pg = await PGlite.create(workerData.dataDir, { extensions: { pg_trgm } });
  const cache = new StatementCache(pg);
  // One session, one statement or transaction at a time: the cache's protocol messages must never land
  // inside someone else's transaction.
  const lock = new Mutex();
  let closing = false;
  port.on('message', (msg) => {
    if (msg.op === 'ping') return reply(msg.id); // at once: never behind PGlite's queue
    // Closing refuses new work; an open transaction still gets its queries and its end (close waits for it).
    if (closing && (msg.op === 'query' || msg.op === 'begin')) return fail(msg.id, new Error('the database is closing'));
    switch (msg.op) {
      case 'query':
        return void lock
          .runExclusive(() => runStatement(pg, cache, msg.text, msg.params, null, msg.replan))
          .then(
            (rows) => reply(msg.id, rows),
            (err) => fail(msg.id, err),
          );
      case 'begin':
        return begin(pg, cache, lock, msg.id);
      case 'txQuery':
      case 'commit':
      case 'rollback': {
        const feed = transactions.get(msg.tx);
        return feed ? feed(msg) : fail(msg.id, new Error('no such transaction (already committed or rolled back)'));
      }
      case 'close':
        closing = true;
        return void lock
          .runExclusive(() => pg.close())
          .then(
            () => {
              reply(msg.id);
              port.close(); // nothing left to keep this thread alive: it exits
            },
            (err) => fail(msg.id, err),
          );
      default:
        return fail(msg.id, new Error(`unknown operation ${String(msg.op)}`));
    }
  });
  port.postMessage({ ready: true });
} catch (err) {
  port.postMessage({ ready: false, error: serializeError(err) });
}
