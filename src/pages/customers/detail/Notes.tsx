// D24 notes: adding needs customers:update; the author, or anyone with customers:update, may edit or
// delete one (the server checks the same). What was typed stays when a save fails. D41: a note being
// written is kept as a draft should its box go without the person choosing (customers:update taken
// away, a reload); a 403 permission_denied on Add keeps the box, its text and says so.
import { Suspense, useId, useRef, useState, type FormEvent } from 'react';
import { lazyPart, usePreloadWhenIdle } from '../../../ui/early-module';
import { flushSync } from 'react-dom';
import { NOTE_MAX_LENGTH, type Note } from '../../../../contract/customers';
import { useCustomersApi } from '../../../api/customers';
import { isPermissionDenied, useDraft } from '../../../drafts/context';
import { useMutation } from '../../../query/use-query';
import { useCan } from '../../../session/use-session';
import { toast } from '../../../ui/toast';
import { When } from '../../../ui/when';
import { failedWords } from '../../../ui/failed-words';
import { Problem } from './failure';
import { useCustomerGone } from './gone';

// The question's dialog (Confirm.tsx) loads once the browser is idle after the page (lazyPart), where it is offered.
const Confirm = lazyPart(() => import('./Confirm'));
const QUESTION = [Confirm];

export const MSG_NOTE_EMPTY = 'Write something first.';
const countFormat = new Intl.NumberFormat();

/** A textarea with its character count (0/5,000) and its error, tied to it for screen readers (D15). */
function NoteText({
  label,
  value,
  onChange,
  error,
  autoFocus,
}: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  error: string | null;
  autoFocus?: boolean;
}) {
  const id = useId();
  return (
    <div className="note-field">
      <label htmlFor={id}>{label}</label>
      <textarea
        id={id}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        maxLength={NOTE_MAX_LENGTH}
        rows={3}
        autoFocus={autoFocus}
        aria-invalid={error ? true : undefined}
        aria-describedby={`${id}c${error ? ` ${id}e` : ''}`}
      />
      <p id={`${id}c`} className="note-count">
        {countFormat.format(value.length)}/{countFormat.format(NOTE_MAX_LENGTH)}
        <span className="sr-only"> characters</span>
      </p>
      <Problem text={error} id={`${id}e`} />
    </div>
  );
}

/**
 * D15: a note that cannot be sent takes the person back to its text, once the error is drawn and tied
 * to it (so a screen reader reads the field with its error).
 */
function firstInvalid(e: FormEvent, showError: () => void): void {
  const text = (e.currentTarget as HTMLFormElement).querySelector('textarea');
  flushSync(showError);
  text?.focus();
}

/** A note's text, checked as the server will (D24: 1–5,000 characters once trimmed). */
const checkNote = (text: string): string | null => (text.trim() ? null : MSG_NOTE_EMPTY);

/** D24: the note box, for who has customers:update; D41: it stays after a refused save (the message says why). */
export function NoteBox({ customerId }: { customerId: number }) {
  const canUpdate = useCan('customers:update');
  const [refused, setRefused] = useState(false);
  return canUpdate || refused ? <NoteComposer customerId={customerId} onRefused={() => setRefused(true)} /> : null;
}

export function NoteComposer({ customerId, onRefused }: { customerId: number; onRefused?: () => void }) {
  const add = useMutation(useCustomersApi().addNote(customerId));
  const gone = useCustomerGone(customerId); // D59
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const busy = useRef(false);
  const draft = useDraft({ form: `note:${customerId}`, data: text, dirty: text.trim() !== '', onRestore: (t) => setText(typeof t === 'string' ? t : '') });

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy.current) return;
    const problem = checkNote(text);
    if (problem) return firstInvalid(e, () => setError(problem));
    setError(null);
    busy.current = true;
    try {
      await add.mutate(text.trim());
      draft.saved();
      setText('');
      toast.success('Note added');
    } catch (err) {
      if (isPermissionDenied(err)) onRefused?.();
      gone(err);
      setError(isPermissionDenied(err) ? draft.lost('add notes') : failedWords(err, 'add the note'));
    }
    busy.current = false;
  };

  return (
    <form className="note-form" onSubmit={(e) => void submit(e)}>
      {draft.offer}
      <NoteText label="Add a note" value={text} onChange={(v) => (setText(v), setError(null))} error={error} />
      {/* D15: busy, it keeps the focus (aria-disabled; submit ignores a second press). */}
      <button type="submit" className="btn btn-primary btn-sm" aria-disabled={add.status === 'pending' || undefined}>
        {add.status === 'pending' ? 'Adding…' : 'Add note'}
      </button>
    </form>
  );
}

/**
 * A note in the timeline, with Edit and Delete for who may (`editable`). `onDeleted` moves the focus
 * somewhere that stays (D15): the note and its buttons are about to go.
 */
export function NoteItem({ customerId, note, editable, onDeleted }: { customerId: number; note: Note; editable: boolean; onDeleted: () => void }) {
  usePreloadWhenIdle(editable, QUESTION);
  const api = useCustomersApi();
  const edit = useMutation(api.editNote(customerId));
  const remove = useMutation(api.deleteNote(customerId));
  const gone = useCustomerGone(customerId); // D59
  const [draft, setDraft] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const editButton = useRef<HTMLButtonElement>(null);

  const stopEditing = () => {
    setDraft(null);
    setError(null);
    // D15: focus goes back to where the person started.
    requestAnimationFrame(() => editButton.current?.focus());
  };
  const save = async (e: FormEvent) => {
    e.preventDefault();
    if (draft === null || edit.status === 'pending') return;
    const problem = checkNote(draft);
    if (problem) return firstInvalid(e, () => setError(problem));
    setError(null);
    try {
      await edit.mutate({ noteId: note.id, body: draft.trim() });
      toast.success('Note saved');
      stopEditing();
    } catch (err) {
      setError(failedWords(err, 'save the note'));
      gone(err);
    }
  };
  const closeConfirm = () => (setConfirming(false), setError(null));
  const confirmDelete = async () => {
    try {
      await remove.mutate(note.id);
      setConfirming(false);
      toast.success('Note deleted');
      requestAnimationFrame(onDeleted); // after the dialog has handed the focus back
    } catch (err) {
      setError(failedWords(err, 'delete the note'));
      gone(err);
    }
  };

  const who = note.author?.name || 'Someone';
  return (
    <article className="timeline-body" aria-label={`Note by ${who}`}>
      <p className="timeline-line">
        <span>
          <strong>{who}</strong> added a note
        </span>{' '}
        <span className="timeline-time">
          <When at={note.created_at} />
          {note.updated_at !== note.created_at && (
            <>
              {' '}
              · edited <When at={note.updated_at} />
            </>
          )}
        </span>
      </p>
      {draft === null ? (
        <>
          <p className="note-body">{note.body}</p>
          {editable && (
            <div className="note-actions">
              <button ref={editButton} type="button" className="link-btn" onClick={() => (setDraft(note.body), setError(null))}>
                Edit note
              </button>
              <button type="button" className="link-btn btn-danger" onClick={() => (setConfirming(true), setError(null))}>
                Delete note
              </button>
            </div>
          )}
        </>
      ) : (
        <form className="note-form" onSubmit={(e) => void save(e)}>
          <NoteText label="Edit note" value={draft} onChange={(v) => (setDraft(v), setError(null))} error={error} autoFocus />
          <div className="note-actions">
            <button type="submit" className="btn btn-primary btn-sm" aria-disabled={edit.status === 'pending' || undefined}>
              {edit.status === 'pending' ? 'Saving…' : 'Save note'}
            </button>
            <button type="button" className="btn btn-sm" onClick={stopEditing}>
              Cancel
            </button>
          </div>
        </form>
      )}
      {confirming && (
        <Suspense fallback={null}>
          <Confirm
            title="Delete this note?"
            confirm="Delete note"
            busy={remove.status === 'pending'}
            error={error}
            onConfirm={() => void confirmDelete()}
            onCancel={closeConfirm}
          >
            <p>It cannot be brought back.</p>
          </Confirm>
        </Suspense>
      )}
    </article>
  );
}
