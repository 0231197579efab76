// D54 two-step sign-in, what login, the second step and the team's reset share: whether a person has it
// on, login challenges (random, hashed, 5 minutes, single use), checking a code once (replay refused by
// the last accepted time step) or a recovery code once, and turning it off.
import { MFA_CHALLENGE_LIFETIME_MS } from '../../contract/account';
import { DAY_MS } from '../../contract/time';
import type { Ctx } from '../context';
import type { Queryable } from '../db';
import { num } from '../db';
import { mfaKey, newChallenge, normalizeRecoveryCode, openSecret, recoveryHash, sha256 } from './mfa-crypto';
import { matchingStep } from './totp';

/** D54: how long a login may wait for its code. */
export const CHALLENGE_LIFETIME_MS = MFA_CHALLENGE_LIFETIME_MS;

/** The key a context seals secrets under. */
export const sealingKey = (ctx: Pick<Ctx, 'jwtSecret' | 'config'>): Buffer => mfaKey(ctx.jwtSecret, ctx.config.mfaKey);

/** True when the person confirmed two-step sign-in. */
export async function mfaEnabled(db: Queryable, userId: number): Promise<boolean> {
  const rows = await db.query('select 1 from user_mfa where user_id = $1 and enabled_at is not null', [userId]);
  return rows.length > 0;
}

export interface ChallengeInput {
  userId: number;
  rememberMe: boolean;
  /** The email the login used (the device token is signed for it, D36). */
  emailKey: string;
  /** D36: the random id of the login's valid device token for this user, kept; null to issue a new one. */
  deviceId: string | null;
}

/** A new challenge for a login whose password was right; the token is answered once, stored hashed. */
export async function createChallenge(db: Queryable, input: ChallengeInput, nowMs: number): Promise<string> {
  const token = newChallenge();
  await db.query(
    `insert into mfa_challenges (user_id, token_hash, remember_me, email_key, device_id, created_at, expires_at)
     values ($1, $2, $3, $4, $5, $6, $7)`,
    [input.userId, sha256(token), input.rememberMe, input.emailKey, input.deviceId, new Date(nowMs), new Date(nowMs + CHALLENGE_LIFETIME_MS)],
  );
  return token;
}

export type ChallengeLookup = { kind: 'unknown' } | { kind: 'expired' } | ({ kind: 'open'; id: number } & ChallengeInput);

type ChallengeRow = { id: unknown; user_id: unknown; remember_me: boolean; email_key: string; device_id: string | null; expires_at: Date; used_at: Date | null };

/** A challenge by its token: unknown, used or expired (both end it: 410), or open. `lock` for the completing transaction. */
export async function findChallenge(db: Queryable, token: string, nowMs: number, lock = false): Promise<ChallengeLookup> {
  const [row] = await db.query<ChallengeRow>(
    `select id, user_id, remember_me, email_key, device_id, expires_at, used_at from mfa_challenges where token_hash = $1${lock ? ' for update' : ''}`,
    [sha256(token)],
  );
  if (!row) return { kind: 'unknown' };
  if (row.used_at !== null || row.expires_at.getTime() <= nowMs) return { kind: 'expired' };
  return { kind: 'open', id: num(row.id), userId: num(row.user_id), rememberMe: row.remember_me, emailKey: row.email_key, deviceId: row.device_id };
}

/** Single use: the challenge is spent (in the transaction that accepted its code). */
export async function spendChallenge(tx: Queryable, id: number, nowMs: number): Promise<void> {
  await tx.query('update mfa_challenges set used_at = $2 where id = $1', [id, new Date(nowMs)]);
}

/**
 * D54: a code from the person's authenticator, accepted at most once: its time step must be later than
 * the last one accepted (so a code seen over a shoulder, or sent twice, is refused). `pending`: the
 * secret being confirmed at enrolment rather than the enabled one. Run in the change's transaction.
 */
export async function acceptCode(tx: Queryable, key: Buffer, userId: number, code: string, nowMs: number, pending = false): Promise<boolean> {
  const [row] = await tx.query<{ secret_sealed: string }>(
    `select secret_sealed from user_mfa where user_id = $1 and enabled_at is ${pending ? '' : 'not '}null for update`,
    [userId],
  );
  const secret = row ? openSecret(key, userId, row.secret_sealed) : null;
  const step = secret ? matchingStep(secret, code, nowMs) : null;
  if (step === null) return false;
  const used = await tx.query('update user_mfa set last_step = $2 where user_id = $1 and (last_step is null or last_step < $2) returning user_id', [userId, step]);
  return used.length > 0;
}

/** D54: a recovery code, accepted once. */
export async function acceptRecoveryCode(tx: Queryable, userId: number, typed: string, nowMs: number): Promise<boolean> {
  const normalized = normalizeRecoveryCode(typed);
  if (normalized === null) return false;
  const used = await tx.query('update mfa_recovery_codes set used_at = $3 where user_id = $1 and code_hash = $2 and used_at is null returning id', [
    userId,
    recoveryHash(normalized),
    new Date(nowMs),
  ]);
  return used.length > 0;
}

/** Two-step sign-in off: the secret, the recovery codes and open challenges gone. True when it was on. */
export async function removeMfa(tx: Queryable, userId: number): Promise<boolean> {
  const [row] = await tx.query<{ on: boolean }>('delete from user_mfa where user_id = $1 returning enabled_at is not null as on', [userId]);
  await tx.query('delete from mfa_recovery_codes where user_id = $1', [userId]);
  await tx.query('delete from mfa_challenges where user_id = $1', [userId]);
  return row?.on ?? false;
}

/** Housekeeping: challenges that ended more than a day ago. */
export async function pruneChallenges(db: Queryable, nowMs: number): Promise<void> {
  await db.query('delete from mfa_challenges where expires_at < $1', [new Date(nowMs - DAY_MS)]);
}
