// D28: the members with role, email and joined date; with team:manage a role menu per member and
// Remove. D9: what a person may not do is not offered (offers.ts). D15: the table's caption, names
// that tell members apart, a role menu that keeps the focus while it saves.
import { Suspense, useEffect, useState } from 'react';
import { lazyPart, usePreloadWhenIdle } from '../../ui/early-module';
import type { Role } from '../../../contract/permissions';
import type { Member } from '../../../contract/team';
import { useTeamApi } from '../../api/team';
import { useMutation } from '../../query/use-query';
import { toast } from '../../ui/toast';
import { assignableRoles, isSelf, mayChangeRole, mayRemove, ownerCount, roleName, whyNotOffered, type Viewer } from './offers';
import { Day } from '../../ui/when';
import { mayMakeResetLink, ResetLinkButton } from './ResetLink';
import type { IssuedResetLink } from '../../../contract/account';
import { errorWords } from '../../ui/error-words';

export const MSG_ROLE_CHANGED = 'Role changed';

// The role question (ConfirmRole.tsx) is a chunk of its own, loaded once the browser is idle after the
// page for who may manage the team (lazyPart), so it appears with the choice that asks it; it takes the focus then.
const ConfirmRole = lazyPart(() => import('./ConfirmRole'));
const ROLE_DIALOG = [ConfirmRole];

export function MembersTable({
  members,
  viewer,
  manage,
  onRemove,
  onRefused,
  onResetMfa,
  onResetLink,
}: {
  members: Member[];
  viewer: Viewer;
  manage: boolean;
  onRemove: (m: Member) => void;
  onRefused: (message: string) => void;
  /** D54: reset a member's two-step sign-in (offered when it is on; D53: an owner's only to an owner). */
  onResetMfa?: (m: Member) => void;
  /** D53: a reset link was made for the member (shown once by the page). */
  onResetLink?: (m: Member, issued: IssuedResetLink) => void;
}) {
  const api = useTeamApi();
  usePreloadWhenIdle(manage, ROLE_DIALOG);
  const change = useMutation(api.changeRole);
  const [saving, setSaving] = useState<number | null>(null);
  // The role chosen, shown while it is saved and until the refetched list carries it: the select never
  // jumps back to the old role (before or after the 'Role changed' toast).
  const [chosen, setChosen] = useState<{ userId: number; role: Role } | null>(null);
  const shownRole = (m: Member): Role => (chosen?.userId === m.user_id ? chosen.role : m.role);
  useEffect(() => {
    if (!chosen) return;
    const now = members.find((m) => m.user_id === chosen.userId);
    if (!now || now.role === chosen.role) setChosen(null);
  }, [members, chosen]);
  const owners = ownerCount(members);
  const roles = assignableRoles(viewer);
  // D15: every control's name tells members apart; two people may share a first name, not an email.
  const label = (m: Member) => (members.some((o) => o !== m && o.name === m.name) ? `${m.name} (${m.email})` : m.name);

  // A role that gives everything (Owner), or takes the person's own access, is asked first; the menu
  // keeps the old role until the answer.
  const [asking, setAsking] = useState<{ m: Member; role: Role } | null>(null);
  const choose = (m: Member, role: Role) => (role === 'owner' || isSelf(m, viewer) ? setAsking({ m, role }) : void onRole(m, role));

  async function onRole(m: Member, role: Role) {
    setAsking(null);
    if (saving !== null) return; // one change at a time; the menu shows the chosen role meanwhile
    setSaving(m.user_id);
    setChosen({ userId: m.user_id, role });
    try {
      await change.mutate({ userId: m.user_id, role });
      toast.success(`${MSG_ROLE_CHANGED}: ${m.name} is now ${role === 'admin' || role === 'owner' ? 'an' : 'a'} ${role}`);
    } catch (error) {
      setChosen(null);
      onRefused(`Could not change ${m.name}’s role. ${errorWords(error)}`);
    } finally {
      setSaving(null);
    }
  }

  return (
    <div className="table-wrap">
      <table className="data-table team-table">
        <caption className="sr-only">Members, {members.length} in all</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Email</th>
            <th scope="col">Role</th>
            <th scope="col">Joined</th>
            {manage && (
              <th scope="col">
                <span className="sr-only">Actions</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {members.map((m) => {
            const self = isSelf(m, viewer);
            const editable = manage && mayChangeRole(m, viewer);
            const why = manage ? whyNotOffered(m, viewer, owners) : null;
            return (
              <tr key={m.user_id}>
                <td className="team-name">
                  {m.name}
                  {self && <span className="muted"> (you)</span>}
                </td>
                <td className="team-email" data-label="Email">
                  {m.email}
                </td>
                <td data-label="Role">
                  {editable ? (
                    <select
                      className="role-select"
                      aria-label={`Role of ${label(m)}`}
                      value={shownRole(m)}
                      // D15: not disabled while saving: arrow keys change a closed menu, and a disabled one loses the focus
                      aria-disabled={saving === m.user_id || undefined}
                      aria-busy={saving === m.user_id || undefined}
                      onChange={(e) => choose(m, e.target.value as Role)}
                    >
                      {/* An owner's row is editable only by an owner, so its own role is always offered. */}
                      {(roles.includes(m.role) ? roles : [m.role, ...roles]).map((r) => (
                        <option key={r} value={r}>
                          {roleName(r)}
                        </option>
                      ))}
                    </select>
                  ) : (
                    roleName(m.role)
                  )}
                </td>
                <td className="team-date" data-label="Joined">
                  <Day at={m.joined_at} />
                </td>
                {manage && (
                  <td className="team-actions">
                    {why && <span className="team-why">{why}</span>}
                    {onResetMfa && m.mfa_enabled && !self && (m.role !== 'owner' || viewer.role === 'owner') && (
                      <button type="button" className="btn team-btn" aria-label={`Reset two-step sign-in of ${label(m)}`} onClick={() => onResetMfa(m)}>
                        Reset two-step sign-in
                      </button>
                    )}
                    {onResetLink && mayMakeResetLink(m, viewer) && <ResetLinkButton member={m} name={label(m)} onIssued={onResetLink} onRefused={onRefused} />}
                    {mayRemove(m, viewer, owners) && (
                      <button type="button" className="btn team-btn" aria-label={`Remove ${label(m)}`} onClick={() => onRemove(m)}>
                        Remove
                      </button>
                    )}
                  </td>
                )}
              </tr>
            );
          })}
        </tbody>
      </table>
      {asking && (
        <Suspense fallback={null}>
          <ConfirmRole
            member={asking.m}
            roleName={roleName(asking.role)}
            self={isSelf(asking.m, viewer)}
            onCancel={() => setAsking(null)}
            onConfirm={() => void onRole(asking.m, asking.role)}
          />
        </Suspense>
      )}
    </div>
  );
}
