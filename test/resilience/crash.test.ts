// Crash safety, on PGlite and on PostgreSQL: the BUILT server (dist/server/main.mjs) runs as a child
// process while signed-in clients create, update and delete customers, add notes and refresh their
// tokens; it is killed with SIGKILL at seeded random moments and started again on the same data
// directory or database, several times. After every restart, and at the end:
//   - every acknowledged write (a 2xx answer received) is there, in its latest acknowledged state; the
//     one write per client whose answer the kill cut off may or may not be there (both are fine);
//   - nothing is half there: each customer has its creation entry in the audit log, as many update
//     entries as its version says, a delete entry exactly when deleted; each note its customer and its
//     entry; no entry names a customer or note that does not exist; customer_counts (kept by
//     statement-level triggers) equals the real counts; every live session has exactly one unused
//     refresh token;
//   - sessions survive: each client's last acknowledged access token still works and its last
//     acknowledged refresh token still refreshes, by D8's rules when the kill cut off a refresh;
//   - the database opens cleanly: health answers, migrations ran once, the server logs no error.
// At the end the server is stopped cleanly, and no secret (secrets.ts: the tokens and passwords the
// clients used, the invitation token, every password hash, the JWT secret the server was given) is in
// its logs of every run, in an error answer the clients received, or in an audit entry.
//
// CRASH_SEED=<n> replays a run's choices (kill moments, operations); CRASH_KILLS=<n> changes the kills
// per backend (default 5). The figures are printed at the end of each backend's run.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, existsSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { amcheck } from '@electric-sql/pglite/contrib/amcheck';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import postgres from 'postgres';
import { describe, expect, inject, test } from 'vitest';
import { freshPostgresDatabase } from '../server/backends';
import { freePort } from '../server/postgres-cluster';
import { prng } from './catalog';
import { freshDataDir, removeDir } from '../server/helpers';
import { MIGRATIONS } from '../../server/migrations';
import { assertNoSecrets, auditRows, serverSecrets, withoutDemoBanner, type Secret } from './secrets';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SERVER_MAIN = path.join(ROOT, 'dist/server/main.mjs');
const SEED = Number(process.env.CRASH_SEED ?? 20_261_123);
const KILLS = Number(process.env.CRASH_KILLS ?? 5);
/** Kills stop early (never below MIN_KILLS) once a backend has run this long: a busy machine stays bounded. */
const BACKEND_BUDGET_MS = 45_000;
const MIN_KILLS = 3;
/** The kill comes this long into the load, counted from its first answer (a restarted PGlite's first answers are slow). */
const KILL_AFTER_MS: [number, number] = [200, 1500];
const START_TIMEOUT_MS = 60_000;
/** Only a guard against a hang: a sign-in's OWASP scrypt on a crowded machine can take many seconds. */
const REQUEST_TIMEOUT_MS = 90_000;
const REFRESH_GRACE_MS = 10_000; // D8
const DEMO_PASSWORD = 'demo-password'; // D3: public by design, printed in the start-up banner
const API = '/api/v1';
/** Error answers kept for the secrets check, at most this many per status and code. */
const ERROR_BODIES_PER_KIND = 25;

// ---------------------------------------------------------------------------------------------------
// The build, the server process, and a seeded random source

/** Builds dist/ when it is missing or older than any source it is made from (as `npm start` would). */
function ensureBuild(): void {
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
function copyDir(src: string, dst: string): void {
  execFileSync('rm', ['-rf', dst]);
  execFileSync('cp', ['-a', src, dst]);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Running {
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
async function startBuilt(db: { dataDir?: string; databaseUrl?: string }, jwtSecret: string, logDir: string, run: number): Promise<Running> {
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
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
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

interface Sql {
  query<R = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<R[]>;
  close(): Promise<void>;
}

function postgresSql(url: string): Sql {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  return {
    query: async <R,>(text: string, params: readonly unknown[] = []) => [...(await sql.unsafe(text, [...params] as never[]))] as R[],
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
async function pgliteSql(dataDir: string): Promise<Sql> {
  const pg = await PGlite.create(path.join(dataDir, 'pgdata'), { extensions: { pg_trgm, amcheck } });
  return {
    query: async <R,>(text: string, params: readonly unknown[] = []) => (await pg.query(text, [...params])).rows as R[],
    close: () => pg.close(),
  };
}

// ---------------------------------------------------------------------------------------------------
// What the clients know: the acknowledged state of every record they wrote

type Status = 'lead' | 'active' | 'inactive';
const STATUSES: Status[] = ['lead', 'active', 'inactive'];
interface Fields {
  name: string;
  email: string | null;
  phone: string | null;
  city: string | null;
  status: Status;
  tags: string[];
}

interface KnownCustomer {
  id: number;
  org: number;
  fields: Fields;
  version: number;
  deleted: boolean;
}
interface KnownNote {
  id: number;
  customerId: number;
  body: string;
}

/** The one request a client had in flight when the server was killed: it may or may not have happened. */
type Pending =
  | { kind: 'create'; org: number; fields: Fields }
  | { kind: 'update'; id: number; fields: Fields }
  | { kind: 'delete'; id: number }
  | { kind: 'note'; customerId: number; body: string }
  | { kind: 'refresh'; token: string };

interface Account {
  email: string;
  password: string;
  org: string;
  canDelete: boolean;
}

interface Client {
  index: number;
  account: Account;
  org: number;
  access: string;
  refresh: string;
  rng: () => number;
  seq: number;
  customers: Map<number, KnownCustomer>;
  notes: KnownNote[];
  pending: Pending | null;
  /** Customers written since the last check through the API. */
  touched: Set<number>;
  /**
   * Its next operation is a refresh whose answer it throws away, then it waits for the kill: a refresh
   * the server committed but whose answer was lost, so that D8's grace window and reuse rule are
   * exercised across every restart (a kill landing exactly there by chance is rare).
   */
  dropRefreshAnswer: boolean;
  /** Every access and refresh token it was given: none may appear in the server's logs. */
  tokens: Set<string>;
  /** Its pending refresh is one whose answer it threw away (not counted among the writes in doubt). */
  droppedAnswer: boolean;
}

interface Figures {
  kills: number;
  acknowledged: Record<string, number>;
  /** Checks of acknowledged state that passed: customer rows and answers, notes, tokens. */
  verified: Record<string, number>;
  /** Writes cut off by a kill, found applied or not after the restart. */
  uncertain: { applied: number; notApplied: number };
  droppedRefreshAnswers: number;
  refreshAfterRestart: { rotated: number; grace: number; reused: number };
  busy: number;
  restartMs: number[];
  /** Kill to the restarted server's checks passed. */
  cycleMs: number[];
  firstStartMs: number;
}

const newFigures = (): Figures => ({
  kills: 0,
  acknowledged: { create: 0, update: 0, delete: 0, note: 0, refresh: 0 },
  verified: { customerRows: 0, customerAnswers: 0, notes: 0, sessions: 0 },
  uncertain: { applied: 0, notApplied: 0 },
  droppedRefreshAnswers: 0,
  refreshAfterRestart: { rotated: 0, grace: 0, reused: 0 },
  busy: 0,
  restartMs: [],
  cycleMs: [],
  firstStartMs: 0,
});

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

/** Thrown when a request got no answer at all (the server died under it). */
class NoAnswer extends Error {}

/** Error answers (status ≥ 400) of the scenario running, a bounded sample per status and code, for the secrets check. */
const errorBodies = new Map<string, string[]>();
function keepErrorBody(status: number, text: string): void {
  const code = /"code":"([a-z_]+)"/.exec(text)?.[1] ?? '';
  const kept = errorBodies.get(`${status} ${code}`) ?? [];
  if (kept.length < ERROR_BODIES_PER_KIND) errorBodies.set(`${status} ${code}`, [...kept, text]);
}

async function call(base: string, method: string, p: string, opts: { token?: string; org?: number; body?: unknown } = {}): Promise<Answer> {
  let res: Response;
  try {
    res = await fetch(`${base}${API}${p}`, {
      method,
      headers: {
        ...(opts.token ? { Authorization: `Bearer ${opts.token}` } : {}),
        ...(opts.org ? { 'X-Organization-ID': String(opts.org) } : {}),
        ...(opts.body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
  } catch (err) {
    throw new NoAnswer(`${method} ${p}: ${err instanceof Error ? err.message : String(err)}`);
  }
  let text: string;
  try {
    text = await res.text();
  } catch (err) {
    throw new NoAnswer(`${method} ${p}: body cut off: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (res.status >= 400) keepErrorBody(res.status, text);
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

/** D2: a saturated server refuses work it cannot start in time (503 server_busy): nothing was written. */
const refused = (a: Answer) => a.status === 503 && a.body.code === 'server_busy';

const pick = <T,>(rng: () => number, items: readonly T[]): T => items[Math.floor(rng() * items.length)]!;

function fieldsOf(body: Record<string, unknown>): Fields {
  return {
    name: body.name as string,
    email: (body.email as string | null) ?? null,
    phone: (body.phone as string | null) ?? null,
    city: (body.city as string | null) ?? null,
    status: body.status as Status,
    tags: [...((body.tags as string[] | null) ?? [])],
  };
}

/** One client's work until the server dies: one request at a time, each acknowledged write recorded. */
async function clientLoop(c: Client, base: () => string, dead: () => boolean, figures: Figures, runTag: string, answered: () => void): Promise<void> {
  const errorIfAlive = (what: string, a: Answer) => {
    throw new Error(`client ${c.index}: ${what} answered ${a.status} ${JSON.stringify(a.body)}`);
  };
  while (!dead()) {
    const live = [...c.customers.values()].filter((k) => !k.deleted);
    const roll = c.rng();
    const kind = c.dropRefreshAnswer ? 'refresh' : live.length === 0 || roll < 0.3 ? 'create' : roll < 0.58 ? 'update' : roll < 0.68 ? (c.account.canDelete ? 'delete' : 'update') : roll < 0.88 ? 'note' : 'refresh';
    c.seq += 1;
    const tag = `${runTag}-${c.index}-${c.seq}`;
    try {
      if (kind === 'create') {
        const fields: Fields = {
          name: `Crash ${tag}`,
          email: `crash-${tag}@example.test`,
          phone: `+1 555 ${String(1_000_000 + Math.floor(c.rng() * 8_999_999))}`,
          city: `City ${tag}`,
          status: pick(c.rng, STATUSES),
          tags: c.rng() < 0.5 ? ['crash'] : [],
        };
        c.pending = { kind, org: c.org, fields };
        const a = await call(base(), 'POST', '/customers/', { token: c.access, org: c.org, body: fields });
        if (refused(a)) figures.busy += 1;
        else if (a.status !== 201) errorIfAlive('create', a);
        else {
          const id = a.body.id as number;
          c.customers.set(id, { id, org: c.org, fields: fieldsOf(a.body), version: a.body.version as number, deleted: false });
          c.touched.add(id);
          figures.acknowledged.create! += 1;
        }
      } else if (kind === 'update' || kind === 'delete' || kind === 'note') {
        const target = pick(c.rng, live);
        c.touched.add(target.id);
        if (kind === 'update') {
          // Always a new city, so the save changes something (a save that changes nothing writes nothing).
          const patch: Partial<Fields> = { city: `City ${tag}`, ...(c.rng() < 0.6 ? { status: pick(c.rng, STATUSES) } : {}) };
          c.pending = { kind, id: target.id, fields: { ...target.fields, ...patch } };
          const a = await call(base(), 'PATCH', `/customers/${target.id}/`, { token: c.access, org: c.org, body: { ...patch, version: target.version } });
          if (refused(a)) figures.busy += 1;
          else if (a.status !== 200) errorIfAlive('update', a);
          else {
            Object.assign(target, { fields: fieldsOf(a.body), version: a.body.version as number });
            figures.acknowledged.update! += 1;
          }
        } else if (kind === 'delete') {
          c.pending = { kind, id: target.id };
          const a = await call(base(), 'DELETE', `/customers/${target.id}/`, { token: c.access, org: c.org });
          if (refused(a)) figures.busy += 1;
          else if (a.status !== 204) errorIfAlive('delete', a);
          else {
            target.deleted = true;
            figures.acknowledged.delete! += 1;
          }
        } else {
          const body = `Note ${tag}`;
          c.pending = { kind, customerId: target.id, body };
          const a = await call(base(), 'POST', `/customers/${target.id}/notes/`, { token: c.access, org: c.org, body: { body } });
          if (refused(a)) figures.busy += 1;
          else if (a.status !== 201) errorIfAlive('note', a);
          else {
            c.notes.push({ id: a.body.id as number, customerId: target.id, body });
            figures.acknowledged.note! += 1;
          }
        }
      } else {
        c.pending = { kind: 'refresh', token: c.refresh };
        const a = await call(base(), 'POST', '/auth/refresh/', { body: { refresh_token: c.refresh } });
        if (refused(a)) figures.busy += 1;
        else if (a.status !== 200) errorIfAlive('refresh', a);
        else if (c.dropRefreshAnswer) {
          c.dropRefreshAnswer = false;
          c.droppedAnswer = true;
          c.tokens.add(a.body.access_token as string).add(a.body.refresh_token as string);
          figures.droppedRefreshAnswers += 1;
          while (!dead()) await sleep(10); // c.pending stays: the answer counts as lost
          return;
        } else {
          c.access = a.body.access_token as string;
          c.refresh = a.body.refresh_token as string;
          c.tokens.add(c.access).add(c.refresh);
          figures.acknowledged.refresh! += 1;
        }
      }
      c.pending = null; // answered: whatever it said, the model now holds it
      answered();
    } catch (err) {
      // No answer while the server is alive is a failure; after the kill it is the write in doubt.
      if (err instanceof NoAnswer && dead()) return;
      throw err;
    }
  }
}

// ---------------------------------------------------------------------------------------------------
// The checks

async function checkDatabase(sql: Sql, clients: Client[], figures: Figures, opts: { amcheck: boolean; migrations: { seen: string | null } }): Promise<void> {
  const bad = async (what: string, text: string) => {
    const rows = await sql.query(text);
    expect(rows, what).toEqual([]);
  };
  // Nothing half there (D30: each change and its audit entry are one transaction).
  await bad(
    'customers without exactly one creation entry',
    `select c.id from customers c
      where (select count(*) from audit_log a where a.org_id = c.org_id and a.target_type = 'customer' and a.target_id = c.id
               and a.action = 'customer.created') <> 1`,
  );
  await bad(
    'customers whose version does not match their update entries',
    `select c.id, c.version from customers c
      where c.version - 1 <> (select count(*) from audit_log a where a.org_id = c.org_id and a.target_type = 'customer'
               and a.target_id = c.id and a.action in ('customer.updated', 'customer.restored'))`,
  );
  await bad(
    'customers whose deletion and delete entries disagree',
    `select c.id from customers c
      where (case when c.deleted_at is null then 0 else 1 end) <>
            (select count(*) filter (where a.action = 'customer.deleted') - count(*) filter (where a.action = 'customer.restored')
               from audit_log a where a.org_id = c.org_id and a.target_type = 'customer' and a.target_id = c.id)`,
  );
  await bad(
    'audit entries naming a customer that does not exist',
    `select a.id, a.action, a.target_id from audit_log a
      where a.target_type = 'customer' and not exists (select 1 from customers c where c.id = a.target_id and c.org_id = a.org_id)`,
  );
  await bad(
    'notes without their customer or without exactly one entry',
    `select n.id from customer_notes n
      where not exists (select 1 from customers c where c.id = n.customer_id and c.org_id = n.org_id)
         or (select count(*) from audit_log a where a.org_id = n.org_id and a.target_type = 'note' and a.target_id = n.id
               and a.action = 'note.added') <> 1`,
  );
  await bad(
    'note entries naming a note that does not exist',
    `select a.id from audit_log a
      where a.action = 'note.added' and not exists (select 1 from customer_notes n where n.id = a.target_id and n.org_id = a.org_id)`,
  );
  await bad(
    'customer_counts that differ from the live customers',
    `select coalesce(k.org_id, r.org_id) as org_id, coalesce(k.status, r.status) as status, k.n as kept, r.n as real
       from customer_counts k
       full join (select org_id, status, count(*) as n from customers where deleted_at is null group by org_id, status) r
         on r.org_id = k.org_id and r.status = k.status
      where coalesce(k.n, 0) <> coalesce(r.n, 0)`,
  );
  await bad(
    'live sessions without exactly one unused refresh token (a rotation half done)',
    `select s.id from sessions s
      where s.revoked_at is null
        and (select count(*) from refresh_tokens t where t.session_id = s.id and t.used_at is null) <> 1`,
  );
  await bad(
    'used refresh tokens without a successor',
    `select t.id from refresh_tokens t where t.used_at is not null
        and not exists (select 1 from refresh_tokens n where n.id = t.successor_id)`,
  );
  // Migrations ran once, at the first start: the same versions, applied at the same moments, every time.
  const migrations = await sql.query<{ version: number; applied_at: Date }>('select version, applied_at from schema_migrations order by version');
  expect(migrations.map((m) => Number(m.version))).toEqual(MIGRATIONS.map((m) => m.version));
  const applied = JSON.stringify(migrations.map((m) => [Number(m.version), m.applied_at.toISOString()]));
  opts.migrations.seen ??= applied;
  expect(applied, 'schema_migrations changed after a restart').toBe(opts.migrations.seen);

  // Every acknowledged write is there, in its latest acknowledged state (a write in doubt: either).
  const known = clients.flatMap((c) => [...c.customers.values()]);
  const rows = await sql.query<Record<string, unknown>>(
    `select id, org_id, name, email, phone, city, status, tags, version, deleted_at from customers where id = any($1::int[])`,
    [known.map((k) => k.id)],
  );
  const byId = new Map(rows.map((r) => [Number(r.id), r]));
  for (const k of known) {
    const row = byId.get(k.id);
    expect(row, `customer ${k.id}`).toBeDefined();
    const seen = { org: Number(row!.org_id), fields: fieldsOf(row!), version: Number(row!.version), deleted: row!.deleted_at !== null };
    expect(seen, `customer ${k.id}`).toEqual({ org: k.org, fields: k.fields, version: k.version, deleted: k.deleted });
    figures.verified.customerRows! += 1;
  }
  const notes = clients.flatMap((c) => c.notes);
  const noteRows = await sql.query<{ id: unknown; customer_id: unknown; body: string }>(
    'select id, customer_id, body from customer_notes where id = any($1::int[])',
    [notes.map((n) => n.id)],
  );
  const notesById = new Map(noteRows.map((r) => [Number(r.id), { id: Number(r.id), customerId: Number(r.customer_id), body: r.body }]));
  for (const n of notes) {
    expect(notesById.get(n.id), `note ${n.id}`).toEqual(n);
    figures.verified.notes! += 1;
  }
  if (opts.amcheck) {
    // After PGlite's crash recovery: every B-tree index agrees with its table (heapallindexed).
    await sql.query('create extension if not exists amcheck');
    const indexes = await sql.query<{ name: string }>(
      `select c.oid::regclass::text as name from pg_index i join pg_class c on c.oid = i.indexrelid join pg_am am on am.oid = c.relam
        join pg_namespace ns on ns.oid = c.relnamespace where am.amname = 'btree' and ns.nspname = 'public'`,
    );
    expect(indexes.length).toBeGreaterThan(10);
    for (const { name } of indexes) await sql.query('select bt_index_check($1::regclass, true)', [name]);
  }
}

/**
 * The write each client had in flight at the kill: looked up in the database, then taken into the
 * model as found (applied or not; both are fine). Runs before checkDatabase, which then holds the
 * database to the model.
 */
async function settlePending(sql: Sql, clients: Client[], figures: Figures): Promise<void> {
  for (const c of clients) {
    const p = c.pending;
    if (!p || p.kind === 'refresh') continue; // refreshes are settled with the session check
    c.pending = null;
    let applied = false;
    if (p.kind === 'create') {
      const [row] = await sql.query<Record<string, unknown>>(
        'select id, org_id, name, email, phone, city, status, tags, version, deleted_at from customers where org_id = $1 and email = $2',
        [p.org, p.fields.email],
      );
      if (row) {
        applied = true;
        expect(fieldsOf(row)).toEqual(p.fields);
        c.customers.set(Number(row.id), { id: Number(row.id), org: p.org, fields: p.fields, version: Number(row.version), deleted: false });
        c.touched.add(Number(row.id));
      }
    } else if (p.kind === 'update' || p.kind === 'delete') {
      const k = c.customers.get(p.id)!;
      c.touched.add(p.id);
      const [row] = await sql.query<Record<string, unknown>>('select name, email, phone, city, status, tags, version, deleted_at from customers where id = $1', [p.id]);
      const seen = { fields: fieldsOf(row!), version: Number(row!.version), deleted: row!.deleted_at !== null };
      const before = { fields: k.fields, version: k.version, deleted: k.deleted };
      const after = p.kind === 'update' ? { fields: p.fields, version: k.version + 1, deleted: false } : { ...before, deleted: true };
      applied = JSON.stringify(seen) === JSON.stringify(after);
      expect([before, after], `customer ${p.id} after a ${p.kind} in doubt`).toContainEqual(seen);
      Object.assign(k, seen);
    } else {
      const [row] = await sql.query<{ id: unknown; customer_id: unknown }>('select id, customer_id from customer_notes where body = $1', [p.body]);
      if (row) {
        applied = true;
        expect(Number(row.customer_id)).toBe(p.customerId);
        c.notes.push({ id: Number(row.id), customerId: p.customerId, body: p.body });
      }
    }
    figures.uncertain[applied ? 'applied' : 'notApplied'] += 1;
  }
}

/** What the database says of each client's last acknowledged refresh token, read before the server sees it again. */
async function tokenStates(sql: Sql, clients: Client[]): Promise<Map<Client, { usedAt: Date | null; successorHash: string | null }>> {
  const states = new Map<Client, { usedAt: Date | null; successorHash: string | null }>();
  for (const c of clients) {
    const [row] = await sql.query<{ used_at: Date | null; successor_hash: string | null }>(
      `select t.used_at, n.token_hash as successor_hash from refresh_tokens t left join refresh_tokens n on n.id = t.successor_id
        where t.token_hash = $1`,
      [hashToken(c.refresh)],
    );
    expect(row, `client ${c.index}: its last acknowledged refresh token is in the database`).toBeDefined();
    states.set(c, { usedAt: row!.used_at, successorHash: row!.successor_hash });
  }
  return states;
}

/**
 * Through the restarted server: each acknowledged customer answers as recorded; each client's access
 * token still works; its last acknowledged refresh token refreshes — D8: when the kill cut off a
 * refresh that the server had committed, the token is rotated out: within the grace window it gets the
 * same successor, after it counts as reuse and ends the session (the client then signs in again).
 */
async function checkThroughApi(base: string, clients: Client[], states: Awaited<ReturnType<typeof tokenStates>>, figures: Figures, signIn: (c: Client) => Promise<void>): Promise<void> {
  await Promise.all(
    clients.map(async (c) => {
      for (const k of [...c.touched].map((id) => c.customers.get(id)!)) {
        const a = await call(base, 'GET', `/customers/${k.id}/`, { token: c.access, org: c.org });
        if (k.deleted) expect(a.status, `deleted customer ${k.id}`).toBe(404);
        else {
          expect(a.status, `customer ${k.id}`).toBe(200);
          expect({ fields: fieldsOf(a.body), version: a.body.version }).toEqual({ fields: k.fields, version: k.version });
        }
        figures.verified.customerAnswers! += 1;
      }
      c.touched.clear();
      const me = await call(base, 'GET', '/auth/me/', { token: c.access, org: c.org });
      expect(me.status, `client ${c.index}: /me with its last access token`).toBe(200);

      const state = states.get(c)!;
      const wasRefreshing = c.pending?.kind === 'refresh';
      c.pending = null;
      if (state.usedAt) expect(wasRefreshing, `client ${c.index}: its last acknowledged refresh token was used by no refresh of its own`).toBe(true);
      const t0 = Date.now();
      const a = await call(base, 'POST', '/auth/refresh/', { body: { refresh_token: c.refresh } });
      const t1 = Date.now();
      if (!c.droppedAnswer && state.usedAt) figures.uncertain.applied += 1;
      else if (!c.droppedAnswer && wasRefreshing) figures.uncertain.notApplied += 1;
      c.droppedAnswer = false;
      const sinceUse: [number, number] | null = state.usedAt ? [t0 - state.usedAt.getTime(), t1 - state.usedAt.getTime()] : null;
      if (sinceUse && sinceUse[0] > REFRESH_GRACE_MS) {
        expect(a.status, JSON.stringify(a.body)).toBe(401);
        expect(a.body.code).toBe('refresh_token_reused');
      } else if (sinceUse && sinceUse[1] > REFRESH_GRACE_MS) {
        expect([200, 401], JSON.stringify(a.body)).toContain(a.status); // on the edge of the window: either
      } else {
        expect(a.status, JSON.stringify(a.body)).toBe(200);
      }
      if (a.status === 200) {
        if (state.usedAt) {
          expect(hashToken(a.body.refresh_token as string), 'D8: the same successor within the grace window').toBe(state.successorHash);
          figures.refreshAfterRestart.grace += 1;
        } else figures.refreshAfterRestart.rotated += 1;
        c.access = a.body.access_token as string;
        c.refresh = a.body.refresh_token as string;
        c.tokens.add(c.access).add(c.refresh);
        figures.acknowledged.refresh! += 1;
        expect((await call(base, 'GET', '/auth/me/', { token: c.access, org: c.org })).status).toBe(200);
      } else {
        // Reuse ended the session for everyone: the access token of it is refused too.
        expect((await call(base, 'GET', '/auth/me/', { token: c.access, org: c.org })).status).toBe(401);
        figures.refreshAfterRestart.reused += 1;
        await signIn(c);
      }
      figures.verified.sessions! += 1;
    }),
  );
}

/** Start-up and run logs hold no error: nothing on stderr, no 5xx in the access log. */
function expectCleanLog(run: Running, label: string): void {
  expect(run.err(), `${label}: stderr`).toBe('');
  const failed = run.out().split('\n').filter((l) => / 5\d\d [\d.]+ms$/.test(l) && !/ 503 /.test(l));
  expect(failed, `${label}: 5xx answers`).toEqual([]);
}

// ---------------------------------------------------------------------------------------------------
// The scenario

async function crashScenario(label: string, db: { dataDir?: string; databaseUrl?: string }): Promise<Figures> {
  const figures = newFigures();
  const rng = prng(SEED ^ (label === 'PGlite' ? 0x1111 : 0x2222));
  const runTag = randomBytes(3).toString('hex');
  const logDir = mkdtempSync(path.join(os.tmpdir(), 'crm-crash-logs-'));
  const snapshotDir = db.dataDir ? mkdtempSync(path.join(os.tmpdir(), 'crm-crash-snapshot-')) : null;
  const started = performance.now();
  const allLogs: string[] = [];
  const secrets: Secret[] = [];
  const jwtSecret = randomBytes(48).toString('base64url');
  errorBodies.clear();
  const migrations = { seen: null as string | null };
  let runNo = 0;
  let current: Running | null = null;
  let passed = false;
  const keepLogs = (r: Running) => allLogs.push(r.out(), r.err());
  const openSql = async () => (db.databaseUrl ? postgresSql(db.databaseUrl) : pgliteSql(snapshotDir!));
  try {
    // First start: migrations and D3's demo data on an empty database.
    current = await startBuilt(db, jwtSecret, logDir, runNo++);
    figures.firstStartMs = current.healthyMs;
    expectCleanLog(current, 'first start');
    const base = () => current!.url;

    // An account of its own (so a password that is not D3's public one is in play), invited to Beacon.
    const owner = await call(base(), 'POST', '/auth/login/', { body: { email: 'owner@demo.test', password: DEMO_PASSWORD } });
    expect(owner.status).toBe(200);
    const orgs = new Map(((await call(base(), 'GET', '/auth/me/', { token: owner.body.access_token as string })).body.organizations as { id: number; name: string }[]).map((o) => [o.name, o.id]));
    const ownPassword = `crash-${randomBytes(12).toString('base64url')}`;
    const ownEmail = `crash-admin-${runTag}@example.test`;
    const invite = await call(base(), 'POST', '/team/invitations/', { token: owner.body.access_token as string, org: orgs.get('Beacon Electric'), body: { email: ownEmail, role: 'admin' } });
    expect(invite.status, JSON.stringify(invite.body)).toBe(201);
    const accepted = await call(base(), 'POST', `/invitations/${invite.body.token as string}/accept/`, { body: { first_name: 'Crash', password: ownPassword } });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    secrets.push(
      { label: 'owner access token', value: owner.body.access_token as string },
      { label: 'owner refresh token', value: owner.body.refresh_token as string },
      { label: 'invitation token', value: invite.body.token as string },
      { label: 'invited admin access token', value: accepted.body.access_token as string },
      { label: 'invited admin refresh token', value: accepted.body.refresh_token as string },
      { label: 'invited admin password', value: ownPassword },
    );

    const accounts: Account[] = [
      { email: 'owner@demo.test', password: DEMO_PASSWORD, org: 'Acme Plumbing', canDelete: true },
      { email: 'owner@demo.test', password: DEMO_PASSWORD, org: 'Beacon Electric', canDelete: true },
      { email: 'solo@demo.test', password: DEMO_PASSWORD, org: 'Acme Plumbing', canDelete: false }, // a member may not delete
      { email: ownEmail, password: ownPassword, org: 'Beacon Electric', canDelete: true },
    ];
    const signInNow = async (c: Client) => {
      const a = await call(base(), 'POST', '/auth/login/', { body: { email: c.account.email, password: c.account.password } });
      expect(a.status, JSON.stringify(a.body)).toBe(200);
      c.access = a.body.access_token as string;
      c.refresh = a.body.refresh_token as string;
      c.tokens.add(c.access).add(c.refresh);
    };
    // D35: one address has at most 2 logins in flight, and every client here speaks from loopback: one at a time.
    let signing: Promise<unknown> = Promise.resolve();
    const signIn = (c: Client): Promise<void> => {
      const mine = signing.then(() => signInNow(c));
      signing = mine.catch(() => undefined);
      return mine;
    };
    const clients: Client[] = Array.from({ length: 8 }, (_, index) => {
      const account = accounts[index % accounts.length]!;
      return { index, account, org: orgs.get(account.org)!, access: '', refresh: '', rng: prng(SEED + index * 7919), seq: 0, customers: new Map(), notes: [], pending: null, touched: new Set(), dropRefreshAnswer: false, droppedAnswer: false, tokens: new Set() };
    });
    await Promise.all(clients.map(signIn));

    let ranMs = 0;
    for (let kill = 0; kill < KILLS; kill++) {
      if (kill >= MIN_KILLS && performance.now() - started > BACKEND_BUDGET_MS) break;
      // Load, and a SIGKILL at a random moment of it.
      let dead = false;
      clients[kill % clients.length]!.dropRefreshAnswer = true;
      let firstAnswer = () => {};
      const answered = new Promise<void>((resolve) => (firstAnswer = resolve));
      const loops = clients.map((c) => clientLoop(c, base, () => dead, figures, runTag, firstAnswer));
      const failed = Promise.all(loops).then(() => null, (err: unknown) => err);
      const delay = KILL_AFTER_MS[0] + rng() * (KILL_AFTER_MS[1] - KILL_AFTER_MS[0]);
      const early = await Promise.race([answered.then(() => sleep(delay)).then(() => null), failed]);
      if (early) throw early; // a client failed before the kill
      dead = true;
      current.child.kill('SIGKILL');
      const exit = await current.exited;
      expect(exit.signal).toBe('SIGKILL');
      ranMs += delay;
      figures.kills += 1;
      const killedAt = performance.now();
      const loopError = await failed;
      if (loopError) throw loopError;
      keepLogs(current);
      expectCleanLog(current, `run ${runNo - 1}`);

      // The state the crash left: PostgreSQL as it is; PGlite as a copy of the data directory. The copy
      // is checked while the server starts again on the original (PGlite starts slowly); PostgreSQL is
      // read before the server is back.
      if (snapshotDir) copyDir(db.dataDir!, snapshotDir);
      const restarting = snapshotDir ? startBuilt(db, jwtSecret, logDir, runNo++) : null;
      restarting?.catch(() => {}); // a failed start is reported where it is awaited
      let states: Awaited<ReturnType<typeof tokenStates>>;
      try {
        const sql = await openSql();
        try {
          await settlePending(sql, clients, figures);
          await checkDatabase(sql, clients, figures, { amcheck: Boolean(snapshotDir) && kill === 0, migrations });
          states = await tokenStates(sql, clients);
        } finally {
          await sql.close();
        }
      } catch (err) {
        const started = await restarting?.catch(() => null);
        if (started) {
          started.child.kill('SIGKILL');
          await started.exited;
        }
        throw err;
      }

      // Restarted on the same data: the same checks through the server.
      current = await (restarting ?? startBuilt(db, jwtSecret, logDir, runNo++));
      figures.restartMs.push(current.healthyMs);
      await checkThroughApi(base(), clients, states, figures, signIn);
      expectCleanLog(current, `restart ${kill + 1}`);
      figures.cycleMs.push(performance.now() - killedAt);
    }

    // The end: a clean stop, and the last state checked once more on the database itself.
    current.child.kill('SIGTERM');
    const exit = await current.exited;
    expect(exit.code, current.out() + current.err()).toBe(0);
    keepLogs(current);
    expectCleanLog(current, 'last run');
    current = null;
    if (snapshotDir) copyDir(db.dataDir!, snapshotDir);
    const sql = await openSql();
    let secretsChecked = '';
    try {
      await checkDatabase(sql, clients, figures, { amcheck: Boolean(snapshotDir), migrations });
      // No secret in the logs of every run (less the banner line naming the demo accounts, D3), in an
      // error answer the clients received, or in an audit entry.
      for (const c of clients) for (const t of c.tokens) secrets.push({ label: `client ${c.index} access or refresh token`, value: t });
      const checked = {
        logs: withoutDemoBanner(allLogs.join('\n').split('\n')),
        bodies: [...errorBodies.values()].flat(),
        auditRows: await auditRows(sql),
        secrets: [...(await serverSecrets(sql, jwtSecret)), ...secrets],
      };
      assertNoSecrets(checked);
      secretsChecked = `${checked.secrets.length} secrets in ${checked.logs.length} log lines, ${checked.bodies.length} error answers, ${checked.auditRows.length} audit entries`;
    } finally {
      await sql.close();
    }

    const acked = Object.values(figures.acknowledged).reduce((a, b) => a + b, 0);
    const sorted = [...figures.restartMs].sort((a, b) => a - b);
    console.log(
      `[crash ${label}] seed ${SEED}: ${figures.kills} kills in ${(ranMs / 1000).toFixed(1)} s of load; ` +
        `${acked} writes acknowledged ${JSON.stringify(figures.acknowledged)}; ` +
        `verified ${JSON.stringify(figures.verified)}; in doubt at a kill: ${figures.uncertain.applied} applied, ${figures.uncertain.notApplied} not; ` +
        `refresh after restart ${JSON.stringify(figures.refreshAfterRestart)} (${figures.droppedRefreshAnswers} answers dropped on purpose); 503 busy ${figures.busy}; ` +
        `no secret out (${secretsChecked}); first start ${figures.firstStartMs.toFixed(0)} ms, kill to checked ${figures.cycleMs.map((m) => (m / 1000).toFixed(1)).join('/')} s, restart (spawn to healthy) min ${sorted[0]?.toFixed(0)} / median ${sorted[Math.floor(sorted.length / 2)]?.toFixed(0)} / max ${sorted.at(-1)?.toFixed(0)} ms; ` +
        `total ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    expect(figures.kills).toBeGreaterThanOrEqual(MIN_KILLS);
    expect(figures.acknowledged.create).toBeGreaterThan(0);
    passed = true;
    return figures;
  } finally {
    if (current) {
      current.child.kill('SIGKILL');
      await current.exited;
    }
    if (snapshotDir) rmSync(snapshotDir, { recursive: true, force: true });
    if (passed) rmSync(logDir, { recursive: true, force: true });
    else console.log(`[crash ${label}] the server's logs are kept in ${logDir}`);
  }
}

// Generous timeouts: a slow, shared machine makes the run longer (fewer kills past the budget), never a failure.
describe('crash safety: SIGKILL under load, restart, nothing acknowledged lost, nothing half written', () => {
  ensureBuild();

  test('PGlite (data directory)', { timeout: 300_000 }, async () => {
    const dataDir = await freshDataDir('crash-data'); // a copy of an initdb'd template: no server has opened it
    try {
      await crashScenario('PGlite', { dataDir });
    } finally {
      removeDir(dataDir);
    }
  });

  const postgresUrl = inject('postgresUrl');
  if (!postgresUrl) {
    const missing = inject('postgresMissing') || 'the resilience project was run without its global setup';
    if (process.env.CI === 'true') test('PostgreSQL is installed', () => expect.fail(missing));
    else test.skip(`PostgreSQL half skipped: ${missing}`, () => {});
    return;
  }
  test('PostgreSQL (a database of its own)', { timeout: 300_000 }, async () => {
    const database = await freshPostgresDatabase();
    try {
      await crashScenario('PostgreSQL', { databaseUrl: database.url });
    } finally {
      await database.drop();
    }
  });
});
