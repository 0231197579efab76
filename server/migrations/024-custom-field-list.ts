// Migration 24, released: never edit it (a database that ran it keeps what it did); add the next version.
import type { Migration } from './migration';

/** One row per value of a live customer's custom field (each option of several choices its own row). */
const VALUES_OF = (c: string, from = '') => `select ${c}.org_id, e.key,
         case when jsonb_typeof(x) = 'number' then (x #>> '{}')::numeric end,
         case when jsonb_typeof(x) <> 'number' then left(crm_fold(x #>> '{}'), 200) end,
         ${c}.id
    from ${from} jsonb_each(${c}.custom) e
   cross join lateral jsonb_array_elements(case when jsonb_typeof(e.value) = 'array' then e.value else jsonb_build_array(e.value) end) x
   where jsonb_typeof(x) in ('string', 'number', 'boolean')`;

export const migration024: Migration = {
  version: 24,
  name: 'D56 D26 the customers list filters and sorts by a custom field and searches its text',
  statements: [
    // D56: custom values in the order a list walks them, without DDL per organization: (organization,
    // field, value, customer), a number in num, anything else folded in txt (code-point order, as name_key;
    // cut to 200 characters for the btree). Only live customers: a sort reads the index alone.
    `create table customer_custom_values (
        org_id integer not null,
        key text not null,
        num numeric,
        txt text collate "C",
        customer_id integer not null references customers(id) on delete cascade)`,
    `insert into customer_custom_values (org_id, key, num, txt, customer_id)
       ${VALUES_OF('c', 'customers c cross join lateral')} and c.deleted_at is null`,
    `create index customer_custom_values_sort_idx on customer_custom_values (org_id, key, num, txt, customer_id)`,
    `create index customer_custom_values_customer_idx on customer_custom_values (customer_id, key)`,
    // Kept by the database, as parts_key (migration 15), so no write path (a route, an import, a merge, its
    // undo, a field's deletion, a bulk action) can forget it.
    `create function customer_custom_values_of() returns trigger language plpgsql as $$
       begin
         if tg_op = 'UPDATE' then
           delete from customer_custom_values where customer_id = old.id;
         end if;
         if new.deleted_at is null then
           insert into customer_custom_values (org_id, key, num, txt, customer_id) ${VALUES_OF('new')};
         end if;
         return null;
       end $$`,
    `create trigger customers_custom_values_insert after insert on customers
         for each row when (new.custom <> '{}' and new.deleted_at is null) execute function customer_custom_values_of()`,
    `create trigger customers_custom_values_update after update of custom, deleted_at, org_id on customers
         for each row when (old.custom is distinct from new.custom or old.deleted_at is distinct from new.deleted_at or old.org_id <> new.org_id)
         execute function customer_custom_values_of()`,
    // D56: the search's text in custom fields: every string value, folded, a line each, trigram-indexed
    // (which of them are live text fields' the query decides, since a definition can change).
    `create function crm_custom_text(custom jsonb) returns text language sql immutable strict parallel safe set search_path from current as $t$
       select string_agg(crm_fold(v.value #>> '{}'), E'\\n' order by v.key) from jsonb_each($1) v where jsonb_typeof(v.value) = 'string'
     $t$`,
    `alter table customers add column custom_key text generated always as (crm_custom_text(custom)) stored`,
    `create index customers_custom_key_trgm_idx on customers using gin (custom_key gin_trgm_ops)`,
  ],
};
