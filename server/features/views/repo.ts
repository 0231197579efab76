// D57: saved views SQL, every query scoped by organization and by who may see a view: its maker for a
// personal one, everyone in the organization for a shared one (owner_id null).
import type { SavedView, ViewLeftOut } from '../../../contract/views';
import { VIEW_CUSTOM_PARAM } from '../../../contract/views';
import type { Queryable } from '../../db';
import { num } from '../../db';
import { HttpError } from '../../http';

/** D57: another's personal view, another organization's or a removed one look alike. */
export const viewNotFound = () => new HttpError(404, 'not_found', 'No such view');

type ViewRow = {
  id: unknown;
  name: string;
  owner_id: unknown;
  params: Record<string, string>;
  columns: string[];
  created_by: unknown;
  created_by_name: string | null;
  created_at: Date;
  updated_at: Date;
  is_default: boolean;
};

/** The views `userId` may see in the organization ($1 org, $2 user). */
const VISIBLE = `from saved_views v
   left join users u on u.id = v.created_by
   left join saved_view_defaults d on d.org_id = v.org_id and d.user_id = $2 and d.view_id = v.id
  where v.org_id = $1 and (v.owner_id is null or v.owner_id = $2)`;
const COLUMNS =
  'v.id, v.name, v.owner_id, v.params, v.columns, v.created_by, u.first_name as created_by_name, v.created_at, v.updated_at, d.view_id is not null as is_default';

type FieldState = Map<string, { label: string; archived: boolean }> & { members?: ReadonlySet<string> };

/** The organization's customer fields, and (D59) its members' ids, as a view's `assigned` names them. */
async function customerFields(db: Queryable, orgId: number): Promise<FieldState> {
  const rows = await db.query<{ key: string; label: string; archived: boolean }>(
    `select key, label, archived_at is not null as archived from custom_fields where org_id = $1 and record_kind = 'customer' and deleted_at is null`,
    [orgId],
  );
  const members = await db.query<{ id: unknown }>('select user_id as id from memberships where org_id = $1', [orgId]);
  return Object.assign(new Map(rows.map((r) => [r.key, { label: r.label, archived: r.archived }])), { members: new Set(members.map((m) => String(m.id))) });
}

/** D59: a view's `assigned` naming someone no longer a member (not 'me' or 'none'). */
const removedMember = (row: ViewRow, fields: FieldState) => /^\d+$/.test(row.params.assigned ?? '') && !fields.members?.has(row.params.assigned!);

/** D57: the custom fields a view names that are archived or deleted (it still opens, without them). */
function leftOut(row: ViewRow, fields: FieldState): ViewLeftOut[] {
  const named = [
    ...Object.keys(row.params).map((param) => ({ param, key: VIEW_CUSTOM_PARAM.exec(param)?.[1] })),
    ...row.columns.map((param) => ({ param, key: VIEW_CUSTOM_PARAM.exec(param)?.[1] })),
    ...(row.params.sort ? [{ param: 'sort', key: VIEW_CUSTOM_PARAM.exec(row.params.sort.replace(/^-/, ''))?.[1] }] : []),
  ];
  const out: ViewLeftOut[] = removedMember(row, fields) ? [{ param: 'assigned', label: null, reason: 'member_removed' }] : [];
  for (const { param, key } of named) {
    if (!key) continue;
    const field = fields.get(key);
    if (!field) out.push({ param, label: null, reason: 'field_deleted' });
    else if (field.archived) out.push({ param, label: field.label, reason: 'field_archived' });
  }
  return out;
}

const toView = (r: ViewRow, userId: number, fields: FieldState): SavedView => ({
  id: num(r.id),
  name: r.name,
  shared: r.owner_id === null,
  mine: r.owner_id === null ? num(r.created_by ?? 0) === userId : true,
  is_default: r.is_default,
  params: removedMember(r, fields) ? Object.fromEntries(Object.entries(r.params).filter(([k]) => k !== 'assigned')) : r.params,
  columns: r.columns,
  created_by: r.created_by === null ? null : { id: num(r.created_by), name: r.created_by_name ?? '' },
  created_at: r.created_at.toISOString(),
  updated_at: r.updated_at.toISOString(),
  left_out: leftOut(r, fields),
});

/** Every view the person may see, by name (case ignored), then id. */
export async function listViews(db: Queryable, orgId: number, userId: number): Promise<SavedView[]> {
  const [rows, fields] = await Promise.all([db.query<ViewRow>(`select ${COLUMNS} ${VISIBLE} order by lower(v.name), v.id`, [orgId, userId]), customerFields(db, orgId)]);
  return rows.map((r) => toView(r, userId, fields));
}

export async function getView(db: Queryable, orgId: number, userId: number, id: number): Promise<SavedView> {
  const [row] = await db.query<ViewRow>(`select ${COLUMNS} ${VISIBLE} and v.id = $3`, [orgId, userId, id]);
  if (!row) throw viewNotFound();
  return toView(row, userId, await customerFields(db, orgId));
}

/** D57: a view's writes take turns per organization, so a name or a limit checked is still true at commit. */
const VIEWS_LOCK_NAMESPACE = 72_410_304;
export const lockViews = (tx: Queryable, orgId: number) => tx.query('select pg_advisory_xact_lock($1, $2)', [VIEWS_LOCK_NAMESPACE, orgId]);

/** How many views share the scope (a person's personal ones, or the shared ones), and whether `name` is taken there. */
export async function scopeOf(tx: Queryable, orgId: number, ownerId: number | null, name: string, except: number | null) {
  const [row] = await tx.query<{ n: unknown; taken: boolean }>(
    `select count(*) as n, coalesce(bool_or(lower(name) = lower($3) and id <> coalesce($4, 0)), false) as taken
       from saved_views where org_id = $1 and owner_id is not distinct from $2`,
    [orgId, ownerId, name, except],
  );
  return { count: num(row!.n), taken: row!.taken };
}

export interface ViewWrite {
  name: string;
  ownerId: number | null;
  params: Record<string, string>;
  columns: string[];
}

export async function insertView(tx: Queryable, orgId: number, by: number, v: ViewWrite, now: Date): Promise<number> {
  const [row] = await tx.query<{ id: unknown }>(
    `insert into saved_views (org_id, owner_id, name, params, columns, created_by, created_at, updated_at)
     values ($1, $2, $3, $4::text::jsonb, $5::text::jsonb, $6, $7, $7) returning id`,
    [orgId, v.ownerId, v.name, JSON.stringify(v.params), JSON.stringify(v.columns), by, now],
  );
  return num(row!.id);
}

export async function updateView(tx: Queryable, orgId: number, id: number, v: ViewWrite, now: Date): Promise<void> {
  await tx.query(
    `update saved_views set owner_id = $3, name = $4, params = $5::text::jsonb, columns = $6::text::jsonb, updated_at = $7
      where org_id = $1 and id = $2`,
    [orgId, id, v.ownerId, v.name, JSON.stringify(v.params), JSON.stringify(v.columns), now],
  );
}

/** Unsharing a view leaves it a default only for the person it now belongs to. */
export async function dropOthersDefaults(tx: Queryable, orgId: number, viewId: number, ownerId: number): Promise<void> {
  await tx.query('delete from saved_view_defaults where org_id = $1 and view_id = $2 and user_id <> $3', [orgId, viewId, ownerId]);
}

export async function deleteView(tx: Queryable, orgId: number, id: number): Promise<void> {
  await tx.query('delete from saved_views where org_id = $1 and id = $2', [orgId, id]);
}

/** The person's default view now (null: none), then `viewId` as the new one (null clears it). */
export async function setDefault(tx: Queryable, orgId: number, userId: number, viewId: number | null): Promise<number | null> {
  const [before] = await tx.query<{ view_id: unknown }>('select view_id from saved_view_defaults where org_id = $1 and user_id = $2 for update', [orgId, userId]);
  if (viewId === null) await tx.query('delete from saved_view_defaults where org_id = $1 and user_id = $2', [orgId, userId]);
  else {
    await tx.query(
      `insert into saved_view_defaults (org_id, user_id, view_id) values ($1, $2, $3)
       on conflict (org_id, user_id) do update set view_id = excluded.view_id`,
      [orgId, userId, viewId],
    );
  }
  return before ? num(before.view_id) : null;
}
