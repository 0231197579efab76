// Migration 19, released: never edit it (a database that ran it keeps what it did); add the next version.
import type { Migration } from './migration';

export const migration019: Migration = {
  version: 19,
  name: 'D66 a merge keeps the email or phone not chosen as a contact of the survivor; its undo removes it',
  statements: [
    // D66: the contacts a merge made on the survivor for the details it would otherwise drop, by id, so
    // the undo removes exactly those (a merge before this version made none).
    `alter table customer_merges add column kept_contact_ids integer[] not null default '{}'`,
  ],
};
