// D58: above the list, what is selected in words (a live region: '3 selected'), the offer of 'Select all N
// matching' once the whole page is picked, Clear selection, and the actions (their code loads when
// something is first selected, not with the list).
import { lazy, Suspense } from 'react';
import { BULK_MAX } from '../../../../contract/bulk';
import type { CustomerListItem } from '../../../../contract/customers';
import type { ListState } from '../list-params';
import { pickedCount, type Selection } from './selection';

const BulkActions = lazy(() => import('./BulkActions'));

const figure = (n: number) => n.toLocaleString('en-US');

/** '3 selected', 'All 1,204 matching selected'. */
export const selectedWords = (s: Selection): string =>
  s.picked.kind === 'all' ? `All ${figure(s.picked.count)} matching selected` : s.count ? `${figure(s.count)} selected` : '';

export interface SelectionBarProps {
  selection: Selection;
  rows: readonly CustomerListItem[];
  /** The list's count, and whether it is exact (D26: a search of very many counts only so far). */
  total: number;
  exact: boolean;
  state: ListState;
}

export function SelectionBar({ selection, rows, total, exact, state }: SelectionBarProps) {
  const n = pickedCount(selection.picked);
  const wholePage = selection.picked.kind === 'ids' && rows.length > 0 && selection.pageState(rows) === 'all';
  const more = wholePage && exact && total > rows.length;
  return (
    <div className="bulk-bar" data-active={n > 0 || undefined}>
      <p role="status" className="bulk-count">
        {selectedWords(selection)}
      </p>
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
      {n > 0 && (
        <button type="button" className="btn btn-sm" onClick={selection.clear}>
          Clear selection
        </button>
      )}
      {n > 0 && (
        <Suspense fallback={null}>
          <BulkActions selection={selection} state={state} />
        </Suspense>
      )}
    </div>
  );
}
