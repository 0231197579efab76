// D27: the export's SQL, scoped by organization like every customers query (STYLE).
import type { CustomerScope } from '../../customer-scope';
import { orderBy, SORT_KEYS, where, type ListFilter } from '../../customer-list';
import type { Queryable } from '../../db';

import { CUSTOMER_CSV_COLUMNS } from '../../csv';

/** The export's columns (server/csv.ts, which everything's export shares). */
export const EXPORT_COLUMNS = CUSTOMER_CSV_COLUMNS;
/** Rows per query while exporting: memory stays flat however long the list. */
export const EXPORT_BATCH = 1_000;

type ExportRow = Record<(typeof EXPORT_COLUMNS)[number], unknown> & { id: unknown; sort_key: unknown; custom: Record<string, unknown> | null };

/**
 * D27: the filtered list in its sort order, EXPORT_BATCH rows at a time. Each batch continues after the
 * last row's (sort key, id), so a deep batch costs what the first does (no OFFSET).
 */
export async function* exportCustomers(db: Queryable, scope: CustomerScope, f: Omit<ListFilter, 'page' | 'pageSize'>): AsyncGenerator<ExportRow[]> {
  const [key, dir] = SORT_KEYS[f.sort];
  let after: [unknown, unknown] | null = null;
  for (;;) {
    const w = where(scope, f);
    const n = w.params.length;
    const cursor: string = after ? ` and (${key('')}, id) ${dir === 'asc' ? '>' : '<'} ($${n + 1}, $${n + 2})` : '';
    const params: unknown[] = after ? [...w.params, ...after] : w.params;
    const rows: ExportRow[] = await db.query<ExportRow>(
      `select id, ${key('')} as sort_key, ${EXPORT_COLUMNS.join(', ')}, custom from customers
        where ${w.sql}${cursor} order by ${orderBy(f.sort)} limit ${EXPORT_BATCH}`,
      params as never,
    );
    if (rows.length === 0) return;
    yield rows;
    if (rows.length < EXPORT_BATCH) return;
    const last = rows[rows.length - 1]!;
    after = [last.sort_key, last.id];
  }
}
