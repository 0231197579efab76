// D53: who may vouch for whom. Passwords (and two-step sign-in, D54) are global, so resetting someone's
// is allowed only to a member with team:manage (the route's permission) when the person belongs to no
// other organization, or when the caller is an owner in every organization the person belongs to; an
// owner's only by an owner. Written once: reset links and two-step sign-in resets both ask here.
import type { Queryable } from './db';

export interface VouchRefusal {
  status: 403 | 404;
  code: string;
  detail: string;
}

const OWNER = 'owner';

/** D53's rule; null when the caller may vouch for the member (the caller's own account is the route's to refuse). */
export async function mayVouchFor(tx: Queryable, orgId: number, actorId: number, targetUserId: number): Promise<VouchRefusal | null> {
  // Every organization of the person, with the caller's role in each (null where the caller is not a member).
  const rows = await tx.query<{ org_id: unknown; target_role: string; actor_role: string | null }>(
    `select t.org_id, t.role as target_role, a.role as actor_role
       from memberships t
       left join memberships a on a.org_id = t.org_id and a.user_id = $2
      where t.user_id = $1
      for share of t`,
    [targetUserId, actorId],
  );
  const here = rows.find((r) => Number(r.org_id) === orgId);
  // D9: someone who is not a member here is not the caller's business, whatever else they are.
  if (!here) return { status: 404, code: 'not_found', detail: 'No such member' };
  if (here.target_role === OWNER && here.actor_role !== OWNER) {
    return { status: 403, code: 'forbidden', detail: "An owner's password and two-step sign-in can be reset by an owner only." };
  }
  // Someone in other organizations too: only by an owner in every one of them, this one included.
  if (rows.length > 1 && rows.some((r) => r.actor_role !== OWNER)) {
    return {
      status: 403,
      code: 'forbidden',
      detail:
        'This member also belongs to another organization. Their password and two-step sign-in can be reset only by someone who is an owner in every organization they belong to.',
    };
  }
  return null;
}
