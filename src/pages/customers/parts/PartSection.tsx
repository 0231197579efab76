// D46 D47: a section of the customer page listing its locations or contacts, edited in place by who has
// customers:update (D9): Add at the end (saying why not at the limit), Edit and Remove on each row, one
// form open at a time. D15: a form takes the focus when it opens and gives it back to where the person
// started (the row's Edit, or Add) after Save or Cancel; a removal asks first in the kit's confirm dialog,
// then the focus goes to the section's heading (the row is gone).
import { Suspense, useId, useRef, useState, type ReactNode } from 'react';
import { lazyPart, usePreloadWhenIdle } from '../../../ui/early-module';
import type { MutationDef } from '../../../query/cache';
import { useMutation } from '../../../query/use-query';
import { failedWords } from '../../../ui/failed-words';
import { toast } from '../../../ui/toast';

// Remove's question loads once the browser is idle after the page (lazyPart), where it is offered.
const ConfirmDialog = lazyPart(
  () => import('../../../ui/confirm-dialog'),
  (m) => m.ConfirmDialog,
);
const QUESTION = [ConfirmDialog];

/** What is open: a row's form (its id), the new one, or none. */
export type Editing = number | 'new' | null;

export interface PartSectionProps<T extends { id: number }> {
  /** The section's heading ('Service locations'), its noun ('location') and the limit (D46 50, D47 20). */
  title: string;
  noun: string;
  max: number;
  items: T[];
  canEdit: boolean;
  empty: string;
  /** The part in a sentence ('Rental on Oak St', 'Tom Lee'). */
  name: (item: T) => string;
  remove: MutationDef<number, null>;
  /** A row as read (inside its article, named by `name`). */
  view: (item: T) => ReactNode;
  /** A row's own action beside Edit and Remove (Make primary); `focusRow` puts the focus on its Edit button. */
  action?: (item: T, focusRow: () => void) => ReactNode;
  /** The form for a new part (null) or an existing one; `done` closes it (after a save or a cancel). */
  form: (item: T | null, done: () => void) => ReactNode;
}

export function PartSection<T extends { id: number }>({ title, noun, max, items, canEdit, empty, name, remove, view, action, form }: PartSectionProps<T>) {
  usePreloadWhenIdle(canEdit, QUESTION);
  const id = useId();
  const [editing, setEditing] = useState<Editing>(null);
  const [removing, setRemoving] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const removal = useMutation(remove);
  const section = useRef<HTMLElement>(null);
  const full = items.length >= max;

  /** D15: focus after the render that draws it (the form is gone, the row or Add is back). */
  const focusLater = (selector: string) => requestAnimationFrame(() => section.current?.querySelector<HTMLElement>(selector)?.focus());
  const focusRow = (rowId: number) => focusLater(`[data-part-id="${rowId}"] [data-part-edit]`);
  const close = (was: Editing) => {
    setEditing(null);
    focusLater(was === 'new' ? '[data-part-add]' : `[data-part-id="${was}"] [data-part-edit]`);
  };
  const confirmRemove = async () => {
    if (!removing || removal.status === 'pending') return;
    try {
      await removal.mutate(removing.id);
    } catch (e) {
      return setError(failedWords(e, `remove ${name(removing)}`));
    }
    toast.success(`Removed ${name(removing)}`);
    setRemoving(null);
    focusLater('h2'); // after the dialog has handed the focus back to a button that is going
  };

  return (
    <section ref={section} className="card detail-card part-section" aria-labelledby={`${id}h`}>
      <h2 id={`${id}h`} tabIndex={-1}>
        {title}
      </h2>
      {items.length === 0 && editing !== 'new' && <p className="muted">{empty}</p>}
      {items.length > 0 && (
        <ul className="part-list">
          {items.map((item) => (
            <li key={item.id} data-part-id={item.id}>
              {editing === item.id ? (
                form(item, () => close(item.id))
              ) : (
                <article className="part" aria-label={name(item)}>
                  {view(item)}
                  {canEdit && (
                    <div className="part-actions">
                      {action?.(item, () => focusRow(item.id))}
                      <button type="button" className="link-btn" data-part-edit aria-label={`Edit ${name(item)}`} onClick={() => setEditing(item.id)}>
                        Edit
                      </button>
                      <button type="button" className="link-btn btn-danger" aria-label={`Remove ${name(item)}`} onClick={() => (setRemoving(item), setError(null))}>
                        Remove
                      </button>
                    </div>
                  )}
                </article>
              )}
            </li>
          ))}
        </ul>
      )}
      {/* D41: an open form stays when customers:update goes (its save said why; its draft is kept). */}
      {editing === 'new'
        ? form(null, () => close('new'))
        : canEdit && (
            <div className="part-add">
              {/* At the limit it stays focusable and says why (aria-disabled, the reason tied to it). */}
              <button
                type="button"
                className="btn btn-sm"
                data-part-add
                aria-disabled={full || undefined}
                aria-describedby={full ? `${id}full` : undefined}
                onClick={() => !full && setEditing('new')}
              >
                Add {noun}
              </button>
              {full && (
                <p id={`${id}full`} className="muted part-full">
                  A customer can have at most {max} {noun}s: remove one to add another.
                </p>
              )}
            </div>
          )}
      {removing && (
        <Suspense fallback={null}>
          <ConfirmDialog
            title={`Remove ${name(removing)}?`}
            confirm={`Remove ${noun}`}
            busyLabel="Removing…"
            busy={removal.status === 'pending'}
            error={error}
            onConfirm={() => void confirmRemove()}
            onCancel={() => removal.status !== 'pending' && (setRemoving(null), setError(null))}
          >
            <p>The customer's timeline keeps a record of it.</p>
          </ConfirmDialog>
        </Suspense>
      )}
    </section>
  );
}
