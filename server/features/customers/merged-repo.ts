// D49: a merged customer's id answers 404 `merged` naming where it went, wherever a customer is read
// (repo.ts getCustomer, the one look-up). Scoped by organization like every customers query (STYLE).
import type { Queryable } from '../../db';
import { num } from '../../db';
import { HttpError } from '../../http';

/** Merges chain (A into B, then B into C); a chain is never longer than this (each link needs a live survivor). */
const MAX_CHAIN = 100;

/**
 * D49: the 404 for a customer merged into another: `merged_into` is the end of the chain (A into B, B into
 * C: C), where its old address should lead. Null when the customer was not merged.
 */
export async function mergedError(db: Queryable, orgId: number, id: number): Promise<HttpError | null> {
  const [row] = await db.query<{ id: unknown; name: string }>(
    `with recursive chain (id, depth) as (
       select merged_into_id, 1 from customers where org_id = $1 and id = $2 and merged_into_id is not null
       union all
       select c.merged_into_id, chain.depth + 1 from chain join customers c on c.org_id = $1 and c.id = chain.id
        where c.merged_into_id is not null and chain.depth < ${MAX_CHAIN})
     select c.id, c.name from chain join customers c on c.org_id = $1 and c.id = chain.id order by chain.depth desc limit 1`,
    [orgId, id],
  );
  if (!row) return null;
  return new HttpError(404, 'merged', `This customer was merged into ${row.name}.`, {}, { merged_into: { id: num(row.id), name: row.name } });
}
