// D27: the rows of an import preview with their errors in words and their duplicates (by email) as
// links to the customer who already has that email; D44: what updating each duplicate would change,
// before → after. The problems come right after the line number, so they are never scrolled out of view.
import type { CustomerInputField, ImportDuplicateMode, ImportPreviewRow } from '../../../../contract/customers';
import { TARGET_GROUP_LABELS, type ImportColumn, type ImportTargetOption } from '../../../../contract/import-mapping';
import { Link } from '../../../router/Link';
import { customerHref } from '../../../router/paths';

/** Rows without problems shown at most; every row with an error or a duplicate is always shown. */
export const PREVIEW_CLEAN_ROWS = 100;

/** The columns shown (the rest of a row's fields are imported all the same). */
const COLUMNS: readonly CustomerInputField[] = ['name', 'email', 'phone', 'company', 'city', 'status', 'tags'];
const LABELS: Record<string, string> = {
  name: 'Name',
  company: 'Company',
  email: 'Email',
  phone: 'Phone',
  address_line: 'Address',
  city: 'City',
  region: 'Region',
  postal_code: 'Postal code',
  country: 'Country',
  status: 'Status',
  tags: 'Tags',
  assigned_to: 'Assigned to', // D59
};
export const fieldLabel = (field: string): string => LABELS[field] ?? field.replace(/_/g, ' ');

/** D60: how the preview names a row's field: its target's label, and the file's column it came from. */
export interface FieldNames {
  targets: readonly ImportTargetOption[];
  columns: readonly ImportColumn[];
}

function fieldName(field: string, names?: FieldNames): string {
  const option = names?.targets.find((t) => t.target === field);
  if (!option) return fieldLabel(field);
  const label = option.group === 'location' || option.group === 'contact' ? `${TARGET_GROUP_LABELS[option.group]} ${option.label.toLowerCase()}` : option.label;
  const column = names?.columns.find((c) => c.target === field);
  return column ? `${label} (column “${column.header}”)` : label;
}

/** The rows to show: all with a problem, and the first clean ones. */
export function shownRows(rows: readonly ImportPreviewRow[]): ImportPreviewRow[] {
  let clean = 0;
  return rows.filter((r) => r.errors.length > 0 || r.duplicate !== null || clean++ < PREVIEW_CLEAN_ROWS);
}

/** A value before → after: a list joined, D59 a member by name, nothing as '(empty)'. */
const shownValue = (v: unknown): string =>
  Array.isArray(v) ? v.join('; ') : v === null || v === undefined || v === '' ? '(empty)' : typeof v === 'object' && 'name' in v ? String(v.name) : String(v);

function duplicateFate(row: ImportPreviewRow, mode: ImportDuplicateMode): string {
  if (mode === 'skip') return ': will be skipped';
  const adds = addsText(row.adds);
  if (row.changes && Object.keys(row.changes).length === 0 && !adds) return ': already up to date, nothing to change';
  return adds ? `: will be updated, ${adds}` : ': will be updated';
}

/** D60: what an update adds to the customer: 'adds 1 location and 2 contacts'. */
function addsText(adds: ImportPreviewRow['adds']): string {
  if (!adds) return '';
  const n = (count: number, one: string) => (count ? `${count} ${one}${count === 1 ? '' : 's'}` : '');
  return `adds ${[n(adds.locations, 'location'), n(adds.contacts, 'contact')].filter(Boolean).join(' and ')}`;
}

/** D44: each field an update would change, before → after. */
function Changes({ changes }: { changes: ImportPreviewRow['changes'] }) {
  const fields = Object.entries(changes ?? {});
  if (!fields.length) return null;
  return (
    <ul className="import-changes">
      {fields.map(([field, { from, to }]) => (
        <li key={field}>
          {fieldLabel(field)}: <del>{shownValue(from)}</del> → <ins>{shownValue(to)}</ins>
        </li>
      ))}
    </ul>
  );
}

function Problems({ row, mode, names }: { row: ImportPreviewRow; mode: ImportDuplicateMode; names?: FieldNames }) {
  const joins = row.joins === undefined ? null : <li className="muted">Adds to the customer of line {row.joins}</li>;
  if (!row.errors.length && !row.duplicate) return joins ? <ul className="import-problems">{joins}</ul> : <span className="muted">Ready</span>;
  return (
    <ul className="import-problems">
      {row.errors.map((e, i) => (
        <li key={i} className="import-error">
          {/* The server's detail continues the field's name: "Email" + "is not a valid email address". */}
          {e.field ? `${fieldName(e.field, names)} ${e.detail}` : e.detail}
        </li>
      ))}
      {joins}
      {row.duplicate && (
        <li className="import-duplicate">
          Email already belongs to <Link to={customerHref(row.duplicate.id)}>{row.duplicate.name}</Link>
          {!row.errors.length && duplicateFate(row, mode)}
          {!row.errors.length && mode === 'update' && <Changes changes={row.changes} />}
        </li>
      )}
    </ul>
  );
}

export function PreviewTable({ rows, mode, caption, names }: { rows: readonly ImportPreviewRow[]; mode: ImportDuplicateMode; caption: string; names?: FieldNames }) {
  return (
    // A wide file's values may scroll sideways (the problems never do): the box takes the keyboard focus
    // so it can be scrolled without a mouse (WCAG 2.1.1).
    <div className="table-wrap import-table" tabIndex={0} role="region" aria-label={caption}>
      <table className="data-table">
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Line</th>
            <th scope="col" className="import-problems-col">
              Problems
            </th>
            {COLUMNS.map((c) => (
              <th key={c} scope="col">
                {fieldLabel(c)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.line} data-state={row.errors.length ? 'error' : row.duplicate ? 'duplicate' : 'ready'}>
              <th scope="row" data-label="Line">
                {row.line}
              </th>
              <td data-label="Problems" className="import-problems-col">
                <Problems row={row} mode={mode} names={names} />
              </td>
              {COLUMNS.map((c) => (
                <td key={c} data-label={fieldLabel(c)}>
                  {row.values[c] ?? ''}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
