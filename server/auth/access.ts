// D9: the server enforces organization membership and the role's permissions (D10) on every call
// that acts in an organization. Permissions come from the role_permissions table, as in `me`.
import type { IncomingMessage } from 'node:http';
import type { Ctx } from '../context';
import { fieldError, HttpError } from '../http';
import { ORG_HEADER_NAME, organizationIdFrom } from './me';

export interface OrgAccess {
  orgId: number;
  role: string;
}

/**
 * The organization named by X-Organization-ID, after checking that `userId` is a member whose role
 * grants `permission`. Missing or malformed header: 400 naming it; not a member, or a role without
 * the permission: 403. Call it after authenticate(), so a dead session is a 401 first.
 */
export async function requireOrgPermission(req: IncomingMessage, ctx: Ctx, userId: number, permission: string): Promise<OrgAccess> {
  const orgId = organizationIdFrom(req);
  // Calls that act in an organization never guess it (unlike `me`): the tab names the one it shows (D21).
  if (orgId === null) throw fieldError(ORG_HEADER_NAME, 'header is required', 'missing_organization_id');
  const [row] = await ctx.db.query<{ role: string; allowed: boolean }>(
    `select m.role,
            exists (select 1 from role_permissions rp where rp.role = m.role and rp.permission = $3) as allowed
       from memberships m
      where m.user_id = $1 and m.org_id = $2`,
    [userId, orgId, permission],
  );
  if (!row) throw new HttpError(403, 'not_a_member', `You are not a member of organization ${orgId}`);
  if (!row.allowed) throw new HttpError(403, 'permission_denied', `Your role (${row.role}) does not grant ${permission}`);
  return { orgId, role: row.role };
}
