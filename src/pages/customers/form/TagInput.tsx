// D22 tags as a person enters them: type, then Enter or a comma adds the tag; each tag is a chip with
// its own "Remove tag X" button (D15: every control named). A rejected tag stays in the box with the
// reason, so nothing typed is lost; additions and removals are announced politely.
import { useRef, useState, type KeyboardEvent } from 'react';
import type { FieldControl } from '../../../ui/form';
import { tagProblem } from './values';

export const TAG_HINT = 'Press Enter or type a comma to add a tag.';

export interface TagInputProps {
  /** The form's control for `tags` (id, aria-invalid, the error's id); the text box gets it. */
  control: FieldControl;
  label: string;
  tags: readonly string[];
  draft: string;
  /** The form's error for the field (from a save), shown when no add-time problem is. */
  error: string | undefined;
  onTags: (tags: readonly string[]) => void;
  onDraft: (draft: string) => void;
}

export function TagInput({ control, label, tags, draft, error, onTags, onDraft }: TagInputProps) {
  const input = useRef<HTMLInputElement>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [said, setSaid] = useState('');
  const shown = problem ?? error;
  const hintId = `${control.id}h`;
  const errorId = `${control.id}e`;

  /** Adds each given tag that passes D22; the first that does not stays typed, with its reason. */
  function add(parts: string[], rest = ''): void {
    let next = tags;
    for (let i = 0; i < parts.length; i++) {
      const tag = parts[i]!.trim();
      if (!tag) continue;
      const why = tagProblem(tag, next);
      if (why) {
        setProblem(why);
        if (next !== tags) onTags(next);
        onDraft([tag, ...parts.slice(i + 1)].join(', ') + (rest ? `, ${rest}` : ''));
        return;
      }
      next = [...next, tag];
      setSaid(`Added tag ${tag}`);
    }
    setProblem(null);
    if (next !== tags) onTags(next);
    onDraft(rest);
  }

  function onKeyDown(e: KeyboardEvent<HTMLInputElement>): void {
    // Enter adds the tag instead of saving the form; an empty box lets Enter save as usual.
    if (e.key === 'Enter' && draft.trim()) {
      e.preventDefault();
      add([draft]);
    }
  }

  function remove(tag: string): void {
    onTags(tags.filter((t) => t !== tag));
    setProblem(null);
    setSaid(`Removed tag ${tag}`);
    input.current?.focus(); // the button that had the focus is gone
  }

  return (
    <div className="field tag-field">
      <label htmlFor={control.id}>{label}</label>
      <div className="tag-box" data-invalid={shown ? '' : undefined}>
        {tags.length > 0 && (
          <ul className="tag-chips" aria-label={`${label} added`}>
            {tags.map((tag) => (
              <li key={tag} className="tag-chip">
                <span>{tag}</span>
                <button type="button" className="tag-remove" aria-label={`Remove tag ${tag}`} onClick={() => remove(tag)}>
                  <span aria-hidden="true">×</span>
                </button>
              </li>
            ))}
          </ul>
        )}
        <input
          ref={input}
          id={control.id}
          name={control.name}
          value={draft}
          autoComplete="off"
          aria-invalid={shown ? true : undefined}
          aria-describedby={shown ? `${hintId} ${errorId}` : hintId}
          onKeyDown={onKeyDown}
          onBlur={() => draft.trim() && add([draft])}
          onChange={(e) => {
            const value = e.target.value;
            setProblem(null);
            // A comma (typed or pasted) ends each tag before it; what follows the last one stays typed.
            if (value.includes(',')) {
              const parts = value.split(',');
              const rest = parts.pop() ?? '';
              add(parts, rest.trimStart());
            } else onDraft(value);
          }}
        />
      </div>
      <p id={hintId} className="field-hint">
        {TAG_HINT}
      </p>
      {shown && (
        <p id={errorId} className="field-error">
          {shown}
        </p>
      )}
      <p className="sr-only" role="status">
        {said}
      </p>
    </div>
  );
}
