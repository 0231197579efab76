// D60: each column of the file (a list: its name, an example, and a select of targets grouped Customer, Custom
// fields, Service location, Contact, and 'Do not import'), the server's guess or the organization's last
// mapping chosen; and how rows become customers (by email, each row its own, or by a column's value).
// Every change asks the server for a new preview; the import then sends the mapping shown.
import { useId, useState } from 'react';
import type { ImportPreview } from '../../../../contract/customers';
import { NOT_IMPORTED, TARGET_GROUP_LABELS, type ImportGroupBy, type ImportTargetGroup } from '../../../../contract/import-mapping';
import type { ImportMapping } from '../../../api/import-mapping';

const GROUPS = Object.keys(TARGET_GROUP_LABELS) as ImportTargetGroup[];

const SOURCE_WORDS: Record<ImportPreview['mapping'], string> = {
  guessed: 'Guessed from the column names. Change any column before importing.',
  saved: 'Your choices from the last import of a file with these columns.',
  chosen: 'As you chose.',
};

/** D60: the mapping the preview shows, as the import page sends it back. */
export const mappingOf = (p: ImportPreview): ImportMapping => ({ columns: p.columns.map((c) => c.target), groupBy: p.grouping.by });

const parseGroupBy = (v: string): ImportGroupBy => (v === 'email' || v === 'none' ? v : Number(v));

export function ColumnMapping({
  preview,
  mapping: current,
  busy,
  onChange,
}: {
  preview: ImportPreview;
  /** What the selects show: the preview's mapping, or the one asked for while its answer is on its way. */
  mapping: ImportMapping;
  busy: boolean;
  onChange: (m: ImportMapping) => void;
}) {
  const id = useId();
  const [everyColumn, setEveryColumn] = useState(false);
  const { columns, targets } = preview;
  // A wide export (Outlook's has 92 columns) is mostly empty: those not imported wait behind a button.
  // Decided once, so a column changed to 'Do not import' stays where it is (and keeps the focus).
  const [quiet] = useState(() => new Set(columns.flatMap((c, i) => (!c.sample && current.columns[i] === null ? [i] : []))));
  const empty = quiet.size;
  const shown = columns.flatMap((c, i) => (everyColumn || !quiet.has(i) ? [{ c, i }] : []));
  const setColumn = (i: number, value: string) =>
    onChange({ ...current, columns: current.columns.map((t, j) => (j === i ? (value === NOT_IMPORTED ? null : value) : t)) });
  return (
    <div className="import-mapping">
      <section aria-labelledby={`${id}h`}>
        <h3 id={`${id}h`}>Columns</h3>
        <p className="muted" id={`${id}d`}>
          {SOURCE_WORDS[preview.mapping]}
        </p>
        {/* Never disabled while a new preview is on its way: a select changed by arrow keys keeps the focus (the latest answer wins). */}
        <ul className="import-columns" aria-label="Columns of the file" aria-busy={busy}>
          {shown.map(({ c, i }) => (
            <li key={i} data-state={current.columns[i] === null ? 'skipped' : 'mapped'}>
              <label htmlFor={`${id}c${i}`}>{c.header || `Column ${i + 1}`}</label>
              <span id={`${id}s${i}`} className="import-sample">
                {c.sample ? `e.g. ${c.sample}` : '(empty)'}
              </span>
              <select id={`${id}c${i}`} value={current.columns[i] ?? NOT_IMPORTED} onChange={(e) => setColumn(i, e.target.value)} aria-describedby={`${id}s${i}`}>
                <option value={NOT_IMPORTED}>Do not import</option>
                {GROUPS.map((g) => (
                  <optgroup key={g} label={TARGET_GROUP_LABELS[g]}>
                    {targets
                      .filter((t) => t.group === g)
                      .map((t) => (
                        <option key={t.target} value={t.target}>
                          {g === 'customer' || g === 'custom' ? t.label : `${TARGET_GROUP_LABELS[g]}: ${t.label}`}
                        </option>
                      ))}
                  </optgroup>
                ))}
              </select>
            </li>
          ))}
        </ul>
        {empty > 0 && (
          <button type="button" className="btn btn-sm import-more-columns" aria-expanded={everyColumn} onClick={() => setEveryColumn(!everyColumn)}>
            {everyColumn ? `Hide the ${empty} empty columns` : `Show ${empty} empty ${empty === 1 ? 'column' : 'columns'} (not imported)`}
          </button>
        )}
      </section>
      <div className="import-grouping">
        <label htmlFor={`${id}g`}>Rows become customers</label>
        <select id={`${id}g`} value={String(current.groupBy)} onChange={(e) => onChange({ ...current, groupBy: parseGroupBy(e.target.value) })}>
          <option value="email">Rows with the same email are one customer</option>
          <option value="none">Each row is a customer of its own</option>
          <optgroup label="Rows with the same value in a column are one customer">
            {columns.map((c, i) => (
              <option key={i} value={String(i)}>
                Same {c.header || `column ${i + 1}`}
              </option>
            ))}
          </optgroup>
        </select>
        <p className="muted">One customer gets a service location and the contacts of each of its rows.</p>
      </div>
    </div>
  );
}
