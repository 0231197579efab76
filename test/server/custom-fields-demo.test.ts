// D3 D56: the demo's custom fields: Acme Plumbing's water heater model, last service date and maintenance
// plan on customers and gate code on locations; Beacon Electric's panel brand; values on some customers.
import { beforeAll, expect, test } from 'vitest';
import type { CustomField } from '../../contract/custom-fields';
import type { Customer, CustomerListItem } from '../../contract/customers';
import { CUSTOMERS } from './api-common';
import { forEachBackend, type Backend } from './backends';
import { fieldsOf } from './custom-fields-common';
import { ACME, BEACON, customerPath, signIn, warmedUp } from './customers-common';

forEachBackend('API demo custom fields', (backend) => {
  let b: Backend;
  beforeAll(async () => (b = await warmedUp(backend)));
  const labels = (fs: CustomField[], kind: CustomField['record_kind']) => fs.filter((f) => f.record_kind === kind).map((f) => f.label);

  test('D3 D56 Acme Plumbing has Water heater model, Last service date and Maintenance plan (one choice) with values on some customers, and Gate code on locations', async () => {
    const who = await signIn(b, 'owner@demo.test', ACME);
    const fields = await fieldsOf(who);
    expect(labels(fields, 'customer')).toEqual(['Water heater model', 'Last service date', 'Maintenance plan']);
    expect(labels(fields, 'location')).toEqual(['Gate code']);
    expect(fields.find((f) => f.key === 'maintenance_plan')).toMatchObject({
      type: 'choice',
      options: [{ label: 'None' }, { label: 'Annual flush' }, { label: 'Premium' }],
    });
    const all = (await who.get(`${CUSTOMERS}?page_size=100`)).body.results as CustomerListItem[];
    const held = all.filter((c) => c.custom.water_heater_model);
    expect(held.length).toBeGreaterThan(5);
    expect(held.length).toBeLessThan(all.length);
    expect(all.some((c) => /^\d{4}-\d{2}-\d{2}$/.test(String(c.custom.last_service_date)) && ['o2', 'o3'].includes(String(c.custom.maintenance_plan)))).toBe(true);
    const records = await Promise.all(all.map(async (c) => (await who.get(customerPath(c.id))).body as unknown as Customer));
    expect(records.some((c) => c.locations.some((l) => /^#\d{4}$/.test(String(l.custom?.gate_code))))).toBe(true);
  });

  test('D3 D56 Beacon Electric has Panel brand, a choice, on some customers', async () => {
    const who = await signIn(b, 'beacon@demo.test', BEACON);
    const fields = await fieldsOf(who);
    expect(labels(fields, 'customer')).toEqual(['Panel brand']);
    const all = (await who.get(`${CUSTOMERS}?page_size=100`)).body.results as CustomerListItem[];
    expect(all.filter((c) => c.custom.panel_brand).length).toBeGreaterThan(3);
  });
});
