// D56 D61 Custom fields (/settings/fields): the organization's customer fields (≤ 50) and location fields
// (≤ 20), each group in its order (FieldGroup.tsx). Everyone who sees customers reads them; with
// fields:manage a person adds and edits (FieldDialog.tsx), reorders by Move up / Move down or by dragging
// (saved at once with PUT order; the focus stays on the moved row and a live region says where it went),
// archives and restores, and deletes an archived field after a confirmation naming how many records hold
// a value (DeleteFieldDialog.tsx). The dialogs load once the browser is idle, for who may open them.
import { Suspense, useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { CustomField, CustomFieldKind } from '../../../../contract/custom-fields';
import { useCustomFieldsApi } from '../../../api/custom-fields';
import { isHttpError } from '../../../http/errors';
import { useMutation, useQuery } from '../../../query/use-query';
import { useCan } from '../../../session/use-session';
import { lazyPart, usePreloadWhenIdle } from '../../../ui/early-module';
import { errorWords } from '../../../ui/error-words';
import { LoadError, Page } from '../../../ui/page';
import { Spinner } from '../../../ui/spinner';
import { toast } from '../../../ui/toast';
import { FieldGroup, rowButtonId } from './FieldGroup';

export const MSG_READ_ONLY = 'You can see these fields; changing them needs the ‘Manage custom fields’ permission.';
export const archivedWords = (label: string) => `“${label}” archived. Its values are kept; Restore brings it back.`;
export const restoredWords = (label: string) => `“${label}” restored`;
export const savedWords = (label: string, added: boolean) => (added ? `“${label}” added` : `“${label}” saved`);
export const MSG_ORDER_STALE = 'The fields were changed meanwhile; they are shown as they are now. Please move it again.';
export const movedWords = (label: string, to: number, of: number) => `${label} moved to position ${to} of ${of}`;

const FieldDialog = lazyPart(() => import('./FieldDialog'));
const DeleteFieldDialog = lazyPart(() => import('./DeleteFieldDialog'));
const DIALOGS = [FieldDialog, DeleteFieldDialog];
const GROUPS: { kind: CustomFieldKind; title: string }[] = [
  { kind: 'customer', title: 'Customer fields' },
  { kind: 'location', title: 'Location fields' },
];

type Open = { what: 'add'; kind: CustomFieldKind } | { what: 'edit'; field: CustomField } | { what: 'delete'; field: CustomField } | null;
const byPosition = (a: CustomField, b: CustomField) => a.position - b.position;

export default function FieldsPage() {
  const api = useCustomFieldsApi();
  const manage = useCan('fields:manage');
  usePreloadWhenIdle(manage, DIALOGS); // D9: only who is offered them
  const list = useQuery(api.list());
  const reorder = useMutation(api.reorder);
  const archive = useMutation(api.archive);
  const restore = useMutation(api.restore);
  const [open, setOpen] = useState<Open>(null);
  const [busy, setBusy] = useState<number | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [said, setSaid] = useState('');
  // A new order shows at once and stays until the list read after the last PUT has arrived.
  const [order, setOrder] = useState<Partial<Record<CustomFieldKind, number[]>>>({});
  const moving = useRef(0);
  useEffect(() => {
    if (moving.current === 0) setOrder({});
  }, [list.data]);

  // D15: the focus goes where the person's next step is once that control is drawn (a moved row's button,
  // an archived field's Restore, the group's heading after a delete).
  const focusNext = useRef<string | null>(null);
  useLayoutEffect(() => {
    const el = focusNext.current && document.getElementById(focusNext.current);
    if (!el) return;
    focusNext.current = null;
    el.focus();
  });

  const all = list.data ?? [];
  const archivedOf = (kind: CustomFieldKind) => all.filter((f) => f.record_kind === kind && f.archived).sort(byPosition);
  function activeOf(kind: CustomFieldKind): CustomField[] {
    const active = all.filter((f) => f.record_kind === kind && !f.archived).sort(byPosition);
    const ids = order[kind];
    if (!ids) return active;
    const shown = ids.map((id) => active.find((f) => f.id === id)).filter((f): f is CustomField => f !== undefined);
    return [...shown, ...active.filter((f) => !ids.includes(f.id))];
  }

  async function move(f: CustomField, to: number, button: 'up' | 'down' | null) {
    const kind = f.record_kind;
    const ids = activeOf(kind).map((x) => x.id);
    ids.splice(ids.indexOf(f.id), 1);
    ids.splice(to, 0, f.id);
    setOrder((o) => ({ ...o, [kind]: ids }));
    setRefusal(null);
    // The pressed button keeps the focus; at an end (where it is disabled) the other one takes it.
    if (button) focusNext.current = rowButtonId(f, to === 0 ? 'down' : to === ids.length - 1 ? 'up' : button);
    setSaid(movedWords(f.label, to + 1, ids.length));
    moving.current++;
    try {
      await reorder.mutate({ kind, ids: [...ids, ...archivedOf(kind).map((x) => x.id)] });
    } catch (e) {
      setOrder((o) => ({ ...o, [kind]: undefined }));
      setSaid('');
      // 400 on ids: someone added or deleted a field meanwhile; show the list as it is now.
      const changed = isHttpError(e, 400) && e.field === 'ids';
      if (changed) void list.refetch().catch(() => undefined);
      setRefusal(`Could not save the new order. ${changed ? MSG_ORDER_STALE : errorWords(e)}`);
    } finally {
      moving.current--;
    }
  }

  async function toggle(f: CustomField, to: 'archive' | 'restore') {
    setBusy(f.id);
    setRefusal(null);
    try {
      await (to === 'archive' ? archive : restore).mutate(f.id);
      toast.success(to === 'archive' ? archivedWords(f.label) : restoredWords(f.label));
      focusNext.current = rowButtonId(f, to === 'archive' ? 'restore' : 'archive');
    } catch (e) {
      setRefusal(`Could not ${to} “${f.label}”. ${errorWords(e)}`);
    }
    setBusy(null);
  }

  const close = () => setOpen(null);
  let body;
  if (list.status === 'error' && !list.data)
    body = <LoadError what="the custom fields" error={list.error} explained busy={list.fetching} onRetry={() => void list.refetch().catch(() => undefined)} />;
  else if (!list.data) body = <Spinner label="Loading the custom fields…" showLabel />;
  else
    body = GROUPS.map(({ kind, title }) => (
      <FieldGroup
        key={kind}
        kind={kind}
        title={title}
        active={activeOf(kind)}
        archived={archivedOf(kind)}
        manage={manage}
        busy={busy}
        onAdd={() => setOpen({ what: 'add', kind })}
        onEdit={(field) => setOpen({ what: 'edit', field })}
        onMove={(field, to, button) => void move(field, to, button)}
        onArchive={(field) => void toggle(field, 'archive')}
        onRestore={(field) => void toggle(field, 'restore')}
        onDelete={(field) => setOpen({ what: 'delete', field })}
      />
    ));

  const editing = open?.what === 'add' ? { kind: open.kind, field: null } : open?.what === 'edit' ? { kind: open.field.record_kind, field: open.field } : null;
  return (
    <Page title="Custom fields" description="Fields your organization adds to its customers and their service locations, in the order forms show them.">
      {!manage && <p className="card fd-note">{MSG_READ_ONLY}</p>}
      {refusal && (
        <div className="card admin-alert admin-notice" role="alert">
          <p>{refusal}</p>
          <button type="button" className="btn team-btn" onClick={() => setRefusal(null)}>
            Dismiss
          </button>
        </div>
      )}
      {body}
      <p className="sr-only" aria-live="polite" aria-atomic="true">
        {said}
      </p>
      {editing && (
        <Suspense fallback={null}>
          <FieldDialog
            kind={editing.kind}
            field={editing.field}
            others={all.filter((f) => f.record_kind === editing.kind && f.id !== editing.field?.id)}
            onCancel={close}
            onSaved={(f, added) => {
              toast.success(savedWords(f.label, added));
              if (added) focusNext.current = rowButtonId(f, 'edit');
              close();
            }}
          />
        </Suspense>
      )}
      {open?.what === 'delete' && (
        <Suspense fallback={null}>
          <DeleteFieldDialog
            field={open.field}
            onCancel={close}
            onDeleted={() => {
              focusNext.current = `cf-${open.field.record_kind}-title`;
              close();
            }}
          />
        </Suspense>
      )}
    </Page>
  );
}
