// D49 the merge screen's parts: each customer as it is, a radio pair per field whose values differ (a
// fieldset with its legend, so a screen reader hears the field with each value), and what moves.
import { useId } from 'react';
import type { Customer } from '../../../../contract/customers';
import { type KeptDetail, MERGE_UNDO_DAYS, type MergeField, type MergeHistory, type MergePreview } from '../../../../contract/merge';
import { type Choice, counted, differingFields, historyWords, keptFrom, keptWords, MERGE_FIELD_LABELS, type Picks, valueWords } from './merge-fields';

const SHOWN: readonly MergeField[] = ['email', 'phone', 'company', 'city', 'status', 'type'];

/** One customer as it is now: its main fields, tags, locations and contacts; D66: its history. */
export function MergeSide({ customer: c, history, heading }: { customer: Customer; history: MergeHistory; heading: string }) {
  const id = useId();
  return (
    <section className="card merge-side" aria-labelledby={id}>
      <h2 id={id}>
        <span className="merge-role">{heading}</span> {c.name}
      </h2>
      <dl className="detail-list">
        {SHOWN.map((f) => (
          <div key={f} className="merge-row">
            <dt>{MERGE_FIELD_LABELS[f]}</dt>
            <dd>{valueWords(c, f) ?? <span className="muted">None</span>}</dd>
          </div>
        ))}
        <div className="merge-row">
          <dt>Tags</dt>
          <dd>{c.tags.length ? c.tags.join(', ') : <span className="muted">None</span>}</dd>
        </div>
        <div className="merge-row">
          <dt>Has</dt>
          <dd>
            {counted(c.locations.length, 'location')}, {counted(c.contacts.length, 'contact')}
          </dd>
        </div>
        <div className="merge-row">
          <dt>History</dt>
          <dd>{historyWords(history)}</dd>
        </div>
      </dl>
    </section>
  );
}

export interface FieldChoicesProps {
  survivor: Customer;
  merged: Customer;
  picks: Picks;
  onPick: (field: Choice['key'], customerId: number) => void;
  /** The built-in fields and D56 the organization's custom ones. */
  choices: readonly Choice[];
}

/** D49: for each field whose values differ, which value is kept. */
export function FieldChoices({ survivor, merged, picks, onPick, choices }: FieldChoicesProps) {
  const id = useId();
  const differing = differingFields(survivor, merged, choices);
  const same = choices.filter((f) => !differing.includes(f) && (!f.key.startsWith('custom.') || f.words(survivor) !== null)); // D56: a custom field empty in both is not named
  return (
    <section className="merge-choices" aria-labelledby={`${id}h`}>
      <h2 id={`${id}h`}>Values to keep</h2>
      {differing.length === 0 && <p>Every field has the same value in both.</p>}
      {differing.map((field) => {
        const kept = keptFrom(field, picks, survivor, merged);
        return (
          <fieldset key={field.key} className="import-choice merge-field">
            <legend>{field.label}</legend>
            {[survivor, merged].map((c) => (
              <label key={c.id}>
                <input type="radio" name={`${id}-${field.key}`} checked={kept === c.id} onChange={() => onPick(field.key, c.id)} />
                <span>
                  {field.words(c) ?? <span className="muted">None</span>} <span className="muted">from {c.name}</span>
                </span>
              </label>
            ))}
          </fieldset>
        );
      })}
      {same.length > 0 && differing.length > 0 && <p className="muted">Same in both: {same.map((f) => f.label).join(', ')}.</p>}
    </section>
  );
}

/**
 * D49: what the merged customer brings (its notes, locations, contacts, the tags the kept one lacks); D66
 * the emails and phones the choices leave off the kept one, kept as its contacts (they follow the choices).
 */
export function MergeSummary({ preview: { survivor, merged, moves }, known, kept }: { preview: MergePreview; known: boolean; kept: readonly KeptDetail[] }) {
  const id = useId();
  const parts = [counted(moves.notes, 'note'), counted(moves.locations, 'location'), counted(moves.contacts, 'contact')];
  return (
    <section className="card merge-summary" aria-labelledby={id} aria-busy={!known || undefined}>
      <h2 id={id}>What moves to {survivor.name}</h2>
      {known ? (
        <ul>
          {parts.map((p) => (
            <li key={p}>{p}</li>
          ))}
          <li>{moves.tags.length ? `${counted(moves.tags.length, 'tag')}: ${moves.tags.join(', ')}` : 'No new tags'}</li>
          {kept.map((k) => (
            <li key={k.from}>{keptWords(k)}</li>
          ))}
        </ul>
      ) : (
        <p className="muted">Counting what moves…</p>
      )}
      <p>
        Both timelines are kept. {merged.name} is then shown as merged into {survivor.name}, and its address leads there. You can undo the merge for {MERGE_UNDO_DAYS}{' '}
        days.
      </p>
    </section>
  );
}
