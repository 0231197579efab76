// D53: who may vouch for another member (a reset link, or a reset of their two-step sign-in, D54).
// Passwords and second factors are global, so a member who belongs to other organizations too may be
// vouched for only by someone who is an owner in every organization that member belongs to; an owner
// only by an owner. Written once here; the routes that need it call it inside their transaction.
import type { Queryable } from '../../db';

export type VouchRefusal = { status: 403 | 404; code: string; detail: string };

/** Null when the actor may vouch for the target in this organization; the refusal otherwise. */
export async function mayVouchFor(tx: Queryable, orgId: number, actorId: number, targetUserId: number): Promise<null | VouchRefusal> {
  const rows = await tx.query<{ org_id: unknown; role: string; actor_role: string | null }>(
    `select m.org_id, m.role, a.role as actor_role
       from memberships m left join memberships a on a.org_id = m.org_id and a.user_id = $1
      where m.user_id = $2`,
    [actorId, targetUserId],
  );
  const here = rows.find((r) => Number(r.org_id) === orgId);
  if (!here) return { status: 404, code: 'not_found', detail: 'No such member' };
  if (here.role === 'owner' && here.actor_role !== 'owner') return { status: 403, code: 'forbidden', detail: 'Only an owner can do this for an owner.' };
  const elsewhere = rows.filter((r) => Number(r.org_id) !== orgId);
  if (elsewhere.length > 0 && !rows.every((r) => r.actor_role === 'owner')) {
    return {
      status: 403,
      code: 'forbidden',
      detail: 'This member also belongs to another organization: only someone who is an owner in every organization they belong to can do this.',
    };
  }
  return null;
}
