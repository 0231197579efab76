// D56: one record kind's fields on /settings/fields: the active ones in their order (label, key, type in
// words, required and unique badges), with Move up / Move down, a drag handle, Edit and Archive for who
// may manage them; then the archived ones with Restore and Delete. Buttons name their field for a screen
// reader ('Move up Gate code'); the visible words come first (WCAG 2.5.3).
import { useState, type DragEvent } from 'react';
import { CUSTOM_FIELD_LIMITS, CUSTOM_FIELD_TYPE_LABELS, type CustomField, type CustomFieldKind } from '../../../../contract/custom-fields';

export interface GroupProps {
  kind: CustomFieldKind;
  title: string;
  /** The kind's active fields in the order shown, then its archived ones. */
  active: CustomField[];
  archived: CustomField[];
  manage: boolean;
  /** A field whose change is being sent (its buttons wait). */
  busy: number | null;
  onAdd: () => void;
  onEdit: (f: CustomField) => void;
  onMove: (f: CustomField, to: number, button: 'up' | 'down' | null) => void;
  onArchive: (f: CustomField) => void;
  onRestore: (f: CustomField) => void;
  onDelete: (f: CustomField) => void;
}

export const rowButtonId = (f: CustomField, what: string) => `cf-${f.id}-${what}`;
const Name = ({ f }: { f: CustomField }) => <span className="sr-only"> {f.label}</span>;

function Meta({ f }: { f: CustomField }) {
  const options = f.options.length ? ` · ${f.options.map((o) => o.label).join(', ')}` : '';
  return (
    <div className="fd-main">
      <span className="fd-label">{f.label}</span>
      {f.required && <span className="fd-badge">Required</span>}
      {f.unique && <span className="fd-badge">Unique</span>}
      <span className="fd-meta">
        <code>{f.key}</code> · {CUSTOM_FIELD_TYPE_LABELS[f.type]}
        {options}
      </span>
      {f.help && <span className="fd-meta">{f.help}</span>}
    </div>
  );
}

export function FieldGroup({ kind, title, active, archived, manage, busy, onAdd, onEdit, onMove, onArchive, onRestore, onDelete }: GroupProps) {
  const limit = CUSTOM_FIELD_LIMITS[kind];
  const full = active.length + archived.length >= limit;
  const [dragged, setDragged] = useState<number | null>(null);
  const headingId = `cf-${kind}-title`;
  const drop = (e: DragEvent, to: number) => {
    e.preventDefault();
    const f = active.find((x) => x.id === dragged);
    setDragged(null);
    if (f && active.indexOf(f) !== to) onMove(f, to, null);
  };

  return (
    <section className="admin-section fd-group" aria-labelledby={headingId}>
      <div className="fd-group-head">
        <h2 id={headingId} tabIndex={-1}>
          {title}
        </h2>
        <span className="muted">
          {active.length + archived.length} of {limit}
        </span>
        {manage && (
          <button
            type="button"
            className="btn btn-primary btn-sm"
            aria-disabled={full || undefined}
            aria-describedby={full ? `cf-${kind}-full` : undefined}
            onClick={full ? undefined : onAdd}
          >
            Add {kind === 'customer' ? 'customer' : 'location'} field
          </button>
        )}
      </div>
      {manage && full && (
        <p id={`cf-${kind}-full`} className="muted">
          The limit of {limit} fields is reached; archived ones count until they are deleted.
        </p>
      )}
      {active.length === 0 ? (
        <p className="muted admin-empty">No {kind === 'customer' ? 'customer' : 'location'} fields yet.</p>
      ) : (
        <ol className="card fd-list" aria-labelledby={headingId}>
          {active.map((f, i) => (
            <li
              key={f.id}
              className="fd-row"
              data-dragging={dragged === f.id || undefined}
              draggable={manage}
              onDragStart={(e) => {
                e.dataTransfer?.setData('text/plain', String(f.id));
                setDragged(f.id);
              }}
              onDragEnd={() => setDragged(null)}
              onDragOver={(e) => dragged !== null && e.preventDefault()}
              onDrop={(e) => drop(e, i)}
            >
              {manage && (
                <span className="fd-handle" aria-hidden="true" title="Drag to reorder">
                  ⠿
                </span>
              )}
              <Meta f={f} />
              {manage && (
                <div className="fd-actions">
                  <button type="button" id={rowButtonId(f, 'up')} className="btn btn-sm" disabled={i === 0} onClick={() => onMove(f, i - 1, 'up')}>
                    Move up
                    <Name f={f} />
                  </button>
                  <button type="button" id={rowButtonId(f, 'down')} className="btn btn-sm" disabled={i === active.length - 1} onClick={() => onMove(f, i + 1, 'down')}>
                    Move down
                    <Name f={f} />
                  </button>
                  <button type="button" id={rowButtonId(f, 'edit')} className="btn btn-sm" onClick={() => onEdit(f)}>
                    Edit
                    <Name f={f} />
                  </button>
                  <button
                    type="button"
                    id={rowButtonId(f, 'archive')}
                    className="btn btn-sm"
                    aria-disabled={busy === f.id || undefined}
                    onClick={() => busy === null && onArchive(f)}
                  >
                    Archive
                    <Name f={f} />
                  </button>
                </div>
              )}
            </li>
          ))}
        </ol>
      )}
      {archived.length > 0 && (
        <>
          <h3 id={`cf-${kind}-archived`}>Archived</h3>
          <p className="muted">Hidden everywhere; their values are kept until a field is deleted.</p>
          <ul className="card fd-list" aria-labelledby={`cf-${kind}-archived`}>
            {archived.map((f) => (
              <li key={f.id} className="fd-row" data-archived="">
                <Meta f={f} />
                {manage && (
                  <div className="fd-actions">
                    <button
                      type="button"
                      id={rowButtonId(f, 'restore')}
                      className="btn btn-sm"
                      aria-disabled={busy === f.id || undefined}
                      onClick={() => busy === null && onRestore(f)}
                    >
                      Restore
                      <Name f={f} />
                    </button>
                    <button type="button" id={rowButtonId(f, 'delete')} className="btn btn-sm btn-danger" onClick={() => onDelete(f)}>
                      Delete
                      <Name f={f} />
                    </button>
                  </div>
                )}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
