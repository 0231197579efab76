// The customers list's table. Under 640px the rows stack (see .data-table in app.css). D48: status and
// city sort too; the city is the list's (D46: the primary location's, else the billing city); a customer
// not to be served is marked in words. D59: who each customer is assigned to.
import type { CustomField } from '../../../contract/custom-fields';
import type { CustomerListItem, CustomerSort } from '../../../contract/customers';
import { CustomCells, CustomHeaders } from './custom-columns/CustomColumns';
import { mailtoHref } from '../../lib/contact-links';
import { Link } from '../../router/Link';
import { customerHref } from '../../router/paths';
import { StatusBadge } from '../../ui/status';
import { Day } from '../../ui/when';
import { PickCell, PickHeader } from './bulk/PickCells';
import type { Selection } from './bulk/selection';
import { PhoneLink } from './PhoneLink';

const NONE = '—';
/** D46: the city the list shows. */
export const CITY_HINT = 'The primary service location’s city, else the billing address’s';

/** D26 D48: the sortable columns; a date is newest first on its first click, a name A to Z. */
const SORTABLE = { name: 'name', city: 'city', status: 'status', created: 'created_at', updated: 'updated_at' } as const;
type SortColumn = keyof typeof SORTABLE;
const FIRST_DESCENDING: readonly SortColumn[] = ['created', 'updated'];

/** A list row as the table reads it. `created_at` is shown once the list's rows carry it (asked of the contract). */
type Row = CustomerListItem & { created_at?: string };

/** The sort a click on `column` asks for: the other direction when it is the current column. */
export function nextSort(current: string, column: SortColumn): CustomerSort {
  const field = SORTABLE[column];
  if (current === field) return `-${field}` as CustomerSort;
  if (current === `-${field}`) return field;
  return (FIRST_DESCENDING.includes(column) ? `-${field}` : field) as CustomerSort;
}

function SortHeader({
  column,
  label,
  sort,
  onSort,
  className,
  hint,
}: {
  column: SortColumn;
  label: string;
  /** Said on hover and to screen readers (the button's description). */
  hint?: string;
  sort: string;
  onSort: (s: CustomerSort) => void;
  className?: string;
}) {
  const field = SORTABLE[column];
  const state = sort === field ? 'ascending' : sort === `-${field}` ? 'descending' : 'none';
  return (
    // D15: the header says how the list is sorted; its button says what a click does.
    <th scope="col" aria-sort={state} className={className ? `th-sort ${className}` : 'th-sort'}>
      <button type="button" title={hint} onClick={() => onSort(nextSort(sort, column))}>
        {label}
        <span aria-hidden="true" className="sort-mark" data-dir={state} />
      </button>
    </th>
  );
}

export interface TableProps {
  customers: Row[];
  busy: boolean;
  caption: string;
}

export function CustomerTable({
  customers,
  busy,
  caption,
  sort,
  onSort,
  onTag,
  selection,
  columns = [],
}: TableProps & {
  sort: string;
  onSort: (s: string) => void;
  onTag: (tag: string) => void;
  selection?: Selection;
  /** D56: custom fields shown as columns, after the list's own. */
  columns?: readonly CustomField[];
}) {
  return (
    <div className="table-wrap card list-table" data-busy={busy || undefined}>
      <table className="data-table" aria-busy={busy || undefined}>
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr>
            {selection && <PickHeader selection={selection} rows={customers} />}
            <SortHeader column="name" label="Name" sort={sort} onSort={onSort} />
            <th scope="col">Email</th>
            <th scope="col" className="col-phone">
              Phone
            </th>
            {/* Issue 34 item 10: not the billing address's city (the export's `city`), unless there is no primary location. */}
            <SortHeader column="city" label="Service city" hint={CITY_HINT} sort={sort} onSort={onSort} className="col-city" />
            <SortHeader column="status" label="Status" sort={sort} onSort={onSort} className="col-status" />
            <th scope="col" className="col-tags">
              Tags
            </th>
            <th scope="col" className="col-assigned">
              Assigned to
            </th>
            <SortHeader column="created" label="Created" sort={sort} onSort={onSort} className="col-created" />
            <SortHeader column="updated" label="Updated" sort={sort} onSort={onSort} className="col-updated" />
            <CustomHeaders columns={columns} sort={sort} onSort={onSort} />
          </tr>
        </thead>
        <tbody>
          {customers.map((c) => (
            <tr key={c.id} data-picked={selection?.has(c.id) || undefined}>
              {selection && <PickCell selection={selection} row={c} rows={customers} />}
              <td className="cell-name">
                <Link to={customerHref(c.id)} title={c.name}>
                  {c.name}
                </Link>
                {c.do_not_service && <span className="dns-badge">Do not service</span>}
                {(c.company || c.city) && (
                  <span className="cell-sub" title={c.company ?? undefined}>
                    {c.company}
                    {/* Shown where the City column is left out for room (app.css). */}
                    {c.city && <span className="sub-city">{c.company ? ` · ${c.city}` : c.city}</span>}
                  </span>
                )}
              </td>
              <td className="cell-email" data-label="Email">
                {c.email ? (
                  <a href={mailtoHref(c.email)} title={c.email}>
                    {c.email}
                  </a>
                ) : (
                  NONE
                )}
              </td>
              <td className="cell-phone" data-label="Phone">
                {c.phone ? <PhoneLink phone={c.phone} /> : NONE}
              </td>
              <td className="col-city" data-label="Service city" title={c.city ?? undefined}>
                {c.city ?? NONE}
              </td>
              <td data-label="Status">
                <StatusBadge status={c.status} />
              </td>
              <td className="cell-tags" data-label="Tags" title={c.tags.join(', ') || undefined}>
                {c.tags.length === 0
                  ? NONE
                  : c.tags.map((tag) => (
                      <button key={tag} type="button" className="tag" aria-label={`Show customers tagged ${tag}`} onClick={() => onTag(tag)}>
                        {tag}
                      </button>
                    ))}
              </td>
              <td className="col-assigned" data-label="Assigned to" title={c.assigned_to?.name}>
                {c.assigned_to?.name ?? NONE}
              </td>
              <td className="cell-date col-created" data-label="Created">
                <Day fallback={NONE} at={c.created_at} />
              </td>
              <td className="cell-date col-updated" data-label="Updated">
                <Day fallback={NONE} at={c.updated_at} />
              </td>
              <CustomCells columns={columns} customer={c} />
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
