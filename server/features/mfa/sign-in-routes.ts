// D54 the login's second step: POST /v1/auth/mfa/ { challenge, code } or { challenge, recovery_code }
// finishes a login that answered 202, with exactly the answer a login gives (auth/sign-in.ts). The
// challenge is single use and lives 5 minutes (410 challenge_expired, not a 401: that would start a
// refresh). Wrong codes are throttled like passwords (D18): counted per person, since the challenge
// already proves the password, and per address in memory (D35); someone else's guesses from a shared
// address never hold back a person who proved their password (D36).
import { admitted, refusedEarly, tooMany } from '../../auth/guards';
import { acceptCode, acceptRecoveryCode, findChallenge, sealingKey, spendChallenge } from '../../auth/mfa';
import { signedIn } from '../../auth/sign-in';
import { markAttemptSucceeded, startAttempt } from '../../auth/throttle';
import { fieldError, HttpError } from '../../http';
import { defineRoute } from '../../route';
import { optional, rawText } from '../../schema';

const MAX_CHALLENGE_CHARS = 128;
/** Longer than any code or recovery code as people type them (spaces, dashes). */
export const MAX_CODE_CHARS = 64;

const challengeEnded = () => new HttpError(410, 'challenge_expired', 'This sign-in has expired; enter your email and password again');
const invalidCode = (field: string) => new HttpError(400, 'invalid_code', 'That code did not work', {}, { field });

const complete = defineRoute({
  method: 'POST',
  path: '/v1/auth/mfa/',
  access: 'public',
  transaction: false,
  body: {
    challenge: rawText({ max: MAX_CHALLENGE_CHARS }),
    code: optional(rawText({ max: MAX_CODE_CHARS })),
    recovery_code: optional(rawText({ max: MAX_CODE_CHARS })),
  },
  refuseEarly: (req, ctx) => refusedEarly(ctx, req, 'login', true), // D35: only too many at once is known unread
  handler: ({ req, ctx, body }) => {
    const field = body.code !== null ? 'code' : 'recovery_code';
    const typed = body.code ?? body.recovery_code;
    if (typed === null) throw fieldError('code', 'give a code or a recovery_code', 'missing_field');
    if (body.code !== null && body.recovery_code !== null) throw fieldError('recovery_code', 'give a code or a recovery_code, not both');
    return admitted(
      ctx,
      req,
      'login',
      async ({ address, limiter }) => {
        const found = await findChallenge(ctx.db, body.challenge, ctx.now());
        if (found.kind !== 'open') {
          if (found.kind === 'unknown') limiter.fail(address, ctx.now());
          throw challengeEnded();
        }
        const attempt = await startAttempt(ctx.db, ctx.config.throttle, { subject: `mfa:${found.userId}`, client: address, checkClient: false }, ctx.now());
        if (attempt.kind === 'throttled') throw tooMany('login', attempt.retryAfterS, 'throttled');
        const outcome = await ctx.db.transaction(async (tx) => {
          const now = ctx.now();
          const open = await findChallenge(tx, body.challenge, now, true); // single use: two at once, one wins
          if (open.kind !== 'open') return 'ended' as const;
          const right = field === 'code' ? await acceptCode(tx, sealingKey(ctx), open.userId, typed, now) : await acceptRecoveryCode(tx, open.userId, typed, now);
          if (!right) return 'wrong' as const;
          await spendChallenge(tx, open.id, now);
          return 'right' as const;
        });
        if (outcome === 'ended') throw challengeEnded();
        if (outcome === 'wrong') {
          limiter.fail(address, ctx.now());
          throw invalidCode(field);
        }
        await markAttemptSucceeded(ctx.db, attempt.attemptId);
        return signedIn(ctx, req, found);
      },
      true,
    );
  },
});

export const mfaSignInRoutes = [complete];
