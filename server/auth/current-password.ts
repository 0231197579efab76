// D18 D35 D51 D54: checking a signed-in person's current password before a change of their account (the
// email, the password, two-step sign-in): a wrong one is 400 wrong_password, counted like a failed login
// (per account and per address in the database; per address in memory, before any database work).
import type { Ctx } from '../context';
import { HttpError } from '../http';
import { hashingRefusal } from './guards';
import type { AddressLimiter } from './limiter';
import { verifyPassword } from './passwords';
import { cancelAttempt, markAttemptSucceeded, startAttempt } from './throttle';

const WRONG_PASSWORD = 'The current password is not right.';

/**
 * D18 D35: checks the caller's current password as login checks one: the attempt is counted before the
 * password work (a throttled account or address is a 429 without it); a wrong one is a failure of the
 * address too. `field` names it in the 400.
 */
export async function verifyCurrentPassword(
  ctx: Ctx,
  a: { address: string; limiter: AddressLimiter },
  userId: number,
  stored: string,
  password: string,
  field: string,
): Promise<void> {
  const attempt = await startAttempt(ctx.db, ctx.config.throttle, { subject: `account:${userId}`, client: a.address, checkClient: true }, ctx.now());
  if (attempt.kind === 'throttled') {
    if (attempt.clientUntilMs !== null) a.limiter.block(a.address, attempt.clientUntilMs);
    throw new HttpError(429, 'too_many_attempts', `Too many wrong passwords; try again in ${attempt.retryAfterS} s`, { 'Retry-After': String(attempt.retryAfterS) });
  }
  let ok: boolean;
  try {
    ok = await verifyPassword(password, stored, ctx.scryptCost, a.address);
  } catch (err) {
    await cancelAttempt(ctx.db, attempt.attemptId); // D35: refused unheard, it is no wrong guess
    throw hashingRefusal(err, 'login') ?? err;
  }
  if (!ok) {
    a.limiter.fail(a.address, ctx.now());
    throw new HttpError(400, 'wrong_password', WRONG_PASSWORD, {}, { field, errors: { [field]: WRONG_PASSWORD } });
  }
  await markAttemptSucceeded(ctx.db, attempt.attemptId);
}
