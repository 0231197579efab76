// Migration 16, released: never edit it (a database that ran it keeps what it did); add the next version.
import type { Migration } from './migration';

export const migration016: Migration = {
  version: 16,
  name: 'D34 a write notification names the instance that wrote, so that instance leaves it aside',
  statements: [
    // D34: migration 14's notification carried nothing, so an instance heard its own writes again some
    // milliseconds after their commit and dropped the answers it had kept since (on a busy machine, tens
    // of milliseconds of answers). Each instance's pooled connections carry its name in the setting
    // crm.instance (db-postgres.ts); the notification sends it, and the instance that wrote, which moved
    // its write generation at the commit already, leaves it aside. Every other instance hears it as before;
    // a connection without the setting (psql, an older instance) sends '' and is heard by every instance.
    `create or replace function notify_writes() returns trigger language plpgsql as $$
     begin
       perform pg_notify('crm_writes', coalesce(current_setting('crm.instance', true), ''));
       return null;
     end $$`,
  ],
};
