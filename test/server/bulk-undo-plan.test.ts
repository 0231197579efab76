// D58 D34: an undo puts a bulk action's customers back a batch at a time, and each batch reads only its
// own items, whatever the planner believes of them. Right after an action wrote its 10,000 items, before
// any analyze, the planner took them for one row: each batch then read all 10,000 and compared every one
// with each customer put back (2.5 s a batch on PostgreSQL, an undo of 10,000 in 12 s). Here the items are
// written after the table was analyzed empty, as an action leaves them, and each batch's plan is read.
import { beforeAll, expect, test } from 'vitest';
import type { Queryable, SqlParam } from '../../server/db';
import { wholeOrganization } from '../../server/customer-scope';
import { BULK_BATCH, undoSql } from '../../server/features/customers/bulk-repo';
import { undoBulk } from '../../server/features/customers/bulk-undo-repo';
import { forEachBackend, type Backend } from './backends';
import { createUser } from './helpers';
import { newOrg } from './people';
import { nodes, type PlanNode } from './plans';

const ITEMS = BULK_BATCH * 3;

forEachBackend('D58 undo batches', (backend) => {
  let b: Backend;
  beforeAll(() => {
    b = backend();
  });

  test('D58 D34 each batch of an undo reads only its own items, even before the items are analyzed', async () => {
    const db = b.server.db;
    const org = await newOrg(db, 'Undo plan');
    const actor = await createUser(db, { memberships: [[org.name, 'owner']] });
    await db.query(`insert into customers (org_id, name, tags) select $1, 'Undo ' || g, '{x}' from generate_series(1, ${ITEMS}) g`, [org.id]);
    const newBulk = async () =>
      (
        await db.query<{ id: number; created_at: Date }>("insert into bulk_actions (org_id, action, created_at) values ($1, 'add_tag', now()) returning id, created_at", [
          org.id,
        ])
      )[0]!;
    const items = (bulkId: number, limit: number) =>
      db.query(
        `insert into bulk_action_items (bulk_id, org_id, customer_id, changes, version)
         select $1, $2, id, '{"tags": {"from": [], "to": ["x"]}}', version from customers where org_id = $2 order by id limit $3`,
        [bulkId, org.id, limit],
      );
    // An earlier action, analyzed: the statistics know its items only, as before the one undone here.
    await items((await newBulk()).id, 200);
    await db.query('analyze bulk_action_items');
    const bulk = await newBulk();
    await items(bulk.id, ITEMS);
    const plans: PlanNode[] = [];
    const rollback = new Error('rolled back');
    const outcome = db.transaction(async (tx) => {
      const watched: Queryable = {
        query: async (text: string, params?: readonly SqlParam[]) => {
          if (text.includes('with put as')) {
            await tx.query('savepoint plan');
            const [row] = await tx.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(`explain (analyze, format json) ${text}`, params);
            await tx.query('rollback to savepoint plan');
            plans.push(row!['QUERY PLAN'][0].Plan);
            console.log(
              JSON.stringify(row!['QUERY PLAN'][0].Plan, (k, v) =>
                ['Output', 'Startup Cost', 'Total Cost', 'Plan Width', 'Actual Startup Time', 'Async Capable', 'Parallel Aware'].includes(k) ? undefined : v,
              ),
            );
          }
          return tx.query(text, params);
        },
      } as Queryable;
      const r = await undoBulk(
        watched,
        wholeOrganization(org.id),
        { ...bulk, action: 'add_tag', undone_at: null, actor_id: actor.id },
        actor.id,
        new Date(),
        (add) => undoSql('add_tag', null, add),
        [],
      );
      expect(r.restored).toBe(ITEMS);
      const [marked] = await tx.query<{ n: unknown }>('select count(*) as n from bulk_action_items where bulk_id = $1 and restored', [bulk.id]);
      expect(Number(marked?.n)).toBe(ITEMS);
      throw rollback;
    });
    await expect(outcome).rejects.toBe(rollback);

    expect(plans).toHaveLength(ITEMS / BULK_BATCH);
    for (const plan of plans) {
      const items = nodes(plan).filter((n) => n['Relation Name'] === 'bulk_action_items' && n['Node Type'] !== 'ModifyTable');
      expect(items.length).toBeGreaterThan(0);
      for (const n of items) expect(n['Actual Rows']).toBeLessThanOrEqual(BULK_BATCH);
      for (const n of nodes(plan)) expect(n['Rows Removed by Join Filter'] ?? 0).toBeLessThanOrEqual(BULK_BATCH);
    }
  });
});
