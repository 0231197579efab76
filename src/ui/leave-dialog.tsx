// "Leave without saving?" as the app's dialog (D15: focus moves in and returns, Escape stays). Loaded
// the first time it is needed (leave-guard.tsx).
import { Dialog } from './dialog';

export const LEAVE_TITLE = 'Leave without saving?';

export default function LeaveDialog({ onStay, onLeave, what = 'this customer' }: { onStay: () => void; onLeave: () => void; what?: string }) {
  return (
    <Dialog
      title={LEAVE_TITLE}
      onCancel={onStay}
      actions={
        <>
          <button type="button" className="btn" onClick={onStay} data-autofocus>
            Keep editing
          </button>
          <button type="button" className="btn cf-btn-danger" onClick={onLeave}>
            Leave without saving
          </button>
        </>
      }
    >
      <p>Your changes to {what} have not been saved. If you leave now, they are lost.</p>
    </Dialog>
  );
}
