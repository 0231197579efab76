// D57: a saved view is the list's URL parameters (what the list reads: filters, custom fields, sort, page
// size), less the page and the view itself, and its columns (the URL's `columns=units,gate_code`, kept as
// `cf.units`, …); opening one puts them back into the URL with `view={id}`.
import { VIEW_CUSTOM_PARAM, VIEW_LIST_PARAMS, type SavedView } from '../../../../contract/views';
import { PAGES } from '../../../router/paths';

const KEPT: readonly string[] = VIEW_LIST_PARAMS;

/** The parameters of a list URL's query string that a view keeps. */
export function viewParams(search: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of new URLSearchParams(search)) if (KEPT.includes(k) || VIEW_CUSTOM_PARAM.test(k)) out[k] = v;
  return out;
}

/** The list URL's parameter of custom columns (custom-columns/custom-params.ts reads it for the list, loaded with the columns). */
const COLUMNS_PARAM = 'columns';

/** The custom columns a list URL shows, as a view keeps them (`cf.<key>`, in the order chosen). */
export const viewColumns = (search: string) => [
  ...new Set(
    (new URLSearchParams(search).get(COLUMNS_PARAM) ?? '')
      .split(',')
      .filter((k) => !k.includes('.') && VIEW_CUSTOM_PARAM.test(`cf.${k}`))
      .map((k) => `cf.${k}`),
  ),
];

/** A view's custom columns (`cf.<key>`); other column ids are not the list's. */
const customColumns = (v: Pick<SavedView, 'columns'>) => v.columns.filter((c) => c.startsWith('cf.'));

/** A view's custom columns as the list's URL writes them (`units,gate_code`). */
const columnsParam = (v: Pick<SavedView, 'columns'>) =>
  customColumns(v)
    .map((c) => c.slice(3))
    .join(',');

/** The list's URL of a view: its parameters, its columns and `view={id}`. */
export function viewHref(v: Pick<SavedView, 'id' | 'params' | 'columns'>): string {
  const p = new URLSearchParams(v.params);
  const columns = columnsParam(v);
  if (columns) p.set(COLUMNS_PARAM, columns);
  p.set('view', String(v.id));
  return `${PAGES.customers}?${p}`;
}

/** Whether the list as it is now differs from the view it was opened from (the person changed something on top). */
export const changedFrom = (v: Pick<SavedView, 'params' | 'columns'>, search: string) => {
  const now = viewParams(search);
  const keys = new Set([...Object.keys(now), ...Object.keys(v.params)]);
  return [...keys].some((k) => now[k] !== v.params[k]) || viewColumns(search).join(',') !== customColumns(v).join(',');
};

/** Whether a list URL names nothing a view keeps (a pasted `/customers?view=12`). */
export const namesNothing = (search: string) => Object.keys(viewParams(search)).length === 0 && viewColumns(search).length === 0;

/** D57 D59: what a view names that is gone, in words ('Tank size (archived)', 'a deleted field', 'a removed member'). */
export const leftOutWords = (v: Pick<SavedView, 'left_out'>) =>
  [...new Set(v.left_out.map((l) => (l.reason === 'member_removed' ? 'a removed member' : l.label ? `${l.label} (archived)` : 'a deleted field')))].join(', ');

/** The list's URL as it is, without `view`: for a view that is gone. */
export function withoutView(search: string): string {
  const p = new URLSearchParams(search);
  p.delete('view');
  const rest = p.toString();
  return rest ? `${PAGES.customers}?${rest}` : PAGES.customers;
}
