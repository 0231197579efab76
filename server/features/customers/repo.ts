// Customers SQL, every query scoped by organization (STYLE). The same SQL runs on PGlite and PostgreSQL.
import {
  RESTORE_WINDOW_DAYS,
  type Customer,
  type CustomerInput,
  type CustomerServiceInput,
  type PersonRef,
  CUSTOMER_INPUT_FIELDS,
  CUSTOMER_SERVICE_FIELDS,
} from '../../../contract/customers';
import type { CustomValues } from '../../../contract/custom-fields';
import { DAY_MS } from '../../../contract/time';
import type { Queryable } from '../../db';
import { num } from '../../db';
import { HttpError } from '../../http';
import { CONTACTS } from './contacts-repo';
import { LOCATIONS } from './locations-repo';
import { mergedError } from './merged-repo';
import { fromJson, partsJson } from './parts-repo';
import { visibleCustom } from '../../customer-list';
import type { CustomPatch } from '../../custom-values';

export { containsPattern } from '../../customer-list';

// ---- One customer -------------------------------------------------------------------------------

export const person = (id: unknown, name: unknown): PersonRef | null => (id === null || id === undefined ? null : { id: num(id), name: String(name ?? '') });

const CUSTOMER_SELECT = `
  select c.id, c.name, c.company, c.email, c.phone, c.address_line, c.city, c.region, c.postal_code, c.country,
         c.status, c.tags, c.type, c.lead_source, c.do_not_service, c.do_not_service_reason, c.created_at, c.created_by, cb.first_name as created_by_name, c.updated_at, c.updated_by,
         ub.first_name as updated_by_name, c.version, c.assigned_to, ab.first_name as assigned_to_name, ${partsJson(LOCATIONS, 'locations')}, ${partsJson(CONTACTS, 'contacts')},
         ${visibleCustom('c', 'customer')} as custom
    from customers c
    left join users cb on cb.id = c.created_by
    left join users ub on ub.id = c.updated_by
    left join users ab on ab.id = c.assigned_to`;

type CustomerRow = Omit<Customer, 'id' | 'created_at' | 'updated_at' | 'created_by' | 'updated_by' | 'version' | 'locations' | 'contacts' | 'custom' | 'assigned_to'> & {
  custom: CustomValues | null;
  locations: unknown;
  contacts: unknown;
  id: unknown;
  created_at: Date;
  updated_at: Date;
  created_by: unknown;
  created_by_name: unknown;
  updated_by: unknown;
  updated_by_name: unknown;
  version: unknown;
  assigned_to: unknown;
  assigned_to_name: unknown;
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
    type: r.type,
    lead_source: r.lead_source,
    do_not_service: r.do_not_service,
    do_not_service_reason: r.do_not_service_reason,
    created_at: r.created_at.toISOString(),
    created_by: person(r.created_by, r.created_by_name),
    updated_at: r.updated_at.toISOString(),
    updated_by: person(r.updated_by, r.updated_by_name),
    version: num(r.version),
    locations: fromJson(r.locations),
    contacts: fromJson(r.contacts),
    custom: r.custom ?? {},
    assigned_to: person(r.assigned_to, r.assigned_to_name),
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
  if (!c) throw (await mergedError(db, orgId, id)) ?? notFound(); // D49: a merged one names its survivor
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
export async function emailSafe<T>(db: Queryable, orgId: number, email: string | null, except: number | null, fn: () => Promise<T>): Promise<T> {
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

const INPUT_COLUMNS = [...CUSTOMER_INPUT_FIELDS, ...CUSTOMER_SERVICE_FIELDS] as const; // D22 D48

export async function createCustomer(
  db: Queryable,
  orgId: number,
  userId: number,
  input: CustomerInput & CustomerServiceInput,
  now: Date,
  custom: CustomValues = {},
  assignedTo: number | null = null, // D59, checked by assigneeOf
): Promise<Customer> {
  await assertEmailFree(db, orgId, input.email, null);
  const values = INPUT_COLUMNS.map((c) => input[c]);
  const n = INPUT_COLUMNS.length;
  const [row] = await emailSafe(db, orgId, input.email, null, () =>
    db.query<{ id: unknown }>(
      `insert into customers (org_id, ${INPUT_COLUMNS.join(', ')}, created_at, created_by, updated_at, updated_by, custom, assigned_to)
       values ($1, ${INPUT_COLUMNS.map((_, i) => `$${i + 2}`).join(', ')}, $${n + 2}, $${n + 3}, $${n + 2}, $${n + 3}, $${n + 4}::text::jsonb, $${n + 5}::integer)
       returning id`,
      [orgId, ...(values as (string | null)[]), now, userId, JSON.stringify(custom), assignedTo] as never,
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
  patch: Partial<CustomerInput & CustomerServiceInput>,
  version: number,
  now: Date,
  /** D56: the custom values' write, checked against the record as it is (under its lock). */
  customFor?: (before: Customer) => Promise<CustomPatch>,
  /** D59: the new assignee (checked by assigneeOf), or undefined to leave it. */
  assignee?: () => Promise<number | null | undefined>,
): Promise<{ before: Customer; after: Customer; changes: Changes }> {
  const before = await getCustomer(db, orgId, id, { lock: true });
  if (before.version !== version) throw conflict(before);
  const assignedTo = await assignee?.();
  const changes: Changes = {};
  for (const key of INPUT_COLUMNS) {
    if (!(key in patch)) continue;
    const to = patch[key];
    if (JSON.stringify(to) !== JSON.stringify(before[key])) changes[key] = { from: before[key], to };
  }
  const keys = Object.keys(changes) as (typeof INPUT_COLUMNS)[number][];
  const custom = customFor ? await customFor(before) : null;
  Object.assign(changes, custom?.changes);
  const reassigned = assignedTo !== undefined && assignedTo !== (before.assigned_to?.id ?? null);
  if (reassigned) changes.assigned_to = { from: before.assigned_to, to: assignedTo }; // the name filled in below
  if (Object.keys(changes).length === 0) return { before, after: before, changes }; // nothing to write, nothing to audit
  if ('email' in changes) await assertEmailFree(db, orgId, patch.email ?? null, id);
  const sets = keys.map((k, i) => `${k} = $${i + 3}`);
  const params: unknown[] = [orgId, id, ...keys.map((k) => patch[k] as string | null), now, userId];
  if (custom && Object.keys(custom.changes).length)
    sets.push(`custom = (custom - $${params.push(custom.unset)}::text[]) || $${params.push(JSON.stringify(custom.set))}::text::jsonb`);
  if (reassigned) sets.push(`assigned_to = $${params.push(assignedTo ?? null)}::integer`);
  await emailSafe(db, orgId, patch.email ?? null, id, () =>
    db.query(
      `update customers set ${sets.join(', ')}${sets.length ? ',' : ''}
              version = version + 1, updated_at = $${keys.length + 3}, updated_by = $${keys.length + 4}
        where org_id = $1 and id = $2`,
      params as never,
    ),
  );
  const after = await getCustomer(db, orgId, id);
  if (reassigned) changes.assigned_to = { from: before.assigned_to, to: after.assigned_to }; // D59: the timeline names both
  return { before, after, changes };
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
    'select email from customers where org_id = $1 and id = $2 and deleted_at is not null and deleted_at > $3 and merged_into_id is null for update',
    [orgId, id, new Date(now.getTime() - RESTORE_WINDOW_DAYS * DAY_MS)],
  );
  if (!row) throw (await mergedError(db, orgId, id)) ?? notFound(); // D49: merged is not deleted: undo the merge instead
  await assertEmailFree(db, orgId, row.email, id);
  const back = 'update customers set deleted_at = null, deleted_by = null, version = version + 1, updated_at = $3, updated_by = $4 where org_id = $1 and id = $2';
  await emailSafe(db, orgId, row.email, id, () => db.query(back, [orgId, id, now, userId]));
  return getCustomer(db, orgId, id);
}
