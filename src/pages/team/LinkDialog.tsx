// D28: the dialog that shows an invitation's link once (made or renewed), with Copy; D53 a reset link's
// dialog (ResetLinkDialog.tsx) is the same one.
import { useId, useRef, useState, type ReactNode } from 'react';
import { INVITATION_LIFETIME_DAYS, type IssuedInvitation } from '../../../contract/team';
import { Dialog } from '../../ui/dialog';
import { dayText } from '../../ui/when';

export const MSG_COPIED = 'Link copied';
export const MSG_COPY_BY_HAND = 'The link is selected: press Ctrl+C (⌘C on a Mac) to copy it';

/** The link as a person opens it: this app's address and the invitation's path. */
export const invitationUrl = (issued: Pick<IssuedInvitation, 'path'>, origin = window.location.origin): string => origin + issued.path;

/**
 * Copies with the Clipboard API; where it is missing or refused (an insecure page, no permission) the
 * text is selected instead, so the person copies it by hand. True when it was copied.
 */
export async function copyText(text: string, input: HTMLInputElement | null): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    input?.focus();
    input?.select();
    return false;
  }
}

/** D28 D53: a link shown once, with Copy: what it is for (`children`), then the link (`label`). */
export function OnceLinkDialog({ title, url, label, children, onClose }: { title: string; url: string; label: string; children: ReactNode; onClose: () => void }) {
  const input = useRef<HTMLInputElement>(null);
  const id = useId();
  const [copied, setCopied] = useState<boolean | null>(null);
  return (
    <Dialog
      title={title}
      onCancel={onClose}
      actions={
        <button type="button" className="btn btn-primary" onClick={onClose}>
          Done
        </button>
      }
    >
      {children}
      <div className="invite-link">
        <label htmlFor={id}>{label}</label>
        <div className="invite-link-row">
          <input id={id} ref={input} type="text" readOnly value={url} onFocus={(e) => e.currentTarget.select()} />
          <button type="button" className="btn" data-autofocus onClick={() => void copyText(url, input.current).then(setCopied)}>
            Copy
          </button>
        </div>
        <p className="invite-link-status" role="status">
          {copied === true ? MSG_COPIED : copied === false ? MSG_COPY_BY_HAND : ''}
        </p>
      </div>
    </Dialog>
  );
}

/** D28: an invitation's link, shown once (made or renewed), with Copy. */
export default function LinkDialog({ issued, title, onClose }: { issued: IssuedInvitation; title: string; onClose: () => void }) {
  return (
    <OnceLinkDialog title={title} url={invitationUrl(issued)} label="Invitation link" onClose={onClose}>
      <p>
        Send this link to <strong>{issued.email}</strong> to join as {issued.role}. It is shown only this once and works until {dayText(issued.expires_at)} (
        {INVITATION_LIFETIME_DAYS} days).
      </p>
    </OnceLinkDialog>
  );
}
