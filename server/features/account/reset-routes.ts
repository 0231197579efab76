// D53 the public reset page's calls: look up a link, set a new password with it. D35/D36: throttled per
// address on the invitation links' budget (both are guesses at a link), refused before the database when
// the address is known to be throttled; the token is checked before any password is hashed. Using a link
// ends every session of the person and is audited in the organization where the link was made.
import type { ResetDone, ResetLookup } from '../../../contract/account';
import { PASSWORD_MAX_LENGTH } from '../../../contract/team';
import { admitted, refusedEarly, tooMany } from '../../auth/guards';
import type { AddressLimiter } from '../../auth/limiter';
import { markAttemptSucceeded, startAttempt } from '../../auth/throttle';
import { writeAudit } from '../../audit';
import type { Ctx } from '../../context';
import { HttpError } from '../../http';
import { defineRoute } from '../../route';
import { rawText, text } from '../../schema';
import { newPasswordHash, newPasswordWords, validationError } from './checks';
import { revokeSessions, setPasswordHash } from './repo';
import type { Queryable } from '../../db';
import { endResetsFor, markResetUsed, resetByToken, stillHolds, type ResetRow } from '../../password-resets';

const TOKEN_PARAM = /^[A-Za-z0-9_-]{20,100}$/;
const tokenParam = { token: text({ max: 100, pattern: TOKEN_PARAM, patternMessage: 'is not a reset link token' }) };

const unknownLink = () => new HttpError(404, 'not_found', 'This reset link is not valid. Check that you copied all of it, or ask for a new one.');

const expired = () => new HttpError(410, 'reset_expired', 'This reset link has expired. Ask an owner or admin for a new one.');

/** 410 for a link that was used, has expired or no longer holds (D62: answered as expired, naming no reason); null while it may be used. */
async function unusable(db: Queryable, found: ResetRow, nowMs: number): Promise<HttpError | null> {
  if (found.used_at) return new HttpError(410, 'reset_used', 'This reset link has already been used. Ask an owner or admin for a new one.');
  if (found.expires_at.getTime() <= nowMs) return expired();
  if (!(await stillHolds(db, found))) return expired();
  return null;
}

/** D18 D36: a guess at a link counts against the address's link budget (shared with invitations), never the login budget. */
async function linkAttempt(ctx: Ctx, address: string, limiter: AddressLimiter, token: string): Promise<number> {
  const keys = { subject: `reset:${token.slice(0, 8)}`, client: `invitation:${address}`, checkClient: true };
  const attempt = await startAttempt(ctx.db, ctx.config.throttle, keys, ctx.now());
  if (attempt.kind === 'throttled') {
    if (attempt.clientUntilMs !== null) limiter.block(address, attempt.clientUntilMs);
    throw tooMany('invitation', attempt.retryAfterS, 'throttled');
  }
  return attempt.attemptId;
}

/** The link, or the refusal: an unknown token is a failure of the address (D35), a used or expired one a 410. */
async function usableLink(ctx: Ctx, address: string, limiter: AddressLimiter, token: string): Promise<{ found: ResetRow; attempt: number }> {
  const attempt = await linkAttempt(ctx, address, limiter, token);
  const found = await resetByToken(ctx.db, token);
  if (!found) {
    limiter.fail(address, ctx.now());
    throw unknownLink();
  }
  await markAttemptSucceeded(ctx.db, attempt);
  const refusal = await unusable(ctx.db, found, ctx.now());
  if (refusal) throw refusal;
  return { found, attempt };
}

const lookup = defineRoute({
  method: 'GET',
  path: '/v1/password-resets/:token/',
  access: 'public',
  params: tokenParam,
  handler: ({ req, ctx, params }): Promise<ResetLookup> =>
    admitted(ctx, req, 'invitation', async ({ address, limiter }) => {
      const { found } = await usableLink(ctx, address, limiter, params.token);
      return { email: found.email, first_name: found.first_name, expires_at: found.expires_at.toISOString() };
    }),
});

/** D53: a new password (≥ 12 characters); the link is spent and every session of the person ends. No tokens: they sign in. */
const use = defineRoute({
  method: 'POST',
  path: '/v1/password-resets/:token/',
  access: 'public',
  params: tokenParam,
  transaction: false, // hashing (D17) runs before the change's transaction
  body: { password: rawText({ max: PASSWORD_MAX_LENGTH }) },
  refuseEarly: (req, ctx) => refusedEarly(ctx, req, 'invitation', false), // D35: unread
  handler: ({ req, ctx, params, body }): Promise<ResetDone> =>
    admitted(ctx, req, 'invitation', async ({ address, limiter }) => {
      await usableLink(ctx, address, limiter, params.token); // D35: before any password is hashed
      const short = newPasswordWords(body.password);
      if (short) throw validationError({ password: short });
      const hash = await newPasswordHash(ctx, address, body.password, 'invitation');
      return ctx.db.transaction(async (tx) => {
        const found = await resetByToken(tx, params.token, { lock: true }); // single use: a second use at once waits, then sees it used
        if (!found) throw unknownLink();
        const refusal = await unusable(tx, found, ctx.now()); // D62: the rule as it is now, under the membership's lock
        if (refusal) throw refusal;
        const now = new Date(ctx.now());
        await setPasswordHash(tx, found.user_id, hash);
        await markResetUsed(tx, found.id, now);
        await endResetsFor(tx, found.user_id, now); // D62: the person's other open links
        const ended = await revokeSessions(tx, found.user_id, 'password_reset', now);
        const who = { id: found.user_id, label: found.first_name };
        await writeAudit(tx, found.org_id, who, 'account.password_reset', { target: { type: 'member', ...who }, changes: { ended_sessions: ended.length } }, now);
        return { email: found.email };
      });
    }),
});

export const passwordResetRoutes = [lookup, use];
