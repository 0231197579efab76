// D34 on PGlite: the planner's statistics kept up with the data, as PostgreSQL's autovacuum keeps them.
// PGlite has no autovacuum, so after a large write (a deleted field's values removed from 200,000
// customers, an import, a bulk action) it planned with the table as it was, until the hourly `vacuum
// analyze`: an export's pages took 800 ms instead of 130 ms, some statements seconds. PGlite does count
// each table's changed rows (pg_stat_user_tables), so every ANALYZE_CHECK_MS the server analyzes the
// tables that changed by autovacuum's own rule (50 rows and a tenth of the table), sampling fewer rows than
// the hourly one: PGlite has one connection, and a default ANALYZE of 250,000 customers holds it for 1.3 s
// where this one takes about 0.1 s. PostgreSQL's autovacuum does this beside the queries there.
import type { Db } from './db';

/** How often the server looks for tables that changed enough. */
export const ANALYZE_CHECK_MS = 10_000;
/** PostgreSQL's autovacuum_analyze_threshold and autovacuum_analyze_scale_factor (their defaults). */
export const ANALYZE_THRESHOLD = 50;
export const ANALYZE_SCALE_FACTOR = 0.1;
/** default_statistics_target for these analyzes: 300 × 10 rows sampled instead of 300 × 100. */
export const QUICK_STATISTICS_TARGET = 10;

const CHANGED_TABLES = `
  select s.relname as name
    from pg_stat_user_tables s join pg_class c on c.oid = s.relid
   where s.schemaname = 'public' and s.n_mod_since_analyze > $1 + $2 * greatest(c.reltuples, 0)
   order by s.n_mod_since_analyze desc`;

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Analyzes, on PGlite, each table changed enough since its last analyze; answers their names. */
export async function analyzeChanged(db: Db): Promise<string[]> {
  if (db.kind !== 'pglite') return [];
  const tables = await db.query<{ name: string }>(CHANGED_TABLES, [ANALYZE_THRESHOLD, ANALYZE_SCALE_FACTOR]);
  for (const { name } of tables) {
    await db.transaction(async (tx) => {
      // set_config rather than SET: a select leaves the worker's prepared statements in place.
      await tx.query(`select set_config('default_statistics_target', $1, true)`, [String(QUICK_STATISTICS_TARGET)]);
      await tx.query(`analyze ${quoteIdent(name)}`);
    });
  }
  return tables.map((t) => t.name);
}
