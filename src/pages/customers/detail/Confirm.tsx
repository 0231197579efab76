// D25 D24 D15: "Delete …?" asked in the app's confirm dialog. Loaded when first asked, which keeps the
// customer page's chunk under its budget.
import { ConfirmDialog, type ConfirmDialogProps } from '../../../ui/confirm-dialog';

export default function Confirm(props: Omit<ConfirmDialogProps, 'busyLabel'>) {
  return <ConfirmDialog busyLabel="Deleting…" {...props} />;
}
