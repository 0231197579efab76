// D2: the embedded database in its worker thread, the gate in front of both backends, and what a
// saturated server answers. D8: an operation refused by the gate never runs late.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import type { Db } from '../../server/db';
import { isConnectionError, openDb, WORKER_STOPPED_CODE } from '../../server/db';
import { DB_KEY_QUEUE_LIMIT, DB_QUEUE_LIMIT, DB_QUEUE_TIMEOUT_MS, DbGate } from '../../server/db-gate';
import { SaturatedError } from '../../server/db-gate-types';
import { withGateKey } from '../../server/gate-key';
import { freshPostgresDatabase } from './backends';
import { client, freshDataDir, migratedDataDir, orgId, removeDir, startTestServer, tempDir, tokens, type TestServer } from './helpers';
import { untilReleased } from './until-released';

/** The Db tests' own deadline and limit, so refusals show in a fraction of the server's figures. */
const TEST_QUEUE_TIMEOUT_MS = 300;
const TEST_QUEUE_LIMIT = 3;
/** Long enough that an event loop blocked by it could not answer anything meanwhile; never a budget. */
const LONG_QUERY_S = 3;
const CLIENTS = 50;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A GET on a connection of its own (no keep-alive pool): its status. */
function freshGet(url: string): Promise<{ status: number }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent: false }, (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0 }));
      })
      .on('error', reject);
  });
}

type Answer = { status: number; retry: string | undefined; body: string };

/** `count` GETs of `url` at once, each on a keep-alive connection of its own: their answers. */
async function getAtOnce(url: string, count: number, headers: Record<string, string>): Promise<Answer[]> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: count });
  try {
    return await Promise.all(
      Array.from(
        { length: count },
        () =>
          new Promise<Answer>((resolve, reject) => {
            http
              .get(url, { agent, headers }, (res) => {
                let body = '';
                res.setEncoding('utf8').on('data', (c: string) => (body += c));
                res.on('end', () => resolve({ status: res.statusCode ?? 0, retry: res.headers['retry-after'], body }));
              })
              .on('error', reject);
          }),
      ),
    );
  } finally {
    agent.destroy();
  }
}

/** Whether `p` has settled yet (checked after pending callbacks have run). */
async function settled(p: Promise<unknown>): Promise<boolean> {
  let done = false;
  void p.then(
    () => (done = true),
    () => (done = true),
  );
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

/**
 * D56: a statement sent with `replan` is planned for its values at every execution (an unnamed statement);
 * any other is prepared once under a name. Seen from the session itself, in one transaction (one connection).
 */
async function expectReplanUnnamed(db: Db): Promise<void> {
  const prepared = await db.transaction(async (tx) => {
    await tx.query('select $1::int as kept_prepared', [1]);
    await tx.query('select $1::int as planned_each_time', [1], { replan: true });
    return tx.query<{ statement: string }>("select statement from pg_prepared_statements where statement like 'select $1::int as %'");
  });
  expect(prepared.map((r) => r.statement)).toEqual(['select $1::int as kept_prepared']);
  // Outside a transaction too: the answer is the same, only the statement is not kept.
  expect(await db.query('select $1::int + 1 as n', [41], { replan: true })).toEqual([{ n: 42 }]);
}

describe('PGlite behind its worker and the gate', () => {
  let dataDir: string;
  let db: Db;

  beforeAll(async () => {
    dataDir = await freshDataDir('db');
    db = await openDb({ databaseUrl: null, dataDir, gate: { queueTimeoutMs: TEST_QUEUE_TIMEOUT_MS, queueLimit: TEST_QUEUE_LIMIT } });
    await db.query('create table items (id integer primary key, note text)');
  });
  afterAll(async () => {
    await db?.close();
    if (dataDir) removeDir(dataDir);
  });

  test('D2 the worker-backed database answers queries; dates, jsonb and parameters survive the thread hop', async () => {
    expect(db.kind).toBe('pglite');
    const at = new Date('2024-05-06T07:08:09.123Z');
    const [row] = await db.query<{ n: number; at: Date; doc: unknown; s: string }>(
      `select 1 + $1::int as n, $2::timestamptz as at, '{"a": [1, "x"]}'::jsonb as doc, $3::text as s`,
      [41, at, 'é'],
    );
    expect(row).toEqual({ n: 42, at, doc: { a: [1, 'x'] }, s: 'é' });
    await expect(db.ping()).resolves.toBeUndefined();
  });

  test('D56 a statement that asks to be replanned is not kept prepared (PGlite)', () => expectReplanUnnamed(db));

  test('D2 a transaction commits when its function resolves and rolls back when it throws', async () => {
    const result = await db.transaction(async (tx) => {
      await tx.query('insert into items (id, note) values ($1, $2)', [1, 'kept']);
      return (await tx.query<{ n: number }>('select count(*)::int as n from items'))[0]?.n;
    });
    expect(result).toBe(1);
    await expect(
      db.transaction(async (tx) => {
        await tx.query('insert into items (id, note) values ($1, $2)', [2, 'undone']);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(await db.query('select id, note from items order by id')).toEqual([{ id: 1, note: 'kept' }]);
  });

  test('D2 a SQL error crosses the thread with its SQLSTATE code and fields, in and out of a transaction', async () => {
    const err = await db.query('insert into items (id) values (1)').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect(err).toMatchObject({ code: '23505', constraint: 'items_pkey', detail: 'Key (id)=(1) already exists.' });
    expect((err as Error).message).toMatch(/duplicate key/);
    const inTx = await db.transaction((tx) => tx.query('select * from missing_table')).catch((e: unknown) => e);
    expect(inTx).toMatchObject({ code: '42P01' });
    expect(await db.query('select 1 as ok')).toEqual([{ ok: 1 }]); // the failed transaction was rolled back
  });

  test('D2 pg_trgm is available to the embedded database', async () => {
    await db.query('create extension if not exists pg_trgm');
    const [row] = await db.query<{ s: number }>("select similarity('abc', 'abd') as s");
    expect(row?.s).toBeCloseTo(1 / 3, 5);
  });

  test('D2 the event loop stays free while PGlite runs a long query: a timer set after it fires before its answer', async () => {
    const long = db.query(`select pg_sleep(${LONG_QUERY_S})`);
    // On the HTTP thread the query would block the loop: its answer would come before any timer.
    await new Promise((resolve) => setTimeout(resolve, 1));
    expect(await settled(long)).toBe(false);
    await long;
  });

  test('D2 D8 an operation that waits past its deadline is refused and never runs', async () => {
    const hold = db.transaction((tx) => tx.query(`select pg_sleep(${(TEST_QUEUE_TIMEOUT_MS * 2) / 1000})`));
    const late = db.query("insert into items (id, note) values (10, 'late')").catch((e: unknown) => e);
    const lateTx = db.transaction((tx) => tx.query("insert into items (id, note) values (11, 'late')")).catch((e: unknown) => e);
    expect(db.queueStats()).toMatchObject({ running: 1, queued: 2 });
    await sleep(TEST_QUEUE_TIMEOUT_MS / 2);
    expect(db.queueStats().oldestWaitMs).toBeGreaterThan(0);
    expect(await late).toBeInstanceOf(SaturatedError);
    expect(await lateTx).toMatchObject({ reason: 'queue_timeout' });
    await hold; // a started transaction runs to the end
    expect(await db.query('select id from items where id >= 10')).toEqual([]);
    expect(db.queueStats()).toMatchObject({ running: 0, queued: 0, oldestWaitMs: 0 });
  });

  test('D2 an operation arriving at a full queue is refused at once and never runs', async () => {
    const { done: released, release } = untilReleased();
    const hold = db.transaction(() => released);
    const queued = Array.from({ length: TEST_QUEUE_LIMIT }, (_, i) => db.query('select $1::int as i', [i]));
    const refused = await db.query("insert into items (id, note) values (20, 'refused')").catch((e: unknown) => e);
    expect(refused).toMatchObject({ reason: 'queue_full' });
    expect(db.queueStats()).toMatchObject({ running: 1, queued: TEST_QUEUE_LIMIT }); // refused without waiting
    release();
    expect((await Promise.all(queued)).map((rows) => rows[0])).toEqual([{ i: 0 }, { i: 1 }, { i: 2 }]);
    await hold;
    expect(await db.query('select id from items where id = 20')).toEqual([]);
  });
});

// A database of its own in the run's PostgreSQL (global-setup.ts), as every server test file has.
describe.skipIf(!inject('postgresUrl'))('PostgreSQL behind the gate', () => {
  let database: Awaited<ReturnType<typeof freshPostgresDatabase>> | null = null;
  let db: Db;

  beforeAll(async () => {
    database = await freshPostgresDatabase();
    db = await openDb({ databaseUrl: database.url, dataDir: '', gate: { queueTimeoutMs: TEST_QUEUE_TIMEOUT_MS, queueLimit: TEST_QUEUE_LIMIT } });
    await db.query('create table items (id integer primary key)');
  });
  afterAll(async () => {
    await db?.close();
    await database?.drop();
  });

  test('D2 D8 PostgreSQL gets one slot per pooled connection; an operation past its deadline never runs', async () => {
    const slots = db.queueStats().slots;
    // D34: one key holds at most 6 connections, so the holds come from as many organizations.
    const holds = Array.from({ length: slots }, (_, i) => withGateKey(() => db.query(`select pg_sleep(${(TEST_QUEUE_TIMEOUT_MS * 2) / 1000})`), `org:${i}`));
    const late = db.transaction((tx) => tx.query('insert into items (id) values (1)')).catch((e: unknown) => e);
    expect(db.queueStats()).toMatchObject({ slots: 10, running: 10, queued: 1 });
    expect(await late).toMatchObject({ reason: 'queue_timeout' });
    await db.ping(); // D2 health: not refused by the gate, whatever its queue
    await Promise.all(holds);
    expect(await db.query('select id from items')).toEqual([]);
    const err = await db.query('insert into items (id) values (2), (2)').catch((e: unknown) => e);
    expect(err).toMatchObject({ code: '23505' });
  });

  test('D56 a statement that asks to be replanned is not kept prepared (PostgreSQL)', () => expectReplanUnnamed(db));

  test('D2 the health check has a connection of its own: answered while every pooled connection waits on a lock', async () => {
    const slots = db.queueStats().slots;
    // A session outside the server takes a lock; every pooled connection then waits on it, without end.
    const locker = postgres(database!.url, { max: 1, onnotice: () => {} });
    try {
      await locker`select pg_advisory_lock(4242)`;
      const holds = Array.from({ length: slots }, (_, i) => withGateKey(() => db.query('select pg_advisory_xact_lock_shared(4242)'), `org:${i}`));
      await expect.poll(async () => Number((await locker`select count(*)::int as n from pg_locks where locktype = 'advisory' and not granted`)[0]!.n)).toBe(slots);
      let answered = false;
      const ping = db.ping().then(() => (answered = true));
      // Not a timing budget: without a connection of its own the ping waits behind the lock for ever.
      await expect.poll(() => answered, { timeout: 10_000 }).toBe(true);
      await locker`select pg_advisory_unlock(4242)`;
      await Promise.all([ping, ...holds]);
    } finally {
      await locker.end({ timeout: 5 });
    }
  });
});

describe('the gate', () => {
  test('D2 operations take the slots in arrival order; the rest wait', async () => {
    const gate = new DbGate({ slots: 2 });
    const order: number[] = [];
    let running = 0;
    let most = 0;
    await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        gate.run(async () => {
          order.push(i);
          most = Math.max(most, ++running);
          await sleep(5);
          running--;
        }),
      ),
    );
    expect(order).toEqual([0, 1, 2, 3, 4, 5]);
    expect(most).toBe(2);
    expect(gate.stats()).toMatchObject({ running: 0, queued: 0, refused: 0 });
  });

  test('D2 D8 a waiter whose deadline passed while the event loop was blocked is refused, not run late', async () => {
    const gate = new DbGate({ slots: 1, queueTimeoutMs: 50 });
    let ran = 0;
    const hold = gate.run(() =>
      sleep(0).then(() => {
        const until = performance.now() + 80;
        while (performance.now() < until); // blocks timers too: only the check before running can refuse
      }),
    );
    const late = gate.run(async () => void ran++).catch((e: unknown) => e);
    await hold;
    expect(await late).toBeInstanceOf(SaturatedError);
    expect(ran).toBe(0);
  });

  test('D2 the server defaults: a 2 s deadline and a 500-operation queue', () => {
    expect(DB_QUEUE_TIMEOUT_MS).toBe(2_000);
    expect(DB_QUEUE_LIMIT).toBe(500);
    expect(DB_KEY_QUEUE_LIMIT).toBe(200);
  });
});

describe('a crashed PGlite worker', () => {
  test('D2 pending and later calls are rejected with a clear error that counts as the database being unavailable', async () => {
    const dir = tempDir('crash');
    const script = path.join(dir, 'crashing-worker.mjs');
    writeFileSync(
      script,
      `import { parentPort } from 'node:worker_threads';
parentPort.postMessage({ ready: true });
parentPort.on('message', () => { throw new Error('boom'); });\n`,
    );
    const db = await openDb({ databaseUrl: null, dataDir: dir, pgliteWorker: pathToFileURL(script) });
    try {
      const err = await db.query('select 1').catch((e: unknown) => e);
      expect(err).toMatchObject({ code: WORKER_STOPPED_CODE });
      expect((err as Error).message).toMatch(/PGlite worker stopped: boom/);
      expect(isConnectionError(err)).toBe(true); // answered 503 and logged by the HTTP layer
      await expect(db.transaction((tx) => tx.query('select 1'))).rejects.toMatchObject({ code: WORKER_STOPPED_CODE });
      await expect(db.ping()).rejects.toMatchObject({ code: WORKER_STOPPED_CODE });
    } finally {
      await db.close();
      removeDir(dir);
    }
  });
});

describe('the data directory lock', () => {
  test('D2 a lock left by a killed server whose pid this process now has is taken over; held here, it refuses a second opener', async () => {
    const dir = tempDir('lock');
    const lock = path.join(dir, 'server.lock');
    // A worker that answers every request: the lock is taken before PGlite would start.
    const script = path.join(dir, 'idle-worker.mjs');
    writeFileSync(
      script,
      `import { parentPort } from 'node:worker_threads';
parentPort.postMessage({ ready: true });
parentPort.on('message', (m) => { parentPort.postMessage({ id: m.id, ok: true, rows: [] }); if (m.op === 'close') parentPort.close(); });\n`,
    );
    // What a SIGKILL leaves behind; the next start often has the same pid (a container's server is pid 1).
    writeFileSync(lock, String(process.pid));
    const open = () => openDb({ databaseUrl: null, dataDir: dir, pgliteWorker: pathToFileURL(script) });
    try {
      const db = await open();
      try {
        expect(readFileSync(lock, 'utf8')).toBe(String(process.pid));
        await expect(open()).rejects.toThrow(/in use by process/);
      } finally {
        await db.close();
      }
      expect(existsSync(lock)).toBe(false);
    } finally {
      removeDir(dir);
    }
  });
});

describe('a busy server over HTTP', () => {
  let dataDir = '';
  let server: TestServer;
  let access: string;

  beforeAll(async () => {
    dataDir = await migratedDataDir('busy'); // migrating an empty database is defaults.test.ts's
    server = await startTestServer({ dataDir });
    access = tokens(await client(server.url).login('owner@demo.test')).access_token;
  });
  afterAll(async () => {
    await server?.close();
    if (dataDir) removeDir(dataDir);
  });

  test('D2 a new connection is answered while PGlite runs a long query, before its answer', async () => {
    const long = server.db.query(`select pg_sleep(${LONG_QUERY_S})`);
    const r = await freshGet(new URL('/api/no-such-endpoint/', server.url).toString());
    expect(r.status).toBe(404);
    expect(await settled(long)).toBe(false);
    await long;
  });

  test('D2 the health check on a new connection is answered while clients hammer the API and the database is held', async () => {
    const list = new URL('/api/v1/customers/', server.url).toString();
    const acme = await orgId(server.db, 'Acme Plumbing');
    const { done: released, release } = untilReleased();
    const hold = server.db.transaction(() => released); // the one slot is taken until the test lets it go
    const hammer = getAtOnce(list, CLIENTS, { Authorization: `Bearer ${access}`, 'X-Organization-ID': String(acme) });
    await expect.poll(() => server.db.queueStats().queued).toBeGreaterThan(0);
    for (let i = 0; i < 5; i++) expect((await freshGet(new URL('/api/health/', server.url).toString())).status).toBe(200);
    expect(await settled(hold)).toBe(false); // every health check was answered before the held slot was released
    release();
    const [, answers] = await Promise.all([hold, hammer]);
    // Answered, or refused as busy when the health checks took longer than the queue's deadline.
    expect(answers.map((a) => a.status).filter((s) => s !== 200 && s !== 503)).toEqual([]);
    expect(answers).toHaveLength(CLIENTS);
  });

  test('D2 D34 a flood beyond the queue is refused while the database is held: the queued get 503 server_busy at the deadline, the rest 429 at once', async () => {
    const extra = 40;
    const total = DB_KEY_QUEUE_LIMIT + extra;
    // The customers list reads the database on every call (the caller's own row may be remembered).
    const list = new URL('/api/v1/customers/', server.url).toString();
    const acme = await orgId(server.db, 'Acme Plumbing');
    await server.db.query('update users set first_name = first_name where id = 0');
    const { done: released, release } = untilReleased();
    const hold = server.db.transaction(() => released); // every request below queues
    const gateBefore = server.db.queueStats();
    const answers = await getAtOnce(list, total, { Authorization: `Bearer ${access}`, 'X-Organization-ID': String(acme) });
    // Every answer came while the database was still held: none waited for it.
    expect(await settled(hold)).toBe(false);
    release();
    await hold;
    const busy = answers.filter((a) => a.status === 503);
    const limited = answers.filter((a) => a.status === 429);
    expect(busy.length + limited.length).toBe(total);
    // One caller's queue holds DB_KEY_QUEUE_LIMIT: those waited to the deadline, the rest were refused on
    // arrival. On a starved machine the requests arrive over more than the 2 s deadline, and the first
    // queued, refused at it, free their places before the last arrive: then more wait and fewer get 429.
    expect(busy.length).toBeGreaterThanOrEqual(DB_KEY_QUEUE_LIMIT);
    expect(limited.length).toBeLessThanOrEqual(extra);
    const gateAfter = server.db.queueStats();
    expect({ refused: gateAfter.refused - gateBefore.refused, limited: gateAfter.limited - gateBefore.limited }).toEqual({
      refused: busy.length,
      limited: limited.length,
    });
    for (const a of busy) expect(JSON.parse(a.body)).toEqual({ detail: 'The server is busy; try again shortly', code: 'server_busy' });
    for (const a of limited) expect(JSON.parse(a.body)).toMatchObject({ code: 'too_many_requests' });
    for (const a of answers) expect(a.retry).toBe('1');
    expect((await freshGet(new URL('/api/health/', server.url).toString())).status).toBe(200);
    expect((await client(server.url).me(access)).status).toBe(200);
  });
});
