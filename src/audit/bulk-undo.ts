// D58: a bulk action's one undo in words, shared by the toast after the action (customers list) and its
// entry in the activity log: 'Undone', or which customers were changed since and kept their later change.
import type { AuditEntryView } from '../../contract/audit';
import { BULK_UNDO_DAYS, type BulkUndoResult } from '../../contract/bulk';
import { DAY_MS } from '../../contract/time';
import type { BulkApi } from '../api/bulk';
import type { QueryCache } from '../query/cache';
import { failedWords } from '../ui/failed-words';
import { toast } from '../ui/toast';

export const MSG_UNDONE = 'Undone';

const many = (n: number) => `${n.toLocaleString('en-US')} customer${n === 1 ? '' : 's'}`;

/** 'Undone', or 'K customers were changed since and were left as they are: Ann Lee, …' (the names the answer gives). */
export function undoneWords(r: BulkUndoResult): string {
  const k = r.changed_since_count;
  if (!k) return MSG_UNDONE;
  const names = r.changed_since.map((c) => c.name);
  const rest = k - names.length;
  const list = names.join(', ') + (rest > 0 ? `, and ${many(rest)} more` : '');
  return `${many(k)} ${k === 1 ? 'was changed since and was left as it is' : 'were changed since and were left as they are'}${list ? `: ${list}` : ''}.`;
}

/** Runs the undo and says how it went (a toast); true when it was undone. Every key it changes is read again. */
export async function undoBulk(api: Pick<BulkApi, 'undo'>, cache: QueryCache, bulkId: number): Promise<boolean> {
  try {
    const r = await api.undo.run(bulkId);
    for (const key of api.undo.invalidates) cache.invalidate(key);
    (r.changed_since_count ? toast.info : toast.success)(undoneWords(r));
    return true;
  } catch (error) {
    toast.error(failedWords(error, 'undo the change'));
    for (const key of api.undo.invalidates) cache.invalidate(key); // already undone elsewhere: the log shows it
    return false;
  }
}

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
