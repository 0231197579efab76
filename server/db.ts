// D2: one tiny query interface over PGlite (embedded, data in DATA_DIR) and PostgreSQL (postgres.js).
// Queries are plain SQL with $1… placeholders; both drivers return timestamptz as Date and jsonb parsed.
// D2: PGlite runs in a worker thread (pglite-worker.mjs), never on the thread that answers HTTP, and every
// operation of either backend passes one gate (db-gate.ts) that refuses work a saturated server cannot
// start in time.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import postgres from 'postgres';
import { lockDataDir } from './data-dir-lock';
import { DbGate, type GateOptions, type GateStats } from './db-gate';
import { sharingQueryable, type ShareReads } from './db-share';
import { currentGateKey } from './gate-key';

export type SqlParam = string | number | boolean | null | Date;
export type Row = Record<string, unknown>;

export interface Queryable {
  query<R extends Row = Row>(text: string, params?: readonly SqlParam[]): Promise<R[]>;
}

export interface Db extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /**
   * PGlite only (one process owns its data): a number that changes whenever anything may have been
   * written, so this process can keep answers until then. Null for PostgreSQL, which other instances
   * write to behind our back.
   */
  writeGeneration(): number | null;
  /** Runs fn in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>, opts?: TransactionOptions): Promise<T>;
  /** D2 health: resolves when the database answers; never waits in the gate's queue. */
  ping(): Promise<void>;
  /** D2: the gate's figures (queue length, oldest wait) for health and load reports. */
  queueStats(): GateStats;
  close(): Promise<void>;
}

export interface TransactionOptions {
  /**
   * D34: PostgreSQL cancels an ordinary statement after STATEMENT_TIMEOUT_MS; bulk work (an import's
   * apply, a migration) may ask for longer here (0: no limit), for this transaction only
   * (`set local`). PGlite has no statement timeout (one connection, nothing to cancel it from).
   */
  statementTimeoutMs?: number;
  /** D34, PGlite only: waiting reads of others may run between this transaction's statements (db-share.ts). */
  shareReads?: ShareReads;
}

/** D34: PostgreSQL's statement timeout for ordinary calls. */
export const STATEMENT_TIMEOUT_MS = 5_000;

export interface OpenOptions {
  databaseUrl: string | null;
  dataDir: string;
  /** Tests shorten the queue's deadline or limit; the server keeps db-gate.ts's defaults. */
  gate?: Pick<GateOptions, 'queueLimit' | 'queueTimeoutMs' | 'keyQueueLimit'>;
  /** Tests shorten PostgreSQL's statement timeout; the server keeps STATEMENT_TIMEOUT_MS. */
  statementTimeoutMs?: number;
  /** Tests substitute a worker (one that crashes, say); the server always runs pglite-worker.mjs. */
  pgliteWorker?: URL;
}

const PG_POOL_SIZE = 10;
/** D34: one key (organization, user, anon) holds at most this many pooled connections, so others always find one. */
const PG_SLOTS_PER_KEY = 6;
const PG_CONNECT_TIMEOUT_S = 10;
const PG_IDLE_TIMEOUT_S = 60;
/** PGlite is one connection: a second operation would only wait in its mutex, out of the gate's sight. */
const PGLITE_SLOTS = 1;
// A file URL built from text: under a DOM-like test environment the global URL class is not Node's, and
// Worker only takes Node's own URL objects (or paths).
const PGLITE_WORKER_URL = pathToFileURL(path.join(path.dirname(fileURLToPath(import.meta.url)), 'pglite-worker.mjs'));
const WORKER_CLOSE_TIMEOUT_MS = 10_000;
/** Error code of calls to a worker that has stopped; isConnectionError counts it (503, logged). */
export const WORKER_STOPPED_CODE = 'PGLITE_WORKER_STOPPED';

/** Opens PostgreSQL when a URL is given, otherwise PGlite in dataDir/pgdata. */
export async function openDb(opts: OpenOptions): Promise<Db> {
  return opts.databaseUrl ? openPostgres(opts.databaseUrl, opts.gate, opts.statementTimeoutMs) : openPglite(opts.dataDir, opts.gate, opts.pgliteWorker);
}

type WorkerRequest =
  | { op: 'query'; text: string; params: SqlParam[] }
  | { op: 'begin' }
  | { op: 'txQuery'; tx: number; text: string; params: SqlParam[] }
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
async function openPglite(dataDir: string, gateOptions: OpenOptions['gate'], workerUrl = PGLITE_WORKER_URL): Promise<Db> {
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
  // Bumped before and after every statement that may write and every transaction, so a reader that
  // captured the number before its read can tell whether a write could have overtaken it.
  let generation = 0;
  const query = async <R extends Row>(text: string, params: readonly SqlParam[] = []) => {
    const writes = mayWrite(text);
    if (writes) generation += 1;
    try {
      // A plain read names its statement, so a transaction sharing reads may run it (db-share.ts).
      return (await gate.run(() => call({ op: 'query', text, params: [...params] }), currentGateKey(), writes ? undefined : { text, params })) as R[];
    } finally {
      if (writes) generation += 1;
    }
  };
  let closing: Promise<void> | null = null;
  return {
    kind: 'pglite',
    query,
    writeGeneration: () => generation,
    // The transaction holds the gate's one slot from BEGIN to COMMIT, so only its own queries reach PGlite.
    transaction: (fn, opts = {}) => {
      // Taken here: a queued operation starts in the context of the one that freed its slot (another key's).
      const own = currentGateKey();
      return gate.run(async () => {
        const tx = nextId++; // the worker knows the transaction by its begin request's id
        generation += 1;
        await call({ op: 'begin' }, tx);
        const send = (text: string, params: readonly SqlParam[] = []) => call({ op: 'txQuery', tx, text, params: [...params] });
        const shared = opts.shareReads ? sharingQueryable(gate, send, own, opts.shareReads) : null;
        let result: Awaited<ReturnType<typeof fn>>;
        try {
          result = await fn(shared?.tx ?? { query: send as Queryable['query'] });
          await shared?.settled(); // a read still in its savepoint finishes before the commit
        } catch (err) {
          await shared?.settled();
          await call({ op: 'rollback', tx }).catch(() => {}); // fn's error is the one worth reporting
          throw err;
        } finally {
          generation += 1;
        }
        try {
          await call({ op: 'commit', tx });
        } finally {
          generation += 1; // the commit is when the writes become visible
        }
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

async function openPostgres(url: string, gateOptions: OpenOptions['gate'], statementTimeoutMs = STATEMENT_TIMEOUT_MS): Promise<Db> {
  const sql = postgres(url, {
    max: PG_POOL_SIZE,
    connection: { statement_timeout: statementTimeoutMs }, // D34: set on every pooled connection
    connect_timeout: PG_CONNECT_TIMEOUT_S,
    idle_timeout: PG_IDLE_TIMEOUT_S,
    onnotice: () => {}, // "relation already exists, skipping" and the like
  });
  // D2: health has a connection of its own, so a burst of slow queries holding the pool cannot delay it.
  const healthSql = postgres(url, { max: 1, connect_timeout: PG_CONNECT_TIMEOUT_S, idle_timeout: PG_IDLE_TIMEOUT_S, onnotice: () => {} });
  const run = async <R extends Row>(q: postgres.Sql | postgres.TransactionSql, text: string, params: readonly SqlParam[] = []) =>
    [...(await q.unsafe<R[]>(text, [...params], { prepare: true }))];
  // D2: as many slots as connections, so the queue (and its deadline) is ours, not postgres.js's.
  const gate = new DbGate({ slots: PG_POOL_SIZE, keySlots: PG_SLOTS_PER_KEY, ...gateOptions });
  const db: Db = {
    kind: 'postgres',
    writeGeneration: () => null,
    query: (text, params) => gate.run(() => run(sql, text, params)),
    transaction: (fn, opts = {}) =>
      gate.run(async () => {
        const result = await sql.begin(async (tx) => {
          if (opts.statementTimeoutMs !== undefined) await run(tx, "select set_config('statement_timeout', $1, true)", [String(opts.statementTimeoutMs)]);
          return fn({ query: (text, params) => run(tx, text, params) });
        });
        return result as Awaited<ReturnType<typeof fn>>;
      }),
    ping: async () => {
      await run(healthSql, 'select 1');
    },
    queueStats: () => gate.stats(),
    close: async () => {
      gate.close();
      await Promise.all([sql.end({ timeout: 5 }), healthSql.end({ timeout: 5 })]);
    },
  };
  await db.query('select 1'); // fail at start, not on the first request
  return db;
}

/** A statement that only reads (select, or with … select without a data-changing clause) cannot change an answer. */
export function mayWrite(text: string): boolean {
  const t = text.trimStart().slice(0, 6).toLowerCase();
  if (t === 'select') return false;
  return !(t.startsWith('with') && !/\b(insert|update|delete|merge)\b/i.test(text));
}

/** Column values that may come back as number, bigint or string (int8) as a JS number. */
export function num(value: unknown): number {
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isSafeInteger(n)) throw new TypeError(`expected an integer column, got ${String(value)}`);
  return n;
}

/** D34: a statement PostgreSQL cancelled at its statement timeout (SQLSTATE 57014, query_canceled). */
export function isStatementTimeout(err: unknown): boolean {
  return err instanceof Error && 'code' in err && err.code === '57014';
}

/** True for errors that mean the database cannot be reached (answered with 503, not 500). */
export function isConnectionError(err: unknown): boolean {
  if (!(err instanceof Error) || !('code' in err)) return false;
  const code = String(err.code);
  return [WORKER_STOPPED_CODE, 'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'CONNECT_TIMEOUT', 'CONNECTION_CLOSED', 'CONNECTION_ENDED', 'CONNECTION_DESTROYED', '57P01', '57P03'].includes(code);
}
