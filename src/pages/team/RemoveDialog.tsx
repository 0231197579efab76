// D28: Remove asks first (the team page's Remove buttons); a refusal is shown in the dialog in words.
import { useState } from 'react';
import type { Member } from '../../../contract/team';
import { useTeamApi } from '../../api/team';
import { useMutation } from '../../query/use-query';
import { Dialog } from '../../ui/dialog';
import { toast } from '../../ui/toast';
import { reason } from './team-common';

export function RemoveDialog({ member, orgName, onCancel, onRemoved }: { member: Member; orgName: string; onCancel: () => void; onRemoved: () => void }) {
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
