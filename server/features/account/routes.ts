// D51 the person's own account: read it, change the first name or (with the current password) the email,
// change the password (every other session ends, this one continues). Any signed-in person, with or
// without an organization; no X-Organization-ID. Sessions are in sessions-routes.ts.
import { EMAIL_MAX_LENGTH } from '../../../contract/customers';
import { EMAIL_SHAPE } from '../../../contract/matching';
import { FIRST_NAME_MAX_LENGTH, PASSWORD_MAX_LENGTH } from '../../../contract/team';
import type { AccountView, EndedSessions } from '../../../contract/account';
import { sessionEnded, type Caller } from '../../auth/access';
import { verifyCurrentPassword } from '../../auth/current-password';
import { admitted, refusedEarly } from '../../auth/guards';
import { isSessionLive } from '../../auth/sessions';
import type { Ctx } from '../../context';
import type { Queryable } from '../../db';
import { HttpError } from '../../http';
import { endResetsFor } from '../../password-resets';
import { defineRoute } from '../../route';
import { optional, rawText, text } from '../../schema';
import { auditAccount } from './audit';
import { collect, newPasswordHash, newPasswordWords, validationError } from './checks';
import { emailTaken, findAccount, revokeSessions, setPasswordHash, updateAccount, type AccountRow } from './repo';
import { sessionRoutes } from './sessions-routes';

/** Far past any real name or address; what is between is refused in words (validation_error). */
const LOOSE_MAX = 4096;
const firstName = text({ max: FIRST_NAME_MAX_LENGTH });
const email = text({ max: EMAIL_MAX_LENGTH, pattern: EMAIL_SHAPE, patternMessage: 'must be an email address' });

const view = (a: AccountRow): AccountView => ({
  id: a.id,
  email: a.email,
  first_name: a.first_name,
  mfa_enabled: a.mfa_enabled,
  recovery_codes_left: a.recovery_codes_left,
  created_at: a.created_at.toISOString(),
});

const emailTakenError = (address: string) =>
  new HttpError(409, 'email_taken', `Another account uses ${address}`, {}, { field: 'email', errors: { email: 'Another account uses this email.' } });

/** The caller's account row; the session's user exists while the session is live. */
async function accountOf(ctx: Ctx, caller: Caller, lock = false, db: Queryable = ctx.db): Promise<AccountRow> {
  const account = await findAccount(db, caller.userId, { lock });
  if (!account) throw sessionEnded();
  return account;
}

const getAccount = defineRoute({
  method: 'GET',
  path: '/v1/account/',
  access: 'user',
  handler: async ({ ctx, tx, caller }) => view(await accountOf(ctx, caller, false, tx)),
});

/** D51: a first name, and/or an email with the current password (unique in any case). Changing nothing writes nothing. */
const patchAccount = defineRoute({
  method: 'PATCH',
  path: '/v1/account/',
  access: 'user',
  transaction: false, // the password check is slow (D17): it runs before the change's transaction
  partialBody: true,
  body: {
    first_name: optional(rawText({ max: LOOSE_MAX })),
    email: optional(rawText({ max: LOOSE_MAX })),
    current_password: optional(rawText({ max: PASSWORD_MAX_LENGTH })),
  },
  async handler({ req, ctx, caller, body }) {
    const errors: Record<string, string> = {};
    const name = 'first_name' in body ? collect(errors, 'first_name', body.first_name, firstName) : undefined;
    const address = 'email' in body ? collect(errors, 'email', body.email, email) : undefined;
    if (!('first_name' in body) && !('email' in body)) errors.first_name = 'Give a first name or an email to change.';
    const before = await accountOf(ctx, caller);
    const emailChanges = address !== undefined && address !== before.email;
    if (emailChanges && !body.current_password) errors.current_password = 'Enter your current password to change your email.';
    if (Object.keys(errors).length) throw validationError(errors);
    const apply = () =>
      ctx.db.transaction(async (tx) => {
        if (!(await isSessionLive(tx, caller.sessionId, caller.userId, ctx.now()))) throw sessionEnded();
        const now = await accountOf(ctx, caller, true, tx);
        const changes: Record<string, { from: string; to: string }> = {};
        if (name !== undefined && name !== now.first_name) changes.first_name = { from: now.first_name, to: name };
        if (emailChanges && address !== now.email) changes.email = { from: now.email, to: address! };
        if (!Object.keys(changes).length) return view(now); // D34: nothing to write, no entry
        if (!(await updateAccount(tx, caller.userId, { first_name: changes.first_name?.to, email: changes.email?.to }))) throw emailTakenError(address!);
        const label = changes.first_name?.to ?? now.first_name;
        await auditAccount(tx, { userId: caller.userId, firstName: label }, 'account.updated', changes, new Date(ctx.now()));
        return view({ ...now, first_name: label, email: changes.email?.to ?? now.email });
      });
    if (!emailChanges) return apply();
    // D18 D35: an email change proves the password, throttled as a login is.
    return admitted(ctx, req, 'login', async (a) => {
      await verifyCurrentPassword(ctx, a, caller.userId, before.password_hash, body.current_password!, 'current_password');
      if (await emailTaken(ctx.db, address!, caller.userId)) throw emailTakenError(address!); // only to who proved the password
      return apply();
    });
  },
});

/** D51: a new password of at least 12 characters; every other session of the person ends, this one continues. */
const changePassword = defineRoute({
  method: 'POST',
  path: '/v1/account/password/',
  access: 'user',
  transaction: false, // two password hashings (D17) run before the change's transaction
  body: { current_password: rawText({ max: PASSWORD_MAX_LENGTH }), new_password: rawText({ max: PASSWORD_MAX_LENGTH }) },
  refuseEarly: (req, ctx) => refusedEarly(ctx, req, 'login', false), // D35
  handler: ({ req, ctx, caller, body }): Promise<EndedSessions> => {
    const short = newPasswordWords(body.new_password);
    if (short) throw validationError({ new_password: short });
    return admitted(ctx, req, 'login', async (a) => {
      const account = await accountOf(ctx, caller);
      await verifyCurrentPassword(ctx, a, caller.userId, account.password_hash, body.current_password, 'current_password');
      const hash = await newPasswordHash(ctx, a.address, body.new_password, 'login');
      return ctx.db.transaction(async (tx) => {
        if (!(await isSessionLive(tx, caller.sessionId, caller.userId, ctx.now()))) throw sessionEnded();
        const now = new Date(ctx.now());
        await setPasswordHash(tx, caller.userId, hash);
        const ended = await revokeSessions(tx, caller.userId, 'password_changed', now, { keep: caller.sessionId });
        await endResetsFor(tx, caller.userId, now); // D62
        await auditAccount(tx, caller, 'account.password_changed', { ended_sessions: ended.length }, now);
        return { ended_sessions: ended.length };
      });
    });
  },
});

export const accountRoutes = [getAccount, patchAccount, changePassword, ...sessionRoutes];
