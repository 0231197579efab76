// D29: the organization's role × permission matrix, SQL only, scoped by organization.
import { CUSTOMER_SCOPES, DEFAULT_CUSTOMER_SCOPE, PERMISSIONS, ROLES, isPermission, type CustomerScope, type Permission, type Role } from '../../../contract/permissions';
import type { PermissionMatrix } from '../../../contract/team';
import type { Queryable } from '../../db';

/** D29: the owner row cannot be edited. */
export const FIXED: Role[] = ['owner'];

export async function readMatrix(db: Queryable, orgId: number): Promise<PermissionMatrix> {
  const rows = await db.query<{ role: Role; permission: string }>('select role, permission from role_permissions where org_id = $1', [orgId]);
  const matrix = Object.fromEntries(ROLES.map((r) => [r, [] as Permission[]])) as Record<Role, Permission[]>;
  for (const { role, permission } of rows) if (role in matrix && isPermission(permission)) matrix[role].push(permission);
  for (const role of ROLES) matrix[role].sort((a, b) => PERMISSIONS.indexOf(a) - PERMISSIONS.indexOf(b));
  return { roles: [...ROLES], permissions: [...PERMISSIONS], matrix, fixed: FIXED, scopes: await readScopes(db, orgId) };
}

/** D59: what each role sees of customers; a role without a row sees all (the owner always). */
export async function readScopes(db: Queryable, orgId: number): Promise<Record<Role, CustomerScope>> {
  const rows = await db.query<{ role: Role; sees: CustomerScope }>('select role, sees from role_scopes where org_id = $1', [orgId]);
  const scopes = Object.fromEntries(ROLES.map((r) => [r, DEFAULT_CUSTOMER_SCOPE])) as Record<Role, CustomerScope>;
  for (const { role, sees } of rows) if (role in scopes && !FIXED.includes(role) && CUSTOMER_SCOPES.includes(sees)) scopes[role] = sees;
  return scopes;
}

/** D59: replaces what each role sees; the fixed rows always see all (no row is kept for them). */
export async function writeScopes(tx: Queryable, orgId: number, scopes: Record<Role, CustomerScope>): Promise<void> {
  await tx.query('delete from role_scopes where org_id = $1', [orgId]);
  const narrowed = ROLES.filter((r) => !FIXED.includes(r) && scopes[r] === 'assigned');
  if (narrowed.length)
    await tx.query(`insert into role_scopes (org_id, role, sees) select $1, role, 'assigned' from unnest(string_to_array($2, ',')) as role`, [orgId, narrowed.join(',')]);
}

/** D10: the defaults a new organization starts with, per role. */
export async function defaultMatrix(db: Queryable): Promise<Record<Role, Permission[]>> {
  const defaults = await db.query<{ role: Role; permission: Permission }>('select role, permission from default_role_permissions');
  return Object.fromEntries(ROLES.map((r) => [r, defaults.filter((d) => d.role === r).map((d) => d.permission)])) as Record<Role, Permission[]>;
}

/** Replaces the organization's matrix; the fixed rows get every permission whatever `matrix` says. */
export async function writeMatrix(tx: Queryable, orgId: number, matrix: Record<Role, Permission[]>): Promise<void> {
  await tx.query('delete from role_permissions where org_id = $1', [orgId]);
  const pairs = ROLES.flatMap((role) => (FIXED.includes(role) ? PERMISSIONS : matrix[role]).map((p) => [role, p] as const));
  await tx.query(
    `insert into role_permissions (org_id, role, permission)
     select $1, split_part(pair, ':', 1), substr(pair, strpos(pair, ':') + 1) from unnest(string_to_array($2, ',')) as pair`,
    [orgId, pairs.map(([r, p]) => `${r}:${p}`).join(',')],
  );
}
