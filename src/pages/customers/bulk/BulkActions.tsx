// D58: the actions bar, shown while something is selected: only the actions the person may do on one
// customer (D9), each asked in a dialog that names the count. After an action the list, the dashboard and
// the activity log are read again, the selection clears, and a toast says what changed with its Undo.
import { useState } from 'react';
import { useBulkApi } from '../../../api/bulk';
import { useQueryCache } from '../../../query/use-query';
import { showBulkToast } from './bulk-toast';
import { type BulkKind, KIND_LABELS } from './bulk-words';
import { BulkDialog } from './BulkDialog';
import { useCan } from '../../../session/use-session';
import type { Selection } from './selection';
import { useSeesOnlyAssigned } from '../../../api/assignees';

export default function BulkActions({ selection }: { selection: Selection }) {
  const may = { update: useCan('customers:update'), remove: useCan('customers:delete'), export: useCan('customers:export') };
  const scoped = useSeesOnlyAssigned(); // D59: assigns to no one else
  const api = useBulkApi();
  const cache = useQueryCache();
  const [open, setOpen] = useState<BulkKind | null>(null);
  const kinds: BulkKind[] = [
    ...(may.update ? (['add_tag', 'remove_tag', 'status', 'type', 'dns', 'custom'] as const) : []),
    ...(may.update && !scoped ? (['assign'] as const) : []),
    ...(may.export ? (['export'] as const) : []),
    ...(may.remove ? (['delete'] as const) : []),
  ];
  return (
    <div className="bulk-actions" role="group" aria-label="Actions on the selected customers">
      {kinds.map((k) => (
        <button key={k} type="button" className="btn btn-sm" onClick={() => setOpen(k)}>
          {KIND_LABELS[k]}
        </button>
      ))}
      {open && (
        <BulkDialog
          kind={open}
          selection={selection}
          onCancel={() => setOpen(null)}
          onDone={(result) => {
            setOpen(null);
            if (result) showBulkToast(result, api, cache);
            selection.clear();
          }}
        />
      )}
    </div>
  );
}
