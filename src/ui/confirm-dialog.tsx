// D15 D25 D28: a question asked before something that cannot be taken back, as the app's dialog: Cancel
// is focused first (Enter never confirms by accident), Escape cancels, focus returns to the opener.
// While the action runs its button keeps the focus (aria-disabled) and a second press does nothing; a
// refusal is said inside the dialog (role=alert).
import type { ReactNode } from 'react';
import { Dialog } from './dialog';

export interface ConfirmDialogProps {
  title: string;
  children: ReactNode;
  /** The confirming button's name ("Delete note", "Remove"). */
  confirm: string;
  /** Its name while the action runs ("Deleting…"). */
  busyLabel?: string;
  busy?: boolean;
  error?: string | null;
  /** The cancelling button's name. */
  cancel?: string;
  /** 'danger' for what removes or discards; 'primary' for a weighty change that removes nothing. */
  tone?: 'danger' | 'primary';
  onConfirm: () => void;
  onCancel: () => void;
}

export function ConfirmDialog({
  title,
  children,
  confirm,
  busyLabel,
  busy = false,
  error = null,
  cancel = 'Cancel',
  tone = 'danger',
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  return (
    <Dialog
      title={title}
      onCancel={onCancel}
      actions={
        <>
          <button type="button" className="btn" onClick={onCancel} data-autofocus>
            {cancel}
          </button>
          <button type="button" className={`btn btn-${tone}`} onClick={busy ? undefined : onConfirm} aria-disabled={busy || undefined} aria-busy={busy || undefined}>
            {busy && busyLabel ? busyLabel : confirm}
          </button>
        </>
      }
    >
      {children}
      {error && (
        <p className="write-error" role="alert">
          {error}
        </p>
      )}
    </Dialog>
  );
}
