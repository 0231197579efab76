// D2: one tiny query interface over PGlite (embedded, data in DATA_DIR) and PostgreSQL (postgres.js).
// Queries are plain SQL with $1… placeholders; both drivers return timestamptz as Date and jsonb parsed.
// D2: PGlite runs in a worker thread (pglite-worker.mjs), never on the thread that answers HTTP, and every
// operation of either backend passes one gate (db-gate.ts) that refuses work a saturated server cannot
// start in time. Each backend is a file of its own: db-pglite.ts, db-postgres.ts.
import type { GateOptions, GateStats } from './db-gate-types';
import { openPglite, WORKER_STOPPED_CODE } from './db-pglite';
import { openPostgres } from './db-postgres';
import type { ShareReads } from './db-share';

export { WORKER_STOPPED_CODE } from './db-pglite';
export { mayWrite } from './db-share';
export { STATEMENT_TIMEOUT_MS } from './db-postgres';

export type SqlParam = string | number | boolean | null | Date;
export type Row = Record<string, unknown>;

/** How one statement is run. */
export interface QueryOptions {
  /**
   * Planned for its values at every execution instead of prepared once: for the few statements whose best
   * plan depends on the values (a custom field's option, how many match), where the plan a prepared
   * statement settles on for every value can be a hundred times slower. Planning costs a little each time.
   */
  replan?: boolean;
}

export interface Queryable {
  query<R extends Row = Row>(text: string, params?: readonly SqlParam[], opts?: QueryOptions): Promise<R[]>;
}

export interface Db extends Queryable {
  readonly kind: 'pglite' | 'postgres';
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

/** Opens PostgreSQL when a URL is given, otherwise PGlite in dataDir/pgdata. */
export async function openDb(opts: OpenOptions): Promise<Db> {
  return opts.databaseUrl ? openPostgres(opts.databaseUrl, opts.gate, opts.statementTimeoutMs) : openPglite(opts.dataDir, opts.gate, opts.pgliteWorker);
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
  return [
    WORKER_STOPPED_CODE,
    'ECONNREFUSED',
    'ECONNRESET',
    'ETIMEDOUT',
    'ENOTFOUND',
    'CONNECT_TIMEOUT',
    'CONNECTION_CLOSED',
    'CONNECTION_ENDED',
    'CONNECTION_DESTROYED',
    '57P01',
    '57P03',
  ].includes(code);
}
