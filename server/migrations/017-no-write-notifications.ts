// Migration 17, released: never edit it (a database that ran it keeps what it did); add the next version.
import type { Migration } from './migration';

export const migration017: Migration = {
  version: 17,
  name: 'No kept answers: the write notifications of migrations 14 and 16 go',
  statements: [
    // The answer cache they served is gone (it was emptied by any write anywhere, so it paid only in a
    // read-only benchmark); every read now asks the database, so a revocation holds on every instance at once.
    `do $$
     declare t record;
     begin
       for t in select tgname, relname from pg_trigger join pg_class on pg_class.oid = tgrelid
                where tgfoid = 'notify_writes()'::regprocedure loop
         execute format('drop trigger %I on %I', t.tgname, t.relname);
       end loop;
     end $$`,
    'drop function notify_writes()',
  ],
};
