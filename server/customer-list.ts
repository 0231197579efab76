// D26 D45: the customers list (filter, search, sort, page), shared by the customers feature (its list and
// export) and the dashboard (recently updated). SQL over the indexed columns of migrations 4 and 8
// (name_key, search_key, phone_digits, phone_tail, tag_keys) and 15 (parts_key), every query scoped by organization.
import { seen, type CustomerScope } from './customer-scope';
import { LIST_COUNT_BOUND, type CustomerListItem, type CustomerSort, type CustomerStatus, type CustomerType, type Page } from '../contract/customers';
import { fold } from '../contract/fold';
import { phoneDigits, PHONE_MATCH_DIGITS } from '../contract/matching';
import { customClauses, customSearch, type CustomCondition } from './custom-filter-sql';
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
 * and every address field, lower case and without accents: search_key) or, D46 D47, its locations' and
 * contacts' (parts_key, migration 15; each its own trigram index), or, when the search looks like a phone
 * number, in the number's digits however it was written (a contact's in its own table); a number given
 * with a country code also finds it stored without one (the stored digits end the searched ones). One or
 * two characters find names that begin with them (behaviour.md).
 */
export function searchClause(q: string, add: (v: string) => string): string {
  const lower = q.toLowerCase();
  const folded = fold(q);
  // Folding can shorten a search (accents typed as separate marks): under three characters a trigram
  // index cannot serve it, so it is a name prefix too rather than a reading of every row.
  if ([...folded].length < MIN_FRAGMENT) return namePrefix([...lower].length < MIN_FRAGMENT ? lower : folded, add);
  const text = add(containsPattern(folded));
  const byText = `(search_key like ${text} or parts_key like ${text} or ${customSearch(text)})`; // D56 custom text too
  const digits = phoneDigits(q);
  const phone: string[] = [];
  if (PHONE_LIKE.test(q) && digits.length >= MIN_PHONE_DIGITS) {
    phone.push(`phone_digits like ${add(containsPattern(digits))}`);
    // Digits only, so no LIKE character can be in them.
    if (digits.length > PHONE_MATCH_DIGITS) phone.push(`(phone_tail = ${add(digits.slice(-PHONE_MATCH_DIGITS))} and ${add(digits)} like '%' || phone_digits)`);
  }
  if (!phone.length) return byText;
  // D47: a contact's phone number is searched in its own table's indexes (this organization's only), read
  // once into an array that the ids' index serves beside the customer's own tests.
  const contacts = `select customer_id from customer_contacts where org_id = $1 and (${phone.join(' or ')})`;
  return `(${[byText, ...phone, `id = any(array(${contacts}))`].join(' or ')})`;
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
  /** D48 */
  type?: CustomerType | null;
  doNotService?: boolean;
  /** D32: added at or after this instant (ISO). */
  createdSince?: string | null;
  /** D58: only these customers (an export of the ones picked). */
  ids?: readonly number[] | null;
  /** D56: conditions on custom fields, checked against the definitions (server/custom-list.ts). */
  custom?: CustomCondition[];
  /** D59: the list's own filter: one member's customers, or nobody's. */
  assigned?: number | 'none' | null;
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
  // D48 (migration 9): status as its code, city as the list shows it (the primary location's, else billing).
  status: [(t) => `${t}status`, 'asc'],
  '-status': [(t) => `${t}status`, 'desc'],
  city: [(t) => `${t}city_key`, 'asc'],
  '-city': [(t) => `${t}city_key`, 'desc'],
};
/** ORDER BY for a sort, on columns of table alias `t` ('' for none). */
export function orderBy(sort: CustomerSort, t = ''): string {
  const [key, dir] = SORT_KEYS[sort];
  return `${key(t)} ${dir}, ${t}id ${dir}`;
}

/** The where clause and its parameters ($1 is always the organization); D59 only what the scope sees. */
export function where(
  scope: CustomerScope,
  f: Pick<ListFilter, 'q' | 'status' | 'tag' | 'type' | 'doNotService' | 'createdSince' | 'ids' | 'custom' | 'assigned'>,
  opts: { lookUps?: boolean } = {},
): { sql: string; params: (string | number)[] } {
  const params: (string | number)[] = [scope.orgId];
  const clauses = [`org_id = $1${seen('', scope)}`, 'deleted_at is null'];
  const add = (value: string | number) => `$${params.push(value)}`;
  if (f.status) clauses.push(`status = ${add(f.status)}`);
  if (f.type) clauses.push(`type = ${add(f.type)}`); // D48
  if (f.doNotService) clauses.push('do_not_service');
  if (f.createdSince) clauses.push(`created_at >= ${add(f.createdSince)}::timestamptz`); // D32
  // D45: a tag ignores case and accents (tag_keys are the tags folded, migration 8).
  if (f.tag) clauses.push(`tag_keys @> array[${add(fold(f.tag))}]::text[]`);
  if (f.q) clauses.push(searchClause(f.q, add));
  if (f.assigned === 'none')
    clauses.push('assigned_to is null'); // D59
  else if (typeof f.assigned === 'number') clauses.push(`assigned_to = ${add(f.assigned)}::integer`);
  if (f.ids) clauses.push(`id = any(${add(`{${f.ids.join(',')}}`)}::int[])`); // D58, digits only
  clauses.push(...customClauses(f.custom ?? [], add, opts.lookUps));
  return { sql: clauses.join(' and '), params };
}

/** D56: the SQL of a record's `custom` as answers show it: without the values of its kind's archived fields. */
export const visibleCustom = (alias: string, kind: 'customer' | 'location') =>
  `(${alias}.custom - array(select f.key from custom_fields f where f.org_id = ${alias}.org_id and f.record_kind = '${kind}' and f.archived_at is not null))`;

export type ItemRow = Omit<CustomerListItem, 'id' | 'created_at' | 'updated_at'> & { id: unknown; created_at: Date; updated_at: Date; total?: unknown };
/** D59: the customer's assignee as answers name them ({ id, name }), or null. */
const assignedJson = (alias: string) => `(select json_build_object('id', u.id, 'name', u.first_name) from users u where u.id = ${alias}.assigned_to)`;
export const ITEM_COLUMNS = `c.id, c.name, c.company, c.email, c.phone, coalesce(c.primary_city, c.city) as city, c.status, c.tags, c.type, c.do_not_service, c.created_at, c.updated_at, ${visibleCustom('c', 'customer')} as custom, ${assignedJson('c')} as assigned_to`;
export const toItem = ({ total: _total, ...r }: ItemRow): CustomerListItem => ({
  ...r,
  id: num(r.id),
  tags: r.tags ?? [],
  created_at: r.created_at.toISOString(),
  updated_at: r.updated_at.toISOString(),
});

/** A timestamp as Date.toISOString() writes it (UTC, milliseconds, 'Z'). */
const iso = (col: string) => `to_char(${col} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
/**
 * The page's rows (ids in `page`) as a JSON array's elements, built by the database in the list's order:
 * the bytes JSON.stringify(toItem(row)) writes (row_to_json is compact; keys in toItem's order).
 */
export const itemsJson = (sort: CustomerSort, order = orderBy(sort, 'c.')) => `coalesce((
  select string_agg(row_to_json(item)::text, ',' order by ${order})
    from page join customers c on c.id = page.id
   cross join lateral (select c.id, c.name, c.company, c.email, c.phone, coalesce(c.primary_city, c.city) as city, c.status,
                              coalesce(c.tags, '{}') as tags, c.type, c.do_not_service,
                              ${iso('c.created_at')} as created_at, ${iso('c.updated_at')} as updated_at, ${visibleCustom('c', 'customer')} as custom,
                              ${assignedJson('c')} as assigned_to) item), '')`;

/** Whether anything narrows the list (else its total is customer_counts'). */
export const filtered = (f: ListFilter, scope: CustomerScope) =>
  Boolean(f.q || f.tag || f.type || f.doNotService || f.createdSince || f.custom?.length || f.assigned || scope.assignedTo !== null);

/** What a page's statement is given beside the filter: the bound of a search's count (D26, LIST_COUNT_BOUND). */
export type PageFilter = ListFilter & { countBound?: number };

/**
 * D26: one page and the total as the answer's JSON text, in one statement built and serialized by the
 * database (the route sends it untouched). A search counts at most max(bound, the page's end) + 1 matches:
 * past that the answer says 'more than' (`count_exact: false`), so a broad search costs what its page does.
 */
export async function listCustomersJson(db: Queryable, scope: CustomerScope, f: PageFilter): Promise<string> {
  const w = where(scope, f);
  const n = w.params.length;
  const offset = (f.page - 1) * f.pageSize;
  if (!filtered(f, scope)) {
    // Browsing: the page's ids come from walking the sort's index alone (index-only, however deep the
    // page), then only those rows are read; the total comes from customer_counts, not from counting.
    const [row] = await db.query<{ body: string }>(
      `with page as (select id from customers where ${w.sql} order by ${orderBy(f.sort)} limit $${n + 1} offset $${n + 2})
       select '{"count":' || (select coalesce(sum(n), 0) from customer_counts where org_id = $1 and ($${n + 3}::text is null or status = $${n + 3}))
              || ',"results":[' || ${itemsJson(f.sort)} || ']}' as body`,
      [...w.params, f.pageSize, offset, f.status],
    );
    return row!.body;
  }
  // Searching: the matches, up to the bound, are read once through the search indexes (trigram, tags) and
  // counted; when that is all of them, they are sorted for the page. Past the bound they are a sample of
  // the matches (in the table's order, not the sort's), and the page's last row can come no later in the
  // sort than the sample's (offset + page size)th row, its edge: every match up to the edge is then read,
  // the search's index and the sort's ANDed (a bitmap of each), and sorted. However the matches lie along
  // the sort ('jam' bunched among first names, 'ann' spread), that reads about (offset + page size) ×
  // matches ÷ sample rows, and no more of the sort's index than lies before the edge. The edge is given
  // twice, as a row and as its key alone, so that the planner takes the range for a narrow one (it
  // prices one open-ended comparison at a third of the table) and ANDs the two indexes.
  const limit = Math.max(f.countBound ?? LIST_COUNT_BOUND, offset + f.pageSize) + 1;
  const [p, o, l] = [`$${n + 1}`, `$${n + 2}`, `$${n + 3}`];
  const sorted = `order by ${orderBy(f.sort)} limit ${p} offset ${o}`;
  const [key, dir] = SORT_KEYS[f.sort];
  const upTo = dir === 'asc' ? '<=' : '>=';
  // D56: up to the edge the range is narrow, so a custom field's 'is empty' is a look-up per customer there
  // (the same clauses and parameters otherwise).
  const near = f.custom?.some((c) => c.op === 'empty') ? where(scope, f, { lookUps: true }).sql : w.sql;
  const [row] = await db.query<{ body: string }>(
    `with hits as materialized (select id, ${key('')} from customers where ${w.sql} limit ${l}),
          counted as materialized (select count(*) as n from hits),
          way as materialized (select ${o} < n as within, n < ${l} as exact from counted),
          edge as materialized (select id, ${key('')} as k from hits order by ${orderBy(f.sort)} offset ${o} + ${p} - 1 limit 1),
          upto as materialized (
            select id, ${key('')} from customers
             where ${near} and (select within and not exact from way)
               and (${key('')}, id) ${upTo} (select k, id from edge) and ${key('')} ${upTo} (select k from edge)),
          page as (
            (select id from hits where (select within and exact from way) ${sorted})
            union all
            (select id from upto ${sorted}))
     select '{"count":' || least(n, ${l} - 1) || case when n < ${l} then '' else ',"count_exact":false' end
            || ',"results":[' || ${itemsJson(f.sort)} || ']}' as body
       from counted`,
    [...w.params, f.pageSize, offset, limit],
    // D56: how many customers a custom condition matches decides the plan (custom-list.ts, customSortedJson).
    { replan: Boolean(f.custom?.length) },
  );
  return row!.body;
}

/** D26: one page and the total, as data (the dashboard's recently updated). */
export async function listCustomers(db: Queryable, scope: CustomerScope, f: PageFilter): Promise<Page<CustomerListItem>> {
  return JSON.parse(await listCustomersJson(db, scope, f)) as Page<CustomerListItem>;
}
