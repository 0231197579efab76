// D58: the list's checkboxes: one per row named after its customer ('Select Ann Lee'), and one in the
// header for the page (mixed while only some of its rows are picked); above the table the live count
// ('3 selected'), beside which the rest of the bar and the actions load once something is selected.
import { lazy, Suspense, useLayoutEffect, useRef } from 'react';
import type { CustomerListItem } from '../../../../contract/customers';
import type { SelectionBarProps } from './SelectionBar';
import type { Selection } from './selection';

const SelectionBar = lazy(() => import('./SelectionBar'));

export const PAGE_CHECKBOX_LABEL = 'Select every customer on this page';
/** The page's checkbox, where the focus goes when what had it leaves with the selection (an action done, Clear selection). */
const PAGE_CHECKBOX_ID = 'bulk-page-checkbox';

/** '3 selected', 'All 1,204 matching selected'. */
export const selectedWords = (s: Selection): string =>
  s.picked.kind === 'all' ? `All ${s.picked.count.toLocaleString('en-US')} matching selected` : s.count ? `${s.count.toLocaleString('en-US')} selected` : '';

export function SelectionArea(props: SelectionBarProps) {
  const n = props.selection.count;
  const had = useRef(n);
  useLayoutEffect(() => {
    if (had.current > 0 && n === 0 && (document.activeElement === document.body || !document.activeElement)) document.getElementById(PAGE_CHECKBOX_ID)?.focus();
    had.current = n;
  }, [n]);
  return (
    <div className="bulk-bar" data-active={n > 0 || undefined}>
      <p role="status" className="bulk-count">
        {selectedWords(props.selection)}
      </p>
      {n > 0 && (
        <Suspense fallback={null}>
          <SelectionBar {...props} />
        </Suspense>
      )}
    </div>
  );
}

export function PickHeader({ selection, rows }: { selection: Selection; rows: readonly CustomerListItem[] }) {
  const ref = useRef<HTMLInputElement>(null);
  const state = selection.pageState(rows);
  useLayoutEffect(() => {
    if (ref.current) ref.current.indeterminate = state === 'some';
  });
  return (
    <th scope="col" className="col-pick">
      {/* Its words are out of sight beside the table's checkboxes, and shown at phone width, where it is alone above the cards. */}
      <label className="pick-page">
        <input ref={ref} id={PAGE_CHECKBOX_ID} type="checkbox" checked={state === 'all'} onChange={(e) => selection.togglePage(rows, e.target.checked)} />
        <span className="pick-page-words">{PAGE_CHECKBOX_LABEL}</span>
      </label>
    </th>
  );
}

export function PickCell({ selection, row, rows }: { selection: Selection; row: CustomerListItem; rows: readonly CustomerListItem[] }) {
  return (
    <td className="col-pick">
      <input
        type="checkbox"
        aria-label={`Select ${row.name}`}
        checked={selection.has(row.id)}
        // Shift with the click (or Space) picks or unpicks the rows from the last one toggled to this one.
        onChange={(e) => selection.toggle(row, e.target.checked, rows, (e.nativeEvent as MouseEvent).shiftKey === true)}
      />
    </td>
  );
}
