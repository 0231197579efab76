// D54 D53: 'Reset two-step sign-in' asks first; the server decides D53's rule (a member of another
// organization where the caller is not an owner; an owner's only by an owner) and its 403 says why, in
// the dialog. Loaded the first time it is asked, apart from the page (TeamPage.tsx).
import { useMemo, useState } from 'react';
import type { Member } from '../../../contract/team';
import { resetMfaMutation } from '../../api/mfa';
import { useMutation } from '../../query/use-query';
import { useSession, useSessionActions } from '../../session/use-session';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { errorWords } from '../../ui/error-words';
import { toast } from '../../ui/toast';

export default function ResetMfaDialog({ member, onClose }: { member: Member; onClose: () => void }) {
  const { client } = useSessionActions();
  const orgId = useSession().currentOrg?.id ?? null;
  const reset = useMutation(useMemo(() => resetMfaMutation(client, orgId), [client, orgId]));
  const [error, setError] = useState<string | null>(null);
  async function confirm() {
    setError(null);
    try {
      await reset.mutate(member.user_id);
      toast.success(`Two-step sign-in was reset for ${member.name}`);
      onClose();
    } catch (e) {
      setError(errorWords(e)); // D53: the server's words for a refusal
    }
  }
  return (
    <ConfirmDialog
      title={`Reset two-step sign-in for ${member.name}?`}
      confirm="Reset two-step sign-in"
      busyLabel="Resetting…"
      busy={reset.status === 'pending'}
      error={error}
      onConfirm={() => void confirm()}
      onCancel={onClose}
    >
      <p>
        {member.name} ({member.email}) will sign in with their password alone until they turn two-step sign-in on again. Do this only when you are sure it is them asking,
        for example after they lost their phone.
      </p>
    </ConfirmDialog>
  );
}
