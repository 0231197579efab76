// Migration 14, released: never edit it (a database that ran it keeps what it did); add the next version.
import type { Migration } from './migration';

export const migration014: Migration = {
  version: 14,
  name: 'D34 kept answers on PostgreSQL: every write notifies the instances sharing the database',
  statements: [
    // D34 D2: an instance keeps answers to reads only until anything is written. Its own writes it sees;
    // another instance's it learns from this notification, which PostgreSQL sends at commit (once per
    // transaction) to every instance listening on 'crm_writes' (db-postgres.ts).
    `create function notify_writes() returns trigger language plpgsql as $$
     begin
       perform pg_notify('crm_writes', '');
       return null;
     end $$`,
    // Every table, once per statement. A session's last activity (D52) is the exception, as on PGlite
    // (UNREAD_BY_KEPT_ANSWERS): no kept answer reads it, and it is written once a minute per session.
    // A table added later gets its trigger in its own migration (test/server/migrations.test.ts).
    `do $$
     declare t text;
     begin
       for t in select tablename from pg_tables where schemaname = current_schema() and tablename <> 'schema_migrations' loop
         execute format('create trigger %I after insert or delete or truncate or update%s on %I for each statement execute function notify_writes()',
                        t || '_notify_writes',
                        case when t = 'sessions' then ' of id, user_id, remember_me, created_at, last_refresh_at, expires_at, revoked_at, revoked_reason' else '' end,
                        t);
       end loop;
     end $$`,
  ],
};
