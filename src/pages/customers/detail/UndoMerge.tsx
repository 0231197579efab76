// D49: 'Undo this merge' on a `customer.merged` entry of the customer's own timeline, later than the
// toast's five seconds: for who has customers:merge, while the merge can be undone (within MERGE_UNDO_DAYS
// of the entry, and no later `customer.merge_undone` entry with its merge_id). Asked first in the app's
// dialog; a 409 (already undone, a chain) or 410 (too old) is said in a toast and the page is read again.
import { Suspense, useState } from 'react';
import { lazyPart, usePreloadWhenIdle } from '../../../ui/early-module';
import type { AuditEntryView } from '../../../../contract/audit';
import type { TimelineItem } from '../../../../contract/customers';
import { MERGE_UNDO_DAYS } from '../../../../contract/merge';
import { DAY_MS } from '../../../../contract/time';
import { useMergeApi } from '../../../api/merge';
import { isHttpError } from '../../../http/errors';
import { useMutation, useQueryCache } from '../../../query/use-query';
import { toast } from '../../../ui/toast';
import { undoFailedWords } from '../merge/merge-toast';

// The question's dialog loads once the browser is idle after the page (lazyPart), where it is offered, like the page's other questions.
const ConfirmDialog = lazyPart(
  () => import('../../../ui/confirm-dialog'),
  (m) => m.ConfirmDialog,
);
const QUESTION = [ConfirmDialog];

export const UNDO_MERGE_LABEL = 'Undo this merge';

/** The merge an entry records, if it names one. */
export const mergeIdOf = (entry: Pick<AuditEntryView, 'changes'>): number | null => (typeof entry.changes?.merge_id === 'number' ? entry.changes.merge_id : null);

/** The merges undone according to these timeline items (their `customer.merge_undone` entries). */
export const undoneMerges = (items: readonly TimelineItem[] | undefined): number[] =>
  (items ?? []).flatMap((i) => (i.kind === 'audit' && i.action === 'customer.merge_undone' && mergeIdOf(i) !== null ? [mergeIdOf(i)!] : []));

/**
 * Whether the entry offers 'Undo this merge' on this customer's page: a merge entry about this customer
 * (not one of a customer merged into it, shown on its timeline), not undone since, and young enough.
 */
export function mayUndoMerge(entry: AuditEntryView, customerId: number, undone: ReadonlySet<number>, now: number): boolean {
  const mergeId = mergeIdOf(entry);
  if (entry.action !== 'customer.merged' || mergeId === null || entry.target.id !== customerId || undone.has(mergeId)) return false;
  return Date.parse(entry.at) > now - MERGE_UNDO_DAYS * DAY_MS;
}

const otherName = (entry: AuditEntryView) => {
  const c = entry.changes as { merged_customer?: { name?: string }; survivor?: { name?: string } };
  return c.merged_customer?.name ?? c.survivor?.name ?? 'the other customer';
};

export function UndoMerge({ entry, onUndone }: { entry: AuditEntryView; onUndone: () => void }) {
  usePreloadWhenIdle(true, QUESTION);
  const api = useMergeApi();
  const cache = useQueryCache();
  const undo = useMutation(api.undo);
  const [asking, setAsking] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const mergeId = mergeIdOf(entry)!;
  const busy = undo.status === 'pending';
  const close = () => (setAsking(false), setError(null));

  const confirm = async () => {
    if (busy) return;
    setError(null);
    try {
      const { survivor, merged } = await undo.mutate(mergeId);
      toast.success(`Merge undone: ${survivor.name} and ${merged.name} are separate again`);
    } catch (e) {
      // Retry-able failures stay in the dialog; a refusal that will not change is said and the page read again.
      if (!isHttpError(e, 409) && !isHttpError(e, 410)) return setError(undoFailedWords(e));
      toast.error(undoFailedWords(e));
      for (const key of api.undo.invalidates) cache.invalidate(key);
    }
    setAsking(false);
    requestAnimationFrame(onUndone); // after the dialog has handed the focus back: this button goes, the timeline takes it
  };

  return (
    <div className="restore-value">
      <button type="button" className="link-btn" onClick={() => (setAsking(true), setError(null))}>
        {UNDO_MERGE_LABEL}
      </button>
      {asking && (
        <Suspense fallback={null}>
          <ConfirmDialog
            title="Undo this merge?"
            confirm="Undo merge"
            busyLabel="Undoing…"
            tone="primary"
            busy={busy}
            error={error}
            onConfirm={() => void confirm()}
            onCancel={close}
          >
            <p>
              This customer and {otherName(entry)} become separate again, each with its own fields, notes, locations and contacts as before the merge. Changes made since
              are kept.
            </p>
          </ConfirmDialog>
        </Suspense>
      )}
    </div>
  );
}
