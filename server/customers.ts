// GET /v1/customers/: one page of the customers of the organization the request names (D9), with an
// optional search. The same SQL runs on PGlite and PostgreSQL (D2).
import { requireOrgPermission } from './auth/access';
import { authenticate } from './auth/authenticate';
import type { Handler } from './context';
import { num } from './db';
import { fieldError, sendJson } from './http';

export const CUSTOMERS_VIEW = 'customers:view'; // D10
export const SEARCH_MAX_LENGTH = 100;
export const DEFAULT_PAGE_SIZE = 25;
export const MAX_PAGE_SIZE = 100;
/** Far past any real list; keeps OFFSET a sane number. */
export const MAX_PAGE = 1_000_000;

export interface CustomerRow {
  id: number;
  name: string;
  email: string | null;
  phone: string | null;
  address: string | null;
}

export interface ListQuery {
  q: string | null;
  page: number;
  pageSize: number;
}

const CONTROL_CHARS = /[\u0000-\u001f\u007f]/;
/** Text that is only a phone number's characters: searched by its digits too ('5550107' finds '(503) 555-0107'). */
const PHONE_LIKE = /^[\d\s().+-]*\d[\d\s().+-]*$/;

function single(params: URLSearchParams, name: string): string | null {
  const all = params.getAll(name);
  if (all.length > 1) throw fieldError(name, 'must be given once');
  return all[0] ?? null;
}

function intParam(params: URLSearchParams, name: string, min: number, max: number, fallback: number): number {
  const raw = single(params, name);
  if (raw === null) return fallback;
  const n = /^\d{1,10}$/.test(raw) ? Number(raw) : NaN;
  if (!(n >= min && n <= max)) throw fieldError(name, `must be an integer from ${min} to ${max}`);
  return n;
}

/** D19: the query string, checked; each bad value is a 400 naming its parameter. Unknown parameters are ignored. */
export function parseListQuery(rawUrl: string | undefined): ListQuery {
  const search = (rawUrl ?? '').split('#', 1)[0]?.split('?').slice(1).join('?') ?? '';
  const params = new URLSearchParams(search);
  const rawQ = single(params, 'q');
  const q = rawQ?.trim() ?? '';
  if (q.length > SEARCH_MAX_LENGTH) throw fieldError('q', `must be at most ${SEARCH_MAX_LENGTH} characters`);
  // PostgreSQL text cannot hold NUL; the others have no place in a search either.
  if (CONTROL_CHARS.test(q)) throw fieldError('q', 'must not contain control characters');
  return {
    q: q === '' ? null : q,
    page: intParam(params, 'page', 1, MAX_PAGE, 1),
    pageSize: intParam(params, 'page_size', 1, MAX_PAGE_SIZE, DEFAULT_PAGE_SIZE),
  };
}

/** A LIKE pattern matching `text` anywhere, with LIKE's own characters taken literally. */
export const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, '\\$&')}%`;

// $1 org, $2 pattern or null, $3 digits pattern or null. Case-insensitive over name, email and phone.
const MATCHES = `org_id = $1
  and ($2::text is null or name ilike $2 or email ilike $2 or phone ilike $2
       or ($3::text is not null and regexp_replace(coalesce(phone, ''), '[^0-9]', '', 'g') like $3))`;

export const listCustomers: Handler = async (req, res, ctx) => {
  // Order matters: a dead session is a 401 before anything else, so the client's refresh runs (SPEC §7).
  const { userId } = await authenticate(req, ctx);
  const { orgId } = await requireOrgPermission(req, ctx, userId, CUSTOMERS_VIEW);
  const { q, page, pageSize } = parseListQuery(req.url);
  const digits = q !== null && PHONE_LIKE.test(q) ? containsPattern(q.replace(/\D/g, '')) : null;
  const filter = [orgId, q === null ? null : containsPattern(q), digits];
  // Sorted by name (case-insensitively) then id, so pages never overlap; index from migration 3.
  const rows = await ctx.db.query<{ id: unknown; name: string; email: string | null; phone: string | null; address: string | null; total: unknown }>(
    `select id, name, email, phone, address, count(*) over () as total
       from customers
      where ${MATCHES}
      order by lower(name), id
      limit $4 offset $5`,
    [...filter, pageSize, (page - 1) * pageSize],
  );
  let count = rows.length ? num(rows[0]?.total) : 0;
  if (!rows.length && page > 1) {
    // Past the last page: no row carried the total.
    const [row] = await ctx.db.query<{ n: unknown }>(`select count(*) as n from customers where ${MATCHES}`, filter);
    count = num(row?.n ?? 0);
  }
  const results: CustomerRow[] = rows.map((r) => ({ id: num(r.id), name: r.name, email: r.email, phone: r.phone, address: r.address }));
  sendJson(res, 200, { count, results });
};
