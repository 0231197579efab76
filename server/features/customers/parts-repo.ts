// D46 D47: a customer's locations and contacts ("parts" of its record), SQL only, every query scoped by
// organization and customer. locations-repo.ts and contacts-repo.ts say which table and columns; the
// caller holds the customer's row lock, so a count then an insert cannot race past the limit.
import type { Queryable } from '../../db';
import { num } from '../../db';
import { HttpError } from '../../http';
import type { Changes } from './repo';

export interface PartKind {
  table: 'customer_locations' | 'customer_contacts';
  /** The writable fields as the API names them → their columns. */
  columns: Readonly<Record<string, string>>;
  /** At most this many per customer (D46 50, D47 20). */
  max: number;
  /** 'location' or 'contact', for errors. */
  noun: string;
  /** The list's order (D46: the primary location first). */
  order: string;
  /** Fields read through SQL of their own (D56 a location's visible custom values), given the table's alias. */
  reads?: Readonly<Record<string, (alias: string) => string>>;
}

type Row = Record<string, unknown> & { id: unknown; created_at: Date; updated_at: Date };

const reads = (k: PartKind, alias: string) => Object.entries(k.reads ?? {}).map(([field, sql]) => [field, sql(alias)] as const);

const selectList = (k: PartKind) =>
  [
    'id',
    ...Object.entries(k.columns).map(([field, column]) => (field === column ? column : `${column} as "${field}"`)),
    ...reads(k, k.table).map(([field, sql]) => `${sql} as "${field}"`),
    'created_at',
    'updated_at',
  ].join(', ');

const toPart = <T>({ id, created_at, updated_at, ...fields }: Row): T =>
  ({ id: num(id), ...fields, created_at: created_at.toISOString(), updated_at: updated_at.toISOString() }) as T;

const iso = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * D46 D47: a customer's parts as one JSON column of a select over customers `c` (named `as`), in the
 * list's order, each as the part's own route answers it: the record is read in one statement.
 */
export const partsJson = (k: PartKind, as: string) => `(
  select coalesce(json_agg(json_build_object('id', p.id, ${Object.entries(k.columns)
    .map(([field, column]) => `'${field}', p.${column}`)
    .concat(reads(k, 'p').map(([field, sql]) => `'${field}', ${sql}`))
    .join(', ')}, 'created_at', ${iso('p.created_at')}, 'updated_at', ${iso('p.updated_at')}) order by ${k.order
    .split(', ')
    .map((o) => `p.${o}`)
    .join(', ')}), '[]'::json)
    from ${k.table} p where p.org_id = c.org_id and p.customer_id = c.id) as ${as}`;

/** A JSON column as the driver gave it (parsed, or text). */
export const fromJson = <T>(v: unknown): T[] => (typeof v === 'string' ? (JSON.parse(v) as T[]) : ((v ?? []) as T[]));

export const partNotFound = (k: PartKind) => new HttpError(404, 'not_found', `No such ${k.noun}`);

export async function listParts<T>(db: Queryable, k: PartKind, orgId: number, customerId: number): Promise<T[]> {
  const rows = await db.query<Row>(`select ${selectList(k)} from ${k.table} where org_id = $1 and customer_id = $2 order by ${k.order}`, [orgId, customerId]);
  return rows.map((r) => toPart<T>(r));
}

export async function getPart<T>(db: Queryable, k: PartKind, orgId: number, customerId: number, id: number, opts: { lock?: boolean } = {}): Promise<T> {
  const [row] = await db.query<Row>(`select ${selectList(k)} from ${k.table} where org_id = $1 and customer_id = $2 and id = $3${opts.lock ? ' for update' : ''}`, [
    orgId,
    customerId,
    id,
  ]);
  if (!row) throw partNotFound(k);
  return toPart<T>(row);
}

/** D46 D47: 409 once the customer has `max` of them. */
export async function addPart<T>(db: Queryable, k: PartKind, orgId: number, customerId: number, input: Record<string, unknown>, now: Date): Promise<T> {
  const [count] = await db.query<{ n: unknown }>(`select count(*) as n from ${k.table} where org_id = $1 and customer_id = $2`, [orgId, customerId]);
  if (num(count?.n ?? 0) >= k.max)
    throw new HttpError(409, `too_many_${k.noun}s`, `A customer has at most ${k.max} ${k.noun}s: remove one to add another`, {}, { limit: k.max });
  const fields = Object.keys(k.columns).filter((f) => f in input);
  const [row] = await db.query<{ id: unknown }>(
    `insert into ${k.table} (org_id, customer_id, ${fields.map((f) => k.columns[f]).join(', ')}, created_at, updated_at)
     values ($1, $2, ${fields.map((_, i) => `$${i + 3}`).join(', ')}, $${fields.length + 3}, $${fields.length + 3}) returning id`,
    [orgId, customerId, ...fields.map((f) => input[f]), now] as never,
  );
  return getPart<T>(db, k, orgId, customerId, num(row?.id));
}

/** The fields of `patch` that differ from `before`, as { from, to }. */
export function partChanges(before: object, patch: object): Changes {
  const was = before as Record<string, unknown>;
  const changes: Changes = {};
  for (const [field, to] of Object.entries(patch)) if (JSON.stringify(to) !== JSON.stringify(was[field])) changes[field] = { from: was[field], to };
  return changes;
}

/** Writes the changed fields (nothing when none); returns the part as it is after. */
export async function writePart<T>(db: Queryable, k: PartKind, orgId: number, customerId: number, id: number, changes: Changes, now: Date, touched = false): Promise<T> {
  const fields = Object.keys(changes).filter((f) => f in k.columns);
  if (fields.length > 0 || touched)
    await db.query(
      `update ${k.table} set ${fields.map((f, i) => `${k.columns[f]} = $${i + 4}, `).join('')}updated_at = $${fields.length + 4}
        where org_id = $1 and customer_id = $2 and id = $3`,
      [orgId, customerId, id, ...fields.map((f) => changes[f]?.to), now] as never,
    );
  return getPart<T>(db, k, orgId, customerId, id);
}

export async function deletePart(db: Queryable, k: PartKind, orgId: number, customerId: number, id: number): Promise<void> {
  await db.query(`delete from ${k.table} where org_id = $1 and customer_id = $2 and id = $3`, [orgId, customerId, id]);
}
