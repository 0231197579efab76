// D57: the customers list's saved views: open one by name (/customers?view={id}, with the person's changes
// on top in the URL), save the list as it is as a view (personal, or shared with views:manage), save
// changes to it, rename, remove, and choose it as one's default. Kept by the server.
import { lazy, Suspense, useEffect, useId, useRef, useState } from 'react';
import type { SavedView } from '../../../../contract/views';
import { useViewsApi } from '../../../api/views';
import { useMutation, useQuery } from '../../../query/use-query';
import { navigate } from '../../../router/location';
import { PAGES } from '../../../router/paths';
import { useCan } from '../../../session/use-session';
import { ConfirmDialog } from '../../../ui/confirm-dialog';
import { errorWords } from '../../../ui/error-words';
import { toast } from '../../../ui/toast';
import type { Naming } from './NameDialog';
import { changedFrom, leftOutWords, namesNothing, viewColumns, viewHref, viewParams, withoutView } from './view-params';

export const MSG_VIEW_SAVED = 'View saved';

type Editing = Naming | { kind: 'delete'; view: SavedView } | null;

// The naming dialog loads when it is first opened.
const NameDialog = lazy(() => import('./NameDialog'));

export function ViewsBar({ search, viewId }: { search: string; viewId: number | null }) {
  const api = useViewsApi();
  const views = useQuery(api.list());
  const canShare = useCan('views:manage');
  const setDefault = useMutation(api.setDefault);
  const update = useMutation(api.update);
  const remove = useMutation(api.remove);
  const [editing, setEditing] = useState<Editing>(null);
  const [removeError, setRemoveError] = useState<string | null>(null);
  const id = useId();
  const list = views.data ?? [];
  const current = viewId === null ? undefined : list.find((v) => v.id === viewId);
  const mayChange = (v: SavedView) => !v.shared || canShare;

  // D57: a link naming only a view (a pasted /customers?view=12, or the default view) opens it as saved.
  useEffect(() => {
    if (current && namesNothing(search) && (Object.keys(current.params).length > 0 || current.columns.length > 0)) navigate(viewHref(current), { replace: true });
  }, [current, search]);
  // D57: the person's default view, when the list is opened as it comes (once per visit to the page).
  const checked = useRef(false);
  useEffect(() => {
    if (checked.current || !views.data) return;
    checked.current = true;
    const chosen = views.data.find((v) => v.is_default);
    if (chosen && search === '') navigate(viewHref(chosen), { replace: true });
  }, [views.data, search]);

  const open = (value: string) => {
    const v = list.find((x) => String(x.id) === value);
    navigate(v ? viewHref(v) : PAGES.customers);
  };
  async function saveChanges(v: SavedView) {
    try {
      await update.mutate({ id: v.id, changes: { params: viewParams(search), columns: viewColumns(search) } });
      toast.success(`“${v.name}” saved`);
    } catch (e) {
      toast.error(`Could not save the view. ${errorWords(e)}`);
    }
  }
  async function toggleDefault(v: SavedView) {
    try {
      await setDefault.mutate(v.is_default ? null : v.id);
      toast.success(v.is_default ? 'The list now opens as it comes' : `The list now opens with “${v.name}”`);
    } catch (e) {
      toast.error(`Could not choose the default view. ${errorWords(e)}`);
    }
  }

  const mine = list.filter((v) => !v.shared);
  const shared = list.filter((v) => v.shared);
  const name = (v: SavedView) => `${v.name}${v.is_default ? ' (default)' : ''}`;
  return (
    <div className="views-bar">
      <label htmlFor={`${id}v`}>Saved view</label>
      <select id={`${id}v`} value={current ? String(current.id) : ''} onChange={(e) => open(e.target.value)} aria-busy={views.fetching || undefined}>
        <option value="">None</option>
        {mine.length > 0 && (
          <optgroup label="Your views">
            {mine.map((v) => (
              <option key={v.id} value={v.id}>
                {name(v)}
              </option>
            ))}
          </optgroup>
        )}
        {shared.length > 0 && (
          <optgroup label="Shared with everyone">
            {shared.map((v) => (
              <option key={v.id} value={v.id}>
                {name(v)}
              </option>
            ))}
          </optgroup>
        )}
      </select>
      {current && mayChange(current) && changedFrom(current, search) && (
        <button type="button" className="btn btn-sm" onClick={() => void saveChanges(current)}>
          Save changes to “{current.name}”
        </button>
      )}
      <button type="button" className="btn btn-sm" onClick={() => setEditing({ kind: 'new' })}>
        Save as view…
      </button>
      {current && (
        <>
          <button type="button" className="btn btn-sm" aria-pressed={current.is_default} onClick={() => void toggleDefault(current)}>
            {current.is_default ? 'Default view' : 'Make default'}
          </button>
          {mayChange(current) && (
            <>
              <button type="button" className="btn btn-sm" onClick={() => setEditing({ kind: 'rename', view: current })}>
                Rename
              </button>
              <button type="button" className="btn btn-sm" onClick={() => setEditing({ kind: 'delete', view: current })}>
                Delete view
              </button>
            </>
          )}
        </>
      )}
      {views.status === 'error' && !views.data && <p className="muted">Your saved views could not be loaded.</p>}
      {viewId !== null && views.data && !current && (
        <p className="muted views-left-out" role="status">
          This saved view is no longer there: it was deleted, or it is not shared with you.{' '}
          <button type="button" className="link-btn" onClick={() => navigate(withoutView(search), { replace: true })}>
            Show the list without it
          </button>
        </p>
      )}
      {current && current.left_out.length > 0 && (
        <p className="muted views-left-out" role="status">
          This view names what is no longer there, left out: {leftOutWords(current)}.
        </p>
      )}
      {editing && editing.kind !== 'delete' && (
        <Suspense fallback={null}>
          <NameDialog
            editing={editing}
            canShare={canShare}
            search={search}
            onDone={(v) => {
              const made = editing.kind === 'new';
              setEditing(null);
              if (!v) return;
              toast.success(made ? MSG_VIEW_SAVED : 'View renamed');
              if (made) navigate(viewHref(v), { replace: true });
            }}
          />
        </Suspense>
      )}
      {editing?.kind === 'delete' && (
        <ConfirmDialog
          title={`Delete the view “${editing.view.name}”?`}
          confirm="Delete view"
          busyLabel="Deleting…"
          busy={remove.status === 'pending'}
          error={removeError}
          onCancel={() => {
            setEditing(null);
            setRemoveError(null);
          }}
          onConfirm={async () => {
            try {
              await remove.mutate(editing.view.id);
              setEditing(null);
              toast.success('View deleted');
              navigate(PAGES.customers, { replace: true });
            } catch (e) {
              setRemoveError(errorWords(e));
            }
          }}
        >
          {editing.view.shared ? 'Everyone in the organization loses it. ' : ''}The customers stay as they are.
        </ConfirmDialog>
      )}
    </div>
  );
}
