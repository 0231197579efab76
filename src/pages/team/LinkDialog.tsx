// D28: the dialog that shows an invitation's link once (made or renewed), with Copy.
import { useRef, useState } from 'react';
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

/** D28: the link, shown once (made or renewed), with Copy. */
export default function LinkDialog({ issued, title, onClose }: { issued: IssuedInvitation; title: string; onClose: () => void }) {
  const input = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState<boolean | null>(null);
  const url = invitationUrl(issued);
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
      <p>
        Send this link to <strong>{issued.email}</strong> to join as {issued.role}. It is shown only this once and works until {dayText(issued.expires_at)} (
        {INVITATION_LIFETIME_DAYS} days).
      </p>
      <div className="invite-link">
        <label htmlFor="invite-link-url">Invitation link</label>
        <div className="invite-link-row">
          <input id="invite-link-url" ref={input} type="text" readOnly value={url} onFocus={(e) => e.currentTarget.select()} />
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
