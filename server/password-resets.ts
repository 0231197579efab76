// D53 password reset links: a random token (256 bits) answered once, stored only as its SHA-256; valid 1
// hour; used once. Made in one organization by a member who may vouch for the person (the team feature:
// features/team/reset-link.ts), used on the public reset page (the account feature: features/account/).
// D62: the rule is checked again when the link is used (stillHolds), and open links end (their hour set
// to now) when the person's password, membership or role changes, or their maker loses team:manage.
import { RESET_LINK_LIFETIME_MS } from '../contract/account';
import { hashToken, newRefreshToken } from './auth/tokens';
import type { Queryable } from './db';
import { num } from './db';
import { mayVouchFor } from './vouch';

export type ResetRow = {
  id: number;
  user_id: number;
  org_id: number;
  email: string;
  first_name: string;
  created_by: number | null;
  expires_at: Date;
  used_at: Date | null;
};

/** A new link for the person; earlier unused links of theirs stay valid until their own hour ends. */
export async function createReset(tx: Queryable, userId: number, orgId: number, createdBy: number, now: Date): Promise<{ token: string; expiresAt: Date }> {
  const token = newRefreshToken(); // the same 256 random bits as a refresh token
  const expiresAt = new Date(now.getTime() + RESET_LINK_LIFETIME_MS);
  await tx.query('insert into password_resets (token_hash, user_id, org_id, created_by, created_at, expires_at) values ($1, $2, $3, $4, $5, $6)', [
    hashToken(token),
    userId,
    orgId,
    createdBy,
    now,
    expiresAt,
  ]);
  return { token, expiresAt };
}

/** The link a token opens, with its person; `lock` holds it until the transaction ends (single use). */
export async function resetByToken(db: Queryable, token: string, opts: { lock?: boolean } = {}): Promise<ResetRow | null> {
  const [row] = await db.query<ResetRow & { id: unknown; user_id: unknown; org_id: unknown }>(
    `select r.id, r.user_id, r.org_id, r.created_by, u.email, u.first_name, r.expires_at, r.used_at
       from password_resets r join users u on u.id = r.user_id
      where r.token_hash = $1${opts.lock ? ' for update of r' : ''}`,
    [hashToken(token)],
  );
  return row ? { ...row, id: num(row.id), user_id: num(row.user_id), org_id: num(row.org_id), created_by: row.created_by === null ? null : num(row.created_by) } : null;
}

/** D62: the maker is still a member with team:manage who may vouch for the person (D53), who is still a member there. */
export async function stillHolds(tx: Queryable, link: ResetRow): Promise<boolean> {
  if (link.created_by === null) return false;
  const [maker] = await tx.query(
    `select 1 from memberships m
       join role_permissions rp on rp.org_id = m.org_id and rp.role = m.role and rp.permission = 'team:manage'
      where m.org_id = $1 and m.user_id = $2`,
    [link.org_id, link.created_by],
  );
  return Boolean(maker) && (await mayVouchFor(tx, link.org_id, link.created_by, link.user_id)) === null;
}

/** D62: every open link for this person ends (their password, membership or role changed, or they were removed). */
export async function endResetsFor(tx: Queryable, userId: number, now: Date): Promise<void> {
  await tx.query('update password_resets set expires_at = $2 where user_id = $1 and used_at is null and expires_at > $2', [userId, now]);
}

/** D62: every open link made in the organization by someone who is no longer a member with team:manage there ends. */
export async function endResetsOfFormerManagers(tx: Queryable, orgId: number, now: Date): Promise<void> {
  await tx.query(
    `update password_resets r set expires_at = $2
      where r.org_id = $1 and r.used_at is null and r.expires_at > $2
        and not exists (select 1 from memberships m
                          join role_permissions rp on rp.org_id = m.org_id and rp.role = m.role and rp.permission = 'team:manage'
                         where m.org_id = r.org_id and m.user_id = r.created_by)`,
    [orgId, now],
  );
}

export async function markResetUsed(tx: Queryable, id: number, now: Date): Promise<void> {
  await tx.query('update password_resets set used_at = $2 where id = $1', [id, now]);
}

/** Housekeeping: links past their hour are kept a while for the record, then deleted. */
export async function pruneResets(db: Queryable, before: Date): Promise<void> {
  await db.query('delete from password_resets where expires_at < $1', [before]);
}
