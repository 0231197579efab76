// D28 the public invitation page's calls: look up a link, accept it. D35/D36: throttled per address on a
// budget of their own, refused before the database when the address is known to be throttled; the token
// is checked before any password is hashed. D30: the acceptance is audited (never the token or password).
import {
  INVITATION_UNKNOWN,
  INVITATION_UNUSABLE,
  PASSWORD_MAX_LENGTH as MAX_PASSWORD_CHARS,
  PASSWORD_MIN_LENGTH,
  FIRST_NAME_MAX_LENGTH,
  type AcceptedInvitation,
  type InvitationLookup,
} from '../../../contract/team';
import type { Role } from '../../../contract/permissions';
import { requireUser } from '../../auth/access';
import { tokenAnswer } from '../../auth/authenticate';
import { admitted, hashingRefusal, tooMany } from '../../auth/guards';
import type { AddressLimiter } from '../../auth/limiter';
import { dueForWrite, requestOrigin } from '../../auth/last-active';
import { hashPassword } from '../../auth/passwords';
import { createSession } from '../../auth/sessions';
import { cancelAttempt, markAttemptSucceeded, startAttempt } from '../../auth/throttle';
import { writeAudit } from '../../audit';
import type { Ctx } from '../../context';
import { HttpError } from '../../http';
import { endResetsFor } from '../../password-resets';
import { defineRoute } from '../../route';
import { optional, rawText, text } from '../../schema';
import { addMembership, createAccount, hasAccount, invitationByToken, invitationStatus, markAccepted } from './repo';

const TOKEN_PARAM = /^[A-Za-z0-9_-]{20,100}$/;

/**
 * D18: token guesses are throttled per client address like logins; a real token resets nothing. D36: on
 * a budget of their own (`invitation:` keys), so a page that makes a browser look up made-up tokens
 * never blocks the logins of that address. D35: an address known to be throttled never gets here.
 */
async function invitationAttempt(ctx: Ctx, address: string, limiter: AddressLimiter, token: string): Promise<number> {
  const keys = { subject: `invitation:${token.slice(0, 8)}`, client: `invitation:${address}`, checkClient: true };
  const attempt = await startAttempt(ctx.db, ctx.config.throttle, keys, ctx.now());
  if (attempt.kind === 'throttled') {
    if (attempt.clientUntilMs !== null) limiter.block(address, attempt.clientUntilMs);
    throw tooMany('invitation', attempt.retryAfterS, 'throttled');
  }
  return attempt.attemptId;
}

const accountExists = (email: string) => new HttpError(409, 'account_exists', `An account for ${email} exists; sign in to join`);
const unknownToken = () => new HttpError(404, 'invitation_not_found', INVITATION_UNKNOWN);
const tokenParam = { token: text({ max: 100, pattern: TOKEN_PARAM, patternMessage: 'is not an invitation token' }) };

const lookup = defineRoute({
  method: 'GET',
  path: '/v1/invitations/:token/',
  access: 'public',
  params: tokenParam,
  handler: ({ req, ctx, params }): Promise<InvitationLookup> =>
    admitted(ctx, req, 'invitation', async ({ address, limiter }) => {
      const attempt = await invitationAttempt(ctx, address, limiter, params.token);
      const found = await invitationByToken(ctx.db, params.token);
      if (!found) {
        limiter.fail(address, ctx.now());
        throw unknownToken();
      }
      await markAttemptSucceeded(ctx.db, attempt);
      return {
        organization: { id: found.org_id, name: found.org_name, logo_url: found.logo_url },
        inviter: found.inviter,
        email: found.email,
        role: found.role,
        status: invitationStatus(found, new Date(ctx.now())),
        has_account: found.has_account,
      };
    }),
});

const unusable: Record<string, string> = INVITATION_UNUSABLE;

/**
 * D28: a signed-in person with the invited email joins at once; a new person gives a first name and a
 * password (≥ 12 characters) and gets an account and a session, as a login would.
 */
const accept = defineRoute({
  method: 'POST',
  path: '/v1/invitations/:token/accept/',
  access: 'public',
  params: tokenParam,
  transaction: false,
  body: {
    first_name: optional(text({ max: FIRST_NAME_MAX_LENGTH })),
    password: optional(rawText({ max: MAX_PASSWORD_CHARS })),
  },
  handler: ({ req, ctx, params, body }): Promise<AcceptedInvitation> =>
    admitted(ctx, req, 'invitation', async ({ address, limiter }) => {
      const attempt = await invitationAttempt(ctx, address, limiter, params.token);
      const signedIn = req.headers.authorization ? await requireUser(req, ctx) : null;
      // D35: the token is checked before any password is hashed (the transaction below checks it again).
      const early = await invitationByToken(ctx.db, params.token);
      if (!early) {
        limiter.fail(address, ctx.now());
        throw unknownToken();
      }
      const earlyStatus = invitationStatus(early, new Date(ctx.now()));
      if (earlyStatus !== 'pending') throw new HttpError(410, `invitation_${earlyStatus}`, unusable[earlyStatus] ?? 'This invitation cannot be used.');
      let hash: string | null = null;
      if (!signedIn) {
        if (!body.first_name) throw new HttpError(400, 'missing_field', 'first_name: is required', {}, { field: 'first_name' });
        if (!body.password) throw new HttpError(400, 'missing_field', 'password: is required', {}, { field: 'password' });
        if ([...body.password].length < PASSWORD_MIN_LENGTH) {
          // characters, not UTF-16 units
          throw new HttpError(400, 'invalid_field', `password: must be at least ${PASSWORD_MIN_LENGTH} characters`, {}, { field: 'password' });
        }
        if (early.has_account) throw accountExists(early.email); // nothing to hash for
        try {
          hash = await hashPassword(body.password, ctx.scryptCost, address); // before the transaction: scrypt is slow (D17)
        } catch (err) {
          const refusal = hashingRefusal(err, 'invitation');
          if (!refusal) throw err;
          await cancelAttempt(ctx.db, attempt); // D35: refused unheard
          throw refusal;
        }
      }
      const now = new Date(ctx.now());
      const joined = await ctx.db.transaction(async (tx) => {
        const found = await invitationByToken(tx, params.token);
        if (!found) throw unknownToken();
        const status = invitationStatus(found, now);
        if (status !== 'pending') throw new HttpError(410, `invitation_${status}`, unusable[status] ?? 'This invitation cannot be used.');
        let userId: number;
        let label: string;
        if (signedIn) {
          if (signedIn.email.toLowerCase() !== found.email.toLowerCase()) {
            throw new HttpError(403, 'email_mismatch', `This invitation is for ${found.email}; you are signed in as ${signedIn.email}`);
          }
          userId = signedIn.userId;
          label = signedIn.firstName;
        } else {
          if (await hasAccount(tx, found.email)) throw accountExists(found.email);
          // Two links for one new email accepted at once: the second finds the account made meanwhile.
          const created = await createAccount(tx, found.email, body.first_name!, hash!, now);
          if (created === null) throw accountExists(found.email);
          userId = created;
          label = body.first_name!;
        }
        await addMembership(tx, found.org_id, userId, found.role as Role, now);
        await endResetsFor(tx, userId, now); // D62: a new membership changes who may vouch for them
        await markAccepted(tx, found.org_id, found.id, userId, now);
        await writeAudit(
          tx,
          found.org_id,
          { id: userId, label },
          'invitation.accepted',
          {
            target: { type: 'member', id: userId, label },
            changes: { email: found.email, role: found.role, invitation_id: found.id, new_account: !signedIn },
          },
          now,
        );
        return { orgId: found.org_id, userId };
      });
      await markAttemptSucceeded(ctx.db, attempt);
      if (signedIn) return { org_id: joined.orgId };
      const session = await createSession(ctx.db, joined.userId, true, ctx.now(), requestOrigin(ctx, req));
      dueForWrite(ctx, session.sessionId, ctx.now()); // D52: just written
      return { org_id: joined.orgId, ...tokenAnswer(ctx, session) };
    }),
});

export const invitationPageRoutes = [lookup, accept];
