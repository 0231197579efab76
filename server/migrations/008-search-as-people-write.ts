// Migration 8, released: never edit it (a database that ran it keeps what it did); add the next version.
import { foldFunctionsSql, PHONE_DIGITS_FUNCTION_SQL } from '../search-sql';
import type { Migration } from './migration';

/** D45 as of migration 8, frozen: the special letters crm_fold wrote then (migration 18 adds punctuation). */
export const FOLD_LETTERS_8: Readonly<Record<string, string>> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ĳ: 'ij',
  þ: 'th',
  ø: 'o',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  ħ: 'h',
  ı: 'i',
  ŧ: 't',
  ŋ: 'n',
  ƒ: 'f',
  ς: 'σ',
};

/** D45 (migration 8): adds the summed tag moves of `moves` (org_id, t, d) to customer_tags, in key order. */
const upsertTagCounts = (moves: string) => `insert into customer_tags (org_id, tag_key, tag, n)
             select org_id, crm_fold(t), min(t), sum(d) from (${moves}) as moves
              group by org_id, crm_fold(t) having sum(d) <> 0
              order by org_id, crm_fold(t)
             on conflict (org_id, tag_key) do update
               set n = customer_tags.n + excluded.n, tag = case when customer_tags.n > 0 then customer_tags.tag else excluded.tag end;`;

export const migration008: Migration = {
  version: 8,
  name: 'D45 search as people write: folded search text over every address field, phone numbers without extensions, tags by key',
  statements: [
    // D45: case and accents folded by one immutable function (contract/matching.ts `fold`; `unaccent`
    // is not in every build), phone digits without the extension (D39), and the last 7 of them: two
    // numbers are the same when one's digits end the other's, so they share these 7.
    ...foldFunctionsSql(FOLD_LETTERS_8),
    PHONE_DIGITS_FUNCTION_SQL,
    // One rewrite of the table: the old search columns go (their indexes with them), the new ones come.
    // search_key is the customer's searchable text; D46/D47 locations and contacts get a search_key and
    // phone columns of their own, made by the same functions, and join the search by customer id.
    `alter table customers
         drop column search_text,
         drop column phone_digits,
         add column search_key text generated always as (crm_fold(name || ' ' || coalesce(company, '') || ' ' || coalesce(email, '') || ' ' ||
           coalesce(address_line, '') || ' ' || coalesce(city, '') || ' ' || coalesce(region, '') || ' ' || coalesce(postal_code, '') || ' ' ||
           coalesce(country, ''))) stored,
         add column phone_digits text generated always as (crm_phone_digits(phone)) stored,
         add column phone_tail text generated always as (case when char_length(crm_phone_digits(phone)) >= 7 then right(crm_phone_digits(phone), 7) end) stored,
         add column tag_keys text[] generated always as (crm_fold_tags(tags)) stored`,
    `drop index if exists customers_tags_idx`,
    `create index customers_search_key_trgm_idx on customers using gin (search_key gin_trgm_ops)`,
    `create index customers_phone_trgm_idx on customers using gin (phone_digits gin_trgm_ops)`,
    `create index customers_org_phone_tail_idx on customers (org_id, phone_tail) where deleted_at is null and phone_tail is not null`,
    `create index customers_tag_keys_idx on customers using gin (tag_keys)`,
    // D45: the organization's tags with how many live customers carry each, for suggestions while typing
    // (reading 200,000 customers' tags per keystroke would not do). Kept like customer_counts: statement
    // triggers, deltas summed, rows that do not move left alone, the rest taken in key order.
    `create table customer_tags (
        org_id integer not null references organizations(id) on delete cascade,
        tag_key text collate "C" not null,
        tag text not null,
        n bigint not null default 0,
        primary key (org_id, tag_key))`,
    `insert into customer_tags (org_id, tag_key, tag, n)
         select org_id, crm_fold(t), min(t), count(*) from customers, unnest(tags) t where deleted_at is null group by org_id, crm_fold(t)`,
    `create function count_customer_tags() returns trigger language plpgsql as $$
       begin
         if tg_op = 'INSERT' then
           ${upsertTagCounts('select org_id, t, 1 as d from new_rows, unnest(tags) t where deleted_at is null')}
         elsif tg_op = 'DELETE' then
           ${upsertTagCounts('select org_id, t, -1 as d from old_rows, unnest(tags) t where deleted_at is null')}
         else
           ${upsertTagCounts(`select org_id, t, -1 as d from old_rows, unnest(tags) t where deleted_at is null
                 union all
                 select org_id, t, 1 as d from new_rows, unnest(tags) t where deleted_at is null`)}
         end if;
         return null;
       end $$`,
    `create trigger customers_tags_insert after insert on customers
         referencing new table as new_rows for each statement execute function count_customer_tags()`,
    `create trigger customers_tags_update after update on customers
         referencing old table as old_rows new table as new_rows for each statement execute function count_customer_tags()`,
    `create trigger customers_tags_delete after delete on customers
         referencing old table as old_rows for each statement execute function count_customer_tags()`,
  ],
};
