// D56: the custom fields a person added to the list as columns: a header each (a button that sorts by the
// field, when its type sorts) and the row's value in words. Under 640px the rows stack and each cell is
// labelled by its field (data-label, as the list's own cells).
import type { CustomField } from '../../../../contract/custom-fields';
import { CUSTOM_SORT_TYPES } from '../../../../contract/custom-list';
import type { CustomerListItem } from '../../../../contract/customers';
import { customText } from '../custom/text';

const NONE = '—';

/** The sort a click on the field's header asks for: A to Z (low to high) first, then the other way. */
export const nextCustomSort = (current: string, key: string) => (current === `cf.${key}` ? `-cf.${key}` : `cf.${key}`);

export function CustomHeaders({ columns, sort, onSort }: { columns: readonly CustomField[]; sort: string; onSort: (sort: string) => void }) {
  return columns.map((f) => {
    if (!CUSTOM_SORT_TYPES.includes(f.type))
      return (
        <th key={f.key} scope="col" className="col-custom">
          {f.label}
        </th>
      );
    const state = sort === `cf.${f.key}` ? 'ascending' : sort === `-cf.${f.key}` ? 'descending' : 'none';
    return (
      <th key={f.key} scope="col" aria-sort={state} className="th-sort col-custom">
        <button type="button" onClick={() => onSort(nextCustomSort(sort, f.key))}>
          {f.label}
          <span aria-hidden="true" className="sort-mark" data-dir={state} />
        </button>
      </th>
    );
  });
}

export function CustomCells({ columns, customer }: { columns: readonly CustomField[]; customer: CustomerListItem }) {
  return columns.map((f) => {
    const text = customText(f, customer.custom?.[f.key]);
    return (
      <td key={f.key} className="col-custom" data-label={f.label} title={text || undefined}>
        {text || NONE}
      </td>
    );
  });
}
