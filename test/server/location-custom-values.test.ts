// D56 a service location's custom values through the locations routes: checked by the location fields'
// types (400 naming custom.<key>), required on a new location, unique among the organization's live
// customers' locations (409 duplicate_custom_value), in every location answer and the customer record,
// archived fields' values left out, and part of the location's change entry in the customer's timeline.
import { beforeAll, describe, expect, test } from 'vitest';
import type { CustomerLocation } from '../../contract/customer-parts';
import type { Customer } from '../../contract/customers';
import { expectError } from './api-common';
import { forEachBackend, type Backend } from './backends';
import { auditAbout, customerPath, ownerOfNewOrg, partsOf, unique, uniqueEmail, warmedUp, type Actor } from './customers-common';
import { addField, fieldPath } from './custom-fields-common';

const LOCATIONS = partsOf<CustomerLocation>('locations');

forEachBackend('API location custom values', (backend) => {
  let b: Backend;
  let o: Actor;
  beforeAll(async () => {
    b = await warmedUp(backend);
    o = await ownerOfNewOrg(b, 'Places');
    await addField(o, { label: 'Floor', key: 'floor', type: 'number', record_kind: 'location' });
    await addField(o, { label: 'Lockbox', key: 'lockbox', type: 'text', unique: true, record_kind: 'location' });
    await addField(o, { label: 'Access', key: 'access', type: 'choice', record_kind: 'location', options: [{ label: 'Key' }, { label: 'Code' }] });
    await addField(o, { label: 'Floor', key: 'cfloor', type: 'text' }); // a customer field: not a location's
  });
  const customer = async () => (await o.create({ name: unique('Place '), email: uniqueEmail() })) as Customer;

  describe('D56 location values', () => {
    test('D56 a location carries custom with the set values: add, list, the customer record; audited as custom.<key>', async () => {
      const c = await customer();
      const l = await LOCATIONS.add(o, c.id, { label: 'Shop', custom: { floor: 2, lockbox: ' A1 ', access: 'o2' } });
      expect(l.custom).toEqual({ floor: 2, lockbox: 'A1', access: 'o2' });
      expect(((await o.get(LOCATIONS.all(c.id))).body.results as CustomerLocation[])[0]!.custom).toEqual(l.custom);
      expect(((await o.get(customerPath(c.id))).body as unknown as Customer).locations[0]!.custom).toEqual(l.custom);
      const entry = (await auditAbout(b.server.db, 'customer', c.id)).find((e) => e.action === 'location.added');
      expect(entry!.changes).toMatchObject({ label: 'Shop', 'custom.floor': 2, 'custom.lockbox': 'A1', 'custom.access': 'o2' });
      expect(entry!.changes).not.toHaveProperty('custom');
    });

    test('D56 PATCH changes only the values given, null clears one; the entry holds {from, to, label}; the same values again write nothing', async () => {
      const c = await customer();
      const l = await LOCATIONS.add(o, c.id, { label: 'Home', custom: { floor: 1, access: 'o1' } });
      const r = await o.patch(LOCATIONS.one(c.id, l.id), { custom: { floor: null, access: 'o2' } });
      expect(r.status, r.text).toBe(200);
      expect((r.body as unknown as CustomerLocation).custom).toEqual({ access: 'o2' });
      const entry = (await auditAbout(b.server.db, 'customer', c.id)).find((e) => e.action === 'location.updated');
      expect(entry!.changes).toMatchObject({ 'custom.floor': { from: 1, to: null, label: 'Floor' }, 'custom.access': { from: 'o1', to: 'o2', label: 'Access' } });
      const count = (await auditAbout(b.server.db, 'customer', c.id)).length;
      expect((await o.patch(LOCATIONS.one(c.id, l.id), { custom: { access: 'o2' } })).status).toBe(200);
      expect((await auditAbout(b.server.db, 'customer', c.id)).length).toBe(count);
    });

    test('D56 a value of the wrong type, an option the field lacks or a customer field key is 400 naming custom.<key>; nothing is written', async () => {
      const c = await customer();
      for (const [custom, key] of [
        [{ floor: 'two' }, 'floor'],
        [{ access: 'o9' }, 'access'],
        [{ cfloor: 'x' }, 'cfloor'],
      ] as const) {
        const r = await o.post(LOCATIONS.all(c.id), { label: 'Bad', custom });
        expectError(r, 400);
        expect(r.body.field, r.text).toBe(`custom.${key}`);
      }
      expect((await o.get(LOCATIONS.all(c.id))).body.count).toBe(0);
    });

    test('D56 a unique location value another customer’s location holds is 409 duplicate_custom_value naming the field; its own is fine', async () => {
      const [c1, c2] = [await customer(), await customer()];
      const code = unique('LB');
      const l = await LOCATIONS.add(o, c1.id, { label: 'One', custom: { lockbox: code } });
      const r = await o.post(LOCATIONS.all(c2.id), { label: 'Two', custom: { lockbox: code.toLowerCase() } });
      expectError(r, 409, 'duplicate_custom_value');
      expect(r.body.field).toBe('custom.lockbox');
      expect((await o.patch(LOCATIONS.one(c1.id, l.id), { label: 'One again', custom: { lockbox: code } })).status).toBe(200);
    });

    test('D56 a required location field must be given on a new location; an archived field’s value leaves the answers', async () => {
      const p = await ownerOfNewOrg(b, 'Places');
      const must = await addField(p, { label: 'Zone', key: 'zone', type: 'text', required: true, record_kind: 'location' });
      const c = (await p.create({ name: unique('Place '), email: uniqueEmail() })) as Customer;
      const r = await p.post(LOCATIONS.all(c.id), { label: 'No zone' });
      expectError(r, 400, 'missing_field');
      expect(r.body.field).toBe('custom.zone');
      const l = await LOCATIONS.add(p, c.id, { label: 'Zoned', custom: { zone: 'North' } });
      expect((await p.post(fieldPath(must.id, 'archive/'))).status).toBe(200);
      expect(((await p.get(LOCATIONS.all(c.id))).body.results as CustomerLocation[]).find((x) => x.id === l.id)!.custom).toEqual({});
    });

    test('D56 a location field archived meanwhile is refused as field_archived with archived: [...]; the rest saves without it', async () => {
      const p = await ownerOfNewOrg(b, 'Places');
      const bay = await addField(p, { label: 'Bay', key: 'bay', type: 'text', record_kind: 'location' });
      await addField(p, { label: 'Level', key: 'level', type: 'number', record_kind: 'location' });
      const c = (await p.create({ name: unique('Place '), email: uniqueEmail() })) as Customer;
      const l = await LOCATIONS.add(p, c.id, { label: 'Yard', custom: { bay: 'B', level: 1 } });
      expect((await p.post(fieldPath(bay.id, 'archive/'))).status).toBe(200);
      const refused = await p.patch(LOCATIONS.one(c.id, l.id), { label: 'Yard 2', custom: { bay: 'C', level: 2 } });
      expectError(refused, 400);
      expect(refused.body).toMatchObject({ code: 'field_archived', field: 'custom.bay', archived: ['custom.bay'] });
      expectError(await p.post(LOCATIONS.all(c.id), { label: 'New', custom: { bay: 'D' } }), 400);
      const again = await p.patch(LOCATIONS.one(c.id, l.id), { label: 'Yard 2', custom: { level: 2 } });
      expect(again.status).toBe(200);
      expect((again.body as unknown as CustomerLocation).custom).toEqual({ level: 2 });
    });
  });
});
