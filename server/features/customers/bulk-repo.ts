// D58: bulk actions, set-based: one statement reads the selected customers that would change (locked),
// writes them, and keeps what each changed (bulk_action_items) for its timeline and for one exact undo.
// Every query scoped by organization.
import type { BulkAction } from '../../../contract/bulk';
import type { Queryable } from '../../db';
import { num } from '../../db';

/** What the action does, in SQL over one customer: whether it would change (`would`), the new columns (`set`), and its changes before → after (`changes`, old row `o`, new row `c`). */
export interface ActionSql {
  would: string;
  set: string;
  changes: string;
}

const fromTo = (field: string, col: string) => `jsonb_build_object('${field}', jsonb_build_object('from', to_jsonb(o.${col}), 'to', to_jsonb(c.${col})))`;
/** D59: an assignee as the timeline names them ({ id, name }, or null for none). */
const assignee = (col: string) => `(select jsonb_build_object('id', u.id, 'name', u.first_name) from users u where u.id = ${col})`;
const dnsChanges = `${fromTo('do_not_service', 'do_not_service')} || ${fromTo('do_not_service_reason', 'do_not_service_reason')}`;

/** The SQL of each action; `add` binds a value and answers its placeholder. */
export function actionSql(
  action: BulkAction,
  v: { tag?: string; tagKey?: string; status?: string; type?: string; reason?: string | null; key?: string; value?: unknown; label?: string; assignedTo?: number | null },
  add: (x: unknown) => string,
): ActionSql {
  switch (action) {
    case 'add_tag':
      return {
        would: `not (coalesce(tag_keys, '{}') @> array[${add(v.tagKey)}]::text[])`,
        set: `tags = coalesce(c.tags, '{}') || array[${add(v.tag)}]::text[]`,
        changes: fromTo('tags', 'tags'),
      };
    case 'remove_tag':
      return {
        would: `coalesce(tag_keys, '{}') @> array[${add(v.tagKey)}]::text[]`,
        set: `tags = array(select t from unnest(c.tags) t where crm_fold(t) <> ${add(v.tagKey)})`,
        changes: fromTo('tags', 'tags'),
      };
    case 'set_status':
      return {
        would: `status <> ${add(v.status)}`,
        set: `status = ${add(v.status)}`,
        changes: fromTo('status', 'status'),
      };
    case 'set_type':
      return { would: `type <> ${add(v.type)}`, set: `type = ${add(v.type)}`, changes: fromTo('type', 'type') };
    case 'set_do_not_service': {
      const reason = add(v.reason ?? null);
      return {
        would: `(not do_not_service or do_not_service_reason is distinct from ${reason}::text)`,
        set: `do_not_service = true, do_not_service_reason = ${reason}::text`,
        changes: dnsChanges,
      };
    }
    case 'clear_do_not_service':
      return { would: 'do_not_service', set: 'do_not_service = false, do_not_service_reason = null', changes: dnsChanges };
    case 'set_custom':
    case 'clear_custom': {
      const key = add(v.key);
      const label = add(v.label);
      return {
        would: action === 'set_custom' ? `custom -> ${key}::text is distinct from ${add(JSON.stringify(v.value))}::text::jsonb` : `custom ? ${key}::text`,
        set:
          action === 'set_custom'
            ? `custom = c.custom || jsonb_build_object(${key}::text, ${add(JSON.stringify(v.value))}::text::jsonb)`
            : `custom = c.custom - ${key}::text`,
        changes: `jsonb_build_object('custom.' || ${key}, jsonb_build_object('from', coalesce(o.custom -> ${key}::text, 'null'), 'to', coalesce(c.custom -> ${key}::text, 'null'), 'label', ${label}::text))`,
      };
    }
    case 'assign': {
      const to = add(v.assignedTo ?? null);
      return {
        would: `assigned_to is distinct from ${to}::integer`,
        set: `assigned_to = ${to}::integer`,
        changes: `jsonb_build_object('assigned_to', jsonb_build_object('from', ${assignee('o.assigned_to')}, 'to', ${assignee('c.assigned_to')}))`,
      };
    }
    case 'delete':
      return { would: 'true', set: '', changes: `'{}'::jsonb` };
  }
}

/**
 * D58: how an undo puts an action's columns back: each column with its value from the item's changes
 * (`i.changes`; the row is `c`); a custom field's key bound by `add`.
 */
export function undoSql(action: BulkAction, customKey: string | null, add: (x: unknown) => string): [column: string, value: string][] {
  switch (action) {
    case 'add_tag':
    case 'remove_tag':
      return [['tags', "array(select jsonb_array_elements_text(i.changes -> 'tags' -> 'from'))"]];
    case 'set_status':
    case 'set_type': {
      const col = action === 'set_status' ? 'status' : 'type';
      return [[col, `i.changes -> '${col}' ->> 'from'`]];
    }
    case 'set_do_not_service':
    case 'clear_do_not_service':
      return [
        ['do_not_service', "(i.changes -> 'do_not_service' ->> 'from')::boolean"],
        ['do_not_service_reason', "i.changes -> 'do_not_service_reason' ->> 'from'"],
      ];
    case 'set_custom':
    case 'clear_custom': {
      const key = add(customKey);
      const from = `i.changes -> ('custom.' || ${key}::text) -> 'from'`;
      return [
        ['custom', `case when jsonb_typeof(${from}) is distinct from 'null' then c.custom || jsonb_build_object(${key}::text, ${from}) else c.custom - ${key}::text end`],
      ];
    }
    case 'assign': // D59: back to whom it was, while they are still a member (else to no one)
      return [
        ['assigned_to', "(select m.user_id from memberships m where m.org_id = c.org_id and m.user_id = (i.changes -> 'assigned_to' -> 'from' ->> 'id')::integer)"],
      ];
    case 'delete':
      return [
        ['deleted_at', 'null::timestamptz'],
        ['deleted_by', 'null::integer'],
      ];
  }
}

/** How many live customers the selection holds now (`sql` over the customers table, $1 the organization). */
export async function countSelected(tx: Queryable, selection: { sql: string; params: unknown[] }): Promise<number> {
  const [row] = await tx.query<{ n: unknown }>(`select count(*) as n from customers where ${selection.sql}`, selection.params as never);
  return num(row!.n);
}

/** D58: the ids a selection of picked ids still holds (live, and the caller's to see), for a 409 to go on with. */
export async function remainingIds(tx: Queryable, selection: { sql: string; params: unknown[] }): Promise<number[]> {
  const rows = await tx.query<{ id: unknown }>(`select id from customers where ${selection.sql} order by id`, selection.params as never);
  return rows.map((r) => num(r.id));
}

/** D22 D58: how many selected customers already have `max` tags and not this one (adding it would pass the limit). */
export const atTagLimit = (tx: Queryable, selection: { sql: string; params: unknown[] }, tagKey: string, max: number) =>
  countSelected(tx, {
    sql: `${selection.sql} and cardinality(coalesce(tags, '{}')) >= ${max} and not (coalesce(tag_keys, '{}') @> array[$${selection.params.length + 1}]::text[])`,
    params: [...selection.params, tagKey],
  });

/** D58: one customer at a time per organization takes part in bulk actions, so two never wait on each other's rows. */
const BULK_LOCK_NAMESPACE = 72_410_303;
export const lockBulk = (tx: Queryable, orgId: number) => tx.query('select pg_advisory_xact_lock($1, $2)', [BULK_LOCK_NAMESPACE, orgId]);

export async function newBulk(tx: Queryable, orgId: number, action: BulkAction, actorId: number, now: Date): Promise<number> {
  const [row] = await tx.query<{ id: unknown }>('insert into bulk_actions (org_id, action, actor_id, created_at) values ($1, $2, $3, $4) returning id', [
    orgId,
    action,
    actorId,
    now,
  ]);
  return num(row!.id);
}

export const dropBulk = (tx: Queryable, orgId: number, id: number) => tx.query('delete from bulk_actions where org_id = $1 and id = $2', [orgId, id]);

/** D34: customers written per statement: on PGlite other callers' reads run between them (the route's shareReads). */
export const BULK_BATCH = 1_000;

/**
 * D58: writes every selected customer that would change (the selection locked in one statement, then
 * BULK_BATCH at a time written where the action changes something), and keeps each one's changes and the version it left ($1 of the selection is the organization). The changes are read in the update's
 * RETURNING (old row `o` beside new `c`), never by joining its result back: a misestimated join of
 * 10,000 × 10,000 rows took a minute on PostgreSQL. A delete keeps the version (a restore moves it); the rest move it on by one.
 */
export async function applyBulk(
  tx: Queryable,
  bulkId: number,
  actorId: number,
  now: Date,
  selection: { sql: string; params: unknown[] },
  build: (add: (x: unknown) => string) => ActionSql,
  isDelete: boolean,
): Promise<number> {
  const ids = (await tx.query<{ id: unknown }>(`select id from customers where ${selection.sql} order by id for update`, selection.params as never)).map((r) =>
    num(r.id),
  );
  let written = 0;
  for (let i = 0; i < ids.length; i += BULK_BATCH) {
    const params: unknown[] = [selection.params[0], ids.slice(i, i + BULK_BATCH)];
    const add = (x: unknown) => `$${params.push(x)}`;
    const a = build(add);
    const [n, at, by] = [add(bulkId), add(now), add(actorId)];
    const stamp = isDelete ? `deleted_at = ${at}, deleted_by = ${by}` : `${a.set}, version = c.version + 1, updated_at = ${at}, updated_by = ${by}`;
    const [row] = await tx.query<{ n: unknown }>(
      `with o as materialized (
          select id, tags, status, type, do_not_service, do_not_service_reason, custom, assigned_to from customers where org_id = $1 and id = any($2::int[]) and ${a.would}),
        w as (update customers c set ${stamp} from o where c.org_id = $1 and c.id = o.id returning c.id, c.version, ${a.changes} as changes),
        kept as (insert into bulk_action_items (bulk_id, org_id, customer_id, changes, version) select ${n}, $1, id, changes, version from w returning 1)
       select count(*) as n from kept`,
      params as never,
    );
    written += num(row!.n);
  }
  return written;
}

export interface BulkRow {
  id: number;
  action: BulkAction;
  created_at: Date;
  undone_at: Date | null;
  actor_id: number | null;
}

export async function lockedBulk(tx: Queryable, orgId: number, id: number): Promise<BulkRow | null> {
  const [row] = await tx.query<{ id: unknown; action: BulkAction; created_at: Date; undone_at: Date | null; actor_id: unknown }>(
    'select id, action, created_at, undone_at, actor_id from bulk_actions where org_id = $1 and id = $2 for update',
    [orgId, id],
  );
  return row ? { ...row, id: num(row.id), actor_id: row.actor_id === null ? null : num(row.actor_id) } : null;
}

/** The custom field key and label a custom action's items name (from the first item; all name the same). */
export async function bulkField(tx: Queryable, orgId: number, bulkId: number): Promise<{ key: string; label: string } | null> {
  const [row] = await tx.query<{ k: string; label: string }>(
    `select substr(k, 8) as k, i.changes -> k ->> 'label' as label
       from bulk_action_items i cross join lateral jsonb_object_keys(i.changes) k
      where i.org_id = $1 and i.bulk_id = $2 and k like 'custom.%' limit 1`,
    [orgId, bulkId],
  );
  return row ? { key: row.k, label: row.label } : null;
}
