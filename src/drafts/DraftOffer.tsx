// D41: 'Restore your unsaved changes from {time}?' with Restore and Discard, above the form whose draft
// it is. Loaded only when a draft is waiting (use-draft.tsx), so it costs the forms nothing otherwise.
import { timeOfDay } from '../ui/when';

export const DRAFT_RESTORE = 'Restore';
export const DRAFT_DISCARD = 'Discard';

export type OfferProps = { at: number; onRestore: () => void; onDiscard: () => void };

export default function DraftOffer({ at, onRestore, onDiscard }: OfferProps) {
  return (
    <section className="card draft-offer" aria-label="Unsaved changes">
      <p role="status">Restore your unsaved changes from {timeOfDay(at)}?</p>
      <div className="draft-offer-actions">
        <button type="button" className="btn btn-primary" onClick={onRestore}>
          {DRAFT_RESTORE}
        </button>
        <button type="button" className="btn" onClick={onDiscard}>
          {DRAFT_DISCARD}
        </button>
      </div>
    </section>
  );
}
