// D58: which activity entries offer a bulk action's Undo: small, so the activity log's own chunk carries it
// (the Undo's code loads only where one is offered).
import type { AuditEntryView } from '../../contract/audit';
import { BULK_UNDO_DAYS } from '../../contract/bulk';
import { DAY_MS } from '../../contract/time';

/** The audit actions of a bulk action that can be undone (an undo's own entry cannot). */
const UNDOABLE = { 'customers.bulk_changed': 'customers:update', 'customers.bulk_deleted': 'customers:delete' } as const;

/** The permission an entry's undo needs, or null when the entry offers no undo. */
export const undoPermission = (entry: Pick<AuditEntryView, 'action'>): 'customers:update' | 'customers:delete' | null =>
  UNDOABLE[entry.action as keyof typeof UNDOABLE] ?? null;

/**
 * D58: whether an activity entry offers Undo: a bulk action's (not an undo's), naming its bulk action (the
 * entry's target), younger than BULK_UNDO_DAYS, and not undone according to the entries shown (`undone`).
 */
export function mayUndoBulk(entry: AuditEntryView, undone: ReadonlySet<number>, now: number): boolean {
  if (!undoPermission(entry) || entry.target.type !== 'bulk_action' || entry.target.id === null || undone.has(entry.target.id)) return false;
  return Date.parse(entry.at) > now - BULK_UNDO_DAYS * DAY_MS;
}

/** The bulk actions undone according to these entries (their `customers.bulk_undone` entries). */
export const undoneBulks = (entries: readonly AuditEntryView[]): Set<number> =>
  new Set(entries.flatMap((e) => (e.action === 'customers.bulk_undone' && e.target.id !== null ? [e.target.id] : [])));
