// D54 two-step sign-in on one's own account (any signed-in person, no organization): setup takes the
// password and gives a pending secret, a code confirms it and answers ten recovery codes once, a new set
// (with the password) ends the old one, and turning it off takes the password and a code. D30: each
// change is an entry in each organization the person is in; never a secret, code or password in one.
// The login's second step is sign-in-routes.ts.
import type { MfaConfirmed, MfaSetup } from '../../../contract/account';
import { PASSWORD_MAX_LENGTH } from '../../../contract/team';
import { sessionEnded, type Caller } from '../../auth/access';
import { verifyCurrentPassword } from '../../auth/current-password';
import { admitted, hashingRefusal, refusedEarly, tooMany, type Admitted } from '../../auth/guards';
import { acceptCode, acceptRecoveryCode, removeMfa, sealingKey } from '../../auth/mfa';
import { newRecoveryCodes, normalizeRecoveryCode, recoveryHash, sealSecret } from '../../auth/mfa-crypto';
import { verifyPassword } from '../../auth/passwords';
import { cancelAttempt, markAttemptSucceeded, startAttempt } from '../../auth/throttle';
import { base32Encode, newTotpSecret, otpauthUri } from '../../auth/totp';
import type { AuditEntry } from '../../audit';
import { writeAudit } from '../../audit';
import type { Ctx } from '../../context';
import type { Queryable } from '../../db';
import { HttpError } from '../../http';
import { defineRoute, reply } from '../../route';
import { rawText } from '../../schema';
import { MAX_CODE_CHARS, mfaSignInRoutes } from './sign-in-routes';
import { finishEnrolment, isEnabled, organizationsOf, passwordHashOf, replaceRecoveryCodes, startEnrolment } from './repo';

/** The product's name in an authenticator app's list. */
const PRODUCT = 'CRM';

const alreadyOn = () => new HttpError(409, 'mfa_enabled', 'Two-step sign-in is already on');
const invalidCode = () => new HttpError(400, 'invalid_code', 'That code did not work', {}, { field: 'code' });

/** D30: the person's own entries, one per organization they are in (docs/behaviour.md). */
const accountEntries = (orgIds: number[], caller: Pick<Caller, 'userId' | 'firstName'>, action: NonNullable<AuditEntry['action']>): AuditEntry[] =>
  orgIds.map((orgId) => ({ orgId, action, target: { type: 'member', id: caller.userId, label: caller.firstName } }));

const notOn = () => new HttpError(409, 'mfa_not_enabled', 'Two-step sign-in is not on');
const password = rawText({ max: PASSWORD_MAX_LENGTH });

/** D54 D18 D35: the current password, checked and throttled as the account's password change checks it (400 wrong_password on `password`). */
async function provePassword(ctx: Ctx, a: Admitted, caller: Caller, typed: string): Promise<void> {
  const hash = await passwordHashOf(ctx.db, caller.userId);
  if (hash === null) throw sessionEnded();
  await verifyCurrentPassword(ctx, a, caller.userId, hash, typed, 'password');
}

/** The person's entries (D30), in the change's transaction. */
async function writeAccountEntries(tx: Queryable, caller: Caller, action: NonNullable<AuditEntry['action']>, nowMs: number): Promise<void> {
  const actor = { id: caller.userId, label: caller.firstName };
  for (const entry of accountEntries(await organizationsOf(tx, caller.userId), caller, action)) await writeAudit(tx, entry.orgId!, actor, action, entry, new Date(nowMs));
}

/**
 * POST /v1/account/mfa/setup/ { password } → { secret, otpauth_uri }: a new pending secret (an earlier
 * pending one is replaced). D54: only for who proves the password; a wrong one writes nothing.
 */
const setup = defineRoute({
  method: 'POST',
  path: '/v1/account/mfa/setup/',
  access: 'user',
  transaction: false, // the password check is slow (D17): it runs before the change's transaction
  body: { password },
  refuseEarly: (req, ctx) => refusedEarly(ctx, req, 'login', false), // D35
  handler: ({ req, ctx, caller, body }): Promise<MfaSetup> =>
    admitted(ctx, req, 'login', async (a) => {
      await provePassword(ctx, a, caller, body.password);
      const secret = newTotpSecret();
      const sealed = sealSecret(sealingKey(ctx), caller.userId, secret);
      if (!(await ctx.db.transaction((tx) => startEnrolment(tx, caller.userId, sealed, new Date(ctx.now()))))) throw alreadyOn();
      const text = base32Encode(secret);
      return { secret: text, otpauth_uri: otpauthUri(PRODUCT, caller.email, text) };
    }),
});

/** POST /v1/account/mfa/confirm/ { code } → { recovery_codes }: on from now; the codes are shown this once. */
const confirm = defineRoute({
  method: 'POST',
  path: '/v1/account/mfa/confirm/',
  access: 'user',
  body: { code: rawText({ max: MAX_CODE_CHARS }) },
  async handler({ ctx, tx, caller, body, audit }): Promise<MfaConfirmed> {
    if (await isEnabled(tx, caller.userId)) throw alreadyOn();
    if (!(await acceptCode(tx, sealingKey(ctx), caller.userId, body.code, ctx.now(), true))) throw invalidCode();
    const codes = newRecoveryCodes();
    await finishEnrolment(
      tx,
      caller.userId,
      codes.map((c) => recoveryHash(normalizeRecoveryCode(c)!)),
      new Date(ctx.now()),
    );
    for (const entry of accountEntries(await organizationsOf(tx, caller.userId), caller, 'account.mfa_enabled')) audit(entry);
    return { recovery_codes: codes };
  },
});

const wrongPassword = () => new HttpError(400, 'wrong_password', 'The password is not right', {}, { field: 'password' });

/**
 * DELETE /v1/account/mfa/ { password, code } → 204. Wrong passwords and codes are throttled like logins
 * (D18, per person and per address); the password is checked outside any transaction (scrypt, D35).
 * A recovery code is accepted in place of a code (the phone is lost).
 */
const disable = defineRoute({
  method: 'DELETE',
  path: '/v1/account/mfa/',
  access: 'user',
  transaction: false,
  body: { password: rawText({ max: PASSWORD_MAX_LENGTH }), code: rawText({ max: MAX_CODE_CHARS }) },
  handler: ({ req, ctx, caller, body }) =>
    admitted(ctx, req, 'login', async ({ address, limiter }) => {
      const attempt = await startAttempt(ctx.db, ctx.config.throttle, { subject: `mfa:${caller.userId}`, client: address, checkClient: true }, ctx.now());
      if (attempt.kind === 'throttled') {
        if (attempt.clientUntilMs !== null) limiter.block(address, attempt.clientUntilMs);
        throw tooMany('login', attempt.retryAfterS, 'throttled');
      }
      const hash = await passwordHashOf(ctx.db, caller.userId);
      let ok: boolean;
      try {
        ok = hash !== null && (await verifyPassword(body.password, hash, ctx.scryptCost, address));
      } catch (err) {
        const refusal = hashingRefusal(err, 'login');
        if (!refusal) throw err;
        await cancelAttempt(ctx.db, attempt.attemptId); // D35: refused unheard
        throw refusal;
      }
      if (!ok) {
        limiter.fail(address, ctx.now());
        throw wrongPassword();
      }
      const done = await ctx.db.transaction(async (tx) => {
        if (!(await isEnabled(tx, caller.userId))) return 'off' as const;
        const now = ctx.now();
        const right = (await acceptCode(tx, sealingKey(ctx), caller.userId, body.code, now)) || (await acceptRecoveryCode(tx, caller.userId, body.code, now));
        if (!right) return 'wrong' as const;
        await removeMfa(tx, caller.userId);
        await writeAccountEntries(tx, caller, 'account.mfa_disabled', now);
        return 'done' as const;
      });
      if (done === 'wrong') {
        limiter.fail(address, ctx.now());
        throw invalidCode();
      }
      await markAttemptSucceeded(ctx.db, attempt.attemptId);
      if (done === 'off') throw notOn();
      return reply(204);
    }),
});

/**
 * POST /v1/account/mfa/recovery-codes/ { password } → { recovery_codes }: D54 a new set of ten, shown
 * once; the old set (used or not) stops working in the same transaction. 409 mfa_not_enabled when off.
 */
const renewRecoveryCodes = defineRoute({
  method: 'POST',
  path: '/v1/account/mfa/recovery-codes/',
  access: 'user',
  transaction: false, // the password check is slow (D17): it runs before the change's transaction
  body: { password },
  refuseEarly: (req, ctx) => refusedEarly(ctx, req, 'login', false), // D35
  handler: ({ req, ctx, caller, body }): Promise<MfaConfirmed> =>
    admitted(ctx, req, 'login', async (a) => {
      await provePassword(ctx, a, caller, body.password);
      const codes = newRecoveryCodes();
      const renewed = await ctx.db.transaction(async (tx) => {
        if (!(await isEnabled(tx, caller.userId))) return false;
        await replaceRecoveryCodes(
          tx,
          caller.userId,
          codes.map((c) => recoveryHash(normalizeRecoveryCode(c)!)),
        );
        await writeAccountEntries(tx, caller, 'account.mfa_recovery_codes_renewed', ctx.now());
        return true;
      });
      if (!renewed) throw notOn();
      return { recovery_codes: codes };
    }),
});

export const mfaRoutes = [setup, confirm, disable, renewRecoveryCodes, ...mfaSignInRoutes];
