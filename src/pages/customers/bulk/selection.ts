// D58: the customers list's selection: rows picked (on any page of the same filters), or 'all N matching'
// the filters, with the count the person saw (the server acts only if it still holds). Changing a filter
// clears it. Loaded with the list: the checkboxes are part of its first paint; the actions are not.
import { useRef, useState } from 'react';
import type { BulkSelection } from '../../../../contract/bulk';
import type { CustomerListItem } from '../../../../contract/customers';
import { type CustomerExportParams, queryString } from '../../../api/customers';
import { useCan } from '../../../session/use-session';
import { exportParams, type ListState } from '../list-params';

export type Picked = { kind: 'ids'; ids: ReadonlyMap<number, string> } | { kind: 'all'; count: number };

const NONE: Picked = { kind: 'ids', ids: new Map() };

/** The list's filters as the server reads them (D26), without sort and paging: what 'all matching' means. */
export const filterOf = (s: ListState): string => queryString({ ...exportParams(s), sort: undefined }).replace(/^\?/, '');

export const pickedCount = (p: Picked): number => (p.kind === 'all' ? p.count : p.ids.size);

/** D9: the list offers selection only to who may do something with it. */
export function useMayPick(): { update: boolean; remove: boolean; export: boolean; any: boolean } {
  const can = { update: useCan('customers:update'), remove: useCan('customers:delete'), export: useCan('customers:export') };
  return { ...can, any: can.update || can.remove || can.export };
}

export interface Selection {
  picked: Picked;
  /** The list's filters as the server reads them, and its export's query (the actions' code needs neither module). */
  filter: string;
  exportQuery: CustomerExportParams;
  count: number;
  /** What the bulk calls are sent: the ids picked, or the filter with the count the person confirmed. */
  body: () => BulkSelection;
  has: (id: number) => boolean;
  /** 'all', 'some' or 'none' of these rows picked (the header checkbox). */
  pageState: (rows: readonly CustomerListItem[]) => 'all' | 'some' | 'none';
  /** One row; with `range` (Shift held), every row of the page from the last one toggled to this one, as this one. */
  toggle: (row: CustomerListItem, on: boolean, page: readonly CustomerListItem[], range?: boolean) => void;
  togglePage: (rows: readonly CustomerListItem[], on: boolean) => void;
  selectAll: (count: number) => void;
  /** D58: keeps, of the rows picked, only these (the ones a 409 says are still there). */
  keep: (ids: readonly number[]) => void;
  clear: () => void;
}

export function useSelection(state: ListState): Selection {
  const filter = filterOf(state);
  const [held, setHeld] = useState<{ filter: string; picked: Picked }>({ filter, picked: NONE });
  // Other filters: the selection goes with the old ones (set while rendering, so no frame shows it).
  if (held.filter !== filter) setHeld({ filter, picked: NONE });
  const picked = held.filter === filter ? held.picked : NONE;
  const set = (p: Picked) => setHeld({ filter, picked: p });
  const anchor = useRef<number | null>(null); // the row last toggled, where a Shift range starts
  const has = (id: number) => picked.kind === 'all' || picked.ids.has(id);
  const ids = (rows: readonly CustomerListItem[]) => new Map(rows.map((r) => [r.id, r.name]));
  return {
    picked,
    filter,
    exportQuery: exportParams(state),
    count: pickedCount(picked),
    body: () => (picked.kind === 'all' ? { filter, count: picked.count } : { ids: [...picked.ids.keys()] }),
    has,
    pageState: (rows) => {
      const n = rows.filter((r) => has(r.id)).length;
      return n === 0 ? 'none' : n === rows.length ? 'all' : 'some';
    },
    toggle: (row, on, page, range = false) => {
      // Unpicking one of 'all matching' leaves this page's others picked.
      const next = new Map(picked.kind === 'all' ? ids(page) : picked.ids);
      const [from, to] = [range ? page.findIndex((r) => r.id === anchor.current) : -1, page.findIndex((r) => r.id === row.id)];
      const rows = from >= 0 && to >= 0 ? page.slice(Math.min(from, to), Math.max(from, to) + 1) : [row];
      for (const r of rows) on ? next.set(r.id, r.name) : next.delete(r.id);
      anchor.current = row.id;
      set({ kind: 'ids', ids: next });
    },
    togglePage: (rows, on) => {
      const next = new Map(picked.kind === 'all' ? [] : picked.ids);
      for (const r of rows) on ? next.set(r.id, r.name) : next.delete(r.id);
      set({ kind: 'ids', ids: next });
    },
    selectAll: (count) => set({ kind: 'all', count }),
    keep: (still) => set({ kind: 'ids', ids: new Map(picked.kind === 'ids' ? [...picked.ids].filter(([id]) => still.includes(id)) : []) }),
    clear: () => set(NONE),
  };
}
