// D28: the team — members and their roles, invitations, and the public invitation page's calls.
// D30: every change is audited (never the invitation token or a password).
import { INVITATION_LIFETIME_DAYS, PASSWORD_MIN_LENGTH, FIRST_NAME_MAX_LENGTH, type AcceptedInvitation, type InvitationLookup, type Member } from '../../../contract/team';
import { ROLES, type Role } from '../../../contract/permissions';
import { EMAIL_SHAPE } from '../../../contract/customers';
import { requireUser } from '../../auth/access';
import { issueAccessToken } from '../../auth/authenticate';
import { admitted, hashingRefusal, tooMany } from '../../auth/guards';
import type { AddressLimiter } from '../../auth/limiter';
import { hashPassword } from '../../auth/passwords';
import { createSession } from '../../auth/sessions';
import { cancelAttempt, markAttemptSucceeded, startAttempt } from '../../auth/throttle';
import { writeAudit } from '../../audit';
import type { Ctx } from '../../context';
import { num, type Queryable } from '../../db';
import { HttpError } from '../../http';
import { defineRoute, reply } from '../../route';
import { intText, oneOf, optional, rawText, text } from '../../schema';
import {
  addMembership, createInvitation, findInvitation, findMember, invitationByToken, invitationStatus, listInvitations, listMembers,
  markAccepted, openInvitationFor, ownerCount, removeMember, revokeInvitation, setRole,
} from './repo';

const DAY_MS = 86_400_000;
const MAX_PASSWORD_CHARS = 1024;
const TOKEN_PARAM = /^[A-Za-z0-9_-]{20,100}$/;

const role = oneOf(ROLES);
const email = text({ max: 254, pattern: EMAIL_SHAPE, patternMessage: 'must be an email address' });
const memberTarget = (m: Member) => ({ type: 'member', id: m.user_id, label: m.name });

const ownerOnly = (what: string) => new HttpError(403, 'owner_required', `Only an owner may ${what}`);
const lastOwner = (what: string) => new HttpError(409, 'last_owner', `The last owner cannot ${what}; make someone else an owner first`);
const memberNotFound = () => new HttpError(404, 'not_found', 'No such member');
const invitationNotFound = () => new HttpError(404, 'not_found', 'No such invitation');

/**
 * Team changes in one organization take turns: two owners demoting each other, or two invitations for
 * one email, would otherwise both pass their checks (or deadlock on each other's rows).
 */
const lockTeam = (tx: Queryable, orgId: number) => tx.query('select 1 from organizations where id = $1 for no key update', [orgId]);

const members = defineRoute({
  method: 'GET', path: '/v1/team/members/', access: 'org', permission: 'team:view',
  handler: async ({ tx, caller }) => ({ results: await listMembers(tx, caller.org.id) }),
});

/**
 * D28: only an owner promotes or demotes an owner; nobody changes their own role; the last owner stays.
 * Setting the role a member already has changes nothing and is not audited.
 */
const changeRole = defineRoute({
  method: 'PATCH', path: '/v1/team/members/:user_id/', access: 'org', permission: 'team:manage',
  params: { user_id: intText() }, body: { role },
  async handler({ tx, caller, params, body, audit }) {
    await lockTeam(tx, caller.org.id);
    const member = await findMember(tx, caller.org.id, params.user_id, { lock: true });
    if (!member) throw memberNotFound();
    if (member.user_id === caller.userId) throw new HttpError(403, 'own_role', 'You cannot change your own role; ask another owner or admin');
    if ((member.role === 'owner' || body.role === 'owner') && caller.org.role !== 'owner') throw ownerOnly('make or unmake an owner');
    if (member.role === 'owner' && body.role !== 'owner' && (await ownerCount(tx, caller.org.id)) <= 1) throw lastOwner('be demoted');
    if (member.role !== body.role) {
      await setRole(tx, caller.org.id, member.user_id, body.role);
      audit({ action: 'member.role_changed', target: memberTarget(member), changes: { role: { from: member.role, to: body.role } } });
    }
    return { ...member, role: body.role };
  },
});

/** D28: removing ends their access to this organization at their next request; the last owner stays. */
const remove = defineRoute({
  method: 'DELETE', path: '/v1/team/members/:user_id/', access: 'org', permission: 'team:manage',
  params: { user_id: intText() }, audit: 'member.removed',
  async handler({ tx, caller, params, audit }) {
    await lockTeam(tx, caller.org.id);
    const member = await findMember(tx, caller.org.id, params.user_id, { lock: true });
    if (!member) throw memberNotFound();
    if (member.role === 'owner') {
      if (caller.org.role !== 'owner') throw ownerOnly('remove an owner');
      if ((await ownerCount(tx, caller.org.id)) <= 1) throw lastOwner(member.user_id === caller.userId ? 'leave' : 'be removed');
    }
    await removeMember(tx, caller.org.id, member.user_id);
    audit({ target: memberTarget(member), changes: { role: member.role, email: member.email } });
    return reply(204);
  },
});

const invitations = defineRoute({
  method: 'GET', path: '/v1/team/invitations/', access: 'org', permission: 'team:manage',
  handler: async ({ tx, ctx, caller }) => ({ results: await listInvitations(tx, caller.org.id, new Date(ctx.now())) }),
});

const invitationTarget = (i: { id: number; email: string }) => ({ type: 'invitation', id: i.id, label: i.email });

/** D28: a link valid 7 days; its token is answered once and stored only as a hash. */
const invite = defineRoute({
  method: 'POST', path: '/v1/team/invitations/', access: 'org', permission: 'team:manage',
  body: { email, role }, audit: 'invitation.created',
  async handler({ tx, ctx, caller, body, audit }) {
    if (body.role === 'owner' && caller.org.role !== 'owner') throw ownerOnly('invite an owner');
    await lockTeam(tx, caller.org.id);
    const address = body.email.toLowerCase();
    const [already] = await tx.query('select 1 from memberships m join users u on u.id = m.user_id where m.org_id = $1 and lower(u.email) = $2', [caller.org.id, address]);
    if (already) throw new HttpError(409, 'already_member', `${address} is already a member`, {}, { field: 'email' });
    const now = new Date(ctx.now());
    const open = await openInvitationFor(tx, caller.org.id, address);
    if (open && new Date(open.expires_at) > now) {
      throw new HttpError(409, 'already_invited', `${address} already has a pending invitation; renew it for a new link`, {}, { field: 'email', invitation_id: open.id });
    }
    if (open) await revokeInvitation(tx, caller.org.id, open.id, now); // an expired one is replaced
    const { invitation, token } = await createInvitation(tx, caller.org.id, address, body.role, caller.userId, now, new Date(now.getTime() + INVITATION_LIFETIME_DAYS * DAY_MS));
    audit({ target: invitationTarget(invitation), changes: { email: invitation.email, role: invitation.role, expires_at: invitation.expires_at } });
    return reply(201, { ...invitation, token, path: `/invite/${token}` });
  },
});

/** A pending invitation the caller may act on (`what`, for the refusal): only an owner touches an owner's. */
const pendingInvitation = async (tx: Queryable, caller: { org: { id: number; role: string } }, id: number, what: string) => {
  await lockTeam(tx, caller.org.id);
  const found = await findInvitation(tx, caller.org.id, id);
  if (!found || found.status !== 'pending') throw invitationNotFound(); // accepted or revoked ones are history
  if (found.role === 'owner' && caller.org.role !== 'owner') throw ownerOnly(`${what} an owner's invitation`);
  return found;
};

const revoke = defineRoute({
  method: 'DELETE', path: '/v1/team/invitations/:id/', access: 'org', permission: 'team:manage', params: { id: intText() }, audit: 'invitation.revoked',
  async handler({ tx, ctx, caller, params, audit }) {
    const now = new Date(ctx.now());
    const invitation = await pendingInvitation(tx, caller, params.id, 'revoke');
    await revokeInvitation(tx, caller.org.id, invitation.id, now);
    audit({ target: invitationTarget(invitation), changes: { email: invitation.email, role: invitation.role } });
    return reply(204);
  },
});

/** D28: renew = a new link and 7 more days; the old link is dead. */
const renew = defineRoute({
  method: 'POST', path: '/v1/team/invitations/:id/renew/', access: 'org', permission: 'team:manage', params: { id: intText() }, audit: 'invitation.renewed',
  async handler({ tx, ctx, caller, params, audit }) {
    const now = new Date(ctx.now());
    const old = await pendingInvitation(tx, caller, params.id, 'renew');
    await revokeInvitation(tx, caller.org.id, old.id, now);
    const { invitation, token } = await createInvitation(tx, caller.org.id, old.email, old.role, caller.userId, now, new Date(now.getTime() + INVITATION_LIFETIME_DAYS * DAY_MS));
    audit({ target: invitationTarget(invitation), changes: { email: invitation.email, role: invitation.role, replaces: old.id, expires_at: invitation.expires_at } });
    return reply(201, { ...invitation, token, path: `/invite/${token}` });
  },
});

// ---- Public: the invitation page ----

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
const unknownToken = () => new HttpError(404, 'invitation_not_found', 'This invitation link is not valid. Ask for a new one.');
const tokenParam = { token: text({ max: 100, pattern: TOKEN_PARAM, patternMessage: 'is not an invitation token' }) };

const lookup = defineRoute({
  method: 'GET', path: '/v1/invitations/:token/', access: 'public', params: tokenParam,
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

const unusable: Record<string, string> = {
  accepted: 'This invitation has already been used.',
  revoked: 'This invitation was withdrawn. Ask for a new one.',
  expired: 'This invitation has expired. Ask for a new one.',
};

/**
 * D28: a signed-in person with the invited email joins at once; a new person gives a first name and a
 * password (≥ 12 characters) and gets an account and a session, as a login would.
 */
const accept = defineRoute({
  method: 'POST', path: '/v1/invitations/:token/accept/', access: 'public', params: tokenParam, transaction: false,
  body: {
    first_name: optional(text({ max: FIRST_NAME_MAX_LENGTH })),
    password: optional(rawText({ max: MAX_PASSWORD_CHARS })),
  },
  handler: ({ req, ctx, params, body }): Promise<AcceptedInvitation> => admitted(ctx, req, 'invitation', async ({ address, limiter }) => {
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
      if ([...body.password].length < PASSWORD_MIN_LENGTH) { // characters, not UTF-16 units
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
        const [exists] = await tx.query('select 1 from users where lower(email) = lower($1)', [found.email]);
        if (exists) throw accountExists(found.email);
        const [created] = await tx
          .query<{ id: unknown }>('insert into users (email, first_name, password_hash, created_at) values ($1, $2, $3, $4) returning id', [
            found.email, body.first_name!, hash!, now,
          ])
          .catch((err: unknown) => {
            // Two links for one new email accepted at once: the second finds the account made meanwhile.
            if (err instanceof Error && 'code' in err && err.code === '23505') throw accountExists(found.email);
            throw err;
          });
        userId = num(created?.id);
        label = body.first_name!;
      }
      await addMembership(tx, found.org_id, userId, found.role as Role, now);
      await markAccepted(tx, found.id, userId, now);
      await writeAudit(tx, found.org_id, { id: userId, label }, 'invitation.accepted', {
        target: { type: 'member', id: userId, label }, changes: { email: found.email, role: found.role, invitation_id: found.id, new_account: !signedIn },
      }, now);
      return { orgId: found.org_id, userId };
    });
    await markAttemptSucceeded(ctx.db, attempt);
    if (signedIn) return { org_id: joined.orgId };
    const session = await createSession(ctx.db, joined.userId, true, ctx.now());
    return {
      org_id: joined.orgId,
      access_token: issueAccessToken(ctx, joined.userId, session.sessionId, session.expiresAt),
      refresh_token: session.refreshToken,
      session_id: session.sessionId,
      refresh_expires_at: session.expiresAt.toISOString(),
    };
  }),
});

export const teamRoutes = [members, changeRole, remove, invitations, invite, revoke, renew, lookup, accept];
