// D29: the organization's role × permission matrix: read, replaced as a whole, or reset to D10's
// defaults. The owner row always has everything. A change applies to every member's next request,
// because each request reads the caller's permissions afresh (auth/access.ts).
import { PERMISSIONS, ROLES, isPermission, type Permission, type Role } from '../../../contract/permissions';
import type { PermissionMatrix } from '../../../contract/team';
import type { Queryable } from '../../db';
import { fieldError } from '../../http';
import { defineRoute } from '../../route';
import { describeCheck, type Check } from '../../schema';

/** D29: the owner row cannot be edited. */
const FIXED: Role[] = ['owner'];
const EDITABLE = ROLES.filter((r) => !FIXED.includes(r));

async function readMatrix(db: Queryable, orgId: number): Promise<PermissionMatrix> {
  const rows = await db.query<{ role: Role; permission: string }>('select role, permission from role_permissions where org_id = $1', [orgId]);
  const matrix = Object.fromEntries(ROLES.map((r) => [r, [] as Permission[]])) as Record<Role, Permission[]>;
  for (const { role, permission } of rows) if (role in matrix && isPermission(permission)) matrix[role].push(permission);
  for (const role of ROLES) matrix[role].sort((a, b) => PERMISSIONS.indexOf(a) - PERMISSIONS.indexOf(b));
  return { roles: [...ROLES], permissions: [...PERMISSIONS], matrix, fixed: FIXED };
}

/** The body's matrix: every editable role, each a list of known permissions; the owner row may be sent but must be everything. */
const matrixCheck: Check<Record<Role, Permission[]>> = describeCheck((value, field) => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw fieldError(field, 'must be an object of role → permissions');
  const input = value as Record<string, unknown>;
  for (const key of Object.keys(input)) if (!(ROLES as readonly string[]).includes(key)) throw fieldError(`${field}.${key}`, 'is not a role');
  const out = {} as Record<Role, Permission[]>;
  for (const role of ROLES) {
    const list = input[role];
    if (list === undefined && FIXED.includes(role)) {
      out[role] = [...PERMISSIONS];
      continue;
    }
    if (!Array.isArray(list)) throw fieldError(`${field}.${role}`, 'must be a list of permissions');
    for (const p of list) if (!isPermission(p)) throw fieldError(`${field}.${role}`, `has an unknown permission ${JSON.stringify(p).slice(0, 60)}`);
    const unique = [...new Set(list as Permission[])];
    if (FIXED.includes(role) && unique.length !== PERMISSIONS.length) throw fieldError(`${field}.${role}`, 'cannot be changed: the owner has every permission');
    out[role] = unique;
  }
  return out;
}, { kind: 'object', keys: ROLES });

/** What changed, per role: the permissions added and removed (the audit entry's changes). */
function diff(before: Record<Role, Permission[]>, after: Record<Role, Permission[]>) {
  const changes: Record<string, { added: Permission[]; removed: Permission[] }> = {};
  for (const role of EDITABLE) {
    const added = after[role].filter((p) => !before[role].includes(p));
    const removed = before[role].filter((p) => !after[role].includes(p));
    if (added.length || removed.length) changes[role] = { added, removed };
  }
  return changes;
}

async function writeMatrix(tx: Queryable, orgId: number, matrix: Record<Role, Permission[]>): Promise<void> {
  await tx.query('delete from role_permissions where org_id = $1', [orgId]);
  const pairs = ROLES.flatMap((role) => (FIXED.includes(role) ? PERMISSIONS : matrix[role]).map((p) => [role, p] as const));
  await tx.query(
    `insert into role_permissions (org_id, role, permission)
     select $1, split_part(pair, ':', 1), substr(pair, strpos(pair, ':') + 1) from unnest(string_to_array($2, ',')) as pair`,
    [orgId, pairs.map(([r, p]) => `${r}:${p}`).join(',')],
  );
}

const read = defineRoute({
  method: 'GET', path: '/v1/permissions/', access: 'org', permission: 'permissions:view',
  handler: ({ tx, caller }) => readMatrix(tx, caller.org.id),
});

const replace = defineRoute({
  method: 'PUT', path: '/v1/permissions/', access: 'org', permission: 'permissions:manage', body: { matrix: matrixCheck },
  async handler({ tx, caller, body, audit }) {
    await tx.query('select 1 from organizations where id = $1 for no key update', [caller.org.id]); // one matrix change at a time
    const before = await readMatrix(tx, caller.org.id);
    const changes = diff(before.matrix, body.matrix);
    if (Object.keys(changes).length === 0) return before; // nothing changed: nothing written, nothing audited
    await writeMatrix(tx, caller.org.id, body.matrix);
    audit({ action: 'permissions.changed', target: { type: 'permissions', id: null, label: 'Permissions' }, changes });
    return readMatrix(tx, caller.org.id);
  },
});

const reset = defineRoute({
  method: 'POST', path: '/v1/permissions/reset/', access: 'org', permission: 'permissions:manage',
  async handler({ tx, caller, audit }) {
    await tx.query('select 1 from organizations where id = $1 for no key update', [caller.org.id]);
    const before = await readMatrix(tx, caller.org.id);
    const defaults = await tx.query<{ role: Role; permission: Permission }>('select role, permission from default_role_permissions');
    const matrix = Object.fromEntries(ROLES.map((r) => [r, defaults.filter((d) => d.role === r).map((d) => d.permission)])) as Record<Role, Permission[]>;
    const changes = diff(before.matrix, matrix);
    if (Object.keys(changes).length === 0) return before;
    await writeMatrix(tx, caller.org.id, matrix);
    audit({ action: 'permissions.reset', target: { type: 'permissions', id: null, label: 'Permissions' }, changes });
    return readMatrix(tx, caller.org.id);
  },
});

export const permissionRoutes = [read, replace, reset];
