// D28 Team (/team, team:view): the members with role, email and joined date (MembersTable.tsx). With
// team:manage: invite (the link shown once), pending invitations with Revoke and Renew (Invitations.tsx),
// a role menu per member and Remove with a confirmation (RemoveDialog.tsx). D9: what a person may not do
// is not offered (offers.ts); the server's refusals are shown in words. D15: captions and headers,
// dialogs that trap and return focus, announcements. The dialogs shown rarely (the link, the role
// question) load the first time they are needed.
import { Suspense, useEffect, useRef, useState } from 'react';
import { lazyPart, usePreloadWhenIdle } from '../../ui/early-module';
import type { IssuedResetLink } from '../../../contract/account';
import type { IssuedInvitation, Member } from '../../../contract/team';
import { useTeamApi } from '../../api/team';
import { useQuery } from '../../query/use-query';
import { useCan, useSession } from '../../session/use-session';
import { LoadError, Page } from '../../ui/page';
import { Spinner } from '../../ui/spinner';
import { toast } from '../../ui/toast';
import { Invitations } from './Invitations';
import { MembersTable } from './MembersTable';
import { assignableRoles, type Viewer } from './offers';

export { MSG_ROLE_CHANGED } from './MembersTable';
export const MSG_INVITATION_CREATED = 'Invitation created';
export const MSG_INVITATION_RENEWED = 'Invitation renewed';

// Each dialog's code is a chunk of its own, loaded once the browser is idle after the page for who may
// manage the team (lazyPart), so a first click shows its dialog at once. The link is shown after an invitation is made or renewed
// (LinkDialog.tsx), the invite form on 'Invite member' (InviteDialogs.tsx), Remove's question
// (RemoveDialog.tsx), D54 resetting a member's two-step sign-in (ResetMfaDialog.tsx), D53 a member's reset
// link, shown once (ResetLinkDialog.tsx).
const LinkDialog = lazyPart(() => import('./LinkDialog')); // asked for when 'Invite member' opens, too
const InviteDialog = lazyPart(
  () => import('./InviteDialogs'),
  (m) => m.InviteDialog,
);
const RemoveDialog = lazyPart(() => import('./RemoveDialog'));
const ResetMfaDialog = lazyPart(() => import('./ResetMfaDialog'));
const ResetLinkDialog = lazyPart(() => import('./ResetLinkDialog'));
const TEAM_DIALOGS = [InviteDialog, LinkDialog, RemoveDialog, ResetMfaDialog, ResetLinkDialog];

type Open =
  | { kind: 'invite' }
  | { kind: 'link'; issued: IssuedInvitation; renewed: boolean }
  | { kind: 'remove'; member: Member }
  | { kind: 'reset-mfa'; member: Member }
  | { kind: 'reset'; member: Member; issued: IssuedResetLink }
  | null;

export default function TeamPage() {
  const api = useTeamApi();
  const session = useSession();
  const manage = useCan('team:manage');
  usePreloadWhenIdle(manage, TEAM_DIALOGS); // D9: only who is offered them
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

  useEffect(() => {
    if (open?.kind === 'invite') LinkDialog.preload();
  }, [open]);

  const close = () => setOpen(null);
  const issued = (i: IssuedInvitation, renewed: boolean) => {
    toast.success(renewed ? `${MSG_INVITATION_RENEWED} for ${i.email}` : `${MSG_INVITATION_CREATED} for ${i.email}`);
    setOpen({ kind: 'link', issued: i, renewed });
  };

  let body;
  if (members.status === 'error' && !members.data)
    body = <LoadError what="the team" error={members.error} explained busy={members.fetching} onRetry={() => void members.refetch().catch(() => undefined)} />;
  else if (!members.data) body = <Spinner label="Loading the team…" showLabel />;
  else {
    body = (
      <MembersTable
        members={members.data}
        viewer={viewer}
        manage={manage}
        onRemove={(member) => setOpen({ kind: 'remove', member })}
        onRefused={setRefusal}
        onResetMfa={(member) => setOpen({ kind: 'reset-mfa', member })}
        onResetLink={manage ? (member, issued) => (setRefusal(null), setOpen({ kind: 'reset', member, issued })) : undefined}
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

      {open?.kind === 'invite' && (
        <Suspense fallback={null}>
          <InviteDialog roles={assignableRoles(viewer)} onCancel={close} onIssued={issued} />
        </Suspense>
      )}
      {open?.kind === 'link' && (
        <Suspense fallback={null}>
          <LinkDialog issued={open.issued} title={open.renewed ? 'New invitation link' : 'Invitation link'} onClose={close} />
        </Suspense>
      )}
      {open?.kind === 'reset' && (
        <Suspense fallback={null}>
          <ResetLinkDialog member={open.member} issued={open.issued} onClose={close} />
        </Suspense>
      )}
      {open?.kind === 'remove' && (
        <Suspense fallback={null}>
          <RemoveDialog
            member={open.member}
            orgName={session.currentOrg?.name ?? 'this organization'}
            onCancel={close}
            onRemoved={() => {
              removed.current = true;
              close();
            }}
          />
        </Suspense>
      )}
      {open?.kind === 'reset-mfa' && (
        <Suspense fallback={null}>
          <ResetMfaDialog member={open.member} onClose={close} />
        </Suspense>
      )}
    </Page>
  );
}
