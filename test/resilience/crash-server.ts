// The crash suite's server: the build, the built server as a child process (killed and started again),
// SQL on its database itself, and the suite's settings (CRASH_SEED, CRASH_KILLS).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, openSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { amcheck } from '@electric-sql/pglite/contrib/amcheck';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import postgres from 'postgres';
import { freePort } from '../server/postgres-cluster';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SERVER_MAIN = path.join(ROOT, 'dist/server/main.mjs');
export const SEED = Number(process.env.CRASH_SEED ?? 20_261_123);
export const KILLS = Number(process.env.CRASH_KILLS ?? 5);
/** Kills stop early (never below MIN_KILLS) once a backend has run this long: a busy machine stays bounded. */
export const BACKEND_BUDGET_MS = 45_000;
export const MIN_KILLS = 3;
/** The kill comes this long into the load, counted from its first answer (a restarted PGlite's first answers are slow). */
export const KILL_AFTER_MS: [number, number] = [200, 1500];
/** Only a guard against a hang: the first start hashes the demo passwords (OWASP scrypt), slow on a crowded machine. */
const START_TIMEOUT_MS = 180_000;
/** Only a guard against a hang: a sign-in's OWASP scrypt on a crowded machine can take many seconds. */
export const REQUEST_TIMEOUT_MS = 90_000;
export const REFRESH_GRACE_MS = 10_000; // D8
export const DEMO_PASSWORD = 'demo-password'; // D3: public by design, printed in the start-up banner
export const API = '/api/v1';
/** Error answers kept for the secrets check, at most this many per status and code. */
export const ERROR_BODIES_PER_KIND = 25;

/** Builds dist/ when it is missing or older than any source it is made from (as `npm start` would). */
export function ensureBuild(): void {
  const newest = (p: string): number => {
    const st = statSync(p);
    if (!st.isDirectory()) return st.mtimeMs;
    return Math.max(0, ...readdirSync(p).map((f) => newest(path.join(p, f))));
  };
  const sources = ['server', 'contract', 'src', 'static', 'build.mjs', 'package-lock.json'].map((p) => path.join(ROOT, p)).filter(existsSync);
  const built = existsSync(SERVER_MAIN) ? statSync(SERVER_MAIN).mtimeMs : 0;
  if (built < Math.max(...sources.map(newest))) execFileSync(process.execPath, ['build.mjs'], { cwd: ROOT, stdio: 'pipe' });
}

/** A copy of a directory, replacing dst: cp(1) is ten times faster than fs.cpSync over PGlite's thousand files. */
export function copyDir(src: string, dst: string): void {
  execFileSync('rm', ['-rf', dst]);
  execFileSync('cp', ['-a', src, dst]);
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface Running {
  child: ChildProcess;
  url: string;
  /** Spawn to "listening", and spawn to the first healthy answer. */
  listenMs: number;
  healthyMs: number;
  /** stdout and stderr so far. */
  out(): string;
  err(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** One run of the built server; its output goes to files in logDir (kept for the whole test). */
export async function startBuilt(db: { dataDir?: string; databaseUrl?: string }, jwtSecret: string, logDir: string, run: number): Promise<Running> {
  const port = await freePort();
  const outFile = path.join(logDir, `run${run}.out.log`);
  const errFile = path.join(logDir, `run${run}.err.log`);
  const [outFd, errFd] = [openSync(outFile, 'w'), openSync(errFile, 'w')];
  const t0 = performance.now();
  const child = spawn(process.execPath, [SERVER_MAIN], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: db.dataDir ?? '',
      DATABASE_URL: db.databaseUrl ?? '',
      SEED: 'demo',
      NODE_ENV: 'production',
      JWT_SECRET: jwtSecret, // given, so that the secrets check knows it
    },
    stdio: ['ignore', outFd, errFd],
  });
  closeSync(outFd);
  closeSync(errFd);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  let gone = false;
  void exited.then(() => (gone = true));
  const out = () => readFileSync(outFile, 'utf8');
  const err = () => readFileSync(errFile, 'utf8');
  const url = `http://127.0.0.1:${port}`;
  let listenMs = 0;
  for (;;) {
    if (!listenMs && /listening on http/.test(out())) listenMs = performance.now() - t0;
    if (listenMs) {
      const health = await fetch(`${url}/api/health/`, { signal: AbortSignal.timeout(5000) }).catch(() => null);
      if (health?.status === 200) break;
    }
    if (gone) throw new Error(`the server exited before it was healthy:\n${out()}\n${err()}`);
    if (performance.now() - t0 > START_TIMEOUT_MS) {
      child.kill('SIGKILL');
      throw new Error(`the server was not healthy within ${START_TIMEOUT_MS} ms:\n${out()}\n${err()}`);
    }
    await sleep(20);
  }
  return { child, url, listenMs, healthyMs: performance.now() - t0, out, err, exited };
}

// ---------------------------------------------------------------------------------------------------
// SQL on the database itself: PostgreSQL directly; PGlite on a copy of the data directory

export interface Sql {
  query<R = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<R[]>;
  close(): Promise<void>;
}

export function postgresSql(url: string): Sql {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  return {
    query: async <R>(text: string, params: readonly unknown[] = []) => [...(await sql.unsafe(text, [...params] as never[]))] as R[],
    close: () => sql.end({ timeout: 5 }),
  };
}

/**
 * PGlite is opened in this process on a byte-for-byte copy of the data directory taken right after the
 * kill (the server process is dead, so nothing is in flight: the copy is exactly what the crash left).
 * Opening it runs the same crash recovery the restarted server runs on the original, so what it shows
 * is what the restarted server holds; the restarted server is then checked through the API too. Not
 * the live directory: PGlite has one owner, and a second opener would corrupt it. amcheck is loaded
 * to verify every B-tree index against its table after the recovery.
 */
export async function pgliteSql(dataDir: string): Promise<Sql> {
  const pg = await PGlite.create(path.join(dataDir, 'pgdata'), { extensions: { pg_trgm, amcheck } });
  return {
    query: async <R>(text: string, params: readonly unknown[] = []) => (await pg.query(text, [...params])).rows as R[],
    close: () => pg.close(),
  };
}
