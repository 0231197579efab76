// D49 D56: a merge picks custom fields per field (`custom.<key>`): not chosen, the survivor keeps its
// value or takes the merged customer's where it has none; the survivor's entry names each by its label;
// the undo gives every value back, keeping a value changed since.
import { beforeAll, describe, expect, test } from 'vitest';
import type { CustomField } from '../../contract/custom-fields';
import type { Customer } from '../../contract/customers';
import { forEachBackend, type Backend } from './backends';
import { addField, fieldPath } from './custom-fields-common';
import { auditAbout, customerPath, ownerOfNewOrg, warmedUp, type Actor } from './customers-common';
import { merge, merged, undoPath } from './customers-merge-common';

forEachBackend('API merge with custom fields', (backend) => {
  let b: Backend;
  let o: Actor;
  let plan: CustomField;
  beforeAll(async () => {
    b = await warmedUp(backend);
    o = await ownerOfNewOrg(b, 'MergeCustom');
    await addField(o, { key: 'heater', label: 'Water heater model' });
    plan = await addField(o, { key: 'plan', label: 'Plan', type: 'choice', options: [{ label: 'Gold' }, { label: 'Silver' }] });
    await addField(o, { key: 'code', label: 'Gate code', unique: true });
  });
  const read = async (id: number) => (await o.get(customerPath(id))).body as unknown as Customer;
  const pair = async () => {
    const [gold, silver] = plan.options.map((x) => x.id);
    const survivor = await o.create({ name: 'Ann Lee', custom: { heater: 'Rheem 50', plan: gold } });
    const other = await o.create({ name: 'Ann Leee', custom: { heater: 'Bradford 40', plan: silver, code: `#${survivor.id}` } });
    return { survivor, other, gold: gold!, silver: silver! };
  };

  describe('D56 merge', () => {
    test('D56 D49 the survivor takes the custom values chosen from the merged customer, keeps its own otherwise, and fills what it lacks; its entry names each by label', async () => {
      const { survivor, other, silver } = await pair();
      const id = await merged(o, survivor.id, other.id, { 'custom.plan': 'merged' });
      const after = await read(survivor.id);
      expect(after.custom).toEqual({ heater: 'Rheem 50', plan: silver, code: `#${survivor.id}` }); // heater kept, plan chosen, the gate code filled
      const entry = (await auditAbout(b.server.db, 'customer', survivor.id)).find((e) => e.action === 'customer.merged')!;
      expect(entry.changes).toMatchObject({
        merge_id: id,
        'custom.plan': { to: silver, label: 'Plan' },
        'custom.code': { from: null, to: `#${survivor.id}`, label: 'Gate code' },
      });
      expect(entry.changes).not.toHaveProperty('custom.heater');
    });

    test('D56 D49 undo gives back every custom value the merge changed, and keeps one changed since', async () => {
      const { survivor, other, gold } = await pair();
      const id = await merged(o, survivor.id, other.id, { 'custom.plan': 'merged', 'custom.heater': 'merged' });
      const now = await read(survivor.id);
      expect((await o.patch(customerPath(survivor.id), { version: now.version, custom: { heater: 'Rinnai tankless' } })).status).toBe(200);
      const r = await o.post(undoPath(id));
      expect(r.status, r.text).toBe(200);
      const back = await read(survivor.id);
      expect(back.custom).toEqual({ heater: 'Rinnai tankless', plan: gold }); // the plan back, the gate code gone again, the later heater kept
      expect((await read(other.id)).custom).toMatchObject({ code: `#${survivor.id}` }); // the unique value is the merged customer's again
    });

    test('D56 D49 a choice naming a field the organization does not have, or an archived one, is a 400 naming it, and nothing changes', async () => {
      const { survivor, other } = await pair();
      const old = await addField(o, { key: 'old', label: 'Old' });
      expect((await o.post(fieldPath(old.id, 'archive/'))).status).toBe(200);
      for (const key of ['custom.nope', 'custom.old']) {
        const r = await merge(o, survivor.id, other.id, { [key]: 'merged' } as never);
        expect(r.status, r.text).toBe(400);
        expect(r.body.field).toBe(`fields.${key}`);
      }
      const bad = await merge(o, survivor.id, other.id, { 'custom.Bad Key!': 'merged' } as never);
      expect(bad.status).toBe(400);
      expect((await read(other.id)).name).toBe('Ann Leee'); // still live
    });
  });
});
