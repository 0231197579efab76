// D54 the organization's settings, its own SQL: read by any member, changed by an owner.
import type { Queryable } from '../../db';

/** The caller's role and the settings of an organization they belong to; null when they do not (`lock` for a change). */
export async function settingsFor(db: Queryable, orgId: number, userId: number, lock = false): Promise<{ role: string; require_mfa: boolean } | null> {
  const [row] = await db.query<{ role: string; require_mfa: boolean }>(
    `select m.role, o.require_mfa from organizations o join memberships m on m.org_id = o.id and m.user_id = $2
      where o.id = $1${lock ? ' for no key update of o' : ''}`,
    [orgId, userId],
  );
  return row ?? null;
}

export async function setRequireMfa(tx: Queryable, orgId: number, value: boolean): Promise<void> {
  await tx.query('update organizations set require_mfa = $2 where id = $1', [orgId, value]);
}
