// D67: everything an organization holds, for an owner, as one ZIP of CSV files (customers with their custom
// fields, locations, contacts, notes, the activity log, members, roles, the custom fields themselves),
// streamed: each file is read 1,000 rows at a time by id, so memory stays flat and others' calls run
// between the batches (D34). Audited when it starts. The customers file is the customers export's (D27),
// which our import reads back.
import type { CustomField, CustomValue } from '../../../contract/custom-fields';
import type { Ctx } from '../../context';
import { customCell, listFields } from '../../custom-fields';
import type { Queryable } from '../../db';
import { writeAudit } from '../../audit';
import { BASE_SECURITY_HEADERS, HttpError } from '../../http';
import { defineRoute, RAW } from '../../route';
import { zipWriter } from '../../zip';
import { csvLine } from '../customers/csv';
import { EXPORT_COLUMNS } from '../customers/export-repo';

const BATCH = 1_000;
/** Locations, contacts and notes by their customer, as their indexes (org_id, customer_id, …) have them. */
const PARTS = ['t.customer_id', 't.id'];
/** Bytes of CSV gathered before they go to the deflater. */
const CHUNK = 64 * 1024;

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

interface Sheet {
  name: string;
  header: string[];
  rows: AsyncGenerator<Row[]>;
  cells: (r: Row) => string[];
}

function sheets(db: Queryable, orgId: number, fields: CustomField[]): Sheet[] {
  const own = (kind: CustomField['record_kind']) => fields.filter((f) => f.record_kind === kind && !f.archived);
  const [customerFields, locationFields] = [own('customer'), own('location')];
  const customs = (fs: CustomField[], r: Row) => fs.map((f) => customCell(f, (r.custom as Record<string, CustomValue>)[f.key]));
  const partOf = `join customers c on c.org_id = t.org_id and c.id = t.customer_id and c.deleted_at is null`;
  return [
    {
      name: 'customers.csv',
      header: ['id', ...EXPORT_COLUMNS, ...customerFields.map((f) => f.label)],
      rows: batches(
        db,
        `t.id, ${EXPORT_COLUMNS.map((c) => `t.${c}`).join(', ')}, t.custom`,
        'from customers t where t.org_id = $1 and t.deleted_at is null',
        orgId,
        ['t.created_at', 't.id'],
        'asc',
      ),
      cells: (r) => [cell(r.id), ...EXPORT_COLUMNS.map((c) => cell(r[c])), ...customs(customerFields, r)],
    },
    {
      name: 'locations.csv',
      header: [
        'customer_id',
        'customer_name',
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
        't.customer_id, c.name as customer_name, t.label, t.address_line, t.city, t.region, t.postal_code, t.country, t.access_notes, t.is_primary, t.custom',
        `from customer_locations t ${partOf} where t.org_id = $1`,
        orgId,
        PARTS,
        'asc',
      ),
      cells: (r) => [
        ...['customer_id', 'customer_name', 'label', 'address_line', 'city', 'region', 'postal_code', 'country', 'access_notes'].map((c) => cell(r[c])),
        r.is_primary ? 'yes' : 'no',
        ...customs(locationFields, r),
      ],
    },
    {
      name: 'contacts.csv',
      header: ['customer_id', 'customer_name', 'name', 'role', 'email', 'phone', 'note'],
      rows: batches(
        db,
        't.customer_id, c.name as customer_name, t.name, t.role, t.email, t.phone, t.note',
        `from customer_contacts t ${partOf} where t.org_id = $1`,
        orgId,
        PARTS,
        'asc',
      ),
      cells: (r) => ['customer_id', 'customer_name', 'name', 'role', 'email', 'phone', 'note'].map((c) => cell(r[c])),
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

/**
 * POST /v1/organization/export/: D67 an owner's export of everything (a role, not a permission, like the
 * settings). A POST: it writes its audit entry. Outside a transaction: it reads for as long as the file takes.
 */
const exportAll = defineRoute({
  method: 'POST',
  path: '/v1/organization/export/',
  access: 'org',
  permission: 'customers:export',
  transaction: false,
  async handler({ ctx, res, caller }) {
    if (caller.org.role !== 'owner') throw new HttpError(403, 'owner_required', 'Only an owner can export all of the organization’s data');
    const orgId = caller.org.id;
    const now = new Date(ctx.now());
    const fields = await listFields(ctx.db, orgId);
    const files = sheets(ctx.db, orgId, fields);
    await writeAudit(
      ctx.db,
      orgId,
      { id: caller.userId, label: caller.firstName },
      'organization.exported',
      {
        target: { type: 'organization', id: orgId, label: 'Everything' },
        changes: { files: files.map((f) => f.name) },
      },
      now,
    );
    res.writeHead(200, {
      ...BASE_SECURITY_HEADERS,
      'Content-Type': 'application/zip',
      'Content-Disposition': `attachment; filename="organization-${orgId}-${now.toISOString().slice(0, 10)}.zip"`,
      'Cache-Control': 'no-store',
    });
    await streamZip(ctx, res, files, now);
    return RAW;
  },
});

async function streamZip(ctx: Ctx, res: import('node:http').ServerResponse, files: Sheet[], now: Date): Promise<void> {
  try {
    const zip = zipWriter(res, now);
    for (const file of files) {
      await zip.entry(file.name, async (write) => {
        let chunk = `\uFEFF${csvLine(file.header)}`;
        for await (const rows of file.rows) {
          for (const r of rows) chunk += csvLine(file.cells(r));
          if (chunk.length >= CHUNK) {
            await write(chunk);
            chunk = '';
          }
          if (res.destroyed) return;
        }
        await write(chunk);
      });
      if (res.destroyed) return;
    }
    await zip.end();
    res.end();
  } catch (err) {
    // Headers are gone: the only honest signal left is a cut-off download.
    ctx.log.error(`organization export failed: ${err instanceof Error ? err.message : String(err)}`);
    res.destroy();
  }
}

export const exportRoutes = [exportAll];
