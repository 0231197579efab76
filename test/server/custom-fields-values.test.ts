// D56 a customer's custom values through the API: checked by type against the organization's fields (400
// naming custom.<key>), required and unique (under concurrency), in every customer answer, and part of
// the customer's own change entry.
import { beforeAll, describe, expect, test } from 'vitest';
import type { CustomField } from '../../contract/custom-fields';
import type { Customer, CustomerListItem } from '../../contract/customers';
import { CUSTOMERS, expectError } from './api-common';
import { forEachBackend, type Backend } from './backends';
import { auditAbout, customerPath, ownerOfNewOrg, unique, uniqueEmail, warmedUp, type Actor } from './customers-common';
import { addField, fieldPath } from './custom-fields-common';
import type { Reply } from './helpers';

/** D56: a 400 naming `custom.<key>` (first, and among `errors`). */
function expectCustomError(r: Reply, key: string, code?: string): void {
  expectError(r, 400, code);
  expect(r.body.errors, r.text).toHaveProperty([`custom.${key}`]);
  expect(Object.keys(r.body.errors as object)).toContain(r.body.field);
}

forEachBackend('API custom field values', (backend) => {
  let b: Backend;
  let o: Actor;
  const f: Record<string, CustomField> = {};
  beforeAll(async () => {
    b = await warmedUp(backend);
    o = await ownerOfNewOrg(b, 'Values');
    const choice = { options: [{ label: 'Gold' }, { label: 'Silver' }] };
    for (const [key, type, more] of [
      ['gate', 'text', {}],
      ['notes', 'long_text', {}],
      ['units', 'number', {}],
      ['since', 'date', {}],
      ['pets', 'yes_no', {}],
      ['plan', 'choice', choice],
      ['extras', 'choices', choice],
    ] as const)
      f[key] = await addField(o, { label: key.toUpperCase(), key, type, ...more });
  });
  const createRaw = (custom: unknown, more: Record<string, unknown> = {}) => o.post(CUSTOMERS, { name: unique('Customer '), email: uniqueEmail(), custom, ...more });
  const record = async (id: number) => (await o.get(customerPath(id))).body as unknown as Customer;
  const listed = async (id: number) => ((await o.get(`${CUSTOMERS}?page_size=100`)).body.results as CustomerListItem[]).find((c) => c.id === id);

  describe('D56 values', () => {
    test('D56 every customer answer carries custom with only the set values: create, get, list row, update', async () => {
      const values = { gate: ' 1234 ', notes: 'Dog.\nBig one.', units: 3.5, since: '2024-02-29', pets: false, plan: 'o2', extras: ['o1', 'o2'] };
      const c = await o.create({ custom: values });
      const stored = { ...values, gate: '1234' };
      expect(c.custom).toEqual(stored);
      expect((await record(c.id)).custom).toEqual(stored);
      expect((await listed(c.id))?.custom).toEqual(stored);
      expect((await o.create()).custom).toEqual({});
      const r = await o.patch(customerPath(c.id), { version: c.version, custom: { gate: '', units: 0 } });
      expect(r.status, r.text).toBe(200);
      const { gate: _gate, ...rest } = stored;
      expect(r.body.custom).toEqual({ ...rest, units: 0 });
    });

    test.each([
      ['gate', 7],
      ['gate', true],
      ['gate', 'a\nb'],
      ['gate', ['x']],
      ['notes', 5],
      ['units', '5'],
      ['units', true],
      ['since', '2024-13-01'],
      ['since', '2023-02-29'],
      ['since', '0000-01-01'],
      ['since', 20240101],
      ['since', 'tomorrow'],
      ['pets', 'yes'],
      ['pets', 1],
      ['plan', 'o9'],
      ['plan', 1],
      ['plan', ['o1']],
      ['extras', 'o1'],
      ['extras', ['o1', 'o9']],
      ['extras', ['o1', 'o1']],
    ])('D56 %s refuses %j: 400 naming custom.<key>, nothing written', async (key, value) => {
      const r = await createRaw({ [key]: value });
      expectCustomError(r, key);
      const c = await o.create();
      expectCustomError(await o.patch(customerPath(c.id), { version: c.version, custom: { [key]: value } }), key);
      expect((await record(c.id)).version).toBe(c.version);
    });

    test('D56 one of several choices that is not an option: the error says which item, naming the field once', async () => {
      const r = await createRaw({ extras: ['o1', 'o9'] });
      expectCustomError(r, 'extras');
      expect(r.body.errors).toEqual({ 'custom.extras': 'item 2 is not an option of this field' });
      expect(r.body.detail).toBe('custom.extras: item 2 is not an option of this field');
    });

    test('D56 text takes 500 characters and long text 5,000; one more is 400', async () => {
      expect((await o.create({ custom: { gate: 'x'.repeat(500), notes: 'y'.repeat(5000) } })).custom.notes).toHaveLength(5000);
      expectCustomError(await createRaw({ gate: 'x'.repeat(501) }), 'gate');
      expectCustomError(await createRaw({ notes: 'y'.repeat(5001) }), 'notes');
    });

    test('D56 a key no field has is 400 unknown_field naming custom.<key>; every refused key is listed', async () => {
      const r = await createRaw({ nope: 'x', units: 'many', gate: 'ok' });
      expectCustomError(r, 'nope', 'unknown_field');
      expect(Object.keys(r.body.errors as object).sort()).toEqual(['custom.nope', 'custom.units']);
      expectError(await createRaw({ 'Not-A-Key': 'x' }), 400, 'unknown_field');
      expectError(await createRaw('text'), 400);
    });

    test('D56 a required field: missing on create is 400 missing_field; an update that clears it is 400, one that leaves it out is fine', async () => {
      const own = await ownerOfNewOrg(b, 'Required');
      await addField(own, { label: 'Account no', key: 'account', required: true });
      const r = await own.post(CUSTOMERS, { name: 'No account' });
      expectCustomError(r, 'account', 'missing_field');
      const c = await own.create({ custom: { account: 'A-1' } });
      expectCustomError(await own.patch(customerPath(c.id), { version: c.version, custom: { account: '  ' } }), 'account', 'missing_field');
      const kept = await own.patch(customerPath(c.id), { version: c.version, name: 'Renamed' });
      expect([kept.status, (kept.body.custom as Record<string, unknown>).account]).toEqual([200, 'A-1']);
    });

    test("D56 a value's change is part of customer.updated as custom.<key> with the field's label; none when it is the same", async () => {
      const c = await o.create({ custom: { gate: '1111', plan: 'o1' } });
      const [created] = await auditAbout(b.server.db, 'customer', c.id);
      expect(created!.changes).toMatchObject({ 'custom.gate': '1111', 'custom.plan': 'o1' });
      const r = await o.patch(customerPath(c.id), { version: c.version, custom: { gate: '2222', plan: 'o1', units: null } });
      expect(r.status, r.text).toBe(200);
      const [, updated] = await auditAbout(b.server.db, 'customer', c.id);
      expect(updated!.changes).toEqual({ 'custom.gate': { from: '1111', to: '2222', label: 'GATE' } });
      const same = await o.patch(customerPath(c.id), { version: r.body.version, custom: { gate: '2222' } });
      expect([same.body.version, (await auditAbout(b.server.db, 'customer', c.id)).length]).toEqual([r.body.version, 2]);
    });
  });

  describe('D56 unique values', () => {
    test('D56 several concurrent creates with the same value of a unique text field (any case): exactly one succeeds, the rest 409 duplicate_custom_value', async () => {
      const own = await ownerOfNewOrg(b, 'Unique');
      await addField(own, { label: 'Serial', key: 'serial', unique: true });
      const answers = await Promise.all(
        ['SN-1', 'sn-1', 'Sn-1', 'SN-1', 'sN-1', 'SN-1'].map((serial) => own.post(CUSTOMERS, { name: unique('Customer '), custom: { serial } })),
      );
      expect(answers.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
      for (const r of answers.filter((a) => a.status === 409)) {
        expectError(r, 409, 'duplicate_custom_value');
        expect(r.body).toMatchObject({ field: 'custom.serial', label: 'Serial' });
      }
      const [n] = await b.server.db.query<{ n: number }>("select count(*)::int as n from customers where org_id = $1 and custom ? 'serial'", [own.org]);
      expect(n!.n).toBe(1);
    });

    test('D56 a unique number: another customer with it is 409; the customer itself keeps it; a deleted one does not count until restored; other organizations neither', async () => {
      const own = await ownerOfNewOrg(b, 'Unique');
      const other = await ownerOfNewOrg(b, 'Unique');
      for (const who of [own, other]) await addField(who, { label: 'Meter', key: 'meter', type: 'number', unique: true });
      const c = await own.create({ custom: { meter: 42 } });
      expect((await other.create({ custom: { meter: 42 } })).custom).toEqual({ meter: 42 });
      expectError(await own.post(CUSTOMERS, { name: 'Twin', custom: { meter: 42.0 } }), 409, 'duplicate_custom_value');
      const kept = await own.patch(customerPath(c.id), { version: c.version, name: 'Renamed', custom: { meter: 42 } });
      expect(kept.status, kept.text).toBe(200);
      const d = await own.create();
      expectError(await own.patch(customerPath(d.id), { version: d.version, custom: { meter: 42 } }), 409, 'duplicate_custom_value');
      expect((await own.del(customerPath(c.id))).status).toBe(204);
      expect((await own.patch(customerPath(d.id), { version: d.version, custom: { meter: 42 } })).status).toBe(200);
      // Back from the trash it would share the value: refused, and it stays in the trash.
      expectError(await own.post(customerPath(c.id, 'restore/')), 409, 'duplicate_custom_value');
      expectError(await own.get(customerPath(c.id)), 404, 'not_found');
    });

    test('D56 making a field unique while two customers share a value is 409 duplicate_custom_values; once they differ it is allowed', async () => {
      const own = await ownerOfNewOrg(b, 'Unique');
      const field = await addField(own, { label: 'Code', key: 'code' });
      const [x] = [await own.create({ custom: { code: 'A' } }), await own.create({ custom: { code: 'a' } })];
      expectError(await own.patch(fieldPath(field.id), { unique: true }), 409, 'duplicate_custom_values');
      expect((await own.patch(customerPath(x!.id), { version: x!.version, custom: { code: 'B' } })).status).toBe(200);
      expect((await own.patch(fieldPath(field.id), { unique: true })).body).toMatchObject({ unique: true });
    });
  });
});
