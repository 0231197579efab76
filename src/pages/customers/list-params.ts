// The customers list keeps its search and page in the URL (?q=…&page=…), so a reload, a shared link
// and the Back button all return to the same list.
import { SEARCH_MAX_LENGTH } from '../../../contract/customers';

export interface ListParams {
  q: string;
  page: number;
}

const LIST_PATH = '/customers';

/** Reads the list's state from a query string; anything malformed falls back to no search, page 1. */
export function readListParams(search: string): ListParams {
  const params = new URLSearchParams(search);
  const q = (params.get('q') ?? '').trim().slice(0, SEARCH_MAX_LENGTH);
  const raw = params.get('page') ?? '';
  const page = /^[1-9]\d{0,5}$/.test(raw) ? Number(raw) : 1;
  return { q, page };
}

/** The list's URL; the defaults (no search, page 1) are left out so the plain link stays /customers. */
export function listHref({ q, page }: ListParams): string {
  const params = new URLSearchParams();
  if (q) params.set('q', q);
  if (page > 1) params.set('page', String(page));
  const search = params.toString();
  return search ? `${LIST_PATH}?${search}` : LIST_PATH;
}
