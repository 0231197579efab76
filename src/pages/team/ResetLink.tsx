// D53 'Create reset link' on a member's row (team:manage): not for oneself (the account page is for
// that), and an owner's only by an owner; the server also refuses a member of another organization
// where the caller is not an owner, and that refusal (403) is shown in its words.
import { ownerOnlyRefusal, type Member } from '../../../contract/team';
import type { IssuedResetLink } from '../../../contract/account';
import { useOrgAccountApi } from '../../api/account-org';
import { useMutation } from '../../query/use-query';
import { errorWords } from '../../ui/error-words';
import { isSelf, type Viewer } from './offers';

/** D53: whom the page offers a reset link for. */
export const mayMakeResetLink = (m: Member, v: Viewer): boolean => !isSelf(m, v) && !ownerOnlyRefusal(v.role, m.role);

export function ResetLinkButton({
  member,
  name,
  onIssued,
  onRefused,
}: {
  member: Member;
  /** The member's name as the row's other controls say it. */
  name: string;
  onIssued: (member: Member, issued: IssuedResetLink) => void;
  onRefused: (message: string) => void;
}) {
  const make = useMutation(useOrgAccountApi().resetLink);
  const busy = make.status === 'pending';
  async function create() {
    if (busy) return;
    try {
      onIssued(member, await make.mutate(member.user_id));
    } catch (error) {
      onRefused(`Could not create a reset link for ${member.name}. ${errorWords(error)}`);
    }
  }
  return (
    <button
      type="button"
      className="btn team-btn"
      aria-label={`Create reset link for ${name}`}
      aria-disabled={busy || undefined}
      aria-busy={busy || undefined}
      onClick={() => void create()}
    >
      {busy ? 'Creating…' : 'Create reset link'}
    </button>
  );
}
