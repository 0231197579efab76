// D9 D16: who is calling, in one place. Every 401 and 403 of the API is built here. A bearer token
// counts only while its session is live, so logout and revocation take effect at once; the caller's
// session, user, membership, role and the role's permissions in the named organization come back in
// one query (D29: permissions are read per request, so a change applies to the next one). D54: a member
// of an organization that requires two-step sign-in, without it, is refused every organization call.
import type { IncomingMessage } from 'node:http';
import type { Permission } from '../../contract/permissions';
import type { Ctx } from '../context';
import type { Queryable } from '../db';
import { orgKey, setGateKey, userKey } from '../gate-key';
import { fieldError, HttpError } from '../http';
import { MAX_INT4 } from '../schema';
import { verifyAccessToken } from './jwt';

export const ORG_HEADER = 'x-organization-id';
/** As clients spell it, in error answers. */
export const ORG_HEADER_NAME = 'X-Organization-ID';

/** What a valid access token says, before the database is asked. */
export interface TokenPrincipal {
  userId: number;
  sessionId: number;
}

/** A live session's user. */
export interface Caller extends TokenPrincipal {
  email: string;
  firstName: string;
}

/** A member acting in one organization, with the role's permissions there. */
export interface OrgCaller extends Caller {
  /** D59 seesOnlyAssigned: the role sees only customers assigned to the caller (customer-scope.ts). */
  org: { id: number; role: string; permissions: ReadonlySet<string>; seesOnlyAssigned: boolean };
}

export const unauthorized = (code: string, detail: string) =>
  new HttpError(401, code, detail, { 'WWW-Authenticate': `Bearer error="invalid_token", error_description="${detail}"` });
export const sessionEnded = () => unauthorized('session_ended', 'The session has ended; log in again');
export const notAMember = (orgId: number) => new HttpError(403, 'not_a_member', `You are not a member of organization ${orgId}`);
/** D54: the organization requires two-step sign-in and the caller has not turned it on (the app sends them to enrol). */
export const mfaEnrolmentRequired = () => new HttpError(403, 'mfa_enrolment_required', 'This organization requires two-step sign-in; turn it on in your account first');
export const permissionDenied = (role: string, permission: Permission) => new HttpError(403, 'permission_denied', `Your role (${role}) does not grant ${permission}`);

/** D16: the access token's user and session, checked for form, signature, expiry and claim ranges; or a 401. */
export function verifyBearer(req: IncomingMessage, ctx: Ctx): TokenPrincipal {
  const header = req.headers.authorization;
  if (!header) throw new HttpError(401, 'not_authenticated', 'Authentication required', { 'WWW-Authenticate': 'Bearer' });
  const m = /^Bearer +(\S+) *$/i.exec(header);
  if (!m?.[1]) throw unauthorized('invalid_token', 'Authorization must be "Bearer <access token>"');
  const result = verifyAccessToken(m[1], ctx.jwtSecret, Math.floor(ctx.now() / 1000));
  if (!result.ok) {
    throw result.reason === 'expired' ? unauthorized('token_expired', 'Access token has expired') : unauthorized('invalid_token', 'Access token is not valid');
  }
  const userId = Number(result.claims.sub);
  setGateKey(userKey(userId)); // D34: the caller look-up and whatever follows wait in this user's turn
  return { userId, sessionId: result.claims.sid };
}

/** D9: the id in X-Organization-ID, or null without the header; a malformed value is a 400 naming it. */
export function organizationIdFrom(req: IncomingMessage): number | null {
  const raw = req.headers[ORG_HEADER];
  if (raw === undefined) return null;
  const text = Array.isArray(raw) ? raw.join(',') : raw.trim();
  const id = /^\d{1,10}$/.test(text) ? Number(text) : NaN;
  if (!(id >= 1 && id <= MAX_INT4)) throw fieldError(ORG_HEADER_NAME, 'must be a positive integer', 'invalid_organization_id');
  return id;
}

type CallerRow = {
  email: string;
  first_name: string;
  role: string | null;
  permissions: unknown;
  expires_at: Date;
  mfa_missing: boolean | null;
  assigned_only: boolean | null;
};

// $1 session, $2 user, $3 organization or null. No row: no such session, or revoked.
const CALLER_SQL = `
  select u.email, u.first_name, m.role, s.expires_at,
         (select coalesce(json_agg(rp.permission), '[]'::json)
            from role_permissions rp where rp.org_id = m.org_id and rp.role = m.role) as permissions,
         (select rs.sees = 'assigned' and m.role <> 'owner'
            from role_scopes rs where rs.org_id = m.org_id and rs.role = m.role) as assigned_only,
         (select o.require_mfa and not exists (select 1 from user_mfa f where f.user_id = s.user_id and f.enabled_at is not null)
            from organizations o where o.id = m.org_id) as mfa_missing
    from sessions s
    join users u on u.id = s.user_id
    left join memberships m on m.user_id = s.user_id and m.org_id = $3
   where s.id = $1 and s.user_id = $2 and s.revoked_at is null`;

/** The caller's row while the session is live, or a 401. */
async function callerRow(db: Queryable, p: TokenPrincipal, orgId: number | null, nowMs: number): Promise<CallerRow> {
  const [row] = await db.query<CallerRow>(CALLER_SQL, [p.sessionId, p.userId, orgId]);
  if (!row || row.expires_at.getTime() <= nowMs) throw sessionEnded();
  return row;
}

const asCaller = (p: TokenPrincipal, row: CallerRow): Caller => ({ ...p, email: row.email, firstName: row.first_name });

/** A live session's user, or a 401. */
export async function requireUser(req: IncomingMessage, ctx: Ctx, db: Queryable = ctx.db): Promise<Caller> {
  const principal = verifyBearer(req, ctx);
  return asCaller(principal, await callerRow(db, principal, null, ctx.now()));
}

/**
 * D9 D21: a member of the organization the tab names, whose role grants `permission`. In order: a dead
 * session is a 401 first (so the client refreshes, SPEC §7), then a missing or malformed header is a
 * 400, then not a member or not allowed a 403.
 */
export async function requireMember(req: IncomingMessage, ctx: Ctx, permission: Permission, db: Queryable = ctx.db): Promise<OrgCaller> {
  const principal = verifyBearer(req, ctx);
  let orgId: number | null;
  try {
    orgId = organizationIdFrom(req);
    // Calls that act in an organization never guess it (unlike `me`): the tab names the one it shows.
    if (orgId === null) throw fieldError(ORG_HEADER_NAME, 'header is required', 'missing_organization_id');
  } catch (err) {
    await callerRow(db, principal, null, ctx.now()); // 401 wins over 400
    throw err;
  }
  const row = await callerRow(db, principal, orgId, ctx.now());
  if (row.role === null) throw notAMember(orgId);
  if (row.mfa_missing) throw mfaEnrolmentRequired(); // D54: before any permission is looked at
  const permissions = new Set(Array.isArray(row.permissions) ? (row.permissions as string[]) : []);
  if (!permissions.has(permission)) throw permissionDenied(row.role, permission);
  setGateKey(orgKey(orgId)); // D34: a member's work waits in the organization's turn
  return { ...asCaller(principal, row), org: { id: orgId, role: row.role, permissions, seesOnlyAssigned: row.assigned_only === true } };
}

/** D38: the advisory lock of one organization's roles and permissions (pg_advisory_xact_lock(namespace, org)). */
const ORG_LOCK_NAMESPACE = 72_410_201;

/**
 * D38: the caller's membership, role and permission read again inside the change's own transaction,
 * after taking the organization's lock: shared for ordinary changes, exclusive (`changesAccess`) for
 * those that change roles or permissions. A demotion or removal therefore either committed before the
 * change's read (which then sees it: 403) or waits until the change has committed; never both after.
 */
export async function recheckMember(tx: Queryable, caller: OrgCaller, permission: Permission, nowMs: number, changesAccess: boolean): Promise<OrgCaller> {
  const orgId = caller.org.id;
  await tx.query(`select ${changesAccess ? 'pg_advisory_xact_lock' : 'pg_advisory_xact_lock_shared'}($1, $2)`, [ORG_LOCK_NAMESPACE, orgId]);
  const row = await callerRow(tx, caller, orgId, nowMs);
  if (row.role === null) throw notAMember(orgId);
  if (row.mfa_missing) throw mfaEnrolmentRequired(); // D54 D38: turned on a moment ago counts
  const permissions = new Set(Array.isArray(row.permissions) ? (row.permissions as string[]) : []);
  if (!permissions.has(permission)) throw permissionDenied(row.role, permission);
  return { ...caller, org: { id: orgId, role: row.role, permissions, seesOnlyAssigned: row.assigned_only === true } };
}
