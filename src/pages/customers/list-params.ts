// D26: the customers list keeps its whole state in the URL (q, status, tag, D48's type and
// do_not_service=true, D32's created_since, D59's assigned, sort, page, page_size, view=deleted for D25's 'Deleted' view and view={id}
// for a D57 saved view), so a reload,
// Back and a shared link show the same list.
// Anything malformed in a URL falls back to its default instead of reaching the server.
import {
  CUSTOMER_SORTS,
  CUSTOMER_STATUSES,
  CUSTOMER_TYPES,
  DEFAULT_CUSTOMER_SORT,
  DEFAULT_PAGE_SIZE,
  PAGE_SIZES,
  SEARCH_MAX_LENGTH,
  SERVICE_SORTS,
  TAG_MAX_LENGTH,
  type CustomerSort,
  type CustomerStatus,
  type CustomerType,
} from '../../../contract/customers';
import { ASSIGNED_FILTER } from '../../../contract/assignment';
import type { CustomFilter, CustomSort } from '../../../contract/custom-list';
import type { CustomerExportParams, CustomerListParams } from '../../api/customers';
import { customApiParams, putCustomState, readCustomSort, readCustomState } from './custom-columns/custom-params';
import { PAGES } from '../../router/paths';

/** The URL's value of `view` for D25's 'Deleted' view. */
export const DELETED_VIEW = 'deleted';

export type PageSize = (typeof PAGE_SIZES)[number];

export interface ListState {
  q: string;
  status: CustomerStatus | '';
  tag: string;
  /** D48: one type, and only the customers flagged do-not-service. */
  type: CustomerType | '';
  doNotService: boolean;
  /** D32: added at or after this instant ('' for any time): the dashboard's 'View newest customers'. */
  createdSince: string;
  /** D59: 'me', 'none' or a member's user id ('' for anyone). */
  assigned: string;
  /** D56: or by a custom field (`cf.<key>`, `-cf.<key>`). */
  sort: CustomerSort | CustomSort;
  page: number;
  pageSize: PageSize;
  /** D25: the 'Deleted' view. */
  deleted: boolean;
  /** D56: conditions on custom fields, and the custom fields shown as columns (custom-columns/). */
  custom: CustomFilter[];
  columns: string[];
  /** D57: the saved view the list was opened from (`view={id}`), kept while the person changes things on top. */
  viewId?: number | null;
}

export const DEFAULT_LIST: ListState = {
  q: '',
  status: '',
  tag: '',
  type: '',
  doNotService: false,
  createdSince: '',
  assigned: '',
  sort: DEFAULT_CUSTOMER_SORT,
  page: 1,
  pageSize: DEFAULT_PAGE_SIZE,
  deleted: false,
  custom: [],
  columns: [],
};

/** D26 D48: every sort the list offers. */
export const LIST_SORTS: readonly CustomerSort[] = [...CUSTOMER_SORTS, ...SERVICE_SORTS];

/** D32: an instant as the server reads it (toISOString's form), '' for none or one that is not a date. */
const instant = (v: string | null) => {
  const iso = v && !Number.isNaN(Date.parse(v)) ? new Date(v).toISOString() : '';
  return iso.length === 24 ? iso : '';
};

const oneOf = <T extends string | number>(options: readonly T[], value: unknown): T | undefined => options.find((o) => String(o) === value);

/** D57: the saved view a query string names (`view={id}`), or null. */
export function viewIdOf(search: string): number | null {
  const v = new URLSearchParams(search).get('view') ?? '';
  return /^[1-9]\d{0,9}$/.test(v) ? Number(v) : null;
}

/** Reads the list's state from a query string. */
export function readListParams(search: string): ListState {
  const p = new URLSearchParams(search);
  const text = (name: string, max: number) => (p.get(name) ?? '').trim().slice(0, max);
  const page = p.get('page') ?? '';
  return {
    q: text('q', SEARCH_MAX_LENGTH),
    status: oneOf(CUSTOMER_STATUSES, p.get('status')) ?? '',
    tag: text('tag', TAG_MAX_LENGTH),
    type: oneOf(CUSTOMER_TYPES, p.get('type')) ?? '',
    doNotService: p.get('do_not_service') === 'true',
    createdSince: instant(p.get('created_since')),
    assigned: ASSIGNED_FILTER.test(p.get('assigned') ?? '') ? p.get('assigned')! : '',
    sort: oneOf(LIST_SORTS, p.get('sort')) ?? readCustomSort(p.get('sort')) ?? DEFAULT_CUSTOMER_SORT,
    page: /^[1-9]\d{0,5}$/.test(page) ? Number(page) : 1,
    pageSize: oneOf(PAGE_SIZES, p.get('page_size')) ?? DEFAULT_PAGE_SIZE,
    deleted: p.get('view') === DELETED_VIEW,
    ...readCustomState(p),
    ...(viewIdOf(search) === null ? {} : { viewId: viewIdOf(search) }),
  };
}

/** The list's URL; defaults are left out, so the plain list stays /customers. */
export function listHref(state: ListState): string {
  const p = new URLSearchParams();
  const put = (name: string, value: string | number, fallback: string | number) => value !== fallback && p.set(name, String(value));
  put('q', state.q, DEFAULT_LIST.q);
  put('status', state.status, DEFAULT_LIST.status);
  put('tag', state.tag, DEFAULT_LIST.tag);
  put('type', state.type, DEFAULT_LIST.type);
  if (state.doNotService) p.set('do_not_service', 'true');
  put('created_since', state.createdSince, '');
  put('assigned', state.assigned ?? '', ''); // D59
  put('sort', state.sort, DEFAULT_LIST.sort);
  put('page', state.page, DEFAULT_LIST.page);
  put('page_size', state.pageSize, DEFAULT_LIST.pageSize);
  if (state.deleted) p.set('view', DELETED_VIEW);
  else if (state.viewId) p.set('view', String(state.viewId));
  putCustomState(p, state);
  const search = p.toString();
  return search ? `${PAGES.customers}?${search}` : PAGES.customers;
}

/** True when a search or filter narrows the list (an empty answer then means "no match", not "none yet"). */
export const isFiltered = (s: ListState): boolean => Boolean(s.q || s.status || s.tag || s.type || s.doNotService || s.createdSince || s.assigned || s.custom.length);

/** The list with no search and no filter (Clear filters). */
export const NO_FILTERS = {
  q: '',
  status: '',
  tag: '',
  type: '',
  doNotService: false,
  createdSince: '',
  assigned: '',
  custom: [] as CustomFilter[],
} as const satisfies Partial<ListState>;

/** The export's parameters: the list as filtered and sorted, without paging (D27). */
export const exportParams = (s: ListState): CustomerExportParams => ({
  q: s.q || undefined,
  status: s.status || undefined,
  tag: s.tag || undefined,
  type: s.type || undefined,
  do_not_service: s.doNotService || undefined,
  created_since: s.createdSince || undefined,
  assigned: s.assigned || undefined,
  sort: s.sort,
  ...customApiParams(s.custom),
});

/** What GET /v1/customers/ is asked. The 'Deleted' view is newest deleted first and only paged (D25). */
export const apiParams = (s: ListState): CustomerListParams =>
  s.deleted ? { deleted: true, page: s.page, page_size: s.pageSize } : { ...exportParams(s), page: s.page, page_size: s.pageSize };
