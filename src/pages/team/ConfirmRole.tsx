// D28: a role that gives everything (Owner), or changes one's own access, is asked for first; the role
// menu keeps the old role until the answer (MembersTable).
import type { Member } from '../../../contract/team';
import { ConfirmDialog } from '../../ui/confirm-dialog';

export default function ConfirmRole({
  member,
  roleName,
  self,
  onCancel,
  onConfirm,
}: {
  member: Member;
  roleName: string;
  self: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  return (
    <ConfirmDialog
      title={self ? 'Change your own role?' : `Make ${member.name} an owner?`}
      confirm={self ? `Make me ${roleName}` : 'Make owner'}
      tone="primary"
      onConfirm={onConfirm}
      onCancel={onCancel}
    >
      <p>
        {self
          ? 'You may lose access to pages you use now, and you cannot change your role back yourself.'
          : 'An owner can do everything, including changing permissions and removing other owners. Only an owner can undo this.'}
      </p>
    </ConfirmDialog>
  );
}
