// D58: a bulk action's one undo in words, shared by the toast after the action (customers list) and its
// entry in the activity log: 'Undone', or which customers were changed since and kept their later change.
import type { BulkUndoResult } from '../../contract/bulk';
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
