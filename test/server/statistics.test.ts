// D34: a table that a large write changed is analyzed within seconds by autovacuum's rule (more than 50
// rows and a tenth of the table since its last analyze), so the planner does not go on planning with the
// table as it was (statistics.ts): on PGlite, which has no autovacuum, sampling few rows; on PostgreSQL,
// whose autovacuum may take a minute to get there, with its default sample. Autovacuum is off for the
// tables here, so that only the server's analyze can be seen.
import { describe, expect, inject, test } from 'vitest';
import type { Db } from '../../server/db';
import { openDb } from '../../server/db';
import { ANALYZE_CHECK_MS, analyzeChanged, QUICK_STATISTICS_TARGET } from '../../server/statistics';
import { freshPostgresDatabase } from './backends';
import { freshDataDir, migratedDataDir, removeDir, startTestServer } from './helpers';

const ROWS = 3000;
/** What PostgreSQL's default_statistics_target (100) keeps of 3,000 different values: 101 bounds. */
const DEFAULT_BOUNDS = 101;

interface Opened {
  db: Db;
  done: () => Promise<void>;
}
const BACKENDS = [
  {
    label: 'PGlite',
    bounds: { atMost: QUICK_STATISTICS_TARGET + 1 },
    open: async (): Promise<Opened> => {
      const dataDir = await freshDataDir('statistics');
      const db = await openDb({ databaseUrl: null, dataDir });
      return { db, done: async () => (await db.close(), removeDir(dataDir)) };
    },
  },
  {
    label: 'PostgreSQL',
    bounds: { atMost: DEFAULT_BOUNDS },
    open: async (): Promise<Opened> => {
      const database = await freshPostgresDatabase();
      const db = await openDb({ databaseUrl: database.url, dataDir: '' });
      return { db, done: async () => (await db.close(), await database.drop()) };
    },
  },
] as const;

/** Runs `sql` so that its row counts are reported as soon as its connection is idle, and waits for them. */
async function write(db: Db, table: string, sql: string, changed: number): Promise<void> {
  const before = await modified(db, table);
  await db.transaction(async (tx) => {
    await tx.query(sql);
    await tx.query('select pg_stat_force_next_flush()');
  });
  for (let i = 0; i < 100 && (await modified(db, table)) < before + changed; i++) await new Promise((r) => setTimeout(r, 50));
  expect(await modified(db, table)).toBe(before + changed);
}
const modified = async (db: Db, table: string) =>
  Number((await db.query<{ n: unknown }>('select n_mod_since_analyze as n from pg_stat_user_tables where relname = $1', [table]))[0]?.n ?? 0);

describe.each(BACKENDS)('D34 statistics on $label', ({ label, bounds, open }) => {
  test.skipIf(label === 'PostgreSQL' && !inject('postgresUrl'))(
    `D34 ${label} analyzes a table once more than 50 rows and a tenth of it changed${label === 'PGlite' ? ', sampling few rows' : ''}`,
    async () => {
      const { db, done } = await open();
      try {
        await db.query('create table things (id integer primary key, name text) with (autovacuum_enabled = false)');
        await db.query('create table "odd ""name""" (id integer) with (autovacuum_enabled = false)');
        await write(db, 'things', `insert into things select g, 'thing ' || g from generate_series(1, ${ROWS}) g`, ROWS);
        await write(db, 'odd "name"', 'insert into "odd ""name""" select generate_series(1, 60)', 60);
        expect((await analyzeChanged(db)).sort()).toEqual(['odd "name"', 'things']);
        const [stats] = await db.query<{ bounds: number }>(
          "select array_length(histogram_bounds::text::text[], 1) as bounds from pg_stats where tablename = 'things' and attname = 'name'",
        );
        expect(stats?.bounds).toBeGreaterThan(1);
        if (label === 'PGlite') expect(stats?.bounds).toBeLessThanOrEqual(bounds.atMost);
        else expect(stats?.bounds).toBe(bounds.atMost);
        expect(await analyzeChanged(db)).toEqual([]);

        // 50 + 3,000 / 10 = 350: 300 changed rows are not enough, 100 more are.
        await write(db, 'things', `update things set name = name || '!' where id <= 300`, 300);
        expect(await analyzeChanged(db)).toEqual([]);
        await write(db, 'things', `update things set name = name || '!' where id > 300 and id <= 400`, 100);
        expect(await analyzeChanged(db)).toEqual(['things']);
      } finally {
        await done();
      }
    },
  );

  test.skipIf(label === 'PostgreSQL' && !inject('postgresUrl'))(
    `D34 the ${label} server looks for changed tables every ANALYZE_CHECK_MS and analyzes them`,
    { timeout: ANALYZE_CHECK_MS * 4 },
    async () => {
      const pg = label === 'PostgreSQL' ? await freshPostgresDatabase() : null;
      const dataDir = pg ? null : await migratedDataDir('statistics-server');
      const server = await startTestServer(pg ? { databaseUrl: pg.url } : { dataDir: dataDir as string });
      try {
        await server.db.query('alter table customers set (autovacuum_enabled = false)');
        const [org] = await server.db.query<{ id: number }>("insert into organizations (name) values ('Stats') returning id");
        await server.db.query(`insert into customers (org_id, name) select $1, 'Customer ' || g from generate_series(1, 500) g`, [org?.id ?? 0]);
        const analyzed = async () =>
          (await server.db.query<{ at: Date | null }>("select last_analyze as at from pg_stat_user_tables where relname = 'customers'"))[0]?.at ?? null;
        expect(await analyzed()).toBeNull();
        // The counts reach the statistics within about a second (PostgreSQL: up to 10 s when idle).
        const deadline = Date.now() + ANALYZE_CHECK_MS * 3;
        while (!(await analyzed()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 500));
        expect(await analyzed()).toBeInstanceOf(Date);
      } finally {
        await server.close();
        if (dataDir) removeDir(dataDir);
        await pg?.drop();
      }
    },
  );
});

test('D34 statistics.ts asks each backend for its own kind of analyze', async () => {
  const sent: string[] = [];
  const fake = (kind: Db['kind']) =>
    ({
      kind,
      query: async (text: string) => (sent.push(text), text.includes('pg_stat_user_tables') ? [{ name: 'customers' }] : []),
      transaction: async (fn: (tx: unknown) => Promise<unknown>) => fn({ query: async (text: string) => (sent.push(text), []) }),
    }) as unknown as Db;
  await analyzeChanged(fake('postgres'));
  expect(sent.slice(1)).toEqual(['analyze (skip_locked) "customers"']);
  sent.length = 0;
  await analyzeChanged(fake('pglite'));
  expect(sent.slice(1)).toEqual([`select set_config('default_statistics_target', $1, true)`, 'analyze "customers"']);
});
