// D10: the permission strings and the default role matrix, shared by the app and the server.
// DEFAULT_ROLE_PERMISSIONS is the one definition of the defaults. The database holds a copy, written by
// migrations, that each new organization copies (D29) and a reset restores; a change here needs a migration
// (test/server/migrations.test.ts fails until the migrations add up to this matrix again).

export const PERMISSIONS = [
  'dashboard:view',
  'customers:view',
  'customers:create',
  'customers:update',
  'customers:delete',
  'customers:export',
  'customers:merge',
  'fields:manage', // D61
  'views:manage', // D61
  'jobs:view',
  'sms:view',
  'email:view',
  'calls:view',
  'team:view',
  'team:manage',
  'permissions:view',
  'permissions:manage',
  'audit:view',
] as const;

export type Permission = (typeof PERMISSIONS)[number];

export const ROLES = ['owner', 'admin', 'member', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

export const isPermission = (value: unknown): value is Permission => (PERMISSIONS as readonly unknown[]).includes(value);

/** D10 defaults: owner all; admin all but permissions:manage; member the daily work; viewer looks only. */
export const DEFAULT_ROLE_PERMISSIONS: Readonly<Record<Role, readonly Permission[]>> = {
  owner: PERMISSIONS,
  admin: PERMISSIONS.filter((p) => p !== 'permissions:manage'),
  member: ['dashboard:view', 'customers:view', 'customers:create', 'customers:update', 'jobs:view', 'sms:view', 'email:view', 'calls:view'],
  viewer: ['dashboard:view', 'customers:view'],
};

/**
 * D59: what a role sees of customers: every one of the organization, or only those assigned to the
 * person. Every role's default is 'all'; the owner's is always 'all'.
 */
export const CUSTOMER_SCOPES = ['all', 'assigned'] as const;
export type CustomerScope = (typeof CUSTOMER_SCOPES)[number];
export const DEFAULT_CUSTOMER_SCOPE: CustomerScope = 'all';
