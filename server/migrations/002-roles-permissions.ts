// Migration 2, released: never edit it (a database that ran it keeps what it did); add the next version.
import type { Migration } from './migration';

// D10 as of migration 2, frozen: contract/permissions.ts's DEFAULT_ROLE_PERMISSIONS is today's matrix, and a
// test checks that this copy plus migration 4's additions equals it. The server answers from the tables.
const D10_ROLE_PERMISSIONS: Record<string, string[]> = {
  owner: [
    'dashboard:view',
    'customers:view',
    'customers:create',
    'customers:update',
    'customers:delete',
    'jobs:view',
    'sms:view',
    'email:view',
    'calls:view',
    'team:view',
    'team:manage',
    'permissions:view',
    'permissions:manage',
  ],
  admin: [
    'dashboard:view',
    'customers:view',
    'customers:create',
    'customers:update',
    'customers:delete',
    'jobs:view',
    'sms:view',
    'email:view',
    'calls:view',
    'team:view',
    'team:manage',
    'permissions:view',
  ],
  member: ['dashboard:view', 'customers:view', 'customers:create', 'customers:update', 'jobs:view', 'sms:view', 'email:view', 'calls:view'],
  viewer: ['dashboard:view', 'customers:view'],
};

const quote = (s: string) => `'${s.replace(/'/g, "''")}'`;

export const migration002: Migration = {
  version: 2,
  name: 'D10 roles and permissions',
  statements: [
    `insert into roles (name) values ${Object.keys(D10_ROLE_PERMISSIONS)
      .map((r) => `(${quote(r)})`)
      .join(', ')}`,
    `insert into role_permissions (role, permission) values ${Object.entries(D10_ROLE_PERMISSIONS)
      .flatMap(([role, perms]) => perms.map((p) => `(${quote(role)}, ${quote(p)})`))
      .join(', ')}`,
  ],
};
