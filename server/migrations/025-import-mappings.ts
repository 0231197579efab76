// Migration 25, released: never edit it (a database that ran it keeps what it did); add the next version.
import type { Migration } from './migration';

export const migration025: Migration = {
  version: 25,
  name: "D60 an organization's last import mapping for a header row; an import's new parts skip the parts' triggers",
  statements: [
    // D60: written by a successful import, offered again for a file with the same header row (folded,
    // hashed). One row per organization and header: a later import of that header replaces it.
    `create table import_mappings (
        org_id integer not null references organizations(id) on delete cascade,
        header_hash text not null,
        columns text[] not null,
        group_by text not null,
        updated_at timestamptz not null default now(),
        primary key (org_id, header_hash))`,
    // D34 D60: an import writes its new customers' primary_city and parts_key with them, as these triggers
    // would make them (import-repo.ts), and says so for its transaction (set local crm.parts_written): the
    // per-row triggers then leave its inserts alone (10,000 locations and contacts took 10 s of triggers on
    // PGlite). Every other write, and any update or delete, runs them as before (migrations 9 and 15).
    `create or replace function customer_primary_city() returns trigger language plpgsql as $$
       declare cid integer;
       begin
         if tg_op = 'INSERT' and current_setting('crm.parts_written', true) = 'on' then return null; end if;
         foreach cid in array array_remove(array[case when tg_op <> 'INSERT' then old.customer_id end, case when tg_op <> 'DELETE' then new.customer_id end], null) loop
           update customers c set primary_city = p.city
             from (select (select l.city from customer_locations l where l.customer_id = cid and l.is_primary) as city) p
            where c.id = cid and c.primary_city is distinct from p.city;
         end loop;
         return null;
       end $$`,
    `create or replace function customer_parts_key() returns trigger language plpgsql as $$
       begin
         if tg_op = 'INSERT' then
           if current_setting('crm.parts_written', true) = 'on' then return null; end if;
           perform customer_parts_key_of(new.org_id, new.customer_id);
         else
           perform customer_parts_key_of(old.org_id, old.customer_id);
           if tg_op = 'UPDATE' then
             if new.customer_id <> old.customer_id or new.org_id <> old.org_id then
               perform customer_parts_key_of(new.org_id, new.customer_id);
             end if;
           end if;
         end if;
         return null;
       end $$`,
  ],
};
