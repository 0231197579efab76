// D16 sessions and D8 refresh-token rotation, kept in the database so any instance can serve any call.
// The lifetimes (D16, SPEC §9) and the grace window (D8) are contract/session.ts's, shared with the app.
import { MAX_SESSION_AGE_MS, REFRESH_GRACE_MS, REMEMBER_ME_LIFETIME_MS, SHORT_SESSION_LIFETIME_MS } from '../../contract/session';
import { DAY_MS } from '../../contract/time';
import type { Db, Queryable } from '../db';
import { num } from '../db';
import { hashToken, newRefreshToken, openSuccessor, sealSuccessor } from './tokens';

export { MAX_SESSION_AGE_MS };
/** Ended sessions (and their refresh-token rows) are kept this long for the record, then deleted. */
export const ENDED_SESSION_RETENTION_MS = 30 * DAY_MS;

/** D16: the expiry after a login or refresh at `now`. */
export function sessionExpiry(createdAtMs: number, nowMs: number, rememberMe: boolean): number {
  return Math.min(nowMs + (rememberMe ? REMEMBER_ME_LIFETIME_MS : SHORT_SESSION_LIFETIME_MS), createdAtMs + MAX_SESSION_AGE_MS);
}

export interface IssuedSession {
  sessionId: number;
  userId: number;
  refreshToken: string;
  expiresAt: Date;
}

async function insertRefreshToken(tx: Queryable, sessionId: number, now: Date): Promise<{ id: number; token: string }> {
  const token = newRefreshToken();
  const [row] = await tx.query<{ id: unknown }>('insert into refresh_tokens (session_id, token_hash, created_at) values ($1, $2, $3) returning id', [
    sessionId,
    hashToken(token),
    now,
  ]);
  return { id: num(row?.id), token };
}

/** D52 D63: the browser (User-Agent) and address a session was made from. */
export interface SessionOrigin {
  agent: string | null;
  address: string;
}

/** D63: the session names its browser, system and address from the first moment. */
export function createSession(db: Db, userId: number, rememberMe: boolean, nowMs: number, origin: SessionOrigin): Promise<IssuedSession> {
  const now = new Date(nowMs);
  const expiresAt = new Date(sessionExpiry(nowMs, nowMs, rememberMe));
  return db.transaction(async (tx) => {
    const [row] = await tx.query<{ id: unknown }>(
      `insert into sessions (user_id, remember_me, created_at, expires_at, last_active_at, user_agent, address)
       values ($1, $2, $3, $4, $3, $5, $6) returning id`,
      [userId, rememberMe, now, expiresAt, origin.agent, origin.address],
    );
    const sessionId = num(row?.id);
    const { token } = await insertRefreshToken(tx, sessionId, now);
    return { sessionId, userId, refreshToken: token, expiresAt };
  });
}

export type RotateResult = ({ kind: 'rotated' | 'grace' } & IssuedSession) | { kind: 'unknown' | 'revoked' | 'expired' } | { kind: 'reused'; sessionId: number };

type SessionRow = { user_id: unknown; remember_me: boolean; created_at: Date; expires_at: Date; revoked_at: Date | null };
type TokenRow = { id: unknown; used_at: Date | null; successor_sealed: string | null };

/**
 * D8/D16: trades a refresh token for its successor. Unused: rotate and slide the session's expiry.
 * Rotated out less than REFRESH_GRACE_MS ago: the same successor again. Rotated out earlier: reuse,
 * which revokes the whole session.
 */
export async function rotateRefreshToken(db: Db, token: string, nowMs: number): Promise<RotateResult> {
  const now = new Date(nowMs);
  const tokenHash = hashToken(token);
  return db.transaction(async (tx): Promise<RotateResult> => {
    // Row locks, always the session's first and then its tokens' (as revocation takes them), so a refresh
    // racing a logout or another refresh of the session waits instead of deadlocking. FOR UPDATE: two
    // instances presenting the same token at once are serialized; the second sees it used.
    const [owner] = await tx.query<{ session_id: unknown }>('select session_id from refresh_tokens where token_hash = $1', [tokenHash]);
    if (!owner) return { kind: 'unknown' };
    const sessionId = num(owner.session_id);
    const [session] = await tx.query<SessionRow>('select user_id, remember_me, created_at, expires_at, revoked_at from sessions where id = $1 for update', [sessionId]);
    const [row] = await tx.query<TokenRow>('select id, used_at, successor_sealed from refresh_tokens where token_hash = $1 for update', [tokenHash]);
    if (!session || !row) return { kind: 'unknown' }; // deleted meanwhile by housekeeping
    const userId = num(session.user_id);
    if (session.revoked_at) return { kind: 'revoked' };
    if (session.expires_at.getTime() <= nowMs) return { kind: 'expired' };

    if (row.used_at === null) {
      const next = await insertRefreshToken(tx, sessionId, now);
      await tx.query('update refresh_tokens set used_at = $2, successor_id = $3, successor_sealed = $4 where id = $1', [
        num(row.id),
        now,
        next.id,
        sealSuccessor(next.token, token),
      ]);
      const expiresAt = new Date(sessionExpiry(session.created_at.getTime(), nowMs, session.remember_me));
      await tx.query('update sessions set last_refresh_at = $2, expires_at = $3 where id = $1', [sessionId, now, expiresAt]);
      return { kind: 'rotated', sessionId, userId, refreshToken: next.token, expiresAt };
    }

    const successor = row.successor_sealed ? openSuccessor(row.successor_sealed, token) : null;
    if (nowMs - row.used_at.getTime() <= REFRESH_GRACE_MS && successor) {
      return { kind: 'grace', sessionId, userId, refreshToken: successor, expiresAt: session.expires_at };
    }
    // D8: reuse after the grace window: someone else may hold this token. End the session for everyone.
    await revokeIn(tx, sessionId, 'refresh_token_reuse', now);
    return { kind: 'reused', sessionId };
  });
}

/** Locks the session row, then its tokens' rows: the order rotateRefreshToken keeps too. */
async function revokeIn(q: Queryable, sessionId: number, reason: string, now: Date): Promise<void> {
  await q.query('update sessions set revoked_at = coalesce(revoked_at, $2), revoked_reason = coalesce(revoked_reason, $3) where id = $1', [sessionId, now, reason]);
  await q.query('update refresh_tokens set successor_sealed = null where session_id = $1 and successor_sealed is not null', [sessionId]);
}

/** D16 logout: revokes the session (idempotent). */
export function revokeSession(db: Db, sessionId: number, reason: string, nowMs: number): Promise<void> {
  return db.transaction((tx) => revokeIn(tx, sessionId, reason, new Date(nowMs)));
}

/** The session a refresh token belongs to, whatever its state; null for an unknown token. */
export async function sessionOfRefreshToken(db: Queryable, token: string): Promise<number | null> {
  const [row] = await db.query<{ session_id: unknown }>('select session_id from refresh_tokens where token_hash = $1', [hashToken(token)]);
  return row ? num(row.session_id) : null;
}

/** True when the session exists, belongs to the user, is not revoked and has not expired. */
export async function isSessionLive(db: Queryable, sessionId: number, userId: number, nowMs: number): Promise<boolean> {
  const rows = await db.query('select 1 from sessions where id = $1 and user_id = $2 and revoked_at is null and expires_at > $3', [sessionId, userId, new Date(nowMs)]);
  return rows.length > 0;
}

/** Housekeeping: forget long-ended sessions and drop sealed successors whose grace window has passed. */
export async function pruneSessions(db: Db, nowMs: number): Promise<void> {
  await db.query('delete from sessions where expires_at < $1 or revoked_at < $1', [new Date(nowMs - ENDED_SESSION_RETENTION_MS)]);
  // SKIP LOCKED: rows a refresh or logout holds are left for the next round, so this never waits in a lock cycle.
  await db.query(
    `update refresh_tokens set successor_sealed = null
      where id in (select id from refresh_tokens where successor_sealed is not null and used_at < $1 for update skip locked)`,
    [new Date(nowMs - REFRESH_GRACE_MS)],
  );
}
