// D57: the name of a new saved view (shared with everyone, with views:manage) or a view's new name. Loaded
// when the dialog is first opened. What was typed stays through a refusal (409 duplicate_view_name).
import { useId, useState } from 'react';
import type { SavedView } from '../../../../contract/views';
import { VIEW_NAME_MAX } from '../../../../contract/views';
import { useViewsApi } from '../../../api/views';
import { useMutation } from '../../../query/use-query';
import { useSession } from '../../../session/use-session';
import { Dialog } from '../../../ui/dialog';
import { errorWords } from '../../../ui/error-words';
import { viewColumns, viewParams } from './view-params';

export type Naming = { kind: 'new' } | { kind: 'rename'; view: SavedView };

/** The name (and, with views:manage, sharing) of a new view, or a view's new name. */
export default function NameDialog({ editing, canShare, search, onDone }: { editing: Naming; canShare: boolean; search: string; onDone: (v: SavedView | null) => void }) {
  const api = useViewsApi();
  const create = useMutation(api.create);
  const update = useMutation(api.update);
  const org = useSession().currentOrg?.name ?? 'the organization';
  const [name, setName] = useState(editing.kind === 'rename' ? editing.view.name : '');
  const [shared, setShared] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const id = useId();
  const busy = create.status === 'pending' || update.status === 'pending';
  async function save() {
    if (busy) return;
    if (!name.trim()) return setError('Name is required');
    setError(null);
    try {
      const v =
        editing.kind === 'new'
          ? await create.mutate({ name: name.trim(), shared, params: viewParams(search), columns: viewColumns(search) })
          : await update.mutate({ id: editing.view.id, changes: { name: name.trim() } });
      onDone(v);
    } catch (e) {
      setError(errorWords(e)); // what was typed stays
    }
  }
  return (
    <Dialog
      title={editing.kind === 'new' ? 'Save this list as a view' : 'Rename the view'}
      onCancel={() => onDone(null)}
      actions={
        <>
          <button type="button" className="btn" onClick={() => onDone(null)}>
            Cancel
          </button>
          <button type="button" className="btn btn-primary" onClick={() => void save()} aria-disabled={busy || undefined} aria-busy={busy || undefined}>
            {busy ? 'Saving…' : 'Save view'}
          </button>
        </>
      }
    >
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <div className="field">
          <label htmlFor={`${id}n`}>Name</label>
          <input
            id={`${id}n`}
            data-autofocus
            value={name}
            maxLength={VIEW_NAME_MAX}
            onChange={(e) => setName(e.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}e` : undefined}
          />
          {error && (
            <p id={`${id}e`} className="field-error" role="alert">
              {error}
            </p>
          )}
        </div>
        {editing.kind === 'new' && canShare && (
          <label className="check">
            <input type="checkbox" checked={shared} onChange={(e) => setShared(e.target.checked)} /> Share with everyone in {org}
          </label>
        )}
      </form>
    </Dialog>
  );
}
