// D60: the organization's last mapping for a header row, offered again for the next file with it.
import type { ImportGroupBy, ImportTarget } from '../../../contract/import-mapping';
import type { Queryable } from '../../db';

export interface SavedMapping {
  columns: (ImportTarget | null)[];
  groupBy: ImportGroupBy;
}

/** D60: the organization's last mapping for this header row, or null. */
export async function loadMapping(db: Queryable, orgId: number, hash: string): Promise<SavedMapping | null> {
  const [row] = await db.query<{ columns: string[]; group_by: string }>('select columns, group_by from import_mappings where org_id = $1 and header_hash = $2', [
    orgId,
    hash,
  ]);
  if (!row) return null;
  const by = row.group_by;
  return { columns: row.columns.map((c) => (c === '' ? null : c)), groupBy: by === 'email' || by === 'none' ? by : Number(by) };
}

/** D60: written by a successful import; the next file with this header row is offered it. */
export async function saveMapping(db: Queryable, orgId: number, hash: string, mapping: SavedMapping, now: Date): Promise<void> {
  await db.query(
    `insert into import_mappings (org_id, header_hash, columns, group_by, updated_at) values ($1, $2, $3, $4, $5)
     on conflict (org_id, header_hash) do update set columns = excluded.columns, group_by = excluded.group_by, updated_at = excluded.updated_at`,
    [orgId, hash, mapping.columns.map((c) => c ?? ''), String(mapping.groupBy), now] as never,
  );
}
