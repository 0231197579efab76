// D56: the SQL over the values records hold (`custom` jsonb on customers and service locations), every
// query scoped by organization. A field's key is always a parameter, never part of the statement's text.
import type { CustomField, CustomFieldKind } from '../../../contract/custom-fields';
import type { Queryable } from '../../db';
import { num } from '../../db';

const TABLE: Record<CustomFieldKind, string> = { customer: 'customers', location: 'customer_locations' };

/** How many records of the organization (the trash included) hold a value of the field. */
export async function countValues(db: Queryable, orgId: number, f: Pick<CustomField, 'record_kind' | 'key'>): Promise<number> {
  const [row] = await db.query<{ n: unknown }>(`select count(*) as n from ${TABLE[f.record_kind]} where org_id = $1 and custom ? $2`, [orgId, f.key]);
  return num(row?.n ?? 0);
}

/**
 * D34: ids per statement while a deleted field's values are removed: a range of the primary key, so a
 * statement reads and changes at most this many records whatever the organization's size, and no plan can
 * make it scan the organization (a step that looked for its next holders cost 170 ms at 200,000 records).
 */
export const PURGE_SPAN = 200;

/** The table's highest id: the purge's ranges end there. */
export async function lastRecordId(db: Queryable, f: Pick<CustomField, 'record_kind'>): Promise<number> {
  const [row] = await db.query<{ id: unknown }>(`select coalesce(max(id), 0) as id from ${TABLE[f.record_kind]}`);
  return num(row?.id ?? 0);
}

/**
 * D56 D34: removes a deleted field's values from the organization's records (the trash included) whose id
 * is in [from, from + PURGE_SPAN). Not an edit: no version.
 */
export async function removeValuesFrom(db: Queryable, orgId: number, f: Pick<CustomField, 'record_kind' | 'key'>, from: number): Promise<void> {
  await db.query(`update ${TABLE[f.record_kind]} set custom = custom - $2 where org_id = $1 and id >= $3 and id < $4 and custom ? $2`, [
    orgId,
    f.key,
    from,
    from + PURGE_SPAN,
  ]);
}

/** D56 one choice → several: each value becomes a list of that one option. */
export async function choiceToChoices(tx: Queryable, orgId: number, f: Pick<CustomField, 'record_kind' | 'key'>): Promise<void> {
  await tx.query(
    `update ${TABLE[f.record_kind]} set custom = jsonb_set(custom, array[$2::text], jsonb_build_array(custom -> $2))
      where org_id = $1 and jsonb_typeof(custom -> $2) = 'string'`,
    [orgId, f.key],
  );
}

/** D56 long text → text: how many values would not fit in text (too long, or with line breaks). */
export async function valuesTooLongForText(db: Queryable, orgId: number, f: Pick<CustomField, 'record_kind' | 'key'>, max: number): Promise<number> {
  const [row] = await db.query<{ n: unknown }>(
    `select count(*) as n from ${TABLE[f.record_kind]} where org_id = $1 and custom ? $2 and (char_length(custom ->> $2) > $3 or custom ->> $2 ~ '[\\r\\n\\t]')`,
    [orgId, f.key, max],
  );
  return num(row?.n ?? 0);
}

/** D56: how many records hold each of these options (a choice, or one of several choices). */
export async function optionUse(db: Queryable, orgId: number, f: Pick<CustomField, 'record_kind' | 'key'>, ids: string[]): Promise<Map<string, number>> {
  const rows = await db.query<{ id: string; n: unknown }>(
    `select o.id, count(r.*) as n from unnest($3::text[]) o(id)
       left join ${TABLE[f.record_kind]} r on r.org_id = $1 and (r.custom -> $2 = to_jsonb(o.id) or r.custom -> $2 @> jsonb_build_array(o.id))
      group by o.id`,
    [orgId, f.key, ids as never],
  );
  return new Map(rows.map((r) => [r.id, num(r.n)]));
}

/** D56: whether two live customers already share a value of the field (before it is made unique). */
export async function hasDuplicateValues(db: Queryable, orgId: number, f: Pick<CustomField, 'key' | 'type'>): Promise<boolean> {
  const key = f.type === 'number' ? 'custom -> $2' : 'lower(custom ->> $2)';
  const rows = await db.query(`select 1 from customers where org_id = $1 and deleted_at is null and custom ? $2 group by ${key} having count(*) > 1 limit 1`, [
    orgId,
    f.key,
  ]);
  return rows.length > 0;
}
