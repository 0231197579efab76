// D29 Permissions (/permissions, permissions:view): the organization's role × permission matrix grouped
// by area, one checkbox per role and permission (named 'member: customers:delete'). With
// permissions:manage it is edited and saved as a whole, or reset to D10's defaults after a
// confirmation; without it, or on a fixed row (the owner has everything), the boxes are disabled.
// After a save or reset the session reloads its profile, so a change to one's own role shows at once
// in the sidebar and buttons. D41: an edited matrix is kept as a draft.
import { useState } from 'react';
import { PERMISSION_WORDS } from '../../../contract/permission-words';
import type { CustomerScope, Permission, Role } from '../../../contract/permissions';
import { PERMISSION_AREAS, type PermissionMatrix } from '../../../contract/team';
import { useTeamApi } from '../../api/team';
import { isPermissionDenied, useDraft } from '../../drafts/context';
import { useMutation, useQuery } from '../../query/use-query';
import { useCan, useSession, useSessionActions } from '../../session/use-session';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { errorWords } from '../../ui/error-words';
import { useLeaveGuard } from '../../ui/leave-guard';
import { LoadError, Page } from '../../ui/page';
import { Spinner } from '../../ui/spinner';
import { toast } from '../../ui/toast';
import { asEdit, type Edit, SeesRow, type Sees } from './SeesRow';

export const MSG_SAVED = 'Permissions saved';
export const MSG_RESET = 'Permissions reset to the defaults';

/** D55: what each permission lets a person do, in words (contract/permission-words.ts, the activity log's too), shown before its code. */
export const PERMISSION_TEXT: Readonly<Record<Permission, string>> = PERMISSION_WORDS;

type Matrix = Record<Role, Permission[]>;
const sameSet = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((p) => b.includes(p));
const sameMatrix = (a: Matrix, b: Matrix, roles: readonly Role[]) => roles.every((r) => sameSet(a[r] ?? [], b[r] ?? []));

function MatrixTable({
  data,
  matrix,
  editable,
  myRole,
  onToggle,
  sees,
}: {
  data: PermissionMatrix;
  matrix: Matrix;
  editable: boolean;
  myRole: string | null;
  onToggle: (role: Role, permission: Permission, on: boolean) => void;
  sees: Sees;
}) {
  // Areas in PERMISSION_AREAS order; any permission the server knows and no area names goes last.
  const named = new Set(PERMISSION_AREAS.flatMap((a) => a.permissions));
  const areas = [...PERMISSION_AREAS, { area: 'Other', permissions: data.permissions.filter((p) => !named.has(p)) }].filter((a) => a.permissions.length > 0);
  return (
    <div className="table-wrap perm-wrap">
      <table className="perm-table">
        <caption className="sr-only">Permissions by role{editable ? '' : ' (read-only)'}</caption>
        <thead>
          <tr>
            <th scope="col">Permission</th>
            {data.roles.map((r) => (
              <th scope="col" key={r} className="perm-role">
                {r}
                {r === myRole && <span className="perm-you"> (your role)</span>}
              </th>
            ))}
          </tr>
        </thead>
        <SeesRow roles={data.roles} fixed={data.fixed} editable={editable} sees={sees} />
        {areas.map(({ area, permissions }) => (
          <tbody key={area}>
            <tr className="perm-area">
              <th scope="rowgroup" colSpan={data.roles.length + 1}>
                {area}
              </th>
            </tr>
            {permissions.map((p) => (
              <tr key={p}>
                <th scope="row" className="perm-name">
                  {/* D55: the words first, the code second (a permission without words shows its code alone). */}
                  {PERMISSION_TEXT[p] ? <span className="perm-words">{PERMISSION_TEXT[p]}</span> : null} <code className="perm-code">{p}</code>
                </th>
                {data.roles.map((r) => {
                  const fixed = data.fixed.includes(r);
                  return (
                    <td key={r} className="perm-cell">
                      <input
                        type="checkbox"
                        aria-label={`${r}: ${p}`}
                        checked={fixed || matrix[r]?.includes(p) === true}
                        disabled={!editable || fixed}
                        onChange={(e) => onToggle(r, p, e.target.checked)}
                      />
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        ))}
      </table>
    </div>
  );
}

export default function PermissionsPage() {
  const api = useTeamApi();
  const { load } = useSessionActions();
  const myRole = useSession().role;
  const manage = useCan('permissions:manage');
  const query = useQuery(api.permissions());
  const save = useMutation(api.savePermissions);
  const reset = useMutation(api.resetPermissions);
  const [draft, setDraft] = useState<Edit | null>(null);
  // The answer to a save or reset stands for the server's matrix until the refetch it caused arrives.
  const [saved, setSaved] = useState<{ data: PermissionMatrix; at: number } | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const server = saved && query.updatedAt <= saved.at ? saved.data : query.data;
  const editableRoles = server?.roles.filter((r) => !server.fixed.includes(r)) ?? [];
  const scopeOf = (r: Role): CustomerScope => draft?.scopes[r] ?? server?.scopes?.[r] ?? 'all'; // D59
  const dirty =
    draft !== null && !!server && (!sameMatrix(draft.matrix, server.matrix, editableRoles) || editableRoles.some((r) => scopeOf(r) !== (server.scopes?.[r] ?? 'all')));
  const kept = useDraft({ form: 'permissions', data: draft, dirty, onRestore: (d) => setDraft(asEdit(d)) });
  // D42: an edited, unsaved matrix asks before the page is left (links, Back and Forward, reload).
  const guard = useLeaveGuard(dirty, () => kept.discard(), 'the permissions');
  if (!server) {
    if (query.status === 'error') {
      return (
        <Page title="Permissions">
          <LoadError what="the permissions" error={query.error} explained busy={query.fetching} onRetry={() => void query.refetch().catch(() => undefined)} />
        </Page>
      );
    }
    return (
      <Page title="Permissions">
        <Spinner label="Loading permissions…" showLabel />
      </Page>
    );
  }

  const matrix = draft?.matrix ?? server.matrix;
  const scopes = draft?.scopes ?? {};
  const busy = save.status === 'pending' || reset.status === 'pending';

  function toggle(role: Role, permission: Permission, on: boolean) {
    const current = matrix[role] ?? [];
    const next = on ? [...current, permission] : current.filter((p) => p !== permission);
    setDraft({ matrix: { ...matrix, [role]: next }, scopes });
  }

  // D29: the person's own permissions may have changed: the session reloads its profile.
  async function done(data: PermissionMatrix, message: string) {
    setSaved({ data, at: Date.now() });
    kept.saved();
    setDraft(null);
    toast.success(message);
    await load();
  }

  async function onSave() {
    if (!dirty || busy) return;
    setError(null);
    try {
      const rows = (f: (r: Role) => unknown) => Object.fromEntries(editableRoles.map((r) => [r, f(r)]));
      await done(await save.mutate({ matrix: rows((r) => matrix[r] ?? []), scopes: rows(scopeOf) }), MSG_SAVED);
    } catch (e) {
      setError(isPermissionDenied(e) ? kept.lost('change permissions') : `Could not save the permissions. ${errorWords(e)}`);
    }
  }

  async function onReset() {
    setError(null);
    try {
      await done(await reset.mutate(), MSG_RESET);
      setConfirming(false);
    } catch (e) {
      setConfirming(false);
      setError(`Could not reset the permissions. ${errorWords(e)}`);
    }
  }

  return (
    <Page
      title="Permissions"
      description={
        manage
          ? 'What each role in your organization may do. The owner always has everything. Changes apply to each member’s next request.'
          : 'What each role in your organization may do. Changing it needs permissions:manage.'
      }
      actions={
        manage && (
          <>
            <button type="button" className="btn" onClick={() => setConfirming(true)} disabled={busy}>
              Reset to defaults
            </button>
            {dirty && (
              <button type="button" className="btn" onClick={() => setDraft(null)} disabled={busy}>
                Discard changes
              </button>
            )}
            {/* D15: off until something changes, yet focusable (aria-disabled): after a save the focus stays on it. */}
            <button
              type="button"
              className="btn btn-primary"
              onClick={() => void onSave()}
              aria-disabled={!dirty || busy || undefined}
              aria-busy={save.status === 'pending' || undefined}
            >
              {save.status === 'pending' ? 'Saving…' : 'Save'}
            </button>
          </>
        )
      }
    >
      {kept.offer}
      {error && (
        <div className="card admin-alert admin-notice" role="alert">
          <p>{error}</p>
        </div>
      )}
      {dirty && <p className="perm-unsaved">You have unsaved changes.</p>}
      {guard.prompt}
      <MatrixTable
        data={server}
        matrix={matrix}
        editable={manage && !busy}
        myRole={myRole}
        onToggle={toggle}
        sees={{ of: scopeOf, set: (role, s) => setDraft({ matrix, scopes: { ...scopes, [role]: s } }) }}
      />
      {confirming && (
        <ConfirmDialog
          title="Reset permissions to the defaults?"
          confirm="Reset to defaults"
          busyLabel="Resetting…"
          busy={busy}
          onConfirm={() => void onReset()}
          onCancel={() => setConfirming(false)}
        >
          <p>
            Every role gets the permissions a new organization starts with. {dirty ? 'Your unsaved changes are lost. ' : ''}This applies to each member’s next request.
          </p>
        </ConfirmDialog>
      )}
    </Page>
  );
}
