// Migration 4, released: never edit it (a database that ran it keeps what it did); add the next version.
import type { Migration } from './migration';

export const migration004: Migration = {
  version: 4,
  name: 'per-organization permissions, D10 additions, the D22 customer record, search indexes, audit log',
  statements: [
    // D29: each organization owns its matrix. The old global table keeps D10's defaults, which a new
    // organization copies (trigger below) and a reset restores.
    `alter table role_permissions rename to default_role_permissions`,
    `insert into default_role_permissions (role, permission) values
         ('owner', 'customers:export'), ('owner', 'audit:view'), ('admin', 'customers:export'), ('admin', 'audit:view')
       on conflict do nothing`,
    `create table role_permissions (
        org_id integer not null references organizations(id) on delete cascade,
        role text not null references roles(name) on delete cascade,
        permission text not null,
        primary key (org_id, role, permission))`,
    `insert into role_permissions (org_id, role, permission)
         select o.id, d.role, d.permission from organizations o cross join default_role_permissions d`,
    `create function copy_default_permissions() returns trigger language plpgsql as $$
       begin
         insert into role_permissions (org_id, role, permission) select new.id, role, permission from default_role_permissions;
         return new;
       end $$`,
    `create trigger organizations_default_permissions after insert on organizations
         for each row execute function copy_default_permissions()`,

    // D22: the customer record. Emails are stored trimmed and lower-cased; D23: one live customer per email.
    `create extension if not exists pg_trgm`,
    `alter table customers rename column address to address_line`,
    `alter table customers
         add column company text,
         add column city text,
         add column region text,
         add column postal_code text,
         add column country text,
         add column status text not null default 'active' check (status in ('lead', 'active', 'inactive')),
         add column tags text[] not null default '{}',
         add column created_by integer references users(id) on delete set null,
         add column updated_at timestamptz,
         add column updated_by integer references users(id) on delete set null,
         add column version integer not null default 1,
         add column deleted_at timestamptz,
         add column deleted_by integer references users(id) on delete set null`,
    `update customers set updated_at = created_at, email = nullif(lower(trim(email)), '')`,
    `alter table customers alter column updated_at set not null, alter column updated_at set default now()`,
    // D26: what search and sorting read, kept by PostgreSQL itself so no write path can forget them.
    // name_key is collated "C" (code-point order) so the list sorts alike on both databases, and so that a
    // prefix search can use its index whatever the database's locale.
    `alter table customers
         add column name_key text collate "C" generated always as (lower(name)) stored,
         add column phone_digits text generated always as (regexp_replace(coalesce(phone, ''), '[^0-9]', '', 'g')) stored,
         add column search_text text generated always as (lower(name || ' ' || coalesce(company, '') || ' ' || coalesce(email, ''))) stored`,
    `create unique index customers_org_email_live_key on customers (org_id, email) where deleted_at is null and email is not null`,
    // D26: one index per sort, with and without the status filter, live rows only. Each also serves its
    // descending order, and each holds the id, so the ids of a deep page come from the index alone.
    `drop index customers_org_lower_name_idx`,
    `create index customers_org_name_idx on customers (org_id, name_key, id) where deleted_at is null`,
    `create index customers_org_created_idx on customers (org_id, created_at, id) where deleted_at is null`,
    `create index customers_org_updated_idx on customers (org_id, updated_at, id) where deleted_at is null`,
    `create index customers_org_status_name_idx on customers (org_id, status, name_key, id) where deleted_at is null`,
    `create index customers_org_status_created_idx on customers (org_id, status, created_at, id) where deleted_at is null`,
    `create index customers_org_status_updated_idx on customers (org_id, status, updated_at, id) where deleted_at is null`,
    `create index customers_org_deleted_idx on customers (org_id, deleted_at) where deleted_at is not null`,
    // D26: fragments anywhere in a name, company or email, and phone digits however written.
    `create index customers_search_trgm_idx on customers using gin (search_text gin_trgm_ops)`,
    `create index customers_phone_trgm_idx on customers using gin (phone_digits gin_trgm_ops)`,
    `create index customers_tags_idx on customers using gin (tags)`,
    // D26: live customers per organization and status, so an unfiltered count reads a few rows, not
    // 200,000. Kept by statement-level triggers: an import of 10,000 rows changes each count once.
    `create table customer_counts (
        org_id integer not null references organizations(id) on delete cascade,
        status text not null,
        n bigint not null default 0,
        primary key (org_id, status))`,
    `insert into customer_counts (org_id, status, n)
         select org_id, status, count(*) from customers where deleted_at is null group by org_id, status`,
    `create function count_customers() returns trigger language plpgsql as $$
       begin
         if tg_op in ('UPDATE', 'DELETE') then
           insert into customer_counts (org_id, status, n)
             select org_id, status, -count(*) from old_rows where deleted_at is null group by org_id, status
             on conflict (org_id, status) do update set n = customer_counts.n + excluded.n;
         end if;
         if tg_op in ('UPDATE', 'INSERT') then
           insert into customer_counts (org_id, status, n)
             select org_id, status, count(*) from new_rows where deleted_at is null group by org_id, status
             on conflict (org_id, status) do update set n = customer_counts.n + excluded.n;
         end if;
         return null;
       end $$`,
    `create trigger customers_count_insert after insert on customers
         referencing new table as new_rows for each statement execute function count_customers()`,
    `create trigger customers_count_update after update on customers
         referencing old table as old_rows new table as new_rows for each statement execute function count_customers()`,
    `create trigger customers_count_delete after delete on customers
         referencing old table as old_rows for each statement execute function count_customers()`,

    // D30: the audit log. Append-only: nothing may change or remove an entry, whatever the caller.
    `create table audit_log (
        id bigint generated by default as identity primary key,
        org_id integer not null references organizations(id),
        at timestamptz not null default now(),
        actor_id integer references users(id) on delete set null,
        actor_label text not null,
        action text not null,
        target_type text not null,
        target_id bigint,
        target_label text not null,
        changes jsonb not null default '{}'::jsonb)`,
    // Newest first by time, then id (entries can be written with an earlier time, as the demo seed does).
    `create index audit_log_org_idx on audit_log (org_id, at desc, id desc)`,
    `create index audit_log_target_idx on audit_log (org_id, target_type, target_id, at desc, id desc)`,
    `create index audit_log_actor_idx on audit_log (org_id, actor_id, at desc, id desc)`,
    `create function audit_log_append_only() returns trigger language plpgsql as $$
       begin
         raise exception 'audit_log is append-only' using errcode = '42501';
       end $$`,
    `create trigger audit_log_no_change before update or delete on audit_log
         for each row execute function audit_log_append_only()`,
  ],
};
