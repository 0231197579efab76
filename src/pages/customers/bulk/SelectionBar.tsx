// D58: while something is selected, beside the live count (PickCells.tsx): the offer of 'Select all N
// matching' once the whole page is picked, Clear selection, and the actions. Loaded when something is
// first selected, not with the list.
import { BULK_MAX } from '../../../../contract/bulk';
import type { CustomerListItem } from '../../../../contract/customers';

import BulkActions from './BulkActions';
import type { Selection } from './selection';

const figure = (n: number) => n.toLocaleString('en-US');

export interface SelectionBarProps {
  selection: Selection;
  rows: readonly CustomerListItem[];
  /** The list's count, and whether it is exact (D26: a search of very many counts only so far). */
  total: number;
  exact: boolean;
}

export default function SelectionBar({ selection, rows, total, exact }: SelectionBarProps) {
  const wholePage = selection.picked.kind === 'ids' && rows.length > 0 && selection.pageState(rows) === 'all';
  const more = wholePage && exact && total > rows.length;
  return (
    <>
      {more &&
        (total <= BULK_MAX ? (
          <button type="button" className="btn btn-sm" onClick={() => selection.selectAll(total)}>
            Select all {figure(total)} matching
          </button>
        ) : (
          <p className="muted bulk-note">
            All {figure(total)} matching are more than {figure(BULK_MAX)}: narrow the filters to act on all of them.
          </p>
        ))}
      <button type="button" className="btn btn-sm" onClick={selection.clear}>
        Clear selection
      </button>
      <BulkActions selection={selection} />
    </>
  );
}
