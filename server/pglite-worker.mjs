// D2: PGlite runs its queries as synchronous WebAssembly, so on the HTTP thread every query stalled new
// connections and the health check. This worker owns the one PGlite instance; server/db.ts talks to it
// with messages. Plain JavaScript so it runs as-is from source and from the build.
//
// Requests { id, op, ... }: query {text, params} | begin | txQuery {tx, text, params} | commit {tx} |
// rollback {tx} | ping | close. Replies { id, ok: true, rows? } or { id, ok: false, error }.
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';

/** PostgreSQL error fields worth carrying across (err.code === '23505' must keep working for callers). */
const ERROR_FIELDS = ['code', 'severity', 'detail', 'hint', 'constraint', 'table', 'column', 'schema', 'dataType', 'routine', 'position', 'where'];

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

/** One open transaction per begin: its queries arrive as messages and are fed to it in order. */
const transactions = new Map();

function begin(pg, id) {
  const inbox = [];
  let wake = null;
  const next = () => (inbox.length > 0 ? Promise.resolve(inbox.shift()) : new Promise((resolve) => (wake = resolve)));
  transactions.set(id, (msg) => (wake ? (wake(msg), (wake = null)) : inbox.push(msg)));
  let end = null; // the commit or rollback request, answered once PGlite has finished
  pg.transaction(async (tx) => {
    reply(id);
    for (;;) {
      const msg = await next();
      if (msg.op === 'txQuery') {
        await tx.query(msg.text, msg.params).then((r) => reply(msg.id, r.rows), (err) => fail(msg.id, err));
      } else {
        end = msg;
        if (msg.op === 'rollback') await tx.rollback();
        return; // commit: PGlite commits when the callback returns
      }
    }
  }).then(
    () => reply(end.id),
    (err) => fail(end?.id ?? id, err), // a failed BEGIN answers the begin; a failed COMMIT, the commit
  ).finally(() => {
    transactions.delete(id);
    for (const msg of inbox) fail(msg.id, new Error('the transaction is already over'));
  });
}

try {
  const pg = await PGlite.create(workerData.dataDir, { extensions: { pg_trgm } });
  let closing = false;
  port.on('message', (msg) => {
    if (msg.op === 'ping') return reply(msg.id); // at once: never behind PGlite's queue
    // Closing refuses new work; an open transaction still gets its queries and its end (close waits for it).
    if (closing && (msg.op === 'query' || msg.op === 'begin')) return fail(msg.id, new Error('the database is closing'));
    switch (msg.op) {
      case 'query':
        return void pg.query(msg.text, msg.params).then((r) => reply(msg.id, r.rows), (err) => fail(msg.id, err));
      case 'begin':
        return begin(pg, msg.id);
      case 'txQuery':
      case 'commit':
      case 'rollback': {
        const feed = transactions.get(msg.tx);
        return feed ? feed(msg) : fail(msg.id, new Error('no such transaction (already committed or rolled back)'));
      }
      case 'close':
        closing = true;
        return void pg.close().then(() => {
          reply(msg.id);
          port.close(); // nothing left to keep this thread alive: it exits
        }, (err) => fail(msg.id, err));
      default:
        return fail(msg.id, new Error(`unknown operation ${String(msg.op)}`));
    }
  });
  port.postMessage({ ready: true });
} catch (err) {
  port.postMessage({ ready: false, error: serializeError(err) });
}
