// D29: the organization's role × permission matrix: read, replaced as a whole, or reset to D10's
// defaults. The owner row always has everything. A change applies to every member's next request,
// because each request reads the caller's permissions afresh (auth/access.ts).
import { CUSTOMER_SCOPES, DEFAULT_CUSTOMER_SCOPE, PERMISSIONS, ROLES, isPermission, type CustomerScope, type Permission, type Role } from '../../../contract/permissions';
import type { AuditEntry } from '../../audit';
import type { Queryable } from '../../db';
import { fieldError } from '../../http';
import { lockOrganization } from '../../organizations';
import { endResetsOfFormerManagers } from '../../password-resets';
import { defineRoute, type HandlerInput } from '../../route';
import { describeCheck, optional, type Check, type Shape } from '../../schema';
import { defaultMatrix, FIXED, readMatrix, writeMatrix, writeScopes } from './repo';

const EDITABLE = ROLES.filter((r) => !FIXED.includes(r));

/** The body's matrix: every editable role, each a list of known permissions; the owner row may be sent but must be everything. */
const matrixCheck: Check<Record<Role, Permission[]>> = describeCheck(
  (value, field) => {
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
  },
  { kind: 'object', keys: ROLES },
);

/** D59: what each role sees of customers; a role left out keeps what it sees, and the owner sees all. */
const scopesCheck: Check<Partial<Record<Role, CustomerScope>>> = describeCheck(
  (value, field) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw fieldError(field, 'must be an object of role → all or assigned');
    const out: Partial<Record<Role, CustomerScope>> = {};
    for (const [role, scope] of Object.entries(value as Record<string, unknown>)) {
      if (!(ROLES as readonly string[]).includes(role)) throw fieldError(`${field}.${role}`, 'is not a role');
      if (!(CUSTOMER_SCOPES as readonly unknown[]).includes(scope)) throw fieldError(`${field}.${role}`, "must be 'all' or 'assigned'");
      if (FIXED.includes(role as Role) && scope !== 'all') throw fieldError(`${field}.${role}`, 'cannot be changed: the owner sees all customers');
      out[role as Role] = scope as CustomerScope;
    }
    return out;
  },
  { kind: 'object', keys: ROLES },
);

const ALL_SEE_ALL = Object.fromEntries(ROLES.map((r) => [r, DEFAULT_CUSTOMER_SCOPE])) as Record<Role, CustomerScope>;

/** What changed, per role: the permissions added and removed (the audit entry's changes). */
function diff(
  before: Record<Role, Permission[]>,
  after: Record<Role, Permission[]>,
  scopesBefore: Record<Role, CustomerScope>,
  scopesAfter: Record<Role, CustomerScope>,
) {
  const changes: Record<string, { added: Permission[]; removed: Permission[]; sees?: { from: CustomerScope; to: CustomerScope } }> = {};
  for (const role of EDITABLE) {
    const added = after[role].filter((p) => !before[role].includes(p));
    const removed = before[role].filter((p) => !after[role].includes(p));
    const sees = scopesBefore[role] !== scopesAfter[role] ? { sees: { from: scopesBefore[role], to: scopesAfter[role] } } : {}; // D59
    if (added.length || removed.length || 'sees' in sees) changes[role] = { added, removed, ...sees };
  }
  return changes;
}

/**
 * Writes the matrix `next` gives (from the one before) under the organization's lock, one matrix change at
 * a time, with its audit entry as `action`; a change that changes nothing writes nothing and is not audited.
 */
async function changeMatrix(
  { tx, ctx, caller, audit }: Pick<HandlerInput<'org', Shape, Shape, Shape>, 'tx' | 'ctx' | 'caller' | 'audit'>,
  action: AuditEntry['action'],
  next: (tx: Queryable) => Promise<Record<Role, Permission[]>>,
  nextScopes: (before: Record<Role, CustomerScope>) => Record<Role, CustomerScope>,
) {
  await lockOrganization(tx, caller.org.id);
  const before = await readMatrix(tx, caller.org.id);
  const matrix = await next(tx);
  const scopes = nextScopes(before.scopes);
  const changes = diff(before.matrix, matrix, before.scopes, scopes);
  if (Object.keys(changes).length === 0) return before;
  await writeMatrix(tx, caller.org.id, matrix);
  await writeScopes(tx, caller.org.id, scopes); // D59
  await endResetsOfFormerManagers(tx, caller.org.id, new Date(ctx.now())); // D62
  audit({ action, target: { type: 'permissions', id: null, label: 'Permissions' }, changes });
  return readMatrix(tx, caller.org.id);
}

const read = defineRoute({
  method: 'GET',
  path: '/v1/permissions/',
  access: 'org',
  permission: 'permissions:view',
  handler: ({ tx, caller }) => readMatrix(tx, caller.org.id),
});

const replace = defineRoute({
  method: 'PUT',
  path: '/v1/permissions/',
  access: 'org',
  permission: 'permissions:manage',
  body: { matrix: matrixCheck, scopes: optional(scopesCheck) },
  handler: (input) =>
    changeMatrix(
      input,
      'permissions.changed',
      async () => input.body.matrix,
      (before) => ({ ...before, ...input.body.scopes }),
    ),
});

const reset = defineRoute({
  method: 'POST',
  path: '/v1/permissions/reset/',
  access: 'org',
  permission: 'permissions:manage',
  handler: (input) => changeMatrix(input, 'permissions.reset', defaultMatrix, () => ALL_SEE_ALL),
});

export const permissionRoutes = [read, replace, reset];
