// D56: a choice field's options in the add / edit dialog: add, rename, remove and reorder (by keyboard,
// the focus staying on the moved option). An option keeps its id through a rename or a move, so the
// records that hold it keep their value; removing one records hold is refused by the server, said here.
import { useLayoutEffect, useRef } from 'react';
import { CUSTOM_OPTION_LABEL_MAX, CUSTOM_OPTIONS_MAX } from '../../../../contract/custom-fields';
import { newOption, type OptionDraft } from './field-form';

export interface OptionsEditorProps {
  idBase: string;
  options: OptionDraft[];
  errors: Record<number, string>;
  /** An error about the options as a whole (none given, one in use). */
  error: string | undefined;
  onChange: (options: OptionDraft[]) => void;
}

export function OptionsEditor({ idBase, options, errors, error, onChange }: OptionsEditorProps) {
  const focusNext = useRef<string | null>(null);
  useLayoutEffect(() => {
    const id = focusNext.current;
    focusNext.current = null;
    if (id) document.getElementById(id)?.focus();
  });
  const inputId = (o: OptionDraft) => `${idBase}-o${o.uid}`;

  const move = (i: number, by: -1 | 1, dir: 'up' | 'down') => {
    const next = [...options];
    const [o] = next.splice(i, 1);
    next.splice(i + by, 0, o!);
    const to = i + by;
    // The same button keeps the focus unless the option reached an end (then the other one).
    const edge = (dir === 'up' && to === 0) || (dir === 'down' && to === next.length - 1);
    focusNext.current = `${inputId(o!)}-${edge ? (dir === 'up' ? 'down' : 'up') : dir}`;
    onChange(next);
  };
  const remove = (i: number) => {
    const next = options.filter((_, j) => j !== i);
    const after = next[i] ?? next[i - 1];
    focusNext.current = after ? inputId(after) : `${idBase}-add`;
    onChange(next);
  };
  const add = () => {
    const o = newOption();
    focusNext.current = inputId(o);
    onChange([...options, o]);
  };

  return (
    <fieldset className="fd-options" aria-describedby={error ? `${idBase}-options-e` : undefined}>
      <legend>Options</legend>
      {error && (
        <p id={`${idBase}-options-e`} className="field-error">
          {error}
        </p>
      )}
      <ol className="fd-option-list">
        {options.map((o, i) => {
          const id = inputId(o);
          const err = errors[o.uid];
          return (
            <li key={o.uid} className="fd-option">
              <input
                id={id}
                aria-label={`Option ${i + 1}`}
                value={o.label}
                maxLength={CUSTOM_OPTION_LABEL_MAX}
                aria-invalid={err ? true : undefined}
                aria-describedby={err ? `${id}-e` : undefined}
                onChange={(e) => onChange(options.map((x) => (x.uid === o.uid ? { ...x, label: e.target.value } : x)))}
              />
              <span className="fd-option-actions">
                <button type="button" id={`${id}-up`} className="btn btn-sm" disabled={i === 0} onClick={() => move(i, -1, 'up')}>
                  Up<span className="sr-only"> option {i + 1}</span>
                </button>
                <button type="button" id={`${id}-down`} className="btn btn-sm" disabled={i === options.length - 1} onClick={() => move(i, 1, 'down')}>
                  Down<span className="sr-only"> option {i + 1}</span>
                </button>
                <button type="button" className="btn btn-sm" disabled={options.length === 1} onClick={() => remove(i)}>
                  Remove<span className="sr-only"> option {i + 1}</span>
                </button>
              </span>
              {err && (
                <p id={`${id}-e`} className="field-error">
                  {err}
                </p>
              )}
            </li>
          );
        })}
      </ol>
      <button type="button" id={`${idBase}-add`} className="btn btn-sm" disabled={options.length >= CUSTOM_OPTIONS_MAX} onClick={add}>
        Add option
      </button>
    </fieldset>
  );
}
