// "Leave without saving?" as the app's dialog (D15: focus moves in and returns, Escape stays). Loaded
// the first time it is needed, apart from the form (leave-guard.tsx).
import { ConfirmDialog } from './confirm-dialog';

export const LEAVE_TITLE = 'Leave without saving?';

export default function LeaveDialog({ onStay, onLeave, what = 'this customer' }: { onStay: () => void; onLeave: () => void; what?: string }) {
  return (
    <ConfirmDialog title={LEAVE_TITLE} confirm="Leave without saving" cancel="Keep editing" onConfirm={onLeave} onCancel={onStay}>
      <p>Your changes to {what} have not been saved. If you leave now, they are lost.</p>
    </ConfirmDialog>
  );
}
