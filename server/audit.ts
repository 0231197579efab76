// D30: every change writes an audit entry in its own transaction: time, actor, organization, action,
// target (type, id, label) and the changed fields before and after. Never a password, token or hash.
import type { Queryable } from './db';

export interface AuditEntry {
  /** e.g. 'customer.updated'; defaults to the route's declared action. */
  action?: string;
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

/** The changes with every secret-looking key removed, at any depth. */
export function scrubChanges(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(scrubChanges);
  if (typeof value !== 'object' || value === null || value instanceof Date) return value;
  return Object.fromEntries(Object.entries(value).filter(([k]) => !SECRET_KEY.test(k)).map(([k, v]) => [k, scrubChanges(v)]));
}

export async function writeAudit(tx: Queryable, orgId: number, actor: Actor, action: string, entry: AuditEntry, at: Date): Promise<void> {
  await tx.query(
    `insert into audit_log (org_id, at, actor_id, actor_label, action, target_type, target_id, target_label, changes)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9::text::jsonb)`,
    [entry.orgId ?? orgId, at, actor.id, actor.label, action, entry.target.type, entry.target.id, entry.target.label,
      JSON.stringify(scrubChanges(entry.changes ?? {}))],
  );
}
