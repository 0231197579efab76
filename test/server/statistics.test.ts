// D34 on PGlite: a table that a large write changed is analyzed by autovacuum's rule (more than 50 rows
// and a tenth of the table since its last analyze), sampling few rows, so the planner does not go on
// planning with the table as it was until the hourly vacuum (statistics.ts). PostgreSQL's autovacuum
// does this itself: nothing is run there.
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Db } from '../../server/db';
import { openDb } from '../../server/db';
import { ANALYZE_CHECK_MS, analyzeChanged, QUICK_STATISTICS_TARGET } from '../../server/statistics';
import { freshDataDir, migratedDataDir, removeDir, startTestServer } from './helpers';

const ROWS = 3000;
let dataDir: string;
let db: Db;

/** PGlite reports a statement's row counts when it is next idle; this makes the next report immediate. */
async function flushCounts(): Promise<void> {
  await db.query('select pg_stat_force_next_flush()');
  await db.query('select 1');
}

beforeAll(async () => {
  dataDir = await freshDataDir('statistics');
  db = await openDb({ databaseUrl: null, dataDir });
  await db.query('create table things (id integer primary key, name text)');
  await db.query('create table "odd ""name""" (id integer)');
});
afterAll(async () => {
  await db?.close();
  if (dataDir) removeDir(dataDir);
});

test('D34 PGlite analyzes a table once more than 50 rows and a tenth of it changed, sampling few rows', async () => {
  await db.query(`insert into things select g, 'thing ' || g from generate_series(1, ${ROWS}) g`);
  await db.query('insert into "odd ""name""" select generate_series(1, 60)');
  await flushCounts();
  expect((await analyzeChanged(db)).sort()).toEqual(['odd "name"', 'things']);
  const [stats] = await db.query<{ bounds: number }>(
    "select array_length(histogram_bounds::text::text[], 1) as bounds from pg_stats where tablename = 'things' and attname = 'name'",
  );
  // A default analyze keeps 101 bounds of 3,000 different names; the quick one at most its target's + 1.
  expect(stats?.bounds).toBeGreaterThan(1);
  expect(stats?.bounds).toBeLessThanOrEqual(QUICK_STATISTICS_TARGET + 1);

  await flushCounts();
  expect(await analyzeChanged(db)).toEqual([]);

  // 50 + 3,000 / 10 = 350: 300 changed rows are not enough, 100 more are.
  await db.query('update things set name = name || $1 where id <= 300', ['!']);
  await flushCounts();
  expect(await analyzeChanged(db)).toEqual([]);
  await db.query('update things set name = name || $1 where id > 300 and id <= 400', ['!']);
  await flushCounts();
  expect(await analyzeChanged(db)).toEqual(['things']);
});

test('D34 on PostgreSQL the statistics are left to its autovacuum: no statement is sent', async () => {
  const sent: string[] = [];
  const postgresDb = {
    kind: 'postgres',
    query: async (text: string) => (sent.push(text), []),
    transaction: async () => sent.push('transaction'),
  } as unknown as Db;
  expect(await analyzeChanged(postgresDb)).toEqual([]);
  expect(sent).toEqual([]);
});

test('D34 the PGlite server looks for changed tables every ANALYZE_CHECK_MS and analyzes them', { timeout: ANALYZE_CHECK_MS * 3 }, async () => {
  const dir = await migratedDataDir('statistics-server');
  const server = await startTestServer({ dataDir: dir });
  try {
    const [org] = await server.db.query<{ id: number }>("insert into organizations (name) values ('Stats') returning id");
    await server.db.query(`insert into customers (org_id, name) select $1, 'Customer ' || g from generate_series(1, 500) g`, [org?.id ?? 0]);
    const analyzed = async () =>
      (await server.db.query<{ at: Date | null }>("select last_analyze as at from pg_stat_user_tables where relname = 'customers'"))[0]?.at ?? null;
    expect(await analyzed()).toBeNull();
    const deadline = Date.now() + ANALYZE_CHECK_MS * 2.5;
    while (!(await analyzed()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 500));
    expect(await analyzed()).toBeInstanceOf(Date);
  } finally {
    await server.close();
    removeDir(dir);
  }
});
