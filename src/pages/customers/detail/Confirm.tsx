// D25 D24 D15: "Delete …?" asked in a real dialog (focus in, Escape cancels, focus back to the opener);
// Cancel is focused first, so Enter never deletes by accident. Loaded when first asked.
import type { ReactNode } from 'react';
import { Dialog } from '../../../ui/dialog';
import { Problem } from './failure';

export interface ConfirmProps {
  title: string;
  children: ReactNode;
  /** The confirming button's name, e.g. "Delete note". */
  confirm: string;
  busy: boolean;
  error: string | null;
  onConfirm: () => void;
  onCancel: () => void;
}

export default function Confirm({ title, children, confirm, busy, error, onConfirm, onCancel }: ConfirmProps) {
  return (
    <Dialog
      title={title}
      onCancel={onCancel}
      actions={
        <>
          <button type="button" className="btn" onClick={onCancel} data-autofocus>
            Cancel
          </button>
          {/* D15: busy, it keeps the focus (aria-disabled), and a second press does nothing. */}
          <button type="button" className="btn btn-delete-solid" onClick={busy ? undefined : onConfirm} aria-disabled={busy || undefined}>
            {busy ? 'Deleting…' : confirm}
          </button>
        </>
      }
    >
      {children}
      <Problem text={error} />
    </Dialog>
  );
}
