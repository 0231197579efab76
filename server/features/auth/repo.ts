// SPEC §7 the authentication calls' own SQL, user-level (no organization): the account signing in, and
// `me` in one query (D54: with the user's mfa_enabled and each organization's require_mfa).
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

/** The session's expiry, the organization picked (null: none), and `me`'s answer as JSON text. */
export type MeRow = { expires_at: Date; picked: number | null; body: string };

// $1 user, $2 session, $3 the organization asked for (or null). No row: no such session, or revoked; its
// expiry is checked by the caller.
// The answer's JSON comes from row_to_json and array_to_json, compact as JSON.stringify writes it; prefs
// is jsonb, whose text has a space after each comma and colon outside strings, taken out here. Issue 21:
// the session and user are the statement's one row and the organization picked a lateral join on it
// (CTEs for them, each read through further subqueries, cost PostgreSQL about a tenth more per call).
const ME_SQL = `
  with orgs as (
    select o.id, o.name, o.logo_url, o.require_mfa, o.features, m.role
      from memberships m join organizations o on o.id = m.org_id
     where m.user_id = $1)
  select s.expires_at, p.id as picked, row_to_json(answer)::text as body
    from sessions s join users u on u.id = s.user_id
    left join lateral (
      select id, role, features from orgs
       where id = case when $3::int is not null then $3::int
                       when u.favorite_org_id in (select id from orgs) then u.favorite_org_id
                       when (select count(*) from orgs) = 1 then (select id from orgs)
                  end) p on true
   cross join lateral (select
      (select row_to_json(x) from (select u.email, u.first_name, u.avatar_url,
              exists (select 1 from user_mfa f where f.user_id = u.id and f.enabled_at is not null) as mfa_enabled) x) as "user",
      coalesce((select array_to_json(array_agg(o order by o.name, o.id)) from (select id, name, logo_url, require_mfa from orgs) o), '[]') as organizations,
      coalesce((select array_to_json(array_agg(rp.permission order by rp.permission))
                  from role_permissions rp where rp.org_id = p.id and rp.role = p.role), '[]') as permissions,
      case when p.features is null or p.features = '[]' then '[]'::json else (select coalesce(array_to_json(array_agg(f.value order by f.at)), '[]')
                  from jsonb_array_elements(case when jsonb_typeof(p.features) = 'array' then p.features else '[]' end) with ordinality f(value, at)
                 where jsonb_typeof(f.value) = 'string') end as features,
      p.role as role,
      case when p.role is null then null
           when p.role <> 'owner' and exists (select 1 from role_scopes rs where rs.org_id = p.id and rs.role = p.role and rs.sees = 'assigned')
           then 'assigned' else 'all' end as customers_scope,
      case when u.prefs = '{}' then '{}'::json when jsonb_typeof(u.prefs) = 'object'
           then regexp_replace(u.prefs::text, '("(?:[^"\\\\]|\\\\.)*")|([,:]) ', '\\1\\2', 'g')::json else '{}'::json end as prefs,
      u.favorite_org_id) answer
   where s.id = $2 and s.user_id = $1 and s.revoked_at is null`;

/**
 * `me` for a session: its user with their organizations, and the role and permissions in the one asked
 * for, else the favorite, else the only one; null without such a session.
 */
export async function meAnswer(db: Queryable, userId: number, sessionId: number, asked: number | null): Promise<MeRow | null> {
  const [found] = await db.query<MeRow>(ME_SQL, [userId, sessionId, asked]);
  return found ?? null;
}
