// D28 Team (/team, team:view): the members with role, email and joined date. With team:manage: invite
// (the link shown once), pending invitations with Revoke and Renew, a role menu per member and Remove
// with a confirmation. D9: what a person may not do is not offered (offers.ts); the server's refusals
// are shown in words. D15: captions and headers, dialogs that trap and return focus, announcements.
// A lazily loaded chunk of its own (app/routes.ts); ui/first-bundle.ts comes first, as in app/lazy.ts.
import '../../ui/first-bundle';
import { useEffect, useRef, useState } from 'react';
import type { Role } from '../../../contract/permissions';
import type { Invitation, IssuedInvitation, Member } from '../../../contract/team';
import { useTeamApi } from '../../api/team';
import { isHttpError, isNetworkError } from '../../http/errors';
import { useMutation, useQuery } from '../../query/use-query';
import { useCan, useSession } from '../../session/use-session';
import { Dialog } from '../../ui/dialog';
import { Page } from '../../ui/page';
import { Spinner } from '../../ui/spinner';
import { toast } from '../../ui/toast';
import { InviteDialog, LinkDialog } from './InviteDialogs';
import { ConfirmRole } from './ConfirmRole';
import { assignableRoles, isSelf, mayChangeRole, mayHandleInvitation, mayRemove, ownerCount, roleName, whyNotOffered, type Viewer } from './offers';

export const MSG_ROLE_CHANGED = 'Role changed';
export const MSG_INVITATION_CREATED = 'Invitation created';
export const MSG_INVITATION_RENEWED = 'Invitation renewed';

type Open = { kind: 'invite' } | { kind: 'link'; issued: IssuedInvitation; renewed: boolean } | { kind: 'remove'; member: Member } | null;

/** A refusal or failure in words: the server's own (D19 detail) when it gave one. */
export function reason(error: unknown): string {
  if (isNetworkError(error)) return 'Could not reach the server. Check your connection and try again.';
  return (isHttpError(error) && error.detail) || 'Something went wrong. Please try again.';
}

const day = (iso: string) => new Date(iso).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });

function LoadError({ what, error, retry }: { what: string; error: unknown; retry: () => void }) {
  return (
    <div className="card list-message" role="alert">
      <p>{isHttpError(error, 403) ? `You do not have permission to view ${what}.` : `Could not load ${what}. ${reason(error)}`}</p>
      <button type="button" className="btn" onClick={retry}>
        Retry
      </button>
    </div>
  );
}

function RemoveDialog({ member, orgName, onCancel, onRemoved }: { member: Member; orgName: string; onCancel: () => void; onRemoved: () => void }) {
  const api = useTeamApi();
  const remove = useMutation(api.removeMember);
  const [error, setError] = useState<string | null>(null);
  async function confirm() {
    setError(null);
    try {
      await remove.mutate(member.user_id);
      toast.success(`${member.name} was removed from the team`);
      onRemoved();
    } catch (e) {
      setError(reason(e));
    }
  }
  const busy = remove.status === 'pending';
  return (
    <Dialog
      title={`Remove ${member.name}?`}
      onCancel={onCancel}
      actions={
        <>
          <button type="button" className="btn" onClick={onCancel} data-autofocus>
            Cancel
          </button>
          <button type="button" className="btn btn-danger" onClick={() => void confirm()} disabled={busy} aria-busy={busy || undefined}>
            {busy ? 'Removing…' : 'Remove'}
          </button>
        </>
      }
    >
      <p>
        {member.name} ({member.email}) will lose access to {orgName} at their next request. You can invite them again later.
      </p>
      {error && (
        <p className="admin-alert" role="alert">
          {error}
        </p>
      )}
    </Dialog>
  );
}

function MembersTable({ members, viewer, manage, onRemove, onRefused }: {
  members: Member[];
  viewer: Viewer;
  manage: boolean;
  onRemove: (m: Member) => void;
  onRefused: (message: string) => void;
}) {
  const api = useTeamApi();
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
      onRefused(`Could not change ${m.name}’s role. ${reason(error)}`);
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
                  <time dateTime={m.joined_at}>{day(m.joined_at)}</time>
                </td>
                {manage && (
                  <td className="team-actions">
                    {why && <span className="team-why">{why}</span>}
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
      {asking && <ConfirmRole member={asking.m} role={asking.role} self={isSelf(asking.m, viewer)} onCancel={() => setAsking(null)} onConfirm={() => void onRole(asking.m, asking.role)} />}
    </div>
  );
}

function Invitations({ viewer, onIssued, onRefused }: { viewer: Viewer; onIssued: (i: IssuedInvitation) => void; onRefused: (message: string) => void }) {
  const api = useTeamApi();
  const query = useQuery(api.invitations());
  const revoke = useMutation(api.revoke);
  const renew = useMutation(api.renew);
  const [busy, setBusy] = useState<number | null>(null);

  async function act(i: Invitation, what: 'revoke' | 'renew') {
    setBusy(i.id);
    try {
      if (what === 'renew') onIssued(await renew.mutate(i.id));
      else {
        await revoke.mutate(i.id);
        toast.success(`Invitation for ${i.email} revoked`);
      }
    } catch (error) {
      onRefused(`Could not ${what} the invitation for ${i.email}. ${reason(error)}`);
    } finally {
      setBusy(null);
    }
  }

  let body;
  if (query.status === 'error' && !query.data) body = <LoadError what="the invitations" error={query.error} retry={() => void query.refetch().catch(() => undefined)} />;
  else if (!query.data) body = <Spinner label="Loading invitations…" showLabel />;
  else if (query.data.length === 0) body = <p className="muted admin-empty">No pending invitations.</p>;
  else {
    body = (
      <div className="table-wrap">
        <table className="data-table team-table">
          <caption className="sr-only">Pending invitations</caption>
          <thead>
            <tr>
              <th scope="col">Email</th>
              <th scope="col">Role</th>
              <th scope="col">Invited by</th>
              <th scope="col">Expires</th>
              <th scope="col">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {query.data.map((i) => (
              <tr key={i.id}>
                <td className="team-name team-email">{i.email}</td>
                <td data-label="Role">{roleName(i.role)}</td>
                <td data-label="Invited by">{i.invited_by?.name ?? '—'}</td>
                <td className="team-date" data-label="Expires">
                  <time dateTime={i.expires_at}>{day(i.expires_at)}</time>
                </td>
                <td className="team-actions">
                  {mayHandleInvitation(i.role, viewer) && (
                    <>
                      <button type="button" className="btn team-btn" aria-label={`Renew the invitation for ${i.email}`} disabled={busy === i.id} onClick={() => void act(i, 'renew')}>
                        Renew
                      </button>
                      <button type="button" className="btn team-btn" aria-label={`Revoke the invitation for ${i.email}`} disabled={busy === i.id} onClick={() => void act(i, 'revoke')}>
                        Revoke
                      </button>
                    </>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    );
  }
  return (
    <section className="admin-section" aria-labelledby="invitations-title">
      <h2 id="invitations-title">Pending invitations</h2>
      {body}
    </section>
  );
}

export default function TeamPage() {
  const api = useTeamApi();
  const session = useSession();
  const manage = useCan('team:manage');
  const viewer: Viewer = { email: session.user?.email ?? null, role: session.role };
  const members = useQuery(api.members());
  const [open, setOpen] = useState<Open>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const removed = useRef(false);

  // A removed member's row (and its Remove button, where focus would return) goes away: focus the
  // members heading instead (D15: focus is never lost to the page's top).
  useEffect(() => {
    if (open === null && removed.current) {
      removed.current = false;
      heading.current?.focus();
    }
  }, [open]);

  const close = () => setOpen(null);
  const issued = (i: IssuedInvitation, renewed: boolean) => {
    toast.success(renewed ? `${MSG_INVITATION_RENEWED} for ${i.email}` : `${MSG_INVITATION_CREATED} for ${i.email}`);
    setOpen({ kind: 'link', issued: i, renewed });
  };

  let body;
  if (members.status === 'error' && !members.data) body = <LoadError what="the team" error={members.error} retry={() => void members.refetch().catch(() => undefined)} />;
  else if (!members.data) body = <Spinner label="Loading the team…" showLabel />;
  else {
    body = (
      <MembersTable
        members={members.data}
        viewer={viewer}
        manage={manage}
        onRemove={(member) => setOpen({ kind: 'remove', member })}
        onRefused={setRefusal}
      />
    );
  }

  return (
    <Page
      title="Team"
      description="The people in your organization and their roles."
      actions={
        manage && (
          <button type="button" className="btn btn-primary" onClick={() => setOpen({ kind: 'invite' })}>
            Invite member
          </button>
        )
      }
    >
      {refusal && (
        <div className="card admin-alert admin-notice" role="alert">
          <p>{refusal}</p>
          <button type="button" className="btn team-btn" onClick={() => setRefusal(null)}>
            Dismiss
          </button>
        </div>
      )}
      <section className="admin-section" aria-labelledby="members-title">
        <h2 id="members-title" ref={heading} tabIndex={-1}>
          Members
        </h2>
        {body}
      </section>
      {manage && <Invitations viewer={viewer} onIssued={(i) => issued(i, true)} onRefused={setRefusal} />}

      {open?.kind === 'invite' && <InviteDialog roles={assignableRoles(viewer)} onCancel={close} onIssued={issued} />}
      {open?.kind === 'link' && <LinkDialog issued={open.issued} title={open.renewed ? 'New invitation link' : 'Invitation link'} onClose={close} />}
      {open?.kind === 'remove' && (
        <RemoveDialog
          member={open.member}
          orgName={session.currentOrg?.name ?? 'this organization'}
          onCancel={close}
          onRemoved={() => {
            removed.current = true;
            close();
          }}
        />
      )}
    </Page>
  );
}
