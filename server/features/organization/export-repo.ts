// D67: the SQL of everything's export: each file of the ZIP (customers with their custom fields, locations,
// contacts, notes, the activity log, members, roles, the custom fields themselves) as its header and its
// rows, read 1,000 at a time along an index, so memory stays flat and others' calls run between the
// batches (D34). Every query scoped by organization. The customers file is the customers export's (D27).
import type { CustomField, CustomValue } from '../../../contract/custom-fields';
import { customCell } from '../../custom-fields';
import type { Queryable } from '../../db';
import { CUSTOMER_CSV_COLUMNS as EXPORT_COLUMNS } from '../../csv';

const BATCH = 1_000;
/** Locations, contacts and notes by their customer, as their indexes (org_id, customer_id, …) have them. */
const PARTS = ['t.customer_id', 't.id'];

type Row = Record<string, unknown>;
const cell = (v: unknown): string =>
  v instanceof Date ? v.toISOString() : Array.isArray(v) ? v.join('; ') : v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);

/**
 * The rows of `from` (FROM and WHERE over alias t, $1 the organization) a batch at a time, continuing after the
 * last row's `keys` (the columns of an index of the table, in its order), so each batch walks that index
 * and costs what the first does.
 */
async function* batches(db: Queryable, columns: string, from: string, orgId: number, keys: string[], dir: 'asc' | 'desc'): AsyncGenerator<Row[]> {
  let after: unknown[] | null = null;
  const names = keys.map((k, i) => `${k} as k${i}`).join(', ');
  for (;;) {
    const cursor = after ? ` and (${keys.join(', ')}) ${dir === 'asc' ? '>' : '<'} (${keys.map((_, i) => `$${i + 2}`).join(', ')})` : '';
    const rows: Row[] = await db.query<Row>(`select ${columns}, ${names} ${from}${cursor} order by ${keys.map((k) => `${k} ${dir}`).join(', ')} limit ${BATCH}`, [
      orgId,
      ...(after ?? []),
    ] as never);
    if (rows.length) yield rows;
    if (rows.length < BATCH) return;
    const last = rows[rows.length - 1]!;
    after = keys.map((_, i) => last[`k${i}`]);
  }
}

/** A short list (members, the matrix: a few dozen rows) in one query. */
async function* all(db: Queryable, sql: string, orgId: number): AsyncGenerator<Row[]> {
  yield await db.query<Row>(sql, [orgId]);
}

export interface Sheet {
  name: string;
  header: string[];
  rows: AsyncGenerator<Row[]>;
  cells: (r: Row) => string[];
}

export function sheets(db: Queryable, orgId: number, fields: CustomField[]): Sheet[] {
  const own = (kind: CustomField['record_kind']) => fields.filter((f) => f.record_kind === kind && !f.archived);
  const [customerFields, locationFields] = [own('customer'), own('location')];
  const customs = (fs: CustomField[], r: Row) => fs.map((f) => customCell(f, (r.custom as Record<string, CustomValue>)[f.key]));
  const partOf = `join customers c on c.org_id = t.org_id and c.id = t.customer_id and c.deleted_at is null`;
  return [
    {
      name: 'customers.csv',
      // D59: who each customer is assigned to, by email, as the import reads it back ('Assigned to').
      header: ['id', ...EXPORT_COLUMNS, 'Assigned to', ...customerFields.map((f) => f.label)],
      rows: batches(
        db,
        `t.id, ${EXPORT_COLUMNS.map((c) => `t.${c}`).join(', ')}, u.email as assigned_to, t.custom`,
        'from customers t left join users u on u.id = t.assigned_to where t.org_id = $1 and t.deleted_at is null',
        orgId,
        ['t.created_at', 't.id'],
        'asc',
      ),
      cells: (r) => [cell(r.id), ...EXPORT_COLUMNS.map((c) => cell(r[c])), cell(r.assigned_to), ...customs(customerFields, r)],
    },
    {
      name: 'locations.csv',
      header: [
        'customer_id',
        'customer_name',
        'customer_email', // D67: the import reads the file back as these customers' locations
        'label',
        'address_line',
        'city',
        'region',
        'postal_code',
        'country',
        'access_notes',
        'primary',
        ...locationFields.map((f) => f.label),
      ],
      rows: batches(
        db,
        't.customer_id, c.name as customer_name, c.email as customer_email, t.label, t.address_line, t.city, t.region, t.postal_code, t.country, t.access_notes, t.is_primary, t.custom',
        `from customer_locations t ${partOf} where t.org_id = $1`,
        orgId,
        PARTS,
        'asc',
      ),
      cells: (r) => [
        ...['customer_id', 'customer_name', 'customer_email', 'label', 'address_line', 'city', 'region', 'postal_code', 'country', 'access_notes'].map((c) => cell(r[c])),
        r.is_primary ? 'yes' : 'no',
        ...customs(locationFields, r),
      ],
    },
    {
      name: 'contacts.csv',
      header: ['customer_id', 'customer_name', 'customer_email', 'name', 'role', 'email', 'phone', 'note'],
      rows: batches(
        db,
        't.customer_id, c.name as customer_name, c.email as customer_email, t.name, t.role, t.email, t.phone, t.note',
        `from customer_contacts t ${partOf} where t.org_id = $1`,
        orgId,
        PARTS,
        'asc',
      ),
      cells: (r) => ['customer_id', 'customer_name', 'customer_email', 'name', 'role', 'email', 'phone', 'note'].map((c) => cell(r[c])),
    },
    {
      name: 'notes.csv',
      header: ['customer_id', 'customer_name', 'author', 'created_at', 'updated_at', 'body'],
      rows: batches(
        db,
        't.customer_id, c.name as customer_name, u.first_name as author, t.created_at, t.updated_at, t.body',
        `from customer_notes t ${partOf} left join users u on u.id = t.author_id where t.org_id = $1`,
        orgId,
        PARTS,
        'asc',
      ),
      cells: (r) => ['customer_id', 'customer_name', 'author', 'created_at', 'updated_at', 'body'].map((c) => cell(r[c])),
    },
    {
      name: 'activity.csv',
      header: ['id', 'at', 'actor', 'action', 'target_type', 'target_id', 'target_label', 'changes'],
      rows: batches(
        db,
        't.id, t.at, coalesce(u.first_name, t.actor_label) as actor, t.action, t.target_type, t.target_id, t.target_label, t.changes',
        'from audit_log t left join users u on u.id = t.actor_id where t.org_id = $1',
        orgId,
        ['t.at', 't.id'],
        'desc',
      ),
      cells: (r) => ['id', 'at', 'actor', 'action', 'target_type', 'target_id', 'target_label', 'changes'].map((c) => cell(r[c])),
    },
    {
      name: 'members.csv',
      header: ['email', 'name', 'role', 'joined_at'],
      rows: all(
        db,
        'select u.email, u.first_name as name, m.role, m.created_at as joined_at from memberships m join users u on u.id = m.user_id where m.org_id = $1 order by m.created_at, u.id',
        orgId,
      ),
      cells: (r) => ['email', 'name', 'role', 'joined_at'].map((c) => cell(r[c])),
    },
    {
      name: 'roles.csv',
      header: ['role', 'permission'],
      rows: all(db, 'select role, permission from role_permissions where org_id = $1 order by role, permission', orgId),
      cells: (r) => [cell(r.role), cell(r.permission)],
    },
    {
      name: 'custom-fields.csv',
      header: ['record_kind', 'key', 'label', 'type', 'options', 'help', 'required', 'unique', 'archived'],
      rows: (async function* () {
        yield fields.map((f) => ({ ...f }));
      })(),
      cells: (r) => [
        cell(r.record_kind),
        cell(r.key),
        cell(r.label),
        cell(r.type),
        (r.options as CustomField['options']).map((o) => o.label).join('; '),
        cell(r.help),
        r.required ? 'yes' : 'no',
        r.unique ? 'yes' : 'no',
        r.archived ? 'yes' : 'no',
      ],
    },
  ];
}
