// D56: the list by custom field: 'Columns' (which custom fields the table shows), 'Filter by a field' (a
// field, a condition its type takes, a value in the control its type wants) and the conditions in force
// as chips that remove them. Everything lands in the URL (D26), so reload, Back and a link keep it.
import { useId, useState, type FormEvent } from 'react';
import { CUSTOM_FIELD_TYPE_LABELS, type CustomField } from '../../../../contract/custom-fields';
import { CUSTOM_CONTAINS_MIN, CUSTOM_FILTER_OPS_BY_TYPE, CUSTOM_FILTERS_MAX, type CustomFilter, type CustomFilterOp } from '../../../../contract/custom-list';
import { fold } from '../../../../contract/fold';
import { customText } from '../custom/text';
import type { ListState } from '../list-params';
import { closeDisclosure, escapeCloses } from '../../../ui/disclosure';
import { AssignedFilter } from '../AssignedFilter';

type Change = (patch: Partial<ListState>, opts?: { replace?: boolean }) => void;

/** A condition as the form offers it: empty=true and empty=false are two choices. */
type Choice = Exclude<CustomFilterOp, 'empty'> | 'empty' | 'set';
const CHOICE_WORDS: Record<Choice, string> = { equals: 'is', contains: 'contains', from: 'is at least', to: 'is at most', empty: 'is empty', set: 'has a value' };
const choicesOf = (f: CustomField): Choice[] => CUSTOM_FILTER_OPS_BY_TYPE[f.type].flatMap((op): Choice[] => (op === 'empty' ? ['empty', 'set'] : [op]));

/** A condition in words: 'Gate code contains 12', 'Plan is Premium', 'Pets is empty'. */
export function conditionWords(f: CustomField, c: CustomFilter): string {
  if (c.op === 'empty') return `${f.label} ${c.value === 'true' ? 'is empty' : 'has a value'}`;
  const value = c.op === 'contains' ? c.value : customText(f, f.type === 'number' ? Number(c.value) : f.type === 'yes_no' ? c.value === 'true' : c.value);
  return `${f.label} ${CHOICE_WORDS[c.op]} ${value}`;
}

function ValueInput({
  field,
  id,
  value,
  onChange,
  invalid,
}: {
  field: CustomField;
  id: string;
  value: string;
  onChange: (v: string) => void;
  invalid: string | undefined;
}) {
  const common = {
    id,
    value,
    'aria-invalid': invalid ? true : undefined,
    'aria-describedby': invalid,
    onChange: (e: { target: { value: string } }) => onChange(e.target.value),
  };
  if (field.type === 'yes_no')
    return (
      <select {...common}>
        <option value="true">Yes</option>
        <option value="false">No</option>
      </select>
    );
  if (field.type === 'choice' || field.type === 'choices')
    return (
      <select {...common}>
        {field.options.map((o) => (
          <option key={o.id} value={o.id}>
            {o.label}
          </option>
        ))}
      </select>
    );
  return <input {...common} type={field.type === 'number' ? 'number' : field.type === 'date' ? 'date' : 'text'} step={field.type === 'number' ? 'any' : undefined} />;
}

/** What the value control starts at: a choice's first option, Yes, or nothing typed. */
const startValue = (f: CustomField | undefined) => (f?.type === 'yes_no' ? 'true' : f?.type === 'choice' || f?.type === 'choices' ? (f.options[0]?.id ?? '') : '');

function AddCondition({ fields, custom, onAdd }: { fields: readonly CustomField[]; custom: readonly CustomFilter[]; onAdd: (c: CustomFilter) => void }) {
  const ids = { field: useId(), op: useId(), value: useId(), error: useId() };
  const [key, setKey] = useState(fields[0]?.key ?? '');
  const field = fields.find((f) => f.key === key) ?? fields[0];
  const [choice, setChoice] = useState<Choice>('equals');
  const [value, setValue] = useState(() => startValue(fields[0]));
  const [error, setError] = useState('');
  if (!field) return null;
  const choices = choicesOf(field);
  const op: Choice = choices.includes(choice) ? choice : choices[0]!;
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const v = op === 'empty' ? 'true' : op === 'set' ? 'false' : value.trim();
    let problem = '';
    if (!v) problem = 'Enter a value to filter by.';
    else if (op === 'contains' && [...fold(v)].length < CUSTOM_CONTAINS_MIN) problem = `Enter at least ${CUSTOM_CONTAINS_MIN} characters.`;
    else if (custom.length >= CUSTOM_FILTERS_MAX) problem = `At most ${CUSTOM_FILTERS_MAX} field filters at once: remove one first.`;
    setError(problem);
    if (problem) return; // what was typed stays
    onAdd({ key: field.key, op: op === 'set' ? 'empty' : op, value: v });
    setValue(startValue(field));
    closeDisclosure(e.currentTarget); // the filter is added: its chip says so, and the menu no longer covers the list
  };
  return (
    <details className="cf-columns cf-filter" onKeyDown={escapeCloses}>
      <summary className="btn btn-sm">Filter by a field</summary>
      <form className="list-filters cf-add" aria-label="Filter by a custom field" onSubmit={submit}>
        <div className="list-field">
          <label htmlFor={ids.field}>Field</label>
          <select
            id={ids.field}
            value={field.key}
            onChange={(e) => (setKey(e.target.value), setValue(startValue(fields.find((f) => f.key === e.target.value))), setError(''))}
          >
            {fields.map((f) => (
              <option key={f.key} value={f.key}>
                {f.label} ({CUSTOM_FIELD_TYPE_LABELS[f.type]})
              </option>
            ))}
          </select>
        </div>
        <div className="list-field">
          <label htmlFor={ids.op}>Condition</label>
          <select id={ids.op} value={op} onChange={(e) => (setChoice(e.target.value as Choice), setError(''))}>
            {choices.map((c) => (
              <option key={c} value={c}>
                {CHOICE_WORDS[c]}
              </option>
            ))}
          </select>
        </div>
        {op !== 'empty' && op !== 'set' && (
          <div className="list-field">
            <label htmlFor={ids.value}>Value</label>
            <ValueInput field={field} id={ids.value} value={value} onChange={setValue} invalid={error ? ids.error : undefined} />
          </div>
        )}
        <button type="submit" className="btn">
          Add filter
        </button>
        {error && (
          <p id={ids.error} className="field-error cf-error" role="alert">
            {error}
          </p>
        )}
      </form>
    </details>
  );
}

/** The columns menu: a disclosure of one checkbox per active field (native details: keyboard and screen readers). */
function ColumnsMenu({ fields, columns, onChange }: { fields: readonly CustomField[]; columns: readonly string[]; onChange: (columns: string[]) => void }) {
  return (
    <details className="cf-columns" onKeyDown={escapeCloses}>
      <summary className="btn btn-sm">Columns</summary>
      <fieldset>
        <legend>Custom fields shown in the list</legend>
        {fields.map((f) => (
          <label key={f.key} className="check">
            <input
              type="checkbox"
              checked={columns.includes(f.key)}
              onChange={(e) => onChange(e.target.checked ? [...columns, f.key] : columns.filter((k) => k !== f.key))}
            />
            {f.label}
          </label>
        ))}
      </fieldset>
    </details>
  );
}

export function CustomListControls({ state, fields, onChange }: { state: ListState; fields: readonly CustomField[]; onChange: Change }) {
  // D59: the assignee's menu sits with these (AssignedFilter.tsx), loaded with them beside the list.
  const assigned = <AssignedFilter value={state.assigned} onChange={(a) => onChange({ assigned: a, page: 1 })} />;
  if (!fields.length) return <div className="cf-controls">{assigned}</div>;
  const byKey = (key: string) => fields.find((f) => f.key === key);
  const shown = state.custom.filter((c) => byKey(c.key));
  return (
    <div className="cf-controls">
      <ColumnsMenu fields={fields} columns={state.columns} onChange={(columns) => onChange({ columns })} />
      <AddCondition
        fields={fields}
        custom={state.custom}
        onAdd={(c) => onChange({ custom: [...state.custom.filter((o) => o.key !== c.key || o.op !== c.op), c], page: 1 })}
      />
      {assigned}
      {shown.length > 0 && (
        <ul className="cf-chips" aria-label="Field filters">
          {shown.map((c) => {
            const words = conditionWords(byKey(c.key)!, c);
            return (
              <li key={`${c.key}.${c.op}`} className="list-chip">
                {words}
                <button type="button" aria-label={`Remove the filter ${words}`} onClick={() => onChange({ custom: state.custom.filter((o) => o !== c), page: 1 })}>
                  ×
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
