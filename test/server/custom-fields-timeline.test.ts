// D56 D24 D50: a custom value's change is part of the customer's own entry, named by the field's label; a
// choice's change carries its options' labels as they were, so the timeline says 'Gold', not an option id,
// even after the option is renamed.
import { beforeAll, expect, test } from 'vitest';
import type { TimelineItem } from '../../contract/customers';
import { forEachBackend, type Backend } from './backends';
import { addField, fieldPath } from './custom-fields-common';
import { customerPath, ownerOfNewOrg, warmedUp, type Actor } from './customers-common';

forEachBackend('API custom values on the timeline', (backend) => {
  let b: Backend;
  let o: Actor;
  beforeAll(async () => {
    b = await warmedUp(backend);
    o = await ownerOfNewOrg(b, 'CfTimeline');
  });

  test('D56 D24 a choice’s change names the field by label and its values by their options’ labels at the time; a text field’s has no words added', async () => {
    const plan = await addField(o, { key: 'plan', label: 'Plan', type: 'choice', options: [{ label: 'Gold' }, { label: 'Silver' }] });
    await addField(o, { key: 'heater', label: 'Heater' });
    const [gold, silver] = plan.options.map((x) => x.id);
    const c = await o.create({ name: 'Tim Line', custom: { plan: gold, heater: 'Rheem' } });
    const r = await o.patch(customerPath(c.id), { version: c.version, custom: { plan: silver, heater: 'Rinnai' } });
    expect(r.status, r.text).toBe(200);
    // Renaming an option later does not rewrite history.
    expect(
      (
        await o.patch(fieldPath(plan.id), {
          options: [
            { id: gold, label: 'Gold plus' },
            { id: silver, label: 'Silver' },
          ],
        })
      ).status,
    ).toBe(200);
    const items = (await o.get(customerPath(c.id, 'timeline/'))).body.results as TimelineItem[];
    const entry = items.find((i) => i.kind === 'audit' && i.action === 'customer.updated') as Extract<TimelineItem, { kind: 'audit' }>;
    expect(entry.changes).toEqual({
      'custom.plan': { from: gold, to: silver, label: 'Plan', shown: { from: 'Gold', to: 'Silver' } },
      'custom.heater': { from: 'Rheem', to: 'Rinnai', label: 'Heater' },
    });
  });
});
