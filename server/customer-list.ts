// D26 D45: the customers list (filter, search, sort, page), shared by the customers feature (its list and
// export) and the dashboard (recently updated). SQL over the indexed columns of migrations 4 and 8
// (name_key, search_key, phone_digits, phone_tail, tag_keys), every query scoped by organization.
import type { CustomerListItem, CustomerSort, CustomerStatus } from '../contract/customers';
import { fold, phoneDigits, PHONE_MATCH_DIGITS } from '../contract/matching';
import type { Queryable } from './db';
import { num } from './db';

/** Text that is only a phone number's characters: searched by its digits ('5550107' finds '(503) 555-0107'). */
const PHONE_LIKE = /^[\d\s().+-]*\d[\d\s().+-]*$/;
/** Digit searches shorter than this match too much to be worth it ('5' is in most numbers). */
const MIN_PHONE_DIGITS = 3;

/** A LIKE pattern matching `text` anywhere, with LIKE's own characters taken literally. */
export const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, '\\$&')}%`;

/** Searches shorter than this match name beginnings only: a trigram index needs three characters. */
export const MIN_FRAGMENT = 3;

/**
 * D26 D45: three or more characters are found anywhere in the customer's folded text (name, company, email
 * and every address field, lower case and without accents: one trigram-indexed column) or, when the search
 * looks like a phone number, in the number's digits however it was written; a number given with a country
 * code also finds it stored without one (the stored digits end the searched ones). One or two characters
 * find names that begin with them (behaviour.md). D46/D47 locations and contacts join by customer id.
 */
export function searchClause(q: string, add: (v: string) => string, unindexed: string): string {
  const lower = q.toLowerCase();
  const folded = fold(q);
  // Folding can shorten a search (accents typed as separate marks): under three characters a trigram
  // index cannot serve it, so it is a name prefix too rather than a reading of every row.
  if ([...folded].length < MIN_FRAGMENT) return namePrefix([...lower].length < MIN_FRAGMENT ? lower : folded, add);
  const byText = `(search_key${unindexed}) like ${add(containsPattern(folded))}`;
  const digits = phoneDigits(q);
  if (!PHONE_LIKE.test(q) || digits.length < MIN_PHONE_DIGITS) return byText;
  const parts = [byText, `(phone_digits${unindexed}) like ${add(containsPattern(digits))}`];
  // Digits only, so no LIKE character can be in them.
  if (digits.length > PHONE_MATCH_DIGITS) parts.push(`(phone_tail${unindexed} = ${add(digits.slice(-PHONE_MATCH_DIGITS))} and ${add(digits)} like '%' || phone_digits)`);
  return `(${parts.join(' or ')})`;
}

const MAX_CODE_POINT = 0x10ffff;

/**
 * Names beginning with `text`: a range on the code-point-ordered name_key, which its index serves even in
 * a generic (prepared) plan, where a LIKE with a parameter would be a filter over every row. The range ends
 * before the text with its last code point moved on by one; trailing U+10FFFF (the last there is) is
 * dropped first, and text of U+10FFFF alone has no end (D39: this was a RangeError, a 500).
 */
function namePrefix(text: string, add: (v: string) => string): string {
  const chars = [...text];
  while (chars.length && chars[chars.length - 1]!.codePointAt(0) === MAX_CODE_POINT) chars.pop();
  const last = chars.pop()?.codePointAt(0);
  if (last === undefined) return `name_key >= ${add(text)}`;
  const next = last + 1 === 0xd800 ? 0xe000 : last + 1; // past the surrogates, which are not characters
  return `(name_key >= ${add(text)} and name_key < ${add(chars.join('') + String.fromCodePoint(next))})`;
}

export interface ListFilter {
  q: string | null;
  status: CustomerStatus | null;
  tag: string | null;
  sort: CustomerSort;
  page: number;
  pageSize: number;
}

// Each sort walks its own partial index (migration 4) and ends on id, so pages never overlap.
export const SORT_KEYS: Record<CustomerSort, [key: (t: string) => string, dir: 'asc' | 'desc']> = {
  name: [(t) => `${t}name_key`, 'asc'],
  '-name': [(t) => `${t}name_key`, 'desc'],
  created_at: [(t) => `${t}created_at`, 'asc'],
  '-created_at': [(t) => `${t}created_at`, 'desc'],
  updated_at: [(t) => `${t}updated_at`, 'asc'],
  '-updated_at': [(t) => `${t}updated_at`, 'desc'],
};
/** ORDER BY for a sort, on columns of table alias `t` ('' for none). */
export function orderBy(sort: CustomerSort, t = ''): string {
  const [key, dir] = SORT_KEYS[sort];
  return `${key(t)} ${dir}, ${t}id ${dir}`;
}

/** Up to this many matches are gathered and sorted; more are paged by walking the sort's index. */
const GATHER_MAX = 2_000;
/**
 * D45: a walk reads about (offset + page size) × live customers ÷ matches rows; past this many, a deep page
 * of a middling search (a city, a company on 2% of the customers) gathers and sorts its matches instead.
 */
const WALK_MAX = 5_000;

/**
 * The where clause and its parameters ($1 is always the organization). `walk` writes the search and tag
 * tests so that no index can serve them (`col || ''`): the planner then walks the sort's index and
 * tests rows as it goes, which is what a page of a search matching thousands of rows wants.
 */
export function where(orgId: number, f: Pick<ListFilter, 'q' | 'status' | 'tag'>, walk = false): { sql: string; params: (string | number)[] } {
  const params: (string | number)[] = [orgId];
  const clauses = ['org_id = $1', 'deleted_at is null'];
  const add = (value: string | number) => `$${params.push(value)}`;
  if (f.status) clauses.push(`status = ${add(f.status)}`);
  // D45: a tag ignores case and accents (tag_keys are the tags folded, migration 8).
  if (f.tag) clauses.push(`${walk ? "(tag_keys || '{}'::text[])" : 'tag_keys'} @> array[${add(fold(f.tag))}]::text[]`);
  if (f.q) clauses.push(searchClause(f.q, add, walk ? " || ''" : ''));
  return { sql: clauses.join(' and '), params };
}

export type ItemRow = Omit<CustomerListItem, 'id' | 'created_at' | 'updated_at'> & { id: unknown; created_at: Date; updated_at: Date; total?: unknown };
export const ITEM_COLUMNS = 'c.id, c.name, c.company, c.email, c.phone, c.city, c.status, c.tags, c.created_at, c.updated_at';
export const toItem = ({ total: _total, ...r }: ItemRow): CustomerListItem => ({
  ...r,
  id: num(r.id),
  tags: r.tags ?? [],
  created_at: r.created_at.toISOString(),
  updated_at: r.updated_at.toISOString(),
});

/** D26: one page and the total. */
export async function listCustomers(db: Queryable, orgId: number, f: ListFilter): Promise<{ count: number; results: CustomerListItem[] }> {
  const w = where(orgId, f);
  const n = w.params.length;
  const limits = [f.pageSize, (f.page - 1) * f.pageSize];
  if (!f.q && !f.tag) {
    // Browsing: the page's ids come from walking the sort's index alone (index-only, however deep the
    // page), then only those rows are read; the total comes from customer_counts, not from counting.
    // One statement, so one round trip (the outer join keeps the total when the page is past the end).
    const rows = await db.query<ItemRow>(
      `with page as (select id from customers where ${w.sql} order by ${orderBy(f.sort)} limit $${n + 1} offset $${n + 2})
       select ${ITEM_COLUMNS},
              (select coalesce(sum(n), 0) from customer_counts where org_id = $1 and ($${n + 3}::text is null or status = $${n + 3})) as total
         from (select 1) one left join (page join customers c on c.id = page.id) on true
        order by ${orderBy(f.sort, 'c.')}`,
      [...w.params, ...limits, f.status],
    );
    return { count: num(rows[0]?.total ?? 0), results: rows.filter((r) => r.id !== null).map(toItem) };
  }
  // Searching: first the count, through the search indexes (trigram, tags). Few matches are then
  // gathered the same way and sorted; many are paged by walking the sort's index and testing rows as
  // it goes (a rare match that way could mean reading every row; a common one, sorting thousands).
  const [counted] = await db.query<{ n: unknown; live: unknown }>(
    `select count(*) as n, (select coalesce(sum(n), 0) from customer_counts where org_id = $1) as live from customers where ${w.sql}`,
    w.params,
  );
  const count = num(counted?.n ?? 0);
  const walk = count > GATHER_MAX && (f.page * f.pageSize * num(counted?.live ?? 0)) / count <= WALK_MAX;
  if (count === 0 || (f.page - 1) * f.pageSize >= count) return { count, results: [] };
  const page = walk ? where(orgId, f, true) : w;
  const rows = await db.query<ItemRow>(
    `with ${walk ? '' : 'hits as materialized (select id, name_key, created_at, updated_at from customers where ' + w.sql + '),'}
          page as (select id from ${walk ? `customers where ${page.sql}` : 'hits'} order by ${orderBy(f.sort)} limit $${n + 1} offset $${n + 2})
     select ${ITEM_COLUMNS} from page join customers c on c.id = page.id order by ${orderBy(f.sort, 'c.')}`,
    [...page.params, ...limits],
  );
  return { count, results: rows.map(toItem) };
}
