// D51 D53: the account routes' refusals and password work. A field's refusal is 400 validation_error with
// the words under `errors` (and the first field under `field`, as every 400 of the API names it); a wrong
// current password is 400 wrong_password, counted like a failed login (D18: per account and per address,
// in the database; D35: per address in memory, before any database work); hashing is bounded (D35).
import { PASSWORD_MIN_LENGTH, PASSWORD_TOO_SHORT } from '../../../contract/account';
import type { AddressLimiter } from '../../auth/limiter';
import { hashingRefusal } from '../../auth/guards';
import { hashPassword, verifyPassword } from '../../auth/passwords';
import { cancelAttempt, markAttemptSucceeded, startAttempt } from '../../auth/throttle';
import type { Ctx } from '../../context';
import { HttpError } from '../../http';
import type { Check } from '../../schema';

/** 400 validation_error: each refused field with its words. */
export function validationError(errors: Record<string, string>): HttpError {
  const [field = ''] = Object.keys(errors);
  return new HttpError(
    400,
    'validation_error',
    Object.entries(errors)
      .map(([f, words]) => `${f}: ${words}`)
      .join(' '),
    {},
    { field, errors },
  );
}

/** Runs a schema check, putting its refusal's words under `errors[field]` instead of throwing. */
export function collect<T>(errors: Record<string, string>, field: string, value: unknown, check: Check<T>): T | undefined {
  try {
    return check(value, field);
  } catch (err) {
    if (!(err instanceof HttpError)) throw err;
    errors[field] = err.detail.replace(`${field}: `, '');
    return undefined;
  }
}

/** D51 D53: a new password's refusal (characters, not UTF-16 units), or null. */
export const newPasswordWords = (password: string): string | null => ([...password].length < PASSWORD_MIN_LENGTH ? PASSWORD_TOO_SHORT : null);

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

/** D17 D35: a new password's hash, bounded like every hashing (a busy server is 503, the address's share 429). */
export async function newPasswordHash(ctx: Ctx, address: string, password: string, call: 'login' | 'invitation'): Promise<string> {
  try {
    return await hashPassword(password, ctx.scryptCost, address);
  } catch (err) {
    throw hashingRefusal(err, call) ?? err;
  }
}
