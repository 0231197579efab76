// D34: the planner's statistics kept up with the data right after a large write. Planned with a table as
// it was before an import of 10,000 (or a deleted field's values removed from 200,000 customers), a search
// took 300 ms instead of 20 ms on PostgreSQL and about 1 s on PGlite, an export's pages 800 ms instead of
// 130 ms. PGlite has no autovacuum at all (only the hourly `vacuum analyze`, server.ts); PostgreSQL's looks
// at a database once a minute and got to none of them while a person would go on working. Both count
// each table's changed rows (pg_stat_user_tables), so every ANALYZE_CHECK_MS the server analyzes the
// tables that changed by autovacuum's own rule (50 rows and a tenth of the table since the last analyze).
// PGlite has one connection: there the analyze samples fewer rows (a default one of 250,000 customers
// holds it for 1.3 s, this one about 0.1 s). PostgreSQL's runs beside the queries with its default sample,
// and skips a table another instance or autovacuum is analyzing.
import type { Db } from './db';

/** How often the server looks for tables that changed enough. */
export const ANALYZE_CHECK_MS = 10_000;
/** PostgreSQL's autovacuum_analyze_threshold and autovacuum_analyze_scale_factor (their defaults). */
export const ANALYZE_THRESHOLD = 50;
export const ANALYZE_SCALE_FACTOR = 0.1;
/** PGlite's default_statistics_target for these analyzes: 300 × 10 rows sampled instead of 300 × 100. */
export const QUICK_STATISTICS_TARGET = 10;

const CHANGED_TABLES = `
  select s.relname as name
    from pg_stat_user_tables s join pg_class c on c.oid = s.relid
   where s.schemaname = current_schema() and s.n_mod_since_analyze > $1 + $2 * greatest(c.reltuples, 0)
   order by s.n_mod_since_analyze desc`;

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Analyzes each table of the schema changed enough since its last analyze; answers their names. */
export async function analyzeChanged(db: Db): Promise<string[]> {
  const tables = await db.query<{ name: string }>(CHANGED_TABLES, [ANALYZE_THRESHOLD, ANALYZE_SCALE_FACTOR]);
  for (const { name } of tables) {
    if (db.kind === 'postgres') {
      await db.query(`analyze (skip_locked) ${quoteIdent(name)}`);
      continue;
    }
    await db.transaction(async (tx) => {
      // set_config rather than SET: a select leaves the worker's prepared statements in place.
      await tx.query(`select set_config('default_statistics_target', $1, true)`, [String(QUICK_STATISTICS_TARGET)]);
      await tx.query(`analyze ${quoteIdent(name)}`);
    });
  }
  return tables.map((t) => t.name);
}
