// GET /v1/customers/ as the screens use it: types, cache keys and the call. Shared by the customers
// list and the dashboard's summary card (pages never import each other).
import type { Client } from '../http/client';

export interface Customer {
  id: number;
  name: string;
  email: string | null;
  phone: string | null;
  address: string | null;
}

export interface CustomerPage {
  count: number;
  results: Customer[];
}

export const CUSTOMERS_PATH = '/v1/customers/';
export const CUSTOMER_PAGE_SIZE = 25;
/** The server refuses a longer q (400). */
export const SEARCH_MAX_LENGTH = 100;
/** Every customers query key starts with this, so a write can invalidate them all. */
export const CUSTOMERS_KEY_PREFIX = 'customers:';

export interface CustomerListParams {
  /** D21: the organization this tab shows; part of the key so two organizations never share an entry. */
  orgId: number | null;
  q: string;
  page: number;
  pageSize: number;
}

export const customersKey = ({ orgId, q, page, pageSize }: CustomerListParams): string =>
  `${CUSTOMERS_KEY_PREFIX}${orgId ?? '-'}:${JSON.stringify([q, page, pageSize])}`;

export function customersPath({ q, page, pageSize }: Omit<CustomerListParams, 'orgId'>): string {
  const search = new URLSearchParams();
  if (q) search.set('q', q);
  search.set('page', String(page));
  search.set('page_size', String(pageSize));
  return `${CUSTOMERS_PATH}?${search.toString()}`;
}

const isCustomer = (v: unknown): v is Customer =>
  typeof v === 'object' && v !== null && typeof (v as Customer).id === 'number' && typeof (v as Customer).name === 'string';

/** An answer of another shape is an error here, not a crash in a table later. */
function parseCustomerPage(data: unknown): CustomerPage {
  const d = data as Partial<CustomerPage> | null;
  if (!d || typeof d.count !== 'number' || !Array.isArray(d.results) || !d.results.every(isCustomer)) {
    throw new TypeError('Unexpected answer from the customers list');
  }
  return { count: d.count, results: d.results };
}

/** One page of the current organization's customers (the client adds X-Organization-ID). */
export async function fetchCustomers(client: Pick<Client, 'get'>, params: Omit<CustomerListParams, 'orgId'>, signal: AbortSignal): Promise<CustomerPage> {
  return parseCustomerPage(await client.get<unknown>(customersPath(params), { signal }));
}

export const pageCount = (count: number, pageSize: number): number => Math.max(1, Math.ceil(count / pageSize));
