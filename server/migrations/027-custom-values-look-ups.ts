// Migration 27, released: never edit it (a database that ran it keeps what it did); add the next version.
import type { Migration } from './migration';

export const migration027: Migration = {
  version: 27,
  name: "D56 a customer's custom value is looked up from its index alone",
  statements: [
    // D56: a list sorted by a custom field looks up each match's value, and 'is empty' each customer's
    // absence, by (customer, field); with the organization and the value in the index these read no
    // table row (the organization is named in every look-up, D59). The trigger's delete and the foreign
    // key's cascade find a customer's rows by the same leading columns.
    `create index customer_custom_values_customer_value_idx on customer_custom_values (customer_id, key) include (org_id, num, txt)`,
    `drop index customer_custom_values_customer_idx`,
  ],
};
