// D56: what the customers feature and the custom-fields feature share of the definitions' SQL: their
// locks, reading an organization's fields, and who holds a unique field's value. Scoped by organization.
import type { CustomField, CustomFieldKind, CustomFieldOption, CustomFieldType, CustomValue } from '../contract/custom-fields';
import type { PersonRef } from '../contract/customers';
import type { Queryable } from './db';
import { num } from './db';

/** D56: the advisory lock namespace of one organization's definitions (pg_advisory_xact_lock(namespace, org)). */
const FIELDS_LOCK_NAMESPACE = 72_410_301;

/**
 * D56: a change to the definitions takes the organization's lock alone; a record's write takes it shared,
 * before it reads them, so it checks its values against the definitions it commits with.
 */
export async function lockFields(tx: Queryable, orgId: number, mode: 'change' | 'use'): Promise<void> {
  await tx.query(`select ${mode === 'change' ? 'pg_advisory_xact_lock' : 'pg_advisory_xact_lock_shared'}($1, $2)`, [FIELDS_LOCK_NAMESPACE, orgId]);
}

export const FIELD_COLUMNS = 'id, record_kind, key, label, type, options, help, required, unique_values, position, archived_at, created_at';

export type FieldRow = {
  id: unknown;
  record_kind: CustomFieldKind;
  key: string;
  label: string;
  type: CustomFieldType;
  options: unknown;
  help: string | null;
  required: boolean;
  unique_values: boolean;
  position: unknown;
  archived_at: Date | null;
  created_at: Date;
};

export const toField = (r: FieldRow): CustomField => ({
  id: num(r.id),
  record_kind: r.record_kind,
  key: r.key,
  label: r.label,
  type: r.type,
  options: (typeof r.options === 'string' ? JSON.parse(r.options) : r.options) as CustomFieldOption[],
  help: r.help,
  required: r.required,
  unique: r.unique_values,
  position: num(r.position),
  archived: r.archived_at !== null,
  archived_at: r.archived_at?.toISOString() ?? null,
  created_at: r.created_at.toISOString(),
});

/** The organization's fields (of one kind, or all), in their order; archived ones included, deleted ones (D56, values still being removed) not. */
export async function listFields(db: Queryable, orgId: number, kind: CustomFieldKind | null = null): Promise<CustomField[]> {
  const rows = await db.query<FieldRow>(
    `select ${FIELD_COLUMNS} from custom_fields where org_id = $1 and deleted_at is null and ($2::text is null or record_kind = $2) order by record_kind, position, id`,
    [orgId, kind],
  );
  return rows.map(toField);
}

/** D56: the advisory lock namespace of one unique field's values (pg_advisory_xact_lock(namespace, field)). */
const VALUE_LOCK_NAMESPACE = 72_410_302;

/** D56: text compares regardless of case; a number as a number. The value's SQL for the field's type. */
const compared = (f: Pick<CustomField, 'type'>, col: string, param: string, key = '$2') =>
  f.type === 'number' ? `${col} -> ${key} = ${param}::text::jsonb` : `lower(${col} ->> ${key}) = lower(${param})`;
const asParam = (f: Pick<CustomField, 'type'>, v: CustomValue) => (f.type === 'number' ? JSON.stringify(v) : String(v));

/**
 * D56: the customers that may hold one of the values (`list`: SQL of a text[] of them, as asParam writes
 * each), found in customer_custom_values' index (organization, field, value: migration 24, live customers
 * only, text folded and cut to its first 200 characters), never by reading every customer of the
 * organization; the caller's exact comparison then decides. Text equal regardless of case folds alike.
 */
const candidates = (f: Pick<CustomField, 'type'>, list: string, key = '$2', c = 'c') =>
  `customer_custom_values e join customers ${c} on ${c}.id = e.customer_id
    where e.org_id = $1 and e.key = ${key} and ${
      f.type === 'number' ? `e.num = any(${list}::numeric[])` : `e.num is null and e.txt = any(array(select left(crm_fold(v), 200) from unnest(${list}) v))`
    } and ${c}.org_id = $1 and ${c}.deleted_at is null`;

/**
 * D56 D58: SQL, true when a live customer holds the value that customer `of` (an alias; one not live, as a
 * deleted customer to be restored) has in unique field `f` (`key`: its placeholder), compared as the rule compares.
 */
export const valueTaken = (f: Pick<CustomField, 'type'>, key: string, of: string) =>
  `exists (select 1 from ${candidates(f, `array[${of}.custom ->> ${key}::text]`, key, 'x')} and ${compared(f, 'x.custom', `(${of}.custom ->> ${key}::text)`, `${key}::text`)})`;

/** D56: who holds a value: a live customer, or a live customer's location (`except`: the record written, a customer's or a location's id). */
const holderSql = (f: Pick<CustomField, 'type'> & { record_kind?: CustomFieldKind }) =>
  f.record_kind === 'location'
    ? `select c.id, c.name from customer_locations r join customers c on c.org_id = r.org_id and c.id = r.customer_id
        where r.org_id = $1 and c.deleted_at is null and r.id <> coalesce($4::int, 0) and ${compared(f, 'r.custom', '$3')} order by r.id limit 1`
    : `select c.id, c.name from ${candidates(f, 'array[$3::text]')} and c.id <> coalesce($4::int, 0) and ${compared(f, 'c.custom', '$3')} order by c.id limit 1`;

/**
 * D56: a unique field's value held by another live customer (or, for a location field, another live
 * customer's location), or null. Takes the field's lock for the rest of the transaction first, so
 * concurrent writes of the same field check one after another.
 */
export async function valueHolder(
  tx: Queryable,
  orgId: number,
  f: Pick<CustomField, 'id' | 'key' | 'type'> & { record_kind?: CustomFieldKind },
  value: CustomValue,
  except: number | null,
): Promise<PersonRef | null> {
  await tx.query('select pg_advisory_xact_lock($1, $2)', [VALUE_LOCK_NAMESPACE, f.id]);
  const [row] = await tx.query<{ id: unknown; name: string }>(holderSql(f), [orgId, f.key, asParam(f, value), except]);
  return row ? { id: num(row.id), name: row.name } : null;
}

/**
 * D56 D60: which of `values` of a unique customer field live customers hold (by the value as compared),
 * in one query under the field's lock: an import checks a whole file's values at once.
 */
export async function valueHolders(tx: Queryable, orgId: number, f: Pick<CustomField, 'id' | 'key' | 'type'>, values: CustomValue[]): Promise<Map<string, PersonRef>> {
  await tx.query('select pg_advisory_xact_lock($1, $2)', [VALUE_LOCK_NAMESPACE, f.id]);
  const keyOf = (v: unknown) => (f.type === 'number' ? String(v) : String(v).toLowerCase());
  const rows = await tx.query<{ id: unknown; name: string; v: string }>(
    `select c.id, c.name, c.custom ->> $2 as v from ${candidates(f, 'string_to_array($3, chr(1))')}
        and ${f.type === 'number' ? 'c.custom ->> $2' : 'lower(c.custom ->> $2)'} = any(string_to_array($3, chr(1)))`,
    [orgId, f.key, values.map(keyOf).join('\u0001')],
    { replan: true }, // planned for its list: a constant, compared by hash (see import-repo.ts's LIST_LOOKUP)
  );
  return new Map(rows.map((r) => [keyOf(r.v), { id: num(r.id), name: r.name }]));
}

/** D56: a custom value as a person reads it: a choice by its option's label, yes/no in words. */
export function customCell(f: CustomField, v: CustomValue | undefined): string {
  if (v === undefined || v === null) return '';
  const label = (id: unknown) => f.options.find((o) => o.id === id)?.label ?? String(id);
  if (f.type === 'choice') return label(v);
  if (f.type === 'choices') return (Array.isArray(v) ? v : [v]).map(label).join('; ');
  if (f.type === 'yes_no') return v ? 'yes' : 'no';
  return String(v);
}
