// D2: PostgreSQL through postgres.js: a pool behind the gate (db-gate.ts) and a connection of its own for health.
import postgres from 'postgres';
import type { Db, OpenOptions, QueryOptions, Row, SqlParam } from './db';
import { DbGate } from './db-gate';

/** D34: PostgreSQL's statement timeout for ordinary calls. */
export const STATEMENT_TIMEOUT_MS = 5_000;

const PG_POOL_SIZE = 10;
/** D34: one key (organization, user, anon) holds at most this many pooled connections, so others always find one. */
const PG_SLOTS_PER_KEY = 6;
const PG_CONNECT_TIMEOUT_S = 10;
const PG_IDLE_TIMEOUT_S = 60;
/** D2: a pool of PG_POOL_SIZE connections; the gate hands out its slots, so its queue and deadline are ours. */
export async function openPostgres(url: string, gateOptions: OpenOptions['gate'], statementTimeoutMs = STATEMENT_TIMEOUT_MS): Promise<Db> {
  const sql = postgres(url, {
    max: PG_POOL_SIZE,
    // No JIT: it is meant for long analytic queries, and it spent 0.9 s compiling a search that runs in 80 ms
    // (docs/performance.md). Statements stay prepared with the plan cache's own choice: planning every
    // execution for its values halved `me`'s and the list's throughput (bench/api.mjs); only a statement
    // that asks (QueryOptions.replan) goes unnamed, which PostgreSQL plans for the values it is given.
    connection: { statement_timeout: statementTimeoutMs, jit: 'off' },
    connect_timeout: PG_CONNECT_TIMEOUT_S,
    idle_timeout: PG_IDLE_TIMEOUT_S,
    onnotice: () => {}, // "relation already exists, skipping" and the like
  });
  // D2: health has a connection of its own, so a burst of slow queries holding the pool cannot delay it.
  const healthSql = postgres(url, { max: 1, connect_timeout: PG_CONNECT_TIMEOUT_S, idle_timeout: PG_IDLE_TIMEOUT_S, onnotice: () => {} });
  const run = async <R extends Row>(q: postgres.Sql | postgres.TransactionSql, text: string, params: readonly SqlParam[] = [], opts: QueryOptions = {}) => [
    ...(await q.unsafe<R[]>(text, [...params], { prepare: !opts.replan })),
  ];
  // D2: as many slots as connections, so the queue (and its deadline) is ours, not postgres.js's.
  const gate = new DbGate({ slots: PG_POOL_SIZE, keySlots: PG_SLOTS_PER_KEY, ...gateOptions });
  const db: Db = {
    kind: 'postgres',
    query: (text, params, opts) => gate.run(() => run(sql, text, params, opts)),
    transaction: (fn, opts = {}) =>
      gate.run(async () => {
        const result = await sql.begin(async (tx) => {
          if (opts.statementTimeoutMs !== undefined) await run(tx, "select set_config('statement_timeout', $1, true)", [String(opts.statementTimeoutMs)]);
          return fn({ query: (text, params, opts) => run(tx, text, params, opts) });
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
