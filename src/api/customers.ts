// Every customers call the screens make, with its cache key (STYLE "Forms and data in the app"):
// reads are QueryDefs, writes are MutationDefs that name the keys they make stale. Keys are arrays
// under ['customers', orgId], so one prefix covers a whole organization's customer data (D21).
// Shapes and limits come from the shared contract; pages never import each other, so the list, the
// dashboard and the customer pages all meet here.
import { useMemo } from 'react';
import type {
  Customer,
  CustomerInput,
  CustomerListItem,
  CustomerServiceInput,
  CustomerSort,
  CustomerStatus,
  CustomerType,
  DashboardData,
  DuplicateMatch,
  ImportDuplicateMode,
  ImportPreview,
  ImportResult,
  Note,
  Page,
  TimelineItem,
} from '../../contract/customers';
import type { CustomValue } from '../../contract/custom-fields';
import type { CustomSort } from '../../contract/custom-list';
import type { Client } from '../http/client';
import type { MappingParams } from './import-mapping';
import type { MutationDef, QueryDef, QueryKey } from '../query/cache';
import { useSession, useSessionActions } from '../session/use-session';

export const CUSTOMERS_PATH = '/v1/customers/';
export const DASHBOARD_PATH = '/v1/dashboard/';
export const EXPORT_PATH = `${CUSTOMERS_PATH}export.csv`;
export const IMPORT_PREVIEW_PATH = `${CUSTOMERS_PATH}import/preview/`;
export const IMPORT_PATH = `${CUSTOMERS_PATH}import/`;
/** D27: the MIME type an import is sent with. */
export const CSV_TYPE = 'text/csv';
/** D27: the byte-order mark that tells spreadsheets the file is UTF-8. */
const BOM = '\uFEFF';

/** GET /v1/customers/ (D26): filters, sort and paging, named as the server names them. */
export interface CustomerListParams {
  q?: string;
  status?: CustomerStatus;
  tag?: string;
  /** D56: or `cf.<key>`, `-cf.<key>`. */
  sort?: CustomerSort | CustomSort;
  /** D56: conditions on custom fields (contract/custom-list.ts). */
  [condition: `cf.${string}`]: string;
  page?: number;
  page_size?: number;
  /** D48: one type, and only the customers flagged do-not-service. */
  type?: CustomerType;
  do_not_service?: boolean;
  /** D32: added at or after this instant. */
  created_since?: string;
  assigned?: string; // D59: 'me', 'none' or a member's user id (contract ASSIGNED_FILTER)
  /** D25: the 'Deleted' view (customers:delete), newest deleted first. */
  deleted?: boolean;
}

/** What the export writes: the list's filters, without paging (D27). */
export type CustomerExportParams = Pick<CustomerListParams, 'q' | 'status' | 'tag' | 'type' | 'do_not_service' | 'created_since' | 'assigned' | 'sort'> &
  Record<`cf.${string}`, string> & { ids?: string }; // D58 ids: only the customers picked, separated by commas

/** D22 D48: what a person writes on a customer (a POST's body; a PATCH's changes are any part of it). D56: custom values, null clears one. */
export type CustomerBody = CustomerInput & CustomerServiceInput & { custom?: Record<string, CustomValue | null>; assigned_to?: number | null };

export interface PageParams {
  page?: number;
  page_size?: number;
}

export interface DuplicateQuery {
  email?: string;
  phone?: string;
  /** D23: the same name, case and accents folded. */
  name?: string;
  /** The customer being edited, who is not a duplicate of themselves. */
  exclude?: number;
}

/** PATCH /v1/customers/{id}/: the changed fields and the version they were based on (D31). */
export interface CustomerUpdate {
  changes: Partial<CustomerBody>;
  version: number;
}

/** The cache keys; every one starts with ['customers', orgId] except the dashboard's. */
/** D25: a window event (detail: the customer's id) that a restore from the 'Deleted' view sends, so the
 * customer's delete toast, whose Undo would now be a lie, goes (one restore, one toast). */
export const CUSTOMER_RESTORED_EVENT = 'customerRestored';

export const customerKeys = {
  all: (orgId: number | null): QueryKey => ['customers', orgId],
  list: (orgId: number | null, params?: CustomerListParams): QueryKey => ['customers', orgId, 'list', ...(params ? [params] : [])], // D59 no params: every page
  /** A customer and everything under it (notes, timeline). */
  detail: (orgId: number | null, id: number): QueryKey => ['customers', orgId, 'detail', id],
  notes: (orgId: number | null, id: number, params: PageParams): QueryKey => ['customers', orgId, 'detail', id, 'notes', params],
  timeline: (orgId: number | null, id: number, params: PageParams): QueryKey => ['customers', orgId, 'detail', id, 'timeline', params],
  duplicates: (orgId: number | null, query: DuplicateQuery): QueryKey => ['customers', orgId, 'duplicates', query],
  /** D45: the organization's tags containing `q`, for the tag filter. */
  tags: (orgId: number | null, q: string): QueryKey => ['customers', orgId, 'tags', q],
  /** D48: the organization's earlier lead sources containing `q`, for the form. */
  leadSources: (orgId: number | null, q: string): QueryKey => ['customers', orgId, 'lead-sources', q],
  dashboard: (orgId: number | null): QueryKey => ['dashboard', orgId],
};

/** A query string of the given parameters, leaving out empty ones (undefined, '', false). */
export function queryString(params: object): string {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '' && v !== false) search.set(k, String(v));
  const s = search.toString();
  return s ? `?${s}` : '';
}

export const listPath = (params: CustomerListParams): string => CUSTOMERS_PATH + queryString(params);
/** D27: the export of the list as filtered (the client adds the API base). */
export const exportPath = (params: CustomerExportParams): string => EXPORT_PATH + queryString(params);
const customerPath = (id: number) => `${CUSTOMERS_PATH}${id}/`;

/** An answer of another shape is an error here, not a crash in a table later. */
export function parsePage<T>(data: unknown): Page<T> {
  const d = data as Partial<Page<T>> | null;
  if (!d || typeof d.count !== 'number' || !Array.isArray(d.results)) throw new TypeError('Unexpected answer from the server');
  return d as Page<T>; // with D26's count_exact: false when the count is 'more than'
}

/** What the calls need: the session's client and the organization this tab shows (D21). */
export interface ApiContext {
  client: Pick<Client, 'get' | 'post' | 'patch' | 'delete'>;
  orgId: number | null;
}

/** The customers calls of one organization. */
export function customersApi({ client, orgId }: ApiContext) {
  /** Any write to a customer changes lists, the record, its timeline and the dashboard's figures. */
  const written = [customerKeys.all(orgId), customerKeys.dashboard(orgId)];
  /** A note changes the customer's notes and timeline, and the dashboard's latest activity. */
  const noted = (id: number) => [customerKeys.detail(orgId, id), customerKeys.dashboard(orgId)];
  const csvFile = (file: Blob) => new Blob([file], { type: CSV_TYPE });
  /** A suggestions answer `{results: [text, …]}`; anything else in it is left out. */
  const strings = async (path: string, signal: AbortSignal) => {
    const d = await client.get<{ results?: unknown }>(path, { signal });
    return { results: Array.isArray(d?.results) ? d.results.filter((t): t is string => typeof t === 'string') : [] };
  };

  return {
    list: (params: CustomerListParams): QueryDef<Page<CustomerListItem>> => ({
      key: customerKeys.list(orgId, params),
      fetch: async (signal) => parsePage<CustomerListItem>(await client.get(listPath(params), { signal })),
    }),
    get: (id: number): QueryDef<Customer> => ({
      key: customerKeys.detail(orgId, id),
      fetch: (signal) => client.get<Customer>(customerPath(id), { signal }),
    }),
    duplicates: (query: DuplicateQuery): QueryDef<{ results: DuplicateMatch[] }> => ({
      key: customerKeys.duplicates(orgId, query),
      fetch: (signal) => client.get(`${CUSTOMERS_PATH}duplicates/${queryString(query)}`, { signal }),
    }),
    /** D45: GET /v1/customers/tags/: the organization's tags containing `q`, most used first. */
    tags: (q: string): QueryDef<{ results: string[] }> => ({
      key: customerKeys.tags(orgId, q),
      fetch: (signal) => strings(`${CUSTOMERS_PATH}tags/${queryString({ q })}`, signal),
    }),
    /** D48: GET /v1/customers/lead-sources/: the organization's sources containing `q`, most used first. */
    leadSources: (q: string): QueryDef<{ results: string[] }> => ({
      key: customerKeys.leadSources(orgId, q),
      fetch: (signal) => strings(`${CUSTOMERS_PATH}lead-sources/${queryString({ q })}`, signal),
    }),
    notes: (id: number, params: PageParams = {}): QueryDef<Page<Note>> => ({
      key: customerKeys.notes(orgId, id, params),
      fetch: async (signal) => parsePage<Note>(await client.get(`${customerPath(id)}notes/${queryString(params)}`, { signal })),
    }),
    timeline: (id: number, params: PageParams = {}): QueryDef<Page<TimelineItem>> => ({
      key: customerKeys.timeline(orgId, id, params),
      fetch: async (signal) => parsePage<TimelineItem>(await client.get(`${customerPath(id)}timeline/${queryString(params)}`, { signal })),
    }),
    dashboard: (): QueryDef<DashboardData> => ({
      key: customerKeys.dashboard(orgId),
      fetch: (signal) => client.get<DashboardData>(DASHBOARD_PATH, { signal }),
    }),

    /** POST: 201 Customer; D23 409 duplicate_email names the existing customer. D59: no assignee is left out (the server's: none, or a scoped member's own). */
    create: {
      run: (input: Partial<CustomerBody>) => client.post<Customer>(CUSTOMERS_PATH, { ...input, assigned_to: input.assigned_to || undefined }),
      invalidates: written,
    } satisfies MutationDef<Partial<CustomerBody>, Customer>,
    /** PATCH with the version (D31: a stale one is a 409 conflict carrying the current record). */
    update: (id: number): MutationDef<CustomerUpdate, Customer> => ({
      run: ({ changes, version }) => client.patch<Customer>(customerPath(id), { ...changes, version }),
      invalidates: written,
    }),
    /** D25: a soft delete (204). */
    remove: { run: (id: number) => client.delete<null>(customerPath(id)), invalidates: written } satisfies MutationDef<number, null>,
    /** D25: back from the 'Deleted' view; 409 duplicate_email when its email now belongs to another. */
    restore: { run: (id: number) => client.post<Customer>(`${customerPath(id)}restore/`), invalidates: written } satisfies MutationDef<number, Customer>,

    addNote: (id: number): MutationDef<string, Note> => ({
      run: (body) => client.post<Note>(`${customerPath(id)}notes/`, { body }),
      invalidates: noted(id),
    }),
    editNote: (id: number): MutationDef<{ noteId: number; body: string }, Note> => ({
      run: ({ noteId, body }) => client.patch<Note>(`${customerPath(id)}notes/${noteId}/`, { body }),
      invalidates: noted(id),
    }),
    deleteNote: (id: number): MutationDef<number, null> => ({
      run: (noteId) => client.delete<null>(`${customerPath(id)}notes/${noteId}/`),
      invalidates: noted(id),
    }),

    /**
     * D27: the filtered list as CSV, fetched (the client adds the bearer token only to its own calls, so
     * a plain link would go unauthenticated). The server starts the file with a BOM so spreadsheets read
     * UTF-8; reading the answer as text usually drops it, so the file gets exactly one again.
     */
    exportCsv: async (params: CustomerExportParams): Promise<Blob> => {
      const text = await client.get<string | null>(exportPath(params), { headers: { Accept: CSV_TYPE } });
      return new Blob([BOM, String(text ?? '').replace(/^\uFEFF/, '')], { type: CSV_TYPE });
    },
    /** D27: each row's errors and duplicates; nothing is written. D43: the file's own bytes (the server reads its encoding). */
    /** D60: with `mapping` (mappingParams), the columns' targets and the grouping the person chose. */
    previewImport: (file: Blob, mapping?: MappingParams) => client.post<ImportPreview>(IMPORT_PREVIEW_PATH + queryString(mapping ?? {}), csvFile(file)),
    /** D27: all rows or none; a 400 import_invalid carries the rows with errors. D44: `previewedAt` as the preview gave it. */
    commitImport: {
      run: ({ file, onDuplicate, previewedAt, mapping }: ImportCommit) =>
        client.post<ImportResult>(IMPORT_PATH + queryString({ on_duplicate: onDuplicate, previewed_at: previewedAt ?? undefined, ...mapping }), csvFile(file)),
      invalidates: written,
    } satisfies MutationDef<ImportCommit, ImportResult>,
  };
}

export type CustomersApi = ReturnType<typeof customersApi>;

/** D27 D44: the file previewed, what to do with duplicates, and when it was previewed. */
export interface ImportCommit {
  file: Blob;
  onDuplicate: ImportDuplicateMode;
  previewedAt: string | null;
  /** D60: the mapping the preview showed (mappingParams), sent back so the import reads the file the same way. */
  mapping?: MappingParams;
}

/** The customers calls of the organization this tab shows, for a screen. */
export function useCustomersApi(): CustomersApi & { orgId: number | null } {
  const { client } = useSessionActions();
  const orgId = useSession().currentOrg?.id ?? null;
  return useMemo(() => ({ ...customersApi({ client, orgId }), orgId }), [client, orgId]);
}
