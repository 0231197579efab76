// Migration 25, released: never edit it (a database that ran it keeps what it did); add the next version.
import type { Migration } from './migration';

export const migration025: Migration = {
  version: 25,
  name: "D60 an organization's last import mapping for a header row",
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
  ],
};
