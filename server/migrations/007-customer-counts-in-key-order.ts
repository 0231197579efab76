// Migration 7, released: never edit it (a database that ran it keeps what it did); add the next version.
import type { Migration } from './migration';

export const migration007: Migration = {
  version: 7,
  name: 'customer counts: one upsert in key order, none when no count moves',
  statements: [
    // D2, D26: version 4's trigger took the old status's count row, then the new one's. Two people
    // moving customers between statuses in opposite directions (lead → active, active → lead) then
    // waited for each other: PostgreSQL broke the deadlock with an error, answered 500. And every
    // update took a count row, even one that changed neither status nor deletion, so all the writes
    // of an organization queued behind one row. Now the deltas are summed first, rows whose count
    // does not move are left alone, and the rest are taken in one statement in key order.
    `create or replace function count_customers() returns trigger language plpgsql as $$
       begin
         if tg_op = 'INSERT' then
           insert into customer_counts (org_id, status, n)
             select org_id, status, count(*) from new_rows where deleted_at is null group by org_id, status
              order by org_id, status
             on conflict (org_id, status) do update set n = customer_counts.n + excluded.n;
         elsif tg_op = 'DELETE' then
           insert into customer_counts (org_id, status, n)
             select org_id, status, -count(*) from old_rows where deleted_at is null group by org_id, status
              order by org_id, status
             on conflict (org_id, status) do update set n = customer_counts.n + excluded.n;
         else
           insert into customer_counts (org_id, status, n)
             select org_id, status, sum(d) from (
                 select org_id, status, -1 as d from old_rows where deleted_at is null
                 union all
                 select org_id, status, 1 as d from new_rows where deleted_at is null) as moves
              group by org_id, status having sum(d) <> 0
              order by org_id, status
             on conflict (org_id, status) do update set n = customer_counts.n + excluded.n;
         end if;
         return null;
       end $$`,
  ],
};
