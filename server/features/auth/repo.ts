// SPEC §7 the authentication calls' own SQL, user-level (no organization): the account signing in, and
// `me` in one query.
import type { Queryable } from '../../db';

/** The account an email signs in to (`email` lower-cased), with its password hash. */
export async function loginAccount(db: Queryable, email: string): Promise<{ id: unknown; password_hash: string } | undefined> {
  const [user] = await db.query<{ id: unknown; password_hash: string }>('select id, password_hash from users where lower(email) = $1', [email]);
  return user;
}

/** D17: a rehashed password, unless the hash changed meanwhile (another login or a reset got there first). */
export async function replacePasswordHash(db: Queryable, userId: number, hash: string, old: string): Promise<void> {
  await db.query('update users set password_hash = $2 where id = $1 and password_hash = $3', [userId, hash, old]);
}

export type MeRow = {
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

// $1 user, $2 session, $3 the organization asked for (or null). No row: no such session, or revoked; its
// expiry is checked by the caller, so the statement names no time (a kept answer still ends on time).
const ME_SQL = `
  with me as (
    select u.*, s.expires_at from users u join sessions s on s.user_id = u.id
     where u.id = $1 and s.id = $2 and s.revoked_at is null),
  orgs as (
    select o.id, o.name, o.logo_url, o.features, m.role
      from memberships m join organizations o on o.id = m.org_id
     where m.user_id = $1 and exists (select 1 from me)),
  picked as (
    select id, role from orgs
     where id = case when $3::int is not null then $3::int
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

/** A session's user with their organizations, and the role and permissions in the one asked for, else the favorite, else the only one; null without such a session. */
export async function meRow(db: Queryable, userId: number, sessionId: number, asked: number | null): Promise<MeRow | null> {
  const [found] = await db.query<MeRow>(ME_SQL, [userId, sessionId, asked]);
  return found ?? null;
}
