// D30: reading the audit log (writing is server/audit.ts, called by the router). Newest first.
import type { AuditEntryView } from '../../../contract/customers';
import type { Queryable } from '../../db';
import { num } from '../../db';

export interface AuditFilter {
  actorId: number | null;
  action: string | null;
  targetType: string | null;
  targetId: number | null;
}

type Row = {
  id: unknown; at: Date; actor_id: unknown; actor_name: string | null; actor_label: string; action: string;
  target_type: string; target_id: unknown; target_label: string; changes: unknown; total?: unknown;
};

export function toView(r: Row): AuditEntryView {
  const changes = typeof r.changes === 'object' && r.changes !== null ? { ...(r.changes as Record<string, unknown>) } : {};
  delete changes.customer_ids; // an import's list of customers is for the timeline, not for reading
  delete changes.updates; // D44: and so are its changes per customer (each customer's timeline shows its own)
  return {
    id: num(r.id),
    at: r.at.toISOString(),
    actor: { id: r.actor_id === null ? null : num(r.actor_id), name: r.actor_name ?? r.actor_label },
    action: r.action,
    target: { type: r.target_type, id: r.target_id === null ? null : num(r.target_id), label: r.target_label },
    changes,
  };
}

/** One page of an organization's entries, newest first, filtered by person, action and target. */
export async function listAudit(db: Queryable, orgId: number, f: AuditFilter, page: number, pageSize: number): Promise<{ count: number; results: AuditEntryView[] }> {
  const params: unknown[] = [orgId];
  const add = (v: unknown) => `$${params.push(v)}`;
  const clauses = ['a.org_id = $1'];
  if (f.actorId !== null) clauses.push(`a.actor_id = ${add(f.actorId)}`);
  if (f.action !== null) clauses.push(`a.action = ${add(f.action)}`);
  if (f.targetType !== null) clauses.push(`a.target_type = ${add(f.targetType)}`);
  if (f.targetId !== null) clauses.push(`a.target_id = ${add(f.targetId)}`);
  const whereSql = clauses.join(' and ');
  const rows = await db.query<Row>(
    `select a.id, a.at, a.actor_id, a.actor_label, a.action, a.target_type, a.target_id, a.target_label,
            a.changes - 'customer_ids' - 'updates' as changes, u.first_name as actor_name
       from audit_log a left join users u on u.id = a.actor_id
      where ${whereSql} order by a.at desc, a.id desc limit ${add(pageSize)} offset ${add((page - 1) * pageSize)}`,
    params as never,
  );
  const [count] = await db.query<{ n: unknown }>(`select count(*) as n from audit_log a where ${whereSql}`, params.slice(0, params.length - 2) as never);
  return { count: num(count?.n ?? 0), results: rows.map(toView) };
}
