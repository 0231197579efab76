// D56: deleting an archived field asks first, naming how many records hold a value (GET /v1/custom-fields/{id}/
// counts them); the toast after says how many lost one, by the server's answer. Loaded when first needed.
import { useState } from 'react';
import type { CustomField } from '../../../../contract/custom-fields';
import { useCustomFieldsApi } from '../../../api/custom-fields';
import { useMutation, useQuery } from '../../../query/use-query';
import { ConfirmDialog } from '../../../ui/confirm-dialog';
import { errorWords } from '../../../ui/error-words';
import { toast } from '../../../ui/toast';

/** '1 customer', '3 service locations'. */
export const records = (n: number, kind: CustomField['record_kind']) =>
  `${n.toLocaleString()} ${kind === 'customer' ? (n === 1 ? 'customer' : 'customers') : n === 1 ? 'service location' : 'service locations'}`;
export const deletedWords = (label: string, n: number, kind: CustomField['record_kind']) =>
  n === 0 ? `“${label}” was deleted; no record held a value.` : `“${label}” was deleted with its values on ${records(n, kind)}.`;

export default function DeleteFieldDialog({ field, onCancel, onDeleted }: { field: CustomField; onCancel: () => void; onDeleted: () => void }) {
  const api = useCustomFieldsApi();
  const count = useQuery(api.get(field.id));
  const remove = useMutation(api.remove);
  const [error, setError] = useState<string | null>(null);
  const n = count.data?.records_with_value;

  async function confirm() {
    if (n === undefined && count.status !== 'error') return; // the count comes first
    setError(null);
    try {
      const done = await remove.mutate(field.id);
      toast.success(deletedWords(done.label, done.records_with_value, field.record_kind));
      onDeleted();
    } catch (e) {
      setError(`Could not delete the field. ${errorWords(e)}`);
    }
  }

  let said;
  if (n !== undefined)
    said =
      n === 0
        ? `No ${field.record_kind === 'customer' ? 'customer' : 'service location'} holds a value of “${field.label}”.`
        : `${records(n, field.record_kind)} ${n === 1 ? 'holds' : 'hold'} a value of “${field.label}”; deleting removes those values for good.`;
  else if (count.status === 'error') said = `Could not count the records that hold a value. ${errorWords(count.error)}`;
  else said = 'Counting the records that hold a value…';

  const busy = remove.status === 'pending' || (n === undefined && count.status !== 'error');
  return (
    <ConfirmDialog
      title={`Delete “${field.label}”?`}
      confirm="Delete field"
      busyLabel={remove.status === 'pending' ? 'Deleting…' : 'Counting…'}
      busy={busy}
      error={error}
      onConfirm={() => void confirm()}
      onCancel={onCancel}
    >
      <p aria-live="polite">{said}</p>
      <p>The field goes for good and cannot be restored. Its key stays taken for a few minutes while the values are removed.</p>
    </ConfirmDialog>
  );
}
