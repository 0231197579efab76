// D47 a customer's other contacts: added, changed and removed through the API, in the customer's record
// and timeline; D9 D10 D19 D30 their refusals, other organizations' ids and audit entries.
import { beforeAll, describe, expect, test } from 'vitest';
import type { CustomerContact } from '../../contract/customer-parts';
import type { Customer, TimelineItem } from '../../contract/customers';
import { expectError } from './api-common';
import { forEachBackend, type Backend } from './backends';
import { ACME, auditAbout, BEACON, customerPath, expectFieldError, expectNoChange, inOrg, newActor, partsOf, signIn, warmedUp, type Actor } from './customers-common';
import { MINUTE } from './helpers';

const CONTACT_KEYS = ['created_at', 'email', 'id', 'name', 'note', 'phone', 'role', 'updated_at'];

forEachBackend('API customer contacts', (backend) => {
  let b: Backend;
  let owner: Actor;
  beforeAll(async () => (b = await warmedUp(backend)));
  const fresh = async () => (owner = await signIn(b, 'owner@demo.test', ACME));
  const { all: contactsOf, one: contactOf, add } = partsOf<CustomerContact>('contacts');
  const record = async (id: number) => (await owner.get(customerPath(id))).body as unknown as Customer;

  describe('D47 contacts', () => {
    test('D47 POST a contact: 201, email lower-cased (D39), phone as typed with its digits stored for search; in the record; audited as contact.added', async () => {
      await fresh();
      const c = await owner.create();
      const r = await owner.post(contactsOf(c.id), {
        name: ' Pat Manager ',
        role: 'property manager',
        email: ' Pat@Example.TEST ',
        phone: '+1 (503) 555-0142 ext. 7',
        note: 'Call before 5.\nPrefers text.',
      });
      expect(r.status, r.text).toBe(201);
      const contact = r.body as unknown as CustomerContact;
      expect(Object.keys(contact).sort()).toEqual(CONTACT_KEYS);
      const at = new Date(b.clock.now()).toISOString();
      expect(contact).toEqual({
        id: contact.id,
        name: 'Pat Manager',
        role: 'property manager',
        email: 'pat@example.test',
        phone: '+1 (503) 555-0142 ext. 7',
        note: 'Call before 5.\nPrefers text.',
        created_at: at,
        updated_at: at,
      });
      const [row] = await b.server.db.query<{ phone_digits: string; phone_tail: string; org_id: unknown }>(
        'select phone_digits, phone_tail, org_id from customer_contacts where id = $1',
        [contact.id],
      );
      expect({ ...row, org_id: Number(row?.org_id) }).toEqual({ phone_digits: '15035550142', phone_tail: '5550142', org_id: owner.org });
      expect((await record(c.id)).contacts).toEqual([contact]);
      expect((await owner.get(contactsOf(c.id))).body).toEqual({ count: 1, results: [contact] });
      const entry = (await auditAbout(b.server.db, 'customer', c.id)).at(-1);
      expect(entry).toMatchObject({ action: 'contact.added', actor_id: owner.userId, target_label: c.name });
      expect(entry!.changes).toMatchObject({ contact_id: contact.id, contact: 'Pat Manager', email: 'pat@example.test' });
    });

    test('D47 PATCH changes the given fields (audited from/to), DELETE removes it (audited); both in the timeline, oldest contact first', async () => {
      await fresh();
      const c = await owner.create();
      const tenant = await add(owner, c.id, { name: 'Tina Tenant', role: 'tenant' });
      const billing = await add(owner, c.id, { name: 'Bill Ing', role: 'billing' });
      expect((await record(c.id)).contacts.map((x) => x.id)).toEqual([tenant.id, billing.id]);
      b.clock.advance(MINUTE);
      const r = await owner.patch(contactOf(c.id, tenant.id), { phone: '503-555-0100', role: 'tenant' });
      expect(r.status, r.text).toBe(200);
      expect(r.body).toEqual({ ...tenant, phone: '503-555-0100', updated_at: new Date(b.clock.now()).toISOString() });
      b.clock.advance(MINUTE);
      expect((await owner.del(contactOf(c.id, billing.id))).status).toBe(204);
      expect((await record(c.id)).contacts.map((x) => x.id)).toEqual([tenant.id]);
      expectError(await owner.patch(contactOf(c.id, billing.id), { name: 'Back' }), 404, 'not_found');
      const timeline = (await owner.get(customerPath(c.id, 'timeline/'))).body as { results: TimelineItem[] };
      expect(timeline.results.map((i) => (i.kind === 'audit' ? i.action : i.kind))).toEqual([
        'contact.removed',
        'contact.updated',
        'contact.added',
        'contact.added',
        'customer.created',
      ]);
      expect(timeline.results[1]).toMatchObject({ changes: { contact_id: tenant.id, contact: 'Tina Tenant', phone: { from: null, to: '503-555-0100' } } });
      expect(timeline.results[0]).toMatchObject({ changes: { contact_id: billing.id, name: 'Bill Ing', role: 'billing' } });
      await expectNoChange(b.server.db, async () => expect((await owner.patch(contactOf(c.id, tenant.id), { name: 'Tina Tenant' })).status).toBe(200));
    });

    test('D47 at most 20 contacts: the 21st is a 409 too_many_contacts and writes nothing', async () => {
      await fresh();
      const c = await owner.create();
      for (let i = 0; i < 20; i++) await add(owner, c.id, { name: `Person ${i}` });
      await expectNoChange(b.server.db, async () => expectError(await owner.post(contactsOf(c.id), { name: 'Person 20' }), 409, 'too_many_contacts'));
    });

    test('D19 D47 bad input is a 400 naming the field and writes nothing', async () => {
      await fresh();
      const c = await owner.create();
      const contact = await add(owner, c.id, { name: 'Pat' });
      await expectNoChange(b.server.db, async () => {
        const bad: [Record<string, unknown>, string][] = [
          [{}, 'name'],
          [{ name: '   ' }, 'name'],
          [{ name: 'x'.repeat(201) }, 'name'],
          [{ name: 'Pat', email: 'not an email' }, 'email'],
          [{ name: 'Pat', email: 'a@b.c\u0000' }, 'email'],
          [{ name: 'Pat', phone: '555-12' }, 'phone'],
          [{ name: 'Pat', role: 'x'.repeat(101) }, 'role'],
          [{ name: 'Pat', note: 'x'.repeat(1001) }, 'note'],
          [{ name: 'Pat', title: 'Dr' }, 'title'],
        ];
        for (const [body, field] of bad) expectFieldError(await owner.post(contactsOf(c.id), body), field);
        expectFieldError(await owner.patch(contactOf(c.id, contact.id), { name: '' }), 'name');
      });
    });

    test("D9 D10 another organization's ids are 404s; a viewer reads but may not change (403); nothing changes", async () => {
      await fresh();
      const c = await owner.create();
      const other = await owner.create();
      const contact = await add(owner, c.id, { name: 'Pat' });
      const beacon = inOrg(b, owner, (await signIn(b, 'owner@demo.test', BEACON)).org);
      const viewer = await newActor(b, ACME, 'viewer');
      expect((await viewer.get(contactsOf(c.id))).body).toEqual({ count: 1, results: [contact] });
      await expectNoChange(b.server.db, async () => {
        expectError(await beacon.get(contactsOf(c.id)), 404, 'not_found');
        expectError(await beacon.post(contactsOf(c.id), { name: 'Mine' }), 404, 'not_found');
        expectError(await beacon.patch(contactOf(c.id, contact.id), { name: 'Mine' }), 404, 'not_found');
        expectError(await beacon.del(contactOf(c.id, contact.id)), 404, 'not_found');
        expectError(await owner.del(contactOf(other.id, contact.id)), 404, 'not_found');
        expectError(await viewer.post(contactsOf(c.id), { name: 'Vic' }), 403, 'permission_denied');
        expectError(await viewer.patch(contactOf(c.id, contact.id), { name: 'Vic' }), 403, 'permission_denied');
        expectError(await viewer.del(contactOf(c.id, contact.id)), 403, 'permission_denied');
      });
    });
  });
});
