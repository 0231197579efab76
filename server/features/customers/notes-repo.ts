// D24 notes and the customer's timeline, SQL only, scoped by organization.
import type { AuditAction } from '../../../contract/audit';
import type { Note, TimelineItem } from '../../../contract/customers';
import { AUDIT_COLUMNS, AUDIT_VIEW, toAuditView, type AuditRow } from '../../audit';
import type { Queryable } from '../../db';
import { num } from '../../db';
import { HttpError } from '../../http';

const NOTE_SELECT = `
  select n.id, n.body, n.author_id, u.first_name as author_name, n.created_at, n.updated_at
    from customer_notes n left join users u on u.id = n.author_id`;

type NoteRow = { id: unknown; body: string; author_id: unknown; author_name: unknown; created_at: Date; updated_at: Date };

const toNote = (r: NoteRow): Note => ({
  id: num(r.id),
  body: r.body,
  author: r.author_id === null ? null : { id: num(r.author_id), name: String(r.author_name ?? '') },
  created_at: r.created_at.toISOString(),
  updated_at: r.updated_at.toISOString(),
});

export const noteNotFound = () => new HttpError(404, 'not_found', 'No such note');

export async function listNotes(db: Queryable, orgId: number, customerId: number, page: number, pageSize: number): Promise<{ count: number; results: Note[] }> {
  const rows = await db.query<NoteRow & { total: unknown }>(
    `${NOTE_SELECT.replace('select n.id', 'select count(*) over () as total, n.id')}
      where n.org_id = $1 and n.customer_id = $2 order by n.created_at desc, n.id desc limit $3 offset $4`,
    [orgId, customerId, pageSize, (page - 1) * pageSize],
  );
  let count = rows.length ? num(rows[0]?.total) : 0;
  if (!rows.length && page > 1) {
    const [row] = await db.query<{ n: unknown }>('select count(*) as n from customer_notes where org_id = $1 and customer_id = $2', [orgId, customerId]);
    count = num(row?.n ?? 0);
  }
  return { count, results: rows.map(toNote) };
}

export async function getNote(db: Queryable, orgId: number, customerId: number, noteId: number, opts: { lock?: boolean } = {}): Promise<Note> {
  const [row] = await db.query<NoteRow>(`${NOTE_SELECT} where n.org_id = $1 and n.customer_id = $2 and n.id = $3${opts.lock ? ' for update of n' : ''}`, [
    orgId,
    customerId,
    noteId,
  ]);
  if (!row) throw noteNotFound();
  return toNote(row);
}

export async function addNote(db: Queryable, orgId: number, customerId: number, authorId: number, body: string, now: Date): Promise<Note> {
  const [row] = await db.query<{ id: unknown }>(
    'insert into customer_notes (org_id, customer_id, author_id, body, created_at, updated_at) values ($1, $2, $3, $4, $5, $5) returning id',
    [orgId, customerId, authorId, body, now],
  );
  return getNote(db, orgId, customerId, num(row?.id));
}

export async function editNote(db: Queryable, orgId: number, customerId: number, noteId: number, body: string, now: Date): Promise<Note> {
  await db.query('update customer_notes set body = $4, updated_at = $5 where org_id = $1 and customer_id = $2 and id = $3', [orgId, customerId, noteId, body, now]);
  return getNote(db, orgId, customerId, noteId);
}

export async function deleteNote(db: Queryable, orgId: number, customerId: number, noteId: number): Promise<void> {
  await db.query('delete from customer_notes where org_id = $1 and customer_id = $2 and id = $3', [orgId, customerId, noteId]);
}

/**
 * D49: the customer and every customer merged into it (and into those, in turn) and not undone: the
 * survivor's timeline combines theirs (less their merge entries, which the survivor's own tell).
 */
const MERGED_INTO = `with recursive m (id) as (
    select $2::int union all select cm.merged_id from customer_merges cm join m on cm.survivor_id = m.id where cm.org_id = $1 and cm.undone_at is null)
  select id from m`;

type TimelineRow = AuditRow & { kind: 'note' | 'audit'; body: string | null; updated_at: Date | null };

/**
 * D24: newest first, the customer's notes and every audit entry about it (the one audit view): its own
 * entries (D49 with those of the customers merged into it), and the imports that created it or, D44, updated it (whose changes for it read as an edit).
 */
/**
 * D58: each bulk action that wrote this customer, and each undo that put it back, as this customer's own
 * entry (an edit, a delete or a restore), from what the action kept of it (bulk_action_items).
 */
const bulkItems = `a.id, a.at, a.actor_id, coalesce(u.first_name, a.actor_label), case
         when a.action = 'customers.bulk_deleted' then 'customer.deleted' when b.action = 'delete' then 'customer.restored' else 'customer.updated' end,
         'customer', $2::bigint, c.name,
         case when a.action = 'customers.bulk_undone'
              then (select coalesce(jsonb_object_agg(k, (x - 'from' - 'to') || jsonb_build_object('from', x -> 'to', 'to', x -> 'from')), '{}') from jsonb_each(i.changes) e(k, x))
              else i.changes end
      from bulk_action_items i join bulk_actions b on b.org_id = $1 and b.id = i.bulk_id
      join audit_log a on a.org_id = $1 and a.target_type = 'bulk_action' and a.target_id = i.bulk_id
           and (a.action <> 'customers.bulk_undone' or i.restored)
      left join users u on u.id = a.actor_id
      join customers c on c.org_id = $1 and c.id = $2
     where i.org_id = $1 and i.customer_id = $2`;

export async function timeline(db: Queryable, orgId: number, customerId: number, page: number, pageSize: number): Promise<{ count: number; results: TimelineItem[] }> {
  const imported = 'customers.imported' satisfies AuditAction;
  const [merged, undone] = ['customer.merged', 'customer.merge_undone'] satisfies AuditAction[];
  const removed = 'member.removed' satisfies AuditAction; // D59: the removal unassigned it
  const items = `
    select 'note' as kind, n.body, n.updated_at, n.id, n.created_at as at, n.author_id as actor_id, u.first_name as actor_name,
           null as action, null as target_type, null::bigint as target_id, null as target_label, null::jsonb as changes
      from customer_notes n left join users u on u.id = n.author_id
     where n.org_id = $1 and n.customer_id = $2
    union all
    select 'audit', null, null, ${AUDIT_COLUMNS}
      from ${AUDIT_VIEW} v
     where v.org_id = $1 and ((v.target_type = 'customer' and v.target_id = any(array(${MERGED_INTO}))
                               and (v.target_id = $2 or v.action not in ('${merged}', '${undone}')))
        or (v.action = '${imported}' and v.recorded -> 'customer_ids' @> to_jsonb($2::int)))
    union all
    select 'audit', null, null, v.id, v.at, v.actor_id, v.actor_name,
           '${'customer.updated' satisfies AuditAction}', 'customer', $2::bigint, c.name, v.recorded -> 'updates' -> ($2::int)::text
      from ${AUDIT_VIEW} v join customers c on c.org_id = v.org_id and c.id = $2
     where v.org_id = $1 and v.action = '${imported}' and (v.recorded -> 'updates') ? ($2::int)::text
    union all
    select 'audit', null, null, v.id, v.at, v.actor_id, v.actor_name,
           '${'customer.updated' satisfies AuditAction}', 'customer', $2::bigint, c.name,
           jsonb_build_object('assigned_to', jsonb_build_object('from', jsonb_build_object('id', v.target_id, 'name', v.target_label), 'to', null))
      from ${AUDIT_VIEW} v join customers c on c.org_id = v.org_id and c.id = $2
     where v.org_id = $1 and v.action = '${removed}' and v.recorded -> 'customer_ids' @> to_jsonb($2::int)
    union all
    select 'audit', null, null, ${bulkItems}`;
  const rows = await db.query<TimelineRow & { total: unknown }>(
    `select t.*, count(*) over () as total from (${items}) t order by t.at desc, t.kind, t.id desc limit $3 offset $4`,
    [orgId, customerId, pageSize, (page - 1) * pageSize],
  );
  let count = rows.length ? num(rows[0]?.total) : 0;
  if (!rows.length && page > 1) {
    const [row] = await db.query<{ n: unknown }>(`select count(*) as n from (${items}) t`, [orgId, customerId]);
    count = num(row?.n ?? 0);
  }
  return {
    count,
    results: rows.map((r): TimelineItem => {
      if (r.kind === 'audit') return { kind: 'audit', ...toAuditView(r) };
      const author = r.actor_id === null ? null : { id: num(r.actor_id), name: String(r.actor_name ?? '') };
      return { kind: 'note', id: num(r.id), body: r.body ?? '', author, created_at: r.at.toISOString(), updated_at: (r.updated_at ?? r.at).toISOString() };
    }),
  };
}
