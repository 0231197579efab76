// D28 D53: a member as the team's routes find them: under the organization's lock to change them, or
// by D53's rule (vouch.ts) to reset their password or two-step sign-in; and how an audit entry names them.
import type { Member } from '../../../contract/team';
import type { Queryable } from '../../db';
import { HttpError } from '../../http';
import { lockOrganization } from '../../organizations';
import { mayVouchFor } from '../../vouch';
import { findMember } from './repo';

interface TeamCaller {
  userId: number;
  org: { id: number };
}

export const memberTarget = (m: Member) => ({ type: 'member', id: m.user_id, label: m.name });
export const memberNotFound = () => new HttpError(404, 'not_found', 'No such member');

/** D28: the member, their row locked, under the organization's lock (one change to the team at a time). */
export async function lockedMember(tx: Queryable, orgId: number, userId: number): Promise<Member> {
  await lockOrganization(tx, orgId);
  const member = await findMember(tx, orgId, userId, { lock: true });
  if (!member) throw memberNotFound();
  return member;
}

/** D53: another member the caller may vouch for; `ownAccount` is the refusal when it is the caller. */
export async function vouchedMember(tx: Queryable, caller: TeamCaller, userId: number, ownAccount: () => HttpError): Promise<Member> {
  if (userId === caller.userId) throw ownAccount();
  const refusal = await mayVouchFor(tx, caller.org.id, caller.userId, userId);
  if (refusal) throw new HttpError(refusal.status, refusal.code, refusal.detail);
  const member = await findMember(tx, caller.org.id, userId);
  if (!member) throw memberNotFound();
  return member;
}
