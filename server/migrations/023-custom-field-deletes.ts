// Migration 23, released: never edit it (a database that ran it keeps what it did); add the next version.
import type { Migration } from './migration';

export const migration023: Migration = {
  version: 23,
  name: 'D34 D56 a deleted custom field stays as a tombstone while its values are removed in small steps',
  statements: [
    // D56 D34: deleting a field marks it; housekeeping then removes its values a few hundred records at a
    // time (one statement over 200,000 records held PGlite for two minutes). Its key stays taken until then.
    `alter table custom_fields add column deleted_at timestamptz`,
    `drop index custom_fields_org_kind_label_key`,
    `create unique index custom_fields_org_kind_label_key on custom_fields (org_id, record_kind, lower(label)) where deleted_at is null`,
    `create index custom_fields_deleted_idx on custom_fields (deleted_at) where deleted_at is not null`,
  ],
};
