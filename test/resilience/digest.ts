// A digest of what the database holds: sha256 over every table the catalog lists, each read in its
// primary key's order, so "nothing changed" can be proved after a run of requests that must all fail.
import { createHash } from 'node:crypto';
import type { Db } from '../../server/db';

/** The tables of the public schema with their primary key columns (in key order; none for a table without one). */
export async function tables(db: Db): Promise<{ name: string; key: string[] }[]> {
  const rows = await db.query<{ name: string; key: string[] | string | null }>(
    `select c.relname as name,
            (select array_agg(a.attname::text order by k.ord)
               from pg_index i
               cross join lateral unnest(i.indkey) with ordinality as k(attnum, ord)
               join pg_attribute a on a.attrelid = i.indrelid and a.attnum = k.attnum
              where i.indrelid = c.oid and i.indisprimary) as key
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind in ('r', 'p')
      order by c.relname`,
  );
  return rows.map((r) => ({
    name: r.name,
    // postgres.js gives arrays; PGlite may give the text form {a,b}
    key: Array.isArray(r.key)
      ? r.key
      : typeof r.key === 'string'
        ? r.key
            .replace(/^\{|\}$/g, '')
            .split(',')
            .filter(Boolean)
        : [],
  }));
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Per table, sha256 of its rows as JSON in key order (whole-row order without a key), and the row count. */
export async function digest(db: Db, exclude: readonly string[] = []): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const t of await tables(db)) {
    if (exclude.includes(t.name)) continue;
    const order = t.key.length ? t.key.map(quote).join(', ') : 't::text';
    const [row] = await db.query<{ n: unknown; rows: string | null }>(
      `select count(*) as n, string_agg(row_to_json(t)::text, E'\\n' order by ${order}) as rows from ${quote(t.name)} t`,
    );
    out[t.name] = `${String(row?.n)}:${createHash('sha256')
      .update(row?.rows ?? '')
      .digest('hex')
      .slice(0, 16)}`;
  }
  return out;
}

/** The tables whose digest differs between two digests. */
export const changedTables = (before: Record<string, string>, after: Record<string, string>) =>
  [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((t) => before[t] !== after[t]);
