// D56 D34: a unique custom field's check (every save of a customer that has a value, and an import's values
// all at once) finds the customers that may hold the value in customer_custom_values' index, then compares
// those alone. It read every customer of the organization before: at 200,000 customers each save scanned
// them all while holding the field's lock. Here the organization has CUSTOMERS customers; each check's plan
// is read, and the customers it reads must be the holders, not the organization.
import { beforeAll, expect, test } from 'vitest';
import type { CustomField } from '../../contract/custom-fields';
import { valueHolder, valueHolders } from '../../server/custom-fields';
import type { Queryable, SqlParam } from '../../server/db';
import { forEachBackend, type Backend } from './backends';
import { newOrg } from './people';
import { nodes, type PlanNode } from './plans';

const CUSTOMERS = 3_000;

/** Rows the plan read from customers: each scan's rows, kept or filtered out, over all its loops. */
const customersRead = (plan: PlanNode) =>
  nodes(plan)
    .filter((n) => n['Relation Name'] === 'customers')
    .reduce((sum, n) => sum + ((n['Actual Rows'] ?? 0) + (n['Rows Removed by Filter'] ?? 0)) * (n['Actual Loops'] ?? 1), 0);

forEachBackend('D56 unique custom values', (backend) => {
  let b: Backend;
  beforeAll(() => {
    b = backend();
  });

  test('D56 D34 a unique field is checked through its values index: the customers read are the holders, not the organization', async () => {
    const db = b.server.db;
    const org = await newOrg(db, 'Unique plan');
    // Every customer a serial ('SN-00001', …) and a meter (1.5, 2.5, …); the last one deleted.
    await db.query(
      `insert into customers (org_id, name, custom, deleted_at)
       select $1, 'Unique ' || g, jsonb_build_object('serial', 'SN-' || lpad(g::text, 5, '0'), 'meter', g + 0.5),
              case when g = ${CUSTOMERS} then now() end
         from generate_series(1, ${CUSTOMERS}) g`,
      [org.id],
    );
    await db.query('analyze customers');
    await db.query('analyze customer_custom_values');
    const [first] = await db.query<{ id: number }>('select id from customers where org_id = $1 order by id limit 1', [org.id]);
    const serial = { id: 1, key: 'serial', type: 'text' } as Pick<CustomField, 'id' | 'key' | 'type'>;
    const meter = { id: 2, key: 'meter', type: 'number' } as Pick<CustomField, 'id' | 'key' | 'type'>;
    const plans: PlanNode[] = [];
    const rollback = new Error('rolled back');
    const outcome = db.transaction(async (tx) => {
      const watched: Queryable = {
        query: async (text: string, params?: readonly SqlParam[]) => {
          if (!text.includes('advisory')) {
            const [row] = await tx.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(`explain (analyze, format json) ${text}`, params);
            plans.push(row!['QUERY PLAN'][0].Plan);
          }
          return tx.query(text, params);
        },
      } as Queryable;
      // Regardless of case; not the customer itself; not a deleted customer; a number as a number.
      expect(await valueHolder(watched, org.id, serial, 'sn-00002', null)).toEqual({ id: Number(first!.id) + 1, name: 'Unique 2' });
      expect(await valueHolder(watched, org.id, serial, 'SN-00001', Number(first!.id))).toBeNull();
      expect(await valueHolder(watched, org.id, serial, `SN-${String(CUSTOMERS).padStart(5, '0')}`, null)).toBeNull();
      expect(await valueHolder(watched, org.id, meter, 7.5, null)).toEqual({ id: Number(first!.id) + 6, name: 'Unique 7' });
      expect(await valueHolder(watched, org.id, meter, 7, null)).toBeNull();
      const held = await valueHolders(watched, org.id, serial, ['Sn-00010', 'SN-00011', 'SN-99999']);
      expect([...held.keys()].sort()).toEqual(['sn-00010', 'sn-00011']);
      const meters = await valueHolders(watched, org.id, meter, [10.5, 11.5, 12]);
      expect([...meters.keys()].sort()).toEqual(['10.5', '11.5']);
      throw rollback;
    });
    await expect(outcome).rejects.toBe(rollback);

    expect(plans).toHaveLength(7);
    // At most the holders of the values asked for (and the deleted one's row, which the check skips).
    for (const plan of plans) expect(customersRead(plan)).toBeLessThanOrEqual(3);
  });
});
