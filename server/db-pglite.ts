// D2: PGlite in a worker thread (pglite-worker.mjs), never on the thread that answers HTTP; every
// operation passes the gate (db-gate.ts), one at a time (PGlite is one connection).
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { lockDataDir } from './data-dir-lock';
import type { Db, OpenOptions, QueryOptions, Queryable, Row, SqlParam } from './db';
import { DbGate } from './db-gate';
import { mayWrite, sharingQueryable } from './db-share';
import { currentGateKey } from './gate-key';

/** PGlite is one connection: a second operation would only wait in its mutex, out of the gate's sight. */
const PGLITE_SLOTS = 1;
// A file URL built from text: under a DOM-like test environment the global URL class is not Node's, and
// Worker only takes Node's own URL objects (or paths).
const PGLITE_WORKER_URL = pathToFileURL(path.join(path.dirname(fileURLToPath(import.meta.url)), 'pglite-worker.mjs'));
const WORKER_CLOSE_TIMEOUT_MS = 10_000;
/** Error code of calls to a worker that has stopped; isConnectionError counts it (503, logged). */
export const WORKER_STOPPED_CODE = 'PGLITE_WORKER_STOPPED';

type WorkerRequest =
  | { op: 'query'; text: string; params: SqlParam[]; replan?: boolean }
  | { op: 'begin' }
  | { op: 'txQuery'; tx: number; text: string; params: SqlParam[]; replan?: boolean }
  | { op: 'commit' | 'rollback'; tx: number }
  | { op: 'ping' }
  | { op: 'close' };
type ErrorData = { message: string } & Record<string, string | undefined>;
type WorkerMessage = { ready: true } | { ready: false; error: ErrorData } | { id: number; ok: true; rows?: Row[] } | { id: number; ok: false; error: ErrorData };

/** A worker's error as an Error again, with PostgreSQL's fields (code, detail, constraint…) as properties. */
function rebuildError({ message, ...fields }: ErrorData): Error {
  return Object.assign(new Error(message), fields);
}

/** D2: PGlite in a worker thread; this side only posts messages, so its WebAssembly never blocks HTTP. */
export async function openPglite(dataDir: string, gateOptions: OpenOptions['gate'], workerUrl = PGLITE_WORKER_URL): Promise<Db> {
  mkdirSync(dataDir, { recursive: true });
  const unlock = lockDataDir(dataDir);
  const worker = new Worker(workerUrl, { workerData: { dataDir: path.join(dataDir, 'pgdata') } });
  const pending = new Map<number, { resolve: (rows: Row[]) => void; reject: (err: Error) => void }>();
  let nextId = 1;
  let stopped: Error | null = null;
  let onReady: { resolve: () => void; reject: (err: Error) => void } | null = null;
  const ready = new Promise<void>((resolve, reject) => (onReady = { resolve, reject }));

  // A crash rejects every pending and later call with a clear error, never leaves one hanging.
  const stop = (reason: string) => {
    stopped ??= Object.assign(new Error(`the PGlite worker stopped: ${reason}`), { code: WORKER_STOPPED_CODE });
    onReady?.reject(stopped);
    for (const p of pending.values()) p.reject(stopped);
    pending.clear();
  };
  worker.on('error', (err) => stop(err.message));
  worker.on('exit', (code) => stop(`it exited with code ${code}`));
  worker.on('message', (msg: WorkerMessage) => {
    if ('ready' in msg) {
      if (msg.ready) onReady?.resolve();
      else onReady?.reject(rebuildError(msg.error));
      onReady = null;
      return;
    }
    const p = pending.get(msg.id);
    if (!p) return;
    pending.delete(msg.id);
    if (pending.size === 0) worker.unref(); // an idle worker does not keep the process alive
    if (msg.ok) p.resolve(msg.rows ?? []);
    else p.reject(rebuildError(msg.error));
  });
  const call = (request: WorkerRequest, id = nextId++): Promise<Row[]> => {
    if (stopped) return Promise.reject(stopped);
    return new Promise<Row[]>((resolve, reject) => {
      worker.postMessage({ id, ...request }); // throws (rejecting this promise) for a parameter that cannot be cloned
      pending.set(id, { resolve, reject });
      if (pending.size === 1) worker.ref(); // a reply is awaited: keep the process alive for it
    });
  };
  const stopWorker = async () => {
    await worker.terminate();
    unlock();
  };

  try {
    await ready;
  } catch (err) {
    await stopWorker();
    throw err;
  }
  worker.unref();

  const gate = new DbGate({ slots: PGLITE_SLOTS, ...gateOptions });
  const query = async <R extends Row>(text: string, params: readonly SqlParam[] = [], { replan }: QueryOptions = {}) =>
    // A plain read names its statement, so a transaction sharing reads may run it (db-share.ts).
    (await gate.run(() => call({ op: 'query', text, params: [...params], replan }), currentGateKey(), mayWrite(text) ? undefined : { text, params, replan })) as R[];
  let closing: Promise<void> | null = null;
  return {
    kind: 'pglite',
    query,
    // The transaction holds the gate's one slot from BEGIN to COMMIT, so only its own queries reach PGlite.
    transaction: (fn, opts = {}) => {
      // Taken here: a queued operation starts in the context of the one that freed its slot (another key's).
      const own = currentGateKey();
      return gate.run(async () => {
        const tx = nextId++; // the worker knows the transaction by its begin request's id
        await call({ op: 'begin' }, tx);
        const send = (text: string, params: readonly SqlParam[] = [], { replan }: QueryOptions = {}) => call({ op: 'txQuery', tx, text, params: [...params], replan });
        const shared = opts.shareReads ? sharingQueryable(gate, send, own, opts.shareReads) : null;
        let result: Awaited<ReturnType<typeof fn>>;
        try {
          result = await fn(shared?.tx ?? { query: send as Queryable['query'] });
          await shared?.settled(); // a read still in its savepoint finishes before the commit
        } catch (err) {
          await shared?.settled();
          await call({ op: 'rollback', tx }).catch(() => {}); // fn's error is the one worth reporting
          throw err;
        }
        await call({ op: 'commit', tx });
        return result;
      }, own);
    },
    ping: async () => {
      await call({ op: 'ping' });
    },
    queueStats: () => gate.stats(),
    close: () =>
      (closing ??= (async () => {
        gate.close();
        try {
          if (!stopped) {
            let timer: NodeJS.Timeout | undefined;
            const timeout = new Promise<never>((_, reject) => {
              timer = setTimeout(() => reject(new Error(`PGlite did not close within ${WORKER_CLOSE_TIMEOUT_MS} ms`)), WORKER_CLOSE_TIMEOUT_MS);
            });
            await Promise.race([call({ op: 'close' }), timeout]).finally(() => clearTimeout(timer));
          }
        } finally {
          stopped ??= Object.assign(new Error('the database is closed'), { code: WORKER_STOPPED_CODE });
          await stopWorker();
        }
      })()),
  };
}
