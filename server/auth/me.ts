// SPEC §7 GET /v1/auth/me/: the user, their organizations, and role, permissions and features in the
// organization the request names (X-Organization-ID), else the favorite, else the only one (D4, D9).
import type { IncomingMessage } from 'node:http';
import type { Ctx, Handler } from '../context';
import { num } from '../db';
import { fieldError, HttpError, sendJson } from '../http';
import { authenticate } from './authenticate';

export const ORG_HEADER = 'x-organization-id';
/** As clients spell it, in error answers. */
export const ORG_HEADER_NAME = 'X-Organization-ID';
const MAX_ORG_ID = 2_147_483_647; // integer column

export interface Membership {
  id: number;
  name: string;
  logo_url: string | null;
  role: string;
  features: string[];
}

const features = (value: unknown): string[] => (Array.isArray(value) ? value.filter((f): f is string => typeof f === 'string') : []);

export async function membershipsOf(ctx: Ctx, userId: number): Promise<Membership[]> {
  const rows = await ctx.db.query<{ id: unknown; name: string; logo_url: string | null; role: string; features: unknown }>(
    `select o.id, o.name, o.logo_url, o.features, m.role
       from memberships m join organizations o on o.id = m.org_id
      where m.user_id = $1
      order by o.name, o.id`,
    [userId],
  );
  return rows.map((r) => ({ id: num(r.id), name: r.name, logo_url: r.logo_url, role: r.role, features: features(r.features) }));
}

/** D9: the id in X-Organization-ID, or null without the header; a malformed value is a 400 naming it. */
export function organizationIdFrom(req: IncomingMessage): number | null {
  const raw = req.headers[ORG_HEADER];
  if (raw === undefined) return null;
  const text = Array.isArray(raw) ? raw.join(',') : raw.trim();
  const id = /^\d{1,10}$/.test(text) ? Number(text) : NaN;
  if (!(id >= 1 && id <= MAX_ORG_ID)) {
    throw fieldError(ORG_HEADER_NAME, 'must be a positive integer', 'invalid_organization_id');
  }
  return id;
}

/**
 * D9: the organization a request acts in. A malformed X-Organization-ID is a 400, one the user is not a
 * member of a 403. Without the header: the favorite, else the only organization, else none.
 */
export function requestOrganization(req: IncomingMessage, memberships: Membership[], favoriteOrgId: number | null): Membership | null {
  const id = organizationIdFrom(req);
  if (id === null) {
    return memberships.find((m) => m.id === favoriteOrgId) ?? (memberships.length === 1 ? (memberships[0] ?? null) : null);
  }
  const org = memberships.find((m) => m.id === id);
  if (!org) throw new HttpError(403, 'not_a_member', `You are not a member of organization ${id}`);
  return org;
}

export async function permissionsOf(ctx: Ctx, role: string): Promise<string[]> {
  const rows = await ctx.db.query<{ permission: string }>('select permission from role_permissions where role = $1 order by permission', [role]);
  return rows.map((r) => r.permission);
}

export const me: Handler = async (req, res, ctx) => {
  const { userId } = await authenticate(req, ctx);
  const [user] = await ctx.db.query<{ email: string; first_name: string; avatar_url: string | null; favorite_org_id: unknown; prefs: unknown }>(
    'select email, first_name, avatar_url, favorite_org_id, prefs from users where id = $1',
    [userId],
  );
  if (!user) throw new HttpError(401, 'session_ended', 'The account no longer exists');
  const favoriteOrgId = user.favorite_org_id === null ? null : num(user.favorite_org_id);
  const memberships = await membershipsOf(ctx, userId);
  const org = requestOrganization(req, memberships, favoriteOrgId);
  sendJson(res, 200, {
    user: { email: user.email, first_name: user.first_name, avatar_url: user.avatar_url },
    organizations: memberships.map(({ id, name, logo_url }) => ({ id, name, logo_url })),
    permissions: org ? await permissionsOf(ctx, org.role) : [],
    features: org ? org.features : [],
    role: org ? org.role : null,
    prefs: typeof user.prefs === 'object' && user.prefs !== null && !Array.isArray(user.prefs) ? user.prefs : {},
    favorite_org_id: favoriteOrgId,
  });
};
