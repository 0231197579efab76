// D2: one tiny query interface over PGlite (embedded, data in DATA_DIR) and PostgreSQL (postgres.js).
// Queries are plain SQL with $1… placeholders; both drivers return timestamptz as Date and jsonb parsed.
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import postgres from 'postgres';

export type SqlParam = string | number | boolean | null | Date;
export type Row = Record<string, unknown>;

export interface Queryable {
  query<R extends Row = Row>(text: string, params?: readonly SqlParam[]): Promise<R[]>;
}

export interface Db extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** Runs fn in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

const PG_POOL_SIZE = 10;
const PG_CONNECT_TIMEOUT_S = 10;
const PG_IDLE_TIMEOUT_S = 60;
const LOCK_FILE = 'server.lock';

/** Opens PostgreSQL when a URL is given, otherwise PGlite in dataDir/pgdata. */
export async function openDb(opts: { databaseUrl: string | null; dataDir: string }): Promise<Db> {
  return opts.databaseUrl ? openPostgres(opts.databaseUrl) : openPglite(opts.dataDir);
}

async function openPglite(dataDir: string): Promise<Db> {
  mkdirSync(dataDir, { recursive: true });
  const unlock = lockDataDir(dataDir);
  let pg: PGlite;
  try {
    pg = await PGlite.create(path.join(dataDir, 'pgdata'));
  } catch (err) {
    unlock();
    throw err;
  }
  const run = async <R extends Row>(q: Pick<PGlite, 'query'>, text: string, params: readonly SqlParam[] = []) =>
    (await q.query<R>(text, [...params])).rows;
  return {
    kind: 'pglite',
    query: (text, params) => run(pg, text, params),
    transaction: (fn) => pg.transaction((tx) => fn({ query: (text, params) => run(tx, text, params) })),
    close: async () => {
      try {
        await pg.close();
      } finally {
        unlock();
      }
    },
  };
}

async function openPostgres(url: string): Promise<Db> {
  const sql = postgres(url, {
    max: PG_POOL_SIZE,
    connect_timeout: PG_CONNECT_TIMEOUT_S,
    idle_timeout: PG_IDLE_TIMEOUT_S,
    onnotice: () => {}, // "relation already exists, skipping" and the like
  });
  const run = async <R extends Row>(q: postgres.Sql | postgres.TransactionSql, text: string, params: readonly SqlParam[] = []) =>
    [...(await q.unsafe<R[]>(text, [...params], { prepare: true }))];
  const db: Db = {
    kind: 'postgres',
    query: (text, params) => run(sql, text, params),
    transaction: async (fn) => {
      const result = await sql.begin((tx) => fn({ query: (text, params) => run(tx, text, params) }));
      return result as Awaited<ReturnType<typeof fn>>;
    },
    close: () => sql.end({ timeout: 5 }),
  };
  await db.query('select 1'); // fail at start, not on the first request
  return db;
}

/**
 * PGlite has one writer and no lock of its own: two processes on one data directory would corrupt it.
 * A pid file refuses a second server while the first is alive and is taken over when stale.
 */
function lockDataDir(dir: string): () => void {
  const file = path.join(dir, LOCK_FILE);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(file, { force: true });
    } catch (err) {
      if (!(err instanceof Error && 'code' in err && err.code === 'EEXIST')) throw err;
    }
    const pid = Number(readFileSync(file, 'utf8').trim());
    if (Number.isInteger(pid) && pid > 0 && processAlive(pid)) {
      throw new Error(`the data directory ${dir} is in use by process ${pid}; stop it or choose another DATA_DIR`);
    }
    rmSync(file, { force: true }); // stale: its process is gone
  }
  throw new Error(`could not lock the data directory ${dir}`);
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err instanceof Error && 'code' in err && err.code === 'EPERM';
  }
}

/** Column values that may come back as number, bigint or string (int8) as a JS number. */
export function num(value: unknown): number {
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isSafeInteger(n)) throw new TypeError(`expected an integer column, got ${String(value)}`);
  return n;
}

/** True for errors that mean the database cannot be reached (answered with 503, not 500). */
export function isConnectionError(err: unknown): boolean {
  if (!(err instanceof Error) || !('code' in err)) return false;
  const code = String(err.code);
  return ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'CONNECT_TIMEOUT', 'CONNECTION_CLOSED', 'CONNECTION_ENDED', 'CONNECTION_DESTROYED', '57P01', '57P03'].includes(code);
}
