// D58: while something is selected, beside the live count (PickCells.tsx): the offer of 'Select all N
// matching' once the whole page is picked, Clear selection, and the actions. Loaded when something is
// first selected, not with the list.
import { useRef } from 'react';
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
  // The offer goes once taken: focus moves to Clear selection, which now stands first (as it does in mail
  // apps), not to the page's start.
  const clear = useRef<HTMLButtonElement>(null);
  const selectAll = () => {
    selection.selectAll(total);
    clear.current?.focus();
  };
  return (
    <>
      {more &&
        (total <= BULK_MAX ? (
          <button type="button" className="btn btn-sm" onClick={selectAll}>
            Select all {figure(total)} matching
          </button>
        ) : (
          <p className="muted bulk-note">
            All {figure(total)} matching are more than {figure(BULK_MAX)}: narrow the filters to act on all of them.
          </p>
        ))}
      <button ref={clear} type="button" className="btn btn-sm" onClick={selection.clear}>
        Clear selection
      </button>
      <BulkActions selection={selection} />
    </>
  );
}
