// Migration 10, released: never edit it (a database that ran it keeps what it did); add the next version.
import type { Migration } from './migration';

export const migration010: Migration = {
  version: 10,
  name: 'D45 D47 contacts searchable like customers: folded name and email, phone digits by fragment',
  statements: [
    // D47: a contact's name and email as one folded, trigram-indexed column (made like the customer's,
    // migration 8), and its phone digits indexed for fragments, so q finds a customer through a contact.
    `alter table customer_contacts
         add column search_key text generated always as (crm_fold(name || ' ' || coalesce(email, ''))) stored`,
    `create index customer_contacts_search_key_trgm_idx on customer_contacts using gin (search_key gin_trgm_ops)`,
    `create index customer_contacts_phone_trgm_idx on customer_contacts using gin (phone_digits gin_trgm_ops)`,
  ],
};
