// D48: the lead source's suggestions, SQL only, scoped by organization.
import { seen, type CustomerScope } from '../../customer-scope';
import { fold } from '../../../contract/fold';
import { containsPattern } from '../../customer-list';
import type { Queryable } from '../../db';

/** At most this many sources are suggested at a time. */
export const LEAD_SOURCE_SUGGESTIONS = 20;

/**
 * D48: the sources the organization's live customers have, containing `q` (case and accents ignored),
 * those beginning with it first, then the most used; one spelling per source (the first by code point).
 */
export async function suggestLeadSources(db: Queryable, scope: CustomerScope, q: string | null): Promise<string[]> {
  const folded = fold(q ?? '');
  const rows = await db.query<{ source: string }>(
    `select min(lead_source) as source from customers
      where org_id = $1${seen('', scope)} and deleted_at is null and lead_source is not null and crm_fold(lead_source) like $2
      group by crm_fold(lead_source)
      order by (crm_fold(lead_source) like $3) desc, count(*) desc, crm_fold(lead_source) limit ${LEAD_SOURCE_SUGGESTIONS}`,
    [scope.orgId, containsPattern(folded), `${folded.replace(/[\\%_]/g, '\\$&')}%`],
  );
  return rows.map((r) => r.source);
}
