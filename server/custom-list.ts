// D56 D26: the customers list by custom field: the query's conditions and sort checked against the
// organization's definitions (a 400 naming the parameter), and a page sorted by a field's value.
import type { CustomerScope } from './customer-scope';
import { CUSTOM_FIELD_TYPE_LABELS, type CustomField } from '../contract/custom-fields';
import {
  CUSTOM_CONTAINS_MIN,
  CUSTOM_FILTER_OPS_BY_TYPE,
  CUSTOM_SORT_TYPES,
  customParam,
  customSortOf,
  type CustomFilter,
  type CustomSort,
} from '../contract/custom-list';
import { CUSTOMER_STATUSES, DEFAULT_CUSTOMER_SORT, LIST_COUNT_BOUND, type CustomerSort } from '../contract/customers';
import { fold } from '../contract/fold';
import type { CustomCondition } from './custom-filter-sql';
import { valueCheck } from './custom-values';
import { listFields } from './custom-fields';
import { filtered, itemsJson, where, type PageFilter } from './customer-list';
import type { Queryable } from './db';
import { fieldError } from './http';

/** The definition a parameter names, live (not archived). */
function liveField(fields: CustomField[], key: string, param: string): CustomField {
  const f = fields.find((x) => x.key === key);
  if (!f) throw fieldError(param, 'is not a custom field of this organization', 'unknown_field');
  if (f.archived) throw fieldError(param, `names ${f.label}, which is archived`);
  return f;
}

/** One condition's value as its field's type takes it (the checks of a record's value, D56). */
function conditionOf(f: CustomField, c: CustomFilter): CustomCondition {
  const param = customParam(c.key, c.op);
  if (!CUSTOM_FILTER_OPS_BY_TYPE[f.type].includes(c.op))
    throw fieldError(param, `is not a condition a ${CUSTOM_FIELD_TYPE_LABELS[f.type].toLowerCase()} field takes (${CUSTOM_FILTER_OPS_BY_TYPE[f.type].join(', ')})`);
  const at = { key: f.key, op: c.op, type: f.type };
  if (c.op === 'empty') return { ...at, value: c.value };
  if (c.op === 'contains') {
    if ([...fold(c.value)].length < CUSTOM_CONTAINS_MIN) throw fieldError(param, `must be at least ${CUSTOM_CONTAINS_MIN} characters`);
    return { ...at, value: c.value };
  }
  if (f.type === 'number') {
    const n = /^-?\d+(\.\d+)?$/.test(c.value) ? Number(c.value) : Number.NaN;
    if (!Number.isFinite(n)) throw fieldError(param, 'must be a number');
    return { ...at, value: n };
  }
  if (f.type === 'yes_no') {
    if (c.value !== 'true' && c.value !== 'false') throw fieldError(param, 'must be true or false');
    return { ...at, value: c.value };
  }
  // A choice of several choices is one option id; a date a date; text as typed.
  const check = valueCheck(f.type === 'choices' ? { ...f, type: 'choice' } : f);
  return { ...at, value: String(check(c.value, param)) };
}

export interface CustomListQuery {
  custom: CustomCondition[];
  customSort: { key: string; dir: 'asc' | 'desc' } | null;
}

/** D56: the list's `cf.*` conditions and a `sort=cf.<key>` against the definitions (of customers). */
export function checkCustomList(fields: CustomField[], filters: CustomFilter[], sort: string): CustomListQuery {
  const custom = filters.map((c) => conditionOf(liveField(fields, c.key, customParam(c.key, c.op)), c));
  const s = customSortOf(sort);
  if (!s) return { custom, customSort: null };
  const f = liveField(fields, s.key, 'sort');
  if (!CUSTOM_SORT_TYPES.includes(f.type)) throw fieldError('sort', `cannot be by ${f.label}: a field of several choices has no one value`);
  return { custom, customSort: s };
}

/**
 * D56: one page sorted by a custom field, as the answer's JSON text: the customers with a value in its
 * order, then those without by id, ties by id in the sort's direction. Unfiltered, the page's ids come
 * from walking customer_custom_values' index (organization, field, value, customer: live customers only).
 * Filtered, the matches are read first, up to the bound (as a search's are): when that is all of them
 * each one's value is looked up and they are sorted, so a filter matching little never walks the field's
 * whole index; past the bound the matches are dense and the walk meets them soon, or else every match is
 * looked up (each once). What it costs depends on this organization's rows alone: no step walks the
 * table's ids, where every other organization's newer customers lie.
 */
/** Values walked in order before a sort with a filter gives up the walk (server/custom-list.ts). */
const CUSTOM_WALK_ROWS = 4_000;

export async function customSortedJson(db: Queryable, scope: CustomerScope, f: PageFilter & { customSort: NonNullable<CustomListQuery['customSort']> }): Promise<string> {
  const w = where(scope, f);
  const n = w.params.length;
  const [k, o, l] = [`$${n + 1}`, `$${n + 3}::int`, `$${n + 4}::int`];
  const end = `($${n + 3}::int + $${n + 2}::int)`; // the page's last row
  const dir = f.customSort.dir;
  const limit = Math.max(f.countBound ?? LIST_COUNT_BOUND, (f.page - 1) * f.pageSize + f.pageSize) + 1;
  const narrowed = filtered(f, scope) || f.status !== null;
  const order = `num ${dir}, txt ${dir}, id ${dir}`;
  const rest = `greatest(0, ${end} - (select v from got))`; // rows the page still needs after the valued
  const noValue = `not exists (select 1 from customer_custom_values e where e.org_id = $1 and e.key = ${k} and e.customer_id = customers.id)`;
  const walked = {
    valued: `select e.customer_id as id, e.num, e.txt from customer_custom_values e
              where e.org_id = $1 and e.key = ${k} and exists (select 1 from customers where id = e.customer_id and ${w.sql})
              order by e.num ${dir}, e.txt ${dir}, e.customer_id ${dir} limit ${end}`,
    // By id within each status (its index leads with the organization), merged: a walk of the table's ids
    // would pass every other organization's customers on the way (all of them, for a field few hold).
    others: `select id from (${CUSTOMER_STATUSES.map(
      (status) => `(select id from customers where ${w.sql} and status = '${status}' and ${noValue} order by id ${dir} limit ${rest})`,
    ).join(' union all ')}) s order by id ${dir} limit ${rest}`,
  };
  const few = `(select n from counted) < ${l}`;
  const short = `(select count(*) from stepped) < ${end}`;
  // Filtered: the matches are read once (a materialized CTE is computed as far as it is read: the bound's
  // hits first, the rest only when needed). Past the bound (dense matches), the field's first
  // CUSTOM_WALK_ROWS values are walked in order, each customer looked up (offset 0 keeps it a look-up),
  // and that is the page when it fills it. Otherwise (few matches, or matches that seldom hold a value)
  // each match's value is looked up once (the customer's own index entry: a lateral with a limit stays a
  // look-up, never a hash of every value of the field), which gives both the valued and the rest.
  const read = {
    valued: `(select id, num, txt from probed where has order by ${order} limit ${end})
             union all (select * from stepped where not ${few} and not ${short})`,
    others: `select id from probed where not has order by id ${dir} limit ${rest}`,
  };
  const use = narrowed ? read : walked;
  // Unfiltered, the total is customer_counts' (as the list's browsing); filtered, the matches up to the bound.
  const count = filtered(f, scope)
    ? '(select n from counted)'
    : `(select coalesce(sum(n), 0) from customer_counts where org_id = $1 and ($${n + 5}::text is null or status = $${n + 5}))`;
  const [row] = await db.query<{ body: string }>(
    `with ${
      narrowed
        ? `matches as materialized (select id from customers where ${w.sql}),
          hits as materialized (select id from matches limit ${l}),
          counted as materialized (select count(*) as n from hits),
          stepped as materialized (
            select * from (select e.customer_id as id, e.num, e.txt from customer_custom_values e
                            where not ${few} and e.org_id = $1 and e.key = ${k} order by e.num ${dir}, e.txt ${dir}, e.customer_id ${dir} limit ${CUSTOM_WALK_ROWS}) x
             where exists (select 1 from customers where id = x.id and ${w.sql} offset 0)
             order by ${order} limit ${end}),
          probed as materialized (
            select m.id, v.num, v.txt, v.has is not null as has
              from ((select id from hits where ${few}) union all (select id from matches where not ${few} and ${short})) m
              left join lateral (select e.num, e.txt, true as has from customer_custom_values e
                                  where e.org_id = $1 and e.key = ${k} and e.customer_id = m.id limit 1) v on true),`
        : ''
    }
          valued as materialized (select id, row_number() over (order by ${order}) as r from (${use.valued}) v),
          got as materialized (select count(*) as v from valued),
          others as materialized (
            select id, row_number() over (order by id ${dir}) + (select v from got) as r
              from (${use.others}) u where (select v from got) < ${end}),
          page as (select id, r from (select * from valued union all select * from others) u where r > ${o}),
          total as materialized (select ${count} as n)
     select '{"count":' || least(n, ${l} - 1) || case when n < ${l} then '' else ',"count_exact":false' end
            || ',"results":[' || ${itemsJson('name', 'page.r')} || ']}' as body
       from total`,
    [...w.params, f.customSort.key, f.pageSize, (f.page - 1) * f.pageSize, limit, ...(filtered(f, scope) ? [] : [f.status])],
    // How many customers hold the field, or a filter's option, decides the plan: one plan for every
    // value probed customers 22,222 times for an option with a status (docs/performance.md).
    { replan: true },
  );
  return row!.body;
}

/** D56: a list query's `cf.*` and sort, checked when they name custom fields; a custom sort leaves the list's own at its default. */
export async function customListOf(
  db: Queryable,
  orgId: number,
  query: { 'cf.*': CustomFilter[]; sort: CustomerSort | CustomSort },
): Promise<CustomListQuery & { sort: CustomerSort }> {
  const custom = customSortOf(query.sort);
  if (!query['cf.*'].length && !custom) return { custom: [], customSort: null, sort: query.sort as CustomerSort };
  const checked = checkCustomList(await listFields(db, orgId, 'customer'), query['cf.*'], query.sort);
  return { ...checked, sort: custom ? DEFAULT_CUSTOMER_SORT : (query.sort as CustomerSort) };
}
