// Migration 15, released: never edit it (a database that ran it keeps what it did); add the next version.
import type { Migration } from './migration';

/** The parts' folded texts of one customer, a line each: its locations' (D46), then its contacts' (D47). */
const partsOf = (org: string, customer: string) => `(select string_agg(k, E'\\n' order by o, id) from (
    select search_key as k, 0 as o, id from customer_locations where org_id = ${org} and customer_id = ${customer}
    union all
    select search_key, 1, id from customer_contacts where org_id = ${org} and customer_id = ${customer}) parts)`;

export const migration015: Migration = {
  version: 15,
  name: "D45 D46 D47 a customer carries its locations' and contacts' search text, trigram-indexed",
  statements: [
    // A search read the locations and contacts matching it, then looked their customers up by id before
    // the page: a fragment common in addresses ('maple', a sixth of 400,000 locations) was thousands of
    // look-ups. Now each customer carries its parts' folded texts, each on a line of its own (no stored
    // text and no search holds a line break, D22 and the list's q check, so a match never spans two parts),
    // in a column with its own trigram index beside search_key's: a search is two index scans of one table.
    // Not folded into search_key itself: its posting lists would then hold every contact's email domain
    // and every street name, which a long search ('pm.616@property.example') reads through (twice the time).
    `alter table customers add column parts_key text`,
    `update customers c set parts_key = p.key
       from (select customer_id, string_agg(k, E'\\n' order by o, id) as key
               from (select customer_id, search_key as k, 0 as o, id from customer_locations
                     union all
                     select customer_id, search_key, 1, id from customer_contacts) parts
              group by customer_id) p
      where c.id = p.customer_id`,
    `create index customers_parts_key_trgm_idx on customers using gin (parts_key gin_trgm_ops)`,
    // Kept by the database, like primary_city (migration 9), so no write path (a route, a merge, its undo)
    // can forget it: every written part's customer, before and after (a merge moves parts), is made anew.
    `create function customer_parts_key_of(org integer, customer integer) returns void language sql as $$
       update customers c set parts_key = p.key
         from (select ${partsOf('org', 'customer')} as key) p
        where c.id = customer and c.parts_key is distinct from p.key
     $$`,
    `create function customer_parts_key() returns trigger language plpgsql as $$
       begin
         if tg_op = 'INSERT' then
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
    `create trigger customer_locations_parts_key
         after insert or delete or update of org_id, customer_id, label, address_line, city, region, postal_code, country on customer_locations
         for each row execute function customer_parts_key()`,
    `create trigger customer_contacts_parts_key
         after insert or delete or update of org_id, customer_id, name, email on customer_contacts
         for each row execute function customer_parts_key()`,
  ],
};
