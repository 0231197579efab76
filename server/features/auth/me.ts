// SPEC §7 GET /v1/auth/me/: the user, their organizations, and role, permissions and features in the
// organization the request names (X-Organization-ID), else the favorite, else the only one (D4, D9).
// One query: the session's liveness is part of it (the route's access is 'token').
import { remembered } from '../../answer-cache';
import { notAMember, organizationIdFrom, sessionEnded } from '../../auth/access';
import { num } from '../../db';
import { defineRoute } from '../../route';

type MeRow = {
  email: string;
  first_name: string;
  avatar_url: string | null;
  favorite_org_id: unknown;
  prefs: unknown;
  orgs: { id: number; name: string; logo_url: string | null; role: string; features: unknown }[] | null;
  picked: number | null;
  expires_at: Date;
  permissions: string[] | null;
};

// $1 user, $2 session, $3 now, $4 the organization asked for (or null). No row: the session is not live.
const ME_SQL = `
  with me as (
    select u.*, s.expires_at from users u join sessions s on s.user_id = u.id
     where u.id = $1 and s.id = $2 and s.revoked_at is null and s.expires_at > $3),
  orgs as (
    select o.id, o.name, o.logo_url, o.features, m.role
      from memberships m join organizations o on o.id = m.org_id
     where m.user_id = $1 and exists (select 1 from me)),
  picked as (
    select id, role from orgs
     where id = case when $4::int is not null then $4::int
                     when (select favorite_org_id from me) in (select id from orgs) then (select favorite_org_id from me)
                     when (select count(*) from orgs) = 1 then (select id from orgs)
                end)
  select me.email, me.expires_at, me.first_name, me.avatar_url, me.favorite_org_id, me.prefs,
         (select json_agg(json_build_object('id', id, 'name', name, 'logo_url', logo_url, 'role', role, 'features', features)
                          order by name, id) from orgs) as orgs,
         (select id from picked) as picked,
         (select json_agg(rp.permission order by rp.permission)
            from role_permissions rp join picked p on rp.org_id = p.id and rp.role = p.role) as permissions
    from me`;

const features = (value: unknown): string[] => (Array.isArray(value) ? value.filter((f): f is string => typeof f === 'string') : []);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export const me = defineRoute({
  method: 'GET', path: '/v1/auth/me/', access: 'token',
  async handler({ req, ctx, principal }) {
    const asked = organizationIdFrom(req);
    const now = ctx.now();
    const row = await remembered(ctx.db, `me:${principal.sessionId}:${principal.userId}:${asked}`, async () => {
      const [found] = await ctx.db.query<MeRow>(ME_SQL, [principal.userId, principal.sessionId, new Date(now), asked]);
      return found ?? null;
    });
    if (!row || row.expires_at.getTime() <= now) throw sessionEnded();
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
