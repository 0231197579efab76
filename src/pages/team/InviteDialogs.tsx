// D28: the 'Invite member' dialog (email and role); the link it makes is shown by LinkDialog.tsx. The
// product sends no email: the person who invites passes the link on themselves. D41: what was typed
// into the invitation is kept as a draft until it is sent or cancelled.
import { useState } from 'react';
import { EMAIL_SHAPE } from '../../../contract/matching';
import type { Role } from '../../../contract/permissions';
import { INVITATION_LIFETIME_DAYS, type IssuedInvitation } from '../../../contract/team';
import { useTeamApi } from '../../api/team';
import { isPermissionDenied, useDraft } from '../../drafts/context';
import { HttpError, isHttpError } from '../../http/errors';
import { useMutation } from '../../query/use-query';
import { Dialog } from '../../ui/dialog';
import { Field, useForm, type FormErrors } from '../../ui/form';
import { roleName } from './offers';

/** A new invitation is for this role unless another is chosen (the everyday one, D10). */
export const DEFAULT_INVITE_ROLE: Role = 'member';
export const MSG_EMAIL_REQUIRED = 'Email is required';
export const MSG_EMAIL_SHAPE = 'Enter an email address, like name@example.com';

interface InviteValues {
  [k: string]: string;
  email: string;
  role: string;
}

export function validateInvite({ email }: InviteValues): FormErrors<InviteValues> {
  const e = email.trim();
  return { email: !e ? MSG_EMAIL_REQUIRED : EMAIL_SHAPE.test(e) ? undefined : MSG_EMAIL_SHAPE };
}

/**
 * D28: email and role; on success the parent shows the link (LinkDialog). An email that already has a
 * pending invitation offers to renew that one instead.
 */
export function InviteDialog({ roles, onCancel, onIssued }: { roles: Role[]; onCancel: () => void; onIssued: (issued: IssuedInvitation, renewed: boolean) => void }) {
  const api = useTeamApi();
  const invite = useMutation(api.invite);
  const renew = useMutation(api.renew);
  const [pendingId, setPendingId] = useState<number | null>(null);
  const startRole = roles.includes(DEFAULT_INVITE_ROLE) ? DEFAULT_INVITE_ROLE : (roles[0] ?? DEFAULT_INVITE_ROLE);
  const form = useForm<InviteValues>({
    initial: { email: '', role: startRole },
    validate: validateInvite,
    async submit({ email, role }) {
      setPendingId(null);
      try {
        const issued = await invite.mutate({ email: email.trim(), role: role as Role });
        draft.saved();
        onIssued(issued, false);
      } catch (error) {
        if (isPermissionDenied(error)) throw new HttpError(403, { detail: draft.lost('invite members') }, error.path);
        // 409 already_invited names the pending invitation, which can be renewed for a new link.
        const id = isHttpError(error, 409) && error.code === 'already_invited' ? (error.data as { invitation_id?: unknown }).invitation_id : null;
        if (typeof id === 'number') setPendingId(id);
        throw error;
      }
    },
  });
  const { email, role } = form.values;
  const draft = useDraft({
    form: 'invite',
    data: { email, role },
    dirty: email.trim() !== '' || role !== startRole,
    onRestore(d) {
      if (typeof d.email === 'string') form.set('email', d.email);
      if (roles.includes(d.role as Role)) form.set('role', d.role);
    },
  });
  const cancel = () => {
    draft.discard(); // the person chose to drop it
    onCancel();
  };

  return (
    <Dialog
      title="Invite member"
      onCancel={cancel}
      actions={
        <>
          <button type="button" className="btn" onClick={cancel}>
            Cancel
          </button>
          <button type="submit" form="invite-form" className="btn btn-primary" aria-disabled={form.submitting || undefined} aria-busy={form.submitting || undefined}>
            {form.submitting ? 'Creating link…' : 'Create invitation link'}
          </button>
        </>
      }
    >
      <form id="invite-form" className="admin-form" onSubmit={form.onSubmit} noValidate>
        {draft.offer}
        <p className="admin-form-intro">They get a link to join that works for {INVITATION_LIFETIME_DAYS} days. No email is sent: you pass the link on.</p>
        <Field form={form} name="email" label="Email" type="email" autoComplete="off" data-autofocus />
        <Field form={form} name="role" label="Role" as="select">
          {roles.map((r) => (
            <option key={r} value={r}>
              {roleName(r)}
            </option>
          ))}
        </Field>
        {form.formError && (
          <div className="admin-alert" role="alert">
            <p>{form.formError}</p>
            {pendingId !== null && (
              <button
                type="button"
                className="btn"
                disabled={renew.status === 'pending'}
                onClick={() => void renew.mutate(pendingId).then((issued) => (draft.saved(), onIssued(issued, true)), form.setServerError)}
              >
                Renew that invitation
              </button>
            )}
          </div>
        )}
      </form>
    </Dialog>
  );
}
