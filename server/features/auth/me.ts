// SPEC §7 GET /v1/auth/me/: the user, their organizations, and role, permissions and features in the
// organization the request names (X-Organization-ID), else the favorite, else the only one (D4, D9).
// One query: the session's liveness is part of it (the route's access is 'token'). D34: kept on PGlite
// until anything is written (`remember`); the session's expiry is checked here, so a kept one still ends.
import { notAMember, organizationIdFrom, sessionEnded } from '../../auth/access';
import { num } from '../../db';
import { defineRoute } from '../../route';
import { meRow } from './repo';

const features = (value: unknown): string[] => (Array.isArray(value) ? value.filter((f): f is string => typeof f === 'string') : []);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export const me = defineRoute({
  method: 'GET',
  path: '/v1/auth/me/',
  access: 'token',
  remember: true,
  async handler({ req, ctx, tx, principal }) {
    const asked = organizationIdFrom(req);
    const row = await meRow(tx, principal.userId, principal.sessionId, asked);
    if (!row || row.expires_at.getTime() <= ctx.now()) throw sessionEnded();
    const orgs = row.orgs ?? [];
    const org = row.picked === null ? null : (orgs.find((o) => num(o.id) === num(row.picked)) ?? null);
    if (asked !== null && !org) throw notAMember(asked); // D9: never another organization's role
    return {
      user: { email: row.email, first_name: row.first_name, avatar_url: row.avatar_url },
      organizations: orgs.map(({ id, name, logo_url }) => ({ id: num(id), name, logo_url })),
      permissions: org ? (row.permissions ?? []) : [],
      features: org ? features(org.features) : [],
      role: org ? org.role : null,
      prefs: isObject(row.prefs) ? row.prefs : {},
      favorite_org_id: row.favorite_org_id === null ? null : num(row.favorite_org_id),
    };
  },
});
