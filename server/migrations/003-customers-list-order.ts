// Migration 3, released: never edit it (a database that ran it keeps what it did); add the next version.
import type { Migration } from './migration';

export const migration003: Migration = {
  version: 3,
  name: 'customers list order',
  statements: [
    // GET /v1/customers/ pages through one organization by lower(name), id: this index serves that
    // order directly and replaces the (org_id, name) one.
    `create index customers_org_lower_name_idx on customers (org_id, lower(name), id)`,
    `drop index customers_org_name_idx`,
  ],
};
