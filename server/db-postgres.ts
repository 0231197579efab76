// D2: PostgreSQL through postgres.js: a pool behind the gate (db-gate.ts), a connection of its own for
// health, and one listening for the writes of every instance sharing the database (D34's kept answers).
import { randomUUID } from 'node:crypto';
import postgres from 'postgres';
import type { Db, OpenOptions, Row, SqlParam } from './db';
import { DbGate } from './db-gate';
import { WriteGeneration } from './db-writes';

/** D34: PostgreSQL's statement timeout for ordinary calls. */
export const STATEMENT_TIMEOUT_MS = 5_000;

const PG_POOL_SIZE = 10;
/** D34: one key (organization, user, anon) holds at most this many pooled connections, so others always find one. */
const PG_SLOTS_PER_KEY = 6;
const PG_CONNECT_TIMEOUT_S = 10;
const PG_IDLE_TIMEOUT_S = 60;
/** D34: migration 14's channel: every committed write of any instance notifies it. */
const WRITES_CHANNEL = 'crm_writes';
/**
 * D34: the setting naming this instance on each of its pooled connections; migration 16's notifications
 * carry it, so the instance can leave its own writes aside (it moved its generation at their commit).
 */
export const INSTANCE_SETTING = 'crm.instance';
/** How soon a lost listening connection is opened again (answers are not kept meanwhile). */
const LISTEN_RETRY_MS = 1_000;

/**
 * D34 D16: this instance's write generation, moved on by its own writes (WriteGeneration) and by every
 * other instance's, which PostgreSQL notifies at their commit. Its own writes come back too, named by
 * `instance`: they are left aside, since the generation moved at their commit, and hearing them again
 * would drop the answers kept since. While the listening connection is not open, a write elsewhere could
 * go unseen: `listening()` is false and no answer is kept or used.
 */
function listenForWrites(url: string, generation: WriteGeneration, instance: string) {
  let listening = false;
  let closed = false;
  let retry: NodeJS.Timeout | null = null;
  const sql = postgres(url, {
    max: 1,
    connect_timeout: PG_CONNECT_TIMEOUT_S,
    idle_timeout: 0, // never: the connection is the subscription
    max_lifetime: null,
    fetch_types: false,
    onnotice: () => {},
    onnotify: (_channel: string, from: string) => {
      if (from !== instance) generation.bump();
    },
    onclose: () => {
      listening = false;
      generation.bump();
      later();
    },
  } as postgres.Options<Record<string, never>>);
  const later = () => {
    if (closed || retry) return;
    retry = setTimeout(() => {
      retry = null;
      void start();
    }, LISTEN_RETRY_MS);
    retry.unref();
  };
  async function start(): Promise<void> {
    try {
      await sql.unsafe(`listen ${WRITES_CHANNEL}`);
      generation.bump(); // whatever was kept before could have missed a write
      listening = true;
    } catch {
      later();
    }
  }
  return {
    start,
    listening: () => listening,
    close: async () => {
      closed = true;
      listening = false;
      if (retry) clearTimeout(retry);
      await sql.end({ timeout: 5 });
    },
  };
}

/** D2: a pool of PG_POOL_SIZE connections; the gate hands out its slots, so its queue and deadline are ours. */
export async function openPostgres(url: string, gateOptions: OpenOptions['gate'], statementTimeoutMs = STATEMENT_TIMEOUT_MS): Promise<Db> {
  const instance = randomUUID();
  const sql = postgres(url, {
    max: PG_POOL_SIZE,
    // D34: set on every pooled connection (the URL cannot name the instance: each process is its own).
    connection: { statement_timeout: statementTimeoutMs, [INSTANCE_SETTING]: instance },
    connect_timeout: PG_CONNECT_TIMEOUT_S,
    idle_timeout: PG_IDLE_TIMEOUT_S,
    onnotice: () => {}, // "relation already exists, skipping" and the like
  });
  // D2: health has a connection of its own, so a burst of slow queries holding the pool cannot delay it.
  const healthSql = postgres(url, { max: 1, connect_timeout: PG_CONNECT_TIMEOUT_S, idle_timeout: PG_IDLE_TIMEOUT_S, onnotice: () => {} });
  const run = async <R extends Row>(q: postgres.Sql | postgres.TransactionSql, text: string, params: readonly SqlParam[] = []) => [
    ...(await q.unsafe<R[]>(text, [...params], { prepare: true })),
  ];
  // D2: as many slots as connections, so the queue (and its deadline) is ours, not postgres.js's.
  const gate = new DbGate({ slots: PG_POOL_SIZE, keySlots: PG_SLOTS_PER_KEY, ...gateOptions });
  const generation = new WriteGeneration();
  const writes = listenForWrites(url, generation, instance);
  const db: Db = {
    kind: 'postgres',
    writeGeneration: () => (writes.listening() ? generation.value : null),
    query: (text, params) => generation.around(text, () => gate.run(() => run(sql, text, params))),
    transaction: (fn, opts = {}) =>
      gate.run(async () => {
        generation.bump();
        try {
          const result = await sql.begin(async (tx) => {
            if (opts.statementTimeoutMs !== undefined) await run(tx, "select set_config('statement_timeout', $1, true)", [String(opts.statementTimeoutMs)]);
            return fn({ query: (text, params) => run(tx, text, params) });
          });
          return result as Awaited<ReturnType<typeof fn>>;
        } finally {
          generation.bump(); // the commit is when the writes become visible
        }
      }),
    ping: async () => {
      await run(healthSql, 'select 1');
    },
    queueStats: () => gate.stats(),
    close: async () => {
      gate.close();
      await Promise.all([sql.end({ timeout: 5 }), healthSql.end({ timeout: 5 }), writes.close()]);
    },
  };
  await db.query('select 1'); // fail at start, not on the first request
  await writes.start(); // before migration 14 has run it hears nothing, and nothing is written but migrations
  return db;
}
