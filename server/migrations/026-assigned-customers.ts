// Migration 26, released: never edit it (a database that ran it keeps what it did); add the next version.
import type { Migration } from './migration';

export const migration026: Migration = {
  version: 26,
  name: 'D59 a customer assigned to a member; what each role sees of customers',
  statements: [
    // D59: a member of the customer's own organization, or none. The key names the membership, so a
    // member of another organization cannot be assigned; removing a member unassigns their customers
    // (the team route does it first, with its audit entry; the key's set null is the floor under it).
    `alter table customers add column assigned_to integer`,
    `alter table customers add constraint customers_assigned_member_fk
       foreign key (assigned_to, org_id) references memberships (user_id, org_id) on delete set null (assigned_to)`,
    // A scoped member's every customer query starts here (2,000 of 200,000, say), as does the removal's
    // look-up of a member's customers.
    `create index customers_assigned_idx on customers (org_id, assigned_to) where assigned_to is not null`,
    // D59: per organization and role, what it sees of customers; no row is 'all' (every role's default).
    // The owner is never given a row (the permissions route refuses it).
    `create table role_scopes (
        org_id integer not null references organizations(id) on delete cascade,
        role text not null references roles(name),
        sees text not null check (sees in ('all', 'assigned')),
        primary key (org_id, role))`,
  ],
};
