// D53: a member's password reset link, shown once (the invitation's dialog), loaded when first needed.
import { RESET_LINK_LIFETIME_MS, type IssuedResetLink } from '../../../contract/account';
import { MINUTE_MS } from '../../../contract/time';
import type { Member } from '../../../contract/team';
import { resetHref } from '../../router/paths';
import { absoluteTime } from '../../ui/when';
import { OnceLinkDialog } from './LinkDialog';

export default function ResetLinkDialog({ member, issued, onClose }: { member: Member; issued: IssuedResetLink; onClose: () => void }) {
  return (
    <OnceLinkDialog title="Password reset link" url={window.location.origin + resetHref(issued.token)} label="Reset link" onClose={onClose}>
      <p>
        Give this link to <strong>{member.name}</strong> ({member.email}) yourself. It is shown only this once, works once, until {absoluteTime(issued.expires_at)} (
        {RESET_LINK_LIFETIME_MS / MINUTE_MS} minutes), and signs them out everywhere when they choose a new password.
      </p>
    </OnceLinkDialog>
  );
}
