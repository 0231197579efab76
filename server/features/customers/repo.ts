// Customers SQL, every query scoped by organization (STYLE). The same SQL runs on PGlite and PostgreSQL.
import { RESTORE_WINDOW_DAYS, type Customer, type CustomerInput, type CustomerListItem, type PersonRef } from '../../../contract/customers';
import { DAY_MS } from '../../../contract/time';
import type { Queryable } from '../../db';
import { num } from '../../db';
import { HttpError } from '../../http';
import { ITEM_COLUMNS, orderBy, SORT_KEYS, toItem, where, type ItemRow, type ListFilter } from '../../customer-list';

export { containsPattern } from '../../customer-list';

// ---- One customer -------------------------------------------------------------------------------

const person = (id: unknown, name: unknown): PersonRef | null => (id === null || id === undefined ? null : { id: num(id), name: String(name ?? '') });

const CUSTOMER_SELECT = `
  select c.id, c.name, c.company, c.email, c.phone, c.address_line, c.city, c.region, c.postal_code, c.country,
         c.status, c.tags, c.created_at, c.created_by, cb.first_name as created_by_name, c.updated_at, c.updated_by,
         ub.first_name as updated_by_name, c.version
    from customers c
    left join users cb on cb.id = c.created_by
    left join users ub on ub.id = c.updated_by`;

type CustomerRow = Omit<Customer, 'id' | 'created_at' | 'updated_at' | 'created_by' | 'updated_by' | 'version'> & {
  id: unknown;
  created_at: Date;
  updated_at: Date;
  created_by: unknown;
  created_by_name: unknown;
  updated_by: unknown;
  updated_by_name: unknown;
  version: unknown;
};

function toCustomer(r: CustomerRow): Customer {
  return {
    id: num(r.id),
    name: r.name,
    company: r.company,
    email: r.email,
    phone: r.phone,
    address_line: r.address_line,
    city: r.city,
    region: r.region,
    postal_code: r.postal_code,
    country: r.country,
    status: r.status,
    tags: r.tags ?? [],
    created_at: r.created_at.toISOString(),
    created_by: person(r.created_by, r.created_by_name),
    updated_at: r.updated_at.toISOString(),
    updated_by: person(r.updated_by, r.updated_by_name),
    version: num(r.version),
  };
}

export const notFound = () => new HttpError(404, 'not_found', 'No such customer');

/** A live customer of the organization, or null (missing, deleted and another organization's look alike). */
export async function findCustomer(db: Queryable, orgId: number, id: number, opts: { lock?: boolean } = {}): Promise<Customer | null> {
  const [row] = await db.query<CustomerRow>(`${CUSTOMER_SELECT} where c.org_id = $1 and c.id = $2 and c.deleted_at is null${opts.lock ? ' for update of c' : ''}`, [
    orgId,
    id,
  ]);
  return row ? toCustomer(row) : null;
}

export async function getCustomer(db: Queryable, orgId: number, id: number, opts: { lock?: boolean } = {}): Promise<Customer> {
  const c = await findCustomer(db, orgId, id, opts);
  if (!c) throw notFound();
  return c;
}

/** D23: 409 naming the live customer that already has this email (another than `except`). */
export async function assertEmailFree(db: Queryable, orgId: number, email: string | null, except: number | null): Promise<void> {
  if (!email) return;
  const [row] = await db.query<{ id: unknown; name: string }>(
    'select id, name from customers where org_id = $1 and email = $2 and deleted_at is null and id <> coalesce($3, 0) limit 1',
    [orgId, email, except],
  );
  if (row) throw duplicateEmail({ id: num(row.id), name: row.name });
}

export const duplicateEmail = (existing: PersonRef | null) =>
  new HttpError(
    409,
    'duplicate_email',
    existing ? `${existing.name} already has this email` : 'Another customer already has this email',
    {},
    {
      field: 'email',
      ...(existing ? { existing } : {}),
    },
  );

/**
 * D23: a unique violation on the live-email index (two saves racing past assertEmailFree) is the same
 * 409 naming the winner, never a 500. A savepoint keeps the transaction usable to look the winner up.
 */
async function emailSafe<T>(db: Queryable, orgId: number, email: string | null, except: number | null, fn: () => Promise<T>): Promise<T> {
  if (!email) return fn();
  await db.query('savepoint customer_email');
  try {
    const result = await fn();
    await db.query('release savepoint customer_email');
    return result;
  } catch (err) {
    if (
      err instanceof Error &&
      'code' in err &&
      err.code === '23505' &&
      String((err as { constraint?: unknown }).constraint ?? err.message).includes('customers_org_email_live_key')
    ) {
      await db.query('rollback to savepoint customer_email');
      await assertEmailFree(db, orgId, email, except);
      throw duplicateEmail(null);
    }
    throw err;
  }
}

const INPUT_COLUMNS = ['name', 'company', 'email', 'phone', 'address_line', 'city', 'region', 'postal_code', 'country', 'status', 'tags'] as const;

export async function createCustomer(db: Queryable, orgId: number, userId: number, input: CustomerInput, now: Date): Promise<Customer> {
  await assertEmailFree(db, orgId, input.email, null);
  const values = INPUT_COLUMNS.map((c) => input[c]);
  const [row] = await emailSafe(db, orgId, input.email, null, () =>
    db.query<{ id: unknown }>(
      `insert into customers (org_id, ${INPUT_COLUMNS.join(', ')}, created_at, created_by, updated_at, updated_by)
       values ($1, ${INPUT_COLUMNS.map((_, i) => `$${i + 2}`).join(', ')}, $${INPUT_COLUMNS.length + 2}, $${INPUT_COLUMNS.length + 3}, $${INPUT_COLUMNS.length + 2}, $${INPUT_COLUMNS.length + 3})
       returning id`,
      [orgId, ...(values as (string | null)[]), now, userId] as never,
    ),
  );
  return getCustomer(db, orgId, num(row?.id));
}

/** D31: the stale version's answer carries the current record, so the form can show both. */
export const conflict = (current: Customer) =>
  new HttpError(409, 'conflict', `${current.updated_by?.name ?? 'Someone'} changed this customer since you opened it`, {}, { current });

export type Changes = Record<string, { from: unknown; to: unknown }>;

/** D31: applies the given fields when `version` is current; returns the customer before and after, and the changes. */
export async function updateCustomer(
  db: Queryable,
  orgId: number,
  userId: number,
  id: number,
  patch: Partial<CustomerInput>,
  version: number,
  now: Date,
): Promise<{ before: Customer; after: Customer; changes: Changes }> {
  const before = await getCustomer(db, orgId, id, { lock: true });
  if (before.version !== version) throw conflict(before);
  const changes: Changes = {};
  for (const key of INPUT_COLUMNS) {
    if (!(key in patch)) continue;
    const to = patch[key];
    if (JSON.stringify(to) !== JSON.stringify(before[key])) changes[key] = { from: before[key], to };
  }
  if (Object.keys(changes).length === 0) return { before, after: before, changes }; // nothing to write, nothing to audit
  if ('email' in changes) await assertEmailFree(db, orgId, patch.email ?? null, id);
  const keys = Object.keys(changes) as (typeof INPUT_COLUMNS)[number][];
  await emailSafe(db, orgId, patch.email ?? null, id, () =>
    db.query(
      `update customers set ${keys.map((k, i) => `${k} = $${i + 3}`).join(', ')},
              version = version + 1, updated_at = $${keys.length + 3}, updated_by = $${keys.length + 4}
        where org_id = $1 and id = $2`,
      [orgId, id, ...keys.map((k) => patch[k] as string | null), now, userId] as never,
    ),
  );
  return { before, after: await getCustomer(db, orgId, id), changes };
}

/** D25: soft delete. */
export async function deleteCustomer(db: Queryable, orgId: number, userId: number, id: number, now: Date): Promise<Customer> {
  const before = await getCustomer(db, orgId, id, { lock: true });
  await db.query('update customers set deleted_at = $3, deleted_by = $4 where org_id = $1 and id = $2', [orgId, id, now, userId]);
  return before;
}

/** D25: back from 'Deleted' within the window; refused when its email now belongs to another live customer. */
export async function restoreCustomer(db: Queryable, orgId: number, userId: number, id: number, now: Date): Promise<Customer> {
  const [row] = await db.query<{ email: string | null }>(
    'select email from customers where org_id = $1 and id = $2 and deleted_at is not null and deleted_at > $3 for update',
    [orgId, id, new Date(now.getTime() - RESTORE_WINDOW_DAYS * DAY_MS)],
  );
  if (!row) throw notFound();
  await assertEmailFree(db, orgId, row.email, id);
  await emailSafe(db, orgId, row.email, id, () =>
    db.query('update customers set deleted_at = null, deleted_by = null, version = version + 1, updated_at = $3, updated_by = $4 where org_id = $1 and id = $2', [
      orgId,
      id,
      now,
      userId,
    ]),
  );
  return getCustomer(db, orgId, id);
}

/** D25: the 'Deleted' view, most recently deleted first, within the restore window. */
export async function listDeleted(db: Queryable, orgId: number, page: number, pageSize: number, now: Date): Promise<{ count: number; results: CustomerListItem[] }> {
  const since = new Date(now.getTime() - RESTORE_WINDOW_DAYS * DAY_MS);
  const rows = await db.query<ItemRow & { deleted_at: Date; deleted_by: unknown; deleted_by_name: unknown }>(
    `select ${ITEM_COLUMNS}, c.deleted_at, c.deleted_by, u.first_name as deleted_by_name, count(*) over () as total
       from customers c left join users u on u.id = c.deleted_by
      where c.org_id = $1 and c.deleted_at is not null and c.deleted_at > $2
      order by c.deleted_at desc, c.id desc limit $3 offset $4`,
    [orgId, since, pageSize, (page - 1) * pageSize],
  );
  let count = rows.length ? num(rows[0]?.total) : 0;
  if (!rows.length && page > 1) {
    const [row] = await db.query<{ n: unknown }>('select count(*) as n from customers where org_id = $1 and deleted_at > $2', [orgId, since]);
    count = num(row?.n ?? 0);
  }
  return {
    count,
    results: rows.map(({ deleted_at, deleted_by, deleted_by_name, ...r }) => ({
      ...toItem(r),
      deleted_at: deleted_at.toISOString(),
      deleted_by: person(deleted_by, deleted_by_name),
    })),
  };
}

/** D25: housekeeping removes customers deleted longer ago than the window, with their notes. */
export async function purgeDeleted(db: Queryable, nowMs: number): Promise<number> {
  const rows = await db.query('delete from customers where deleted_at < $1 returning id', [new Date(nowMs - RESTORE_WINDOW_DAYS * DAY_MS)]);
  return rows.length;
}

// ---- D27 export ----

/** The export's columns: D22's fields (the header an import reads back), then when it was made and changed. */
export const EXPORT_COLUMNS = [
  'name',
  'company',
  'email',
  'phone',
  'address_line',
  'city',
  'region',
  'postal_code',
  'country',
  'status',
  'tags',
  'created_at',
  'updated_at',
] as const;
/** Rows per query while exporting: memory stays flat however long the list. */
export const EXPORT_BATCH = 1_000;

type ExportRow = Record<(typeof EXPORT_COLUMNS)[number], unknown> & { id: unknown; sort_key: unknown };

/**
 * D27: the filtered list in its sort order, EXPORT_BATCH rows at a time. Each batch continues after the
 * last row's (sort key, id), so a deep batch costs what the first does (no OFFSET).
 */
export async function* exportCustomers(db: Queryable, orgId: number, f: Omit<ListFilter, 'page' | 'pageSize'>): AsyncGenerator<ExportRow[]> {
  const [key, dir] = SORT_KEYS[f.sort];
  let after: [unknown, unknown] | null = null;
  for (;;) {
    const w = where(orgId, f);
    const n = w.params.length;
    const cursor: string = after ? ` and (${key('')}, id) ${dir === 'asc' ? '>' : '<'} ($${n + 1}, $${n + 2})` : '';
    const params: unknown[] = after ? [...w.params, ...after] : w.params;
    const rows: ExportRow[] = await db.query<ExportRow>(
      `select id, ${key('')} as sort_key, ${EXPORT_COLUMNS.join(', ')} from customers
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
