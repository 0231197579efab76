// D51 D52: the person's own account and sessions, user-level SQL (no organization). Revocations lock the
// session rows as the refresh does (sessions.ts), so a refresh racing them sees them revoked.
import type { Queryable } from '../../db';
import { num } from '../../db';

export type AccountRow = {
  id: number;
  email: string;
  first_name: string;
  password_hash: string;
  created_at: Date;
  /** D54: two-step sign-in confirmed (a pending enrolment is not on). */
  mfa_enabled: boolean;
  /** D54: unused recovery codes, null while it is off. */
  recovery_codes_left: number | null;
};

/** The account with its password hash; `lock` holds the row until the transaction ends. */
export async function findAccount(db: Queryable, userId: number, opts: { lock?: boolean } = {}): Promise<AccountRow | null> {
  const [row] = await db.query<AccountRow & { id: unknown; recovery_codes_left: unknown }>(
    `select u.id, u.email, u.first_name, u.password_hash, u.created_at,
            exists (select 1 from user_mfa f where f.user_id = u.id and f.enabled_at is not null) as mfa_enabled,
            (select count(*) from mfa_recovery_codes c where c.user_id = u.id and c.used_at is null) as recovery_codes_left
       from users u where u.id = $1${opts.lock ? ' for update of u' : ''}`,
    [userId],
  );
  return row ? { ...row, id: num(row.id), recovery_codes_left: row.mfa_enabled ? num(row.recovery_codes_left) : null } : null;
}

/** Whether another account has this email (any case). */
export async function emailTaken(db: Queryable, email: string, exceptUserId: number): Promise<boolean> {
  const rows = await db.query('select 1 from users where lower(email) = lower($1) and id <> $2', [email, exceptUserId]);
  return rows.length > 0;
}

/** Sets the fields given; false when the email is taken (unique index) meanwhile. */
export async function updateAccount(db: Queryable, userId: number, fields: { first_name?: string; email?: string }): Promise<boolean> {
  try {
    await db.query('update users set first_name = coalesce($2, first_name), email = coalesce($3, email) where id = $1', [
      userId,
      fields.first_name ?? null,
      fields.email ?? null,
    ]);
    return true;
  } catch (err) {
    if (err instanceof Error && 'code' in err && err.code === '23505') return false;
    throw err;
  }
}

export async function setPasswordHash(db: Queryable, userId: number, hash: string): Promise<void> {
  await db.query('update users set password_hash = $2 where id = $1', [userId, hash]);
}

/** The organizations the person is a member of (D30: where their account's entries are written). */
export async function organizationsOf(db: Queryable, userId: number): Promise<number[]> {
  const rows = await db.query<{ org_id: unknown }>('select org_id from memberships where user_id = $1 order by org_id', [userId]);
  return rows.map((r) => num(r.org_id));
}

export type SessionRow = {
  id: number;
  user_agent: string | null;
  address: string | null;
  created_at: Date;
  last_active_at: Date | null;
};

/** D52: the person's live sessions, the current one first, then the most recently active. */
export async function liveSessions(db: Queryable, userId: number, currentId: number, now: Date): Promise<SessionRow[]> {
  const rows = await db.query<SessionRow & { id: unknown }>(
    `select id, user_agent, address, created_at, last_active_at from sessions
      where user_id = $1 and revoked_at is null and expires_at > $3
      order by (id = $2) desc, coalesce(last_active_at, created_at) desc, id desc`,
    [userId, currentId, now],
  );
  return rows.map((r) => ({ ...r, id: num(r.id) }));
}

/**
 * D16 D52: ends the person's live sessions (all, or all but `keep`; only `only` when given), locking each
 * row first as a refresh does; returns the ids ended. Their refresh tokens' sealed successors go too
 * (as sessions.ts's revocation), so no grace-window answer outlives them.
 */
export async function revokeSessions(db: Queryable, userId: number, reason: string, now: Date, which: { keep?: number; only?: number } = {}): Promise<number[]> {
  const rows = await db.query<{ id: unknown }>(
    `update sessions set revoked_at = $2, revoked_reason = $3
      where id in (select id from sessions
                    where user_id = $1 and revoked_at is null and expires_at > $2
                      and ($4::bigint is null or id <> $4) and ($5::bigint is null or id = $5)
                    order by id for update)
      returning id`,
    [userId, now, reason, which.keep ?? null, which.only ?? null],
  );
  const ids = rows.map((r) => num(r.id));
  if (ids.length) {
    await db.query(
      `update refresh_tokens set successor_sealed = null
        where session_id in (select id from sessions where user_id = $1 and revoked_at = $2 and revoked_reason = $3) and successor_sealed is not null`,
      [userId, now, reason],
    );
  }
  return ids;
}
