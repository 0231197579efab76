// D28: Remove asks first (the team page's Remove buttons); a refusal is shown in the dialog in words.
// Loaded the first time it is asked, apart from the page (TeamPage.tsx).
import { useState } from 'react';
import type { Member } from '../../../contract/team';
import { useTeamApi } from '../../api/team';
import { useMutation } from '../../query/use-query';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { errorWords } from '../../ui/error-words';
import { toast } from '../../ui/toast';

export default function RemoveDialog({ member, orgName, onCancel, onRemoved }: { member: Member; orgName: string; onCancel: () => void; onRemoved: () => void }) {
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
      setError(errorWords(e));
    }
  }
  const busy = remove.status === 'pending';
  return (
    <ConfirmDialog title={`Remove ${member.name}?`} confirm="Remove" busyLabel="Removing…" busy={busy} error={error} onConfirm={() => void confirm()} onCancel={onCancel}>
      <p>
        {member.name} ({member.email}) will lose access to {orgName} at their next request. You can invite them again later.
      </p>
    </ConfirmDialog>
  );
}
