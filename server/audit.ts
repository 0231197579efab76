// D30: every change writes an audit entry in its own transaction: time, actor, organization, action,
// target (type, id, label) and the changed fields before and after. Never a password, token or hash.
// Read back through one view (AUDIT_VIEW): the activity log, the dashboard and a customer's timeline.
import { seen, type CustomerScope } from './customer-scope';
import type { AuditAction, AuditEntryView } from '../contract/audit';
import type { Queryable } from './db';
import { num } from './db';

export interface AuditEntry {
  /** e.g. 'customer.updated'; defaults to the route's declared action. */
  action?: AuditAction;
  target: { type: string; id: number | null; label: string };
  /** Field → { from, to } for updates; the created or removed record's fields otherwise. */
  changes?: Record<string, unknown>;
  /** Only where the caller acts outside an organization header (an invitation accepted): the organization. */
  orgId?: number;
}

export interface Actor {
  id: number | null;
  label: string;
}

/** Keys that must never be written to the log, at any depth (D30, security). */
const SECRET_KEY = /password|token|hash|secret/i;

/** The changes as JSON, every secret-looking key left out at any depth. */
const scrubbedJson = (changes: unknown) => JSON.stringify(changes, (key, value) => (SECRET_KEY.test(key) ? undefined : value));

export async function writeAudit(tx: Queryable, orgId: number, actor: Actor, action: AuditAction, entry: AuditEntry, at: Date): Promise<void> {
  await tx.query(
    `insert into audit_log (org_id, at, actor_id, actor_label, action, target_type, target_id, target_label, changes)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9::text::jsonb)`,
    [entry.orgId ?? orgId, at, actor.id, actor.label, action, entry.target.type, entry.target.id, entry.target.label, scrubbedJson(entry.changes ?? {})],
  );
}

/**
 * D30: the log as the API answers it, one row per entry: the actor's name as it is now (else as it
 * was), and `changes` without an import's per-customer lists (`customer_ids`, D44 `updates`), which
 * stay in `recorded` for a customer's timeline to find itself in. Select AUDIT_COLUMNS from it as `v`.
 */
export const AUDIT_VIEW = `(
  select a.org_id, a.id, a.at, a.actor_id, coalesce(u.first_name, a.actor_label) as actor_name, a.action, a.target_type,
         a.target_id, a.target_label, a.changes - 'customer_ids' - 'updates' as changes, a.changes as recorded
    from audit_log a left join users u on u.id = a.actor_id)`;

/** The view's columns an answer is made of (toAuditView), in this order. */
export const AUDIT_COLUMNS = 'v.id, v.at, v.actor_id, v.actor_name, v.action, v.target_type, v.target_id, v.target_label, v.changes';

export type AuditRow = {
  id: unknown;
  at: Date;
  actor_id: unknown;
  actor_name: unknown;
  action: string;
  target_type: string;
  target_id: unknown;
  target_label: string;
  changes: unknown;
};

/** A row of AUDIT_COLUMNS as the API answers it; no actor when there is neither an account nor a name. */
export function toAuditView(r: AuditRow): AuditEntryView {
  const name = String(r.actor_name ?? '');
  return {
    id: num(r.id),
    at: r.at.toISOString(),
    actor: r.actor_id === null && !name ? null : { id: r.actor_id === null ? null : num(r.actor_id), name },
    action: r.action as AuditAction,
    target: { type: r.target_type, id: r.target_id === null ? null : num(r.target_id), label: r.target_label },
    changes: typeof r.changes === 'object' && r.changes !== null ? (r.changes as Record<string, unknown>) : {},
  };
}

export interface AuditFilter {
  actorId: number | null;
  /** A filter, not an entry: any name an entry may have, known to this version or not. */
  action: string | null;
  targetType: string | null;
  targetId: number | null;
}

/**
 * D59: for a caller who sees only their own customers, the entries about a customer (or a note of one)
 * they see, their own imports and bulk actions (which touched only theirs), and every entry about
 * anything else (the team, the matrix, settings, fields, views).
 */
function aboutSeen(scope: CustomerScope): string {
  const mine = (id: string) => `exists (select 1 from customers c where c.org_id = $1 and c.id = ${id}${seen('c', scope)})`;
  return `(v.target_type not in ('customer', 'note', 'import', 'bulk_action')
       or (v.target_type = 'customer' and ${mine('v.target_id')})
       or (v.target_type = 'note' and ${mine("(v.changes ->> 'customer_id')::integer")})
       or (v.target_type in ('import', 'bulk_action') and v.actor_id = ${scope.assignedTo}))`;
}

/** D30 D32: one page of an organization's entries, newest first, filtered by person, action and target. */
export async function listAudit(
  db: Queryable,
  scope: CustomerScope,
  f: AuditFilter,
  page: number,
  pageSize: number,
): Promise<{ count: number; results: AuditEntryView[] }> {
  const params: unknown[] = [scope.orgId];
  const add = (v: unknown) => `$${params.push(v)}`;
  const clauses = ['v.org_id = $1'];
  if (scope.assignedTo !== null) clauses.push(aboutSeen(scope));
  if (f.actorId !== null) clauses.push(`v.actor_id = ${add(f.actorId)}`);
  if (f.action !== null) clauses.push(`v.action = ${add(f.action)}`);
  if (f.targetType !== null) clauses.push(`v.target_type = ${add(f.targetType)}`);
  if (f.targetId !== null) clauses.push(`v.target_id = ${add(f.targetId)}`);
  const whereSql = clauses.join(' and ');
  const rows = await db.query<AuditRow>(
    `select ${AUDIT_COLUMNS} from ${AUDIT_VIEW} v where ${whereSql} order by v.at desc, v.id desc limit ${add(pageSize)} offset ${add((page - 1) * pageSize)}`,
    params as never,
  );
  const [count] = await db.query<{ n: unknown }>(`select count(*) as n from audit_log v where ${whereSql}`, params.slice(0, params.length - 2) as never);
  return { count: num(count?.n ?? 0), results: rows.map(toAuditView) };
}
