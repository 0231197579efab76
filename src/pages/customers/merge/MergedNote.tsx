// D49: a merged customer's old address leads to the customer it was merged into. GET of a merged id
// answers 404 `merged` naming the survivor: the customer page goes there, replacing the address (the edit
// page sends a merged customer's address here first), and the survivor's page says 'Ann Lee was merged
// into this customer' in a status region until dismissed; the focus then goes to the page's heading.
import { useEffect, useState } from 'react';
import type { PersonRef } from '../../../../contract/customers';
import { isHttpError } from '../../../http/errors';
import { Navigate } from '../../../router/Link';
import { customerHref } from '../../../router/paths';
import { CustomerNotFound } from '../CustomerNotFound';

/** The merged customer whose address led to `survivorId`, until that page shows the note. */
let pending: { survivorId: number; name?: string } | null = null;

/** The note's words; the merged customer's name when the page still knew it. */
export const mergedNoteText = (name: string | undefined) => `${name || 'The customer you opened'} was merged into this customer.`;

/** D12 a 404: the not-found state, or D49 for a merged customer the survivor's page. */
export function NotFoundOrMerged({ error, name, id, shown }: { error: unknown; name?: string; id?: number; shown?: boolean }) {
  const into = isHttpError(error, 404) && error.code === 'merged' && (error.data as { merged_into?: PersonRef }).merged_into;
  if (!into) return <CustomerNotFound id={id} shown={shown} />; // D59
  pending = { survivorId: into.id, name }; // the same on every render
  return <Navigate to={customerHref(into.id)} />;
}

export function MergedNote({ customerId }: { customerId: number }) {
  const [note, setNote] = useState(() => (pending?.survivorId === customerId ? mergedNoteText(pending.name) : null));
  useEffect(() => void (pending = null), []); // shown once: a later visit has no note
  const dismiss = () => {
    setNote(null);
    const heading = document.getElementById('page-title');
    heading?.setAttribute('tabindex', '-1');
    heading?.focus();
  };
  return (
    <div role="status">
      {note && (
        <div className="card notice merged-note">
          <p>{note}</p>
          <button type="button" className="btn btn-sm" onClick={dismiss}>
            Dismiss
          </button>
        </div>
      )}
    </div>
  );
}
