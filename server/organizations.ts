// An organization's own row, as several features use it.
import type { Queryable } from './db';

/**
 * Changes to who may do what in one organization (its team, its permission matrix) take turns: two
 * owners demoting each other, two invitations for one email or two matrix edits would otherwise both
 * pass their checks (or deadlock on each other's rows). Held until the transaction ends.
 */
export async function lockOrganization(tx: Queryable, orgId: number): Promise<void> {
  await tx.query('select 1 from organizations where id = $1 for no key update', [orgId]);
}
