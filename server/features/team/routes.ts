// D28: the team — members and their roles, invitations; the public invitation page's calls are in public.ts.
// D30: every change is audited (never the invitation token or a password).
import {
  INVITATION_LIFETIME_DAYS,
  ownerOnlyRefusal,
  removalRefusal,
  roleChangeRefusal,
  TEAM_REFUSAL_STATUS,
  TEAM_REFUSAL_WORDS,
  type TeamRefusal,
} from '../../../contract/team';
import { ROLES, type Role } from '../../../contract/permissions';
import { EMAIL_MAX_LENGTH } from '../../../contract/customers';
import { EMAIL_SHAPE } from '../../../contract/matching';
import { DAY_MS } from '../../../contract/time';
import type { Queryable } from '../../db';
import { HttpError } from '../../http';
import { lockOrganization } from '../../organizations';
import { endResetsFor, endResetsOfFormerManagers } from '../../password-resets';
import { defineRoute, reply } from '../../route';
import { intText, oneOf, text } from '../../schema';
import { lockedMember, memberTarget } from './members';
import { invitationPageRoutes } from './public';
import { resetLink } from './reset-link';
import {
  createInvitation,
  findInvitation,
  isMemberEmail,
  listInvitations,
  listMembers,
  openInvitationFor,
  ownerCount,
  removeMember,
  revokeInvitation,
  setRole,
} from './repo';

const role = oneOf(ROLES);
const email = text({ max: EMAIL_MAX_LENGTH, pattern: EMAIL_SHAPE, patternMessage: 'must be an email address' });

/** D28: a refusal by contract/team.ts's rules, in its words; `what` completes each sentence for this call. */
const refused = (r: TeamRefusal, what: Partial<Record<TeamRefusal, string>>) => new HttpError(TEAM_REFUSAL_STATUS[r], r, TEAM_REFUSAL_WORDS[r](what[r] ?? ''));
const invitationNotFound = () => new HttpError(404, 'not_found', 'No such invitation');

/** D62: a member's role changed or they left: the reset links for them end, and those made by whoever no longer manages the team. */
async function endResetsOnTeamChange(tx: Queryable, orgId: number, userId: number, now: Date): Promise<void> {
  await endResetsFor(tx, userId, now);
  await endResetsOfFormerManagers(tx, orgId, now);
}

type InvitingCaller = { userId: number; org: { id: number; role: string } };

/** D28: a new invitation valid 7 days from `now`, and the 201 that answers its token once (only its hash is stored). */
async function issueInvitation(tx: Queryable, caller: InvitingCaller, email: string, role: Role, now: Date) {
  const expires = new Date(now.getTime() + INVITATION_LIFETIME_DAYS * DAY_MS);
  const { invitation, token } = await createInvitation(tx, caller.org.id, email, role, caller.userId, now, expires);
  return { invitation, answer: reply(201, { ...invitation, token, path: `/invite/${token}` }) };
}

const members = defineRoute({
  method: 'GET',
  path: '/v1/team/members/',
  access: 'org',
  permission: 'team:view',
  handler: async ({ tx, caller }) => ({ results: await listMembers(tx, caller.org.id) }),
});

/**
 * D28: only an owner promotes or demotes an owner; nobody changes their own role; the last owner stays.
 * Setting the role a member already has changes nothing and is not audited.
 */
const changeRole = defineRoute({
  method: 'PATCH',
  path: '/v1/team/members/:user_id/',
  access: 'org',
  permission: 'team:manage',
  params: { user_id: intText() },
  body: { role },
  async handler({ tx, ctx, caller, params, body, audit }) {
    const member = await lockedMember(tx, caller.org.id, params.user_id);
    const owners = await ownerCount(tx, caller.org.id);
    const refusal = roleChangeRefusal({ actor: caller.org.role, self: member.user_id === caller.userId, from: member.role, to: body.role, owners });
    if (refusal) throw refused(refusal, { owner_required: 'make or unmake an owner', last_owner: 'be demoted' });
    if (member.role !== body.role) {
      await setRole(tx, caller.org.id, member.user_id, body.role);
      await endResetsOnTeamChange(tx, caller.org.id, member.user_id, new Date(ctx.now()));
      audit({ action: 'member.role_changed', target: memberTarget(member), changes: { role: { from: member.role, to: body.role } } });
    }
    return { ...member, role: body.role };
  },
});

/** D28: removing ends their access to this organization at their next request; the last owner stays. */
const remove = defineRoute({
  method: 'DELETE',
  path: '/v1/team/members/:user_id/',
  access: 'org',
  permission: 'team:manage',
  params: { user_id: intText() },
  audit: 'member.removed',
  async handler({ tx, ctx, caller, params, audit }) {
    const member = await lockedMember(tx, caller.org.id, params.user_id);
    const refusal = removalRefusal({ actor: caller.org.role, role: member.role, owners: await ownerCount(tx, caller.org.id) });
    if (refusal) throw refused(refusal, { owner_required: 'remove an owner', last_owner: member.user_id === caller.userId ? 'leave' : 'be removed' });
    const unassigned = await removeMember(tx, caller.org.id, member.user_id, caller.userId, new Date(ctx.now()));
    await endResetsOnTeamChange(tx, caller.org.id, member.user_id, new Date(ctx.now()));
    // D59: the customers unassigned, counted; their ids (left out of the log's view) give each its timeline entry.
    const customers = unassigned.length ? { unassigned: unassigned.length, customer_ids: unassigned } : {};
    audit({ target: memberTarget(member), changes: { role: member.role, email: member.email, ...customers } });
    return reply(204);
  },
});

const invitations = defineRoute({
  method: 'GET',
  path: '/v1/team/invitations/',
  access: 'org',
  permission: 'team:manage',
  handler: async ({ tx, ctx, caller }) => ({ results: await listInvitations(tx, caller.org.id, new Date(ctx.now())) }),
});

const invitationTarget = (i: { id: number; email: string }) => ({ type: 'invitation', id: i.id, label: i.email });

/** D28: a link valid 7 days; its token is answered once and stored only as a hash. */
const invite = defineRoute({
  method: 'POST',
  path: '/v1/team/invitations/',
  access: 'org',
  permission: 'team:manage',
  body: { email, role },
  audit: 'invitation.created',
  async handler({ tx, ctx, caller, body, audit }) {
    if (ownerOnlyRefusal(caller.org.role, body.role)) throw refused('owner_required', { owner_required: 'invite an owner' });
    await lockOrganization(tx, caller.org.id);
    const address = body.email.toLowerCase();
    if (await isMemberEmail(tx, caller.org.id, address)) throw new HttpError(409, 'already_member', `${address} is already a member`, {}, { field: 'email' });
    const now = new Date(ctx.now());
    const open = await openInvitationFor(tx, caller.org.id, address);
    if (open && new Date(open.expires_at) > now) {
      throw new HttpError(409, 'already_invited', `${address} already has a pending invitation; renew it for a new link`, {}, { field: 'email', invitation_id: open.id });
    }
    if (open) await revokeInvitation(tx, caller.org.id, open.id, now); // an expired one is replaced
    const { invitation, answer } = await issueInvitation(tx, caller, address, body.role, now);
    audit({ target: invitationTarget(invitation), changes: { email: invitation.email, role: invitation.role, expires_at: invitation.expires_at } });
    return answer;
  },
});

/** Revokes a pending invitation the caller may act on (`what`, for the refusal): only an owner touches an owner's. */
const revokePending = async (tx: Queryable, caller: InvitingCaller, id: number, what: string, now: Date) => {
  await lockOrganization(tx, caller.org.id);
  const found = await findInvitation(tx, caller.org.id, id);
  if (found?.status !== 'pending') throw invitationNotFound(); // accepted or revoked ones are history
  if (ownerOnlyRefusal(caller.org.role, found.role)) throw refused('owner_required', { owner_required: `${what} an owner's invitation` });
  await revokeInvitation(tx, caller.org.id, found.id, now);
  return found;
};

const revoke = defineRoute({
  method: 'DELETE',
  path: '/v1/team/invitations/:id/',
  access: 'org',
  permission: 'team:manage',
  params: { id: intText() },
  audit: 'invitation.revoked',
  async handler({ tx, ctx, caller, params, audit }) {
    const now = new Date(ctx.now());
    const invitation = await revokePending(tx, caller, params.id, 'revoke', now);
    audit({ target: invitationTarget(invitation), changes: { email: invitation.email, role: invitation.role } });
    return reply(204);
  },
});

/** D28: renew = a new link and 7 more days; the old link is dead. */
const renew = defineRoute({
  method: 'POST',
  path: '/v1/team/invitations/:id/renew/',
  access: 'org',
  permission: 'team:manage',
  params: { id: intText() },
  audit: 'invitation.renewed',
  async handler({ tx, ctx, caller, params, audit }) {
    const now = new Date(ctx.now());
    const old = await revokePending(tx, caller, params.id, 'renew', now);
    const { invitation, answer } = await issueInvitation(tx, caller, old.email, old.role, now);
    audit({ target: invitationTarget(invitation), changes: { email: invitation.email, role: invitation.role, replaces: old.id, expires_at: invitation.expires_at } });
    return answer;
  },
});

export const teamRoutes = [members, changeRole, remove, invitations, invite, revoke, renew, ...invitationPageRoutes, resetLink]; // D53 reset-link.ts
