// D58: 'Undo' on a bulk action's entry of the activity log, for BULK_UNDO_DAYS, for who may do the action
// on one customer; not on an undo's own entry, nor on an action the log shows undone. Asked first in the
// app's dialog; the answer is said in a toast ('Undone', or who was changed since and kept the change).
import { Suspense, useState } from 'react';
import type { AuditEntryView } from '../../../contract/audit';
import { useBulkApi } from '../../api/bulk';
import { undoPermission } from '../../audit/bulk-entry';
import { undoBulk } from '../../audit/bulk-undo';
import { useQueryCache } from '../../query/use-query';
import { useCan } from '../../session/use-session';
import { lazyPart } from '../../ui/early-module';
import { absoluteTime } from '../../ui/when';

const ConfirmDialog = lazyPart(
  () => import('../../ui/confirm-dialog'),
  (m) => m.ConfirmDialog,
);

export default function BulkUndo({ entry }: { entry: AuditEntryView }) {
  const may = useCan(undoPermission(entry) ?? 'customers:update');
  const api = useBulkApi();
  const cache = useQueryCache();
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  if (!may || entry.target.id === null) return null;
  const bulkId = entry.target.id;
  const confirm = async () => {
    if (busy) return;
    setBusy(true);
    await undoBulk(api, cache, bulkId);
    setBusy(false);
    setAsking(false);
  };
  return (
    <>
      <button
        type="button"
        className="btn btn-sm activity-undo"
        aria-label={`Undo the bulk change to ${entry.target.label} of ${absoluteTime(entry.at)}`}
        onClick={() => setAsking(true)}
      >
        Undo
      </button>
      {asking && (
        <Suspense fallback={null}>
          <ConfirmDialog
            title="Undo this bulk change?"
            confirm="Undo"
            busyLabel="Undoing…"
            tone="primary"
            busy={busy}
            onConfirm={() => void confirm()}
            onCancel={() => setAsking(false)}
          >
            <p>Every customer it changed goes back as it was; a customer changed again since keeps the later change and is named.</p>
          </ConfirmDialog>
        </Suspense>
      )}
    </>
  );
}
