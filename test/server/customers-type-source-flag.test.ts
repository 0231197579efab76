// D48 a customer's type, lead source and do-not-service flag: written and read with the record (D22 D31),
// audited like other fields (D30), filtered and sorted in the list (D26), lead sources suggested (D48).
import { beforeAll, describe, expect, test } from 'vitest';
import type { CustomerListItem } from '../../contract/customers';
import { CUSTOMERS, expectError } from './api-common';
import { forEachBackend, type Backend } from './backends';
import { auditAbout, customerPath, expectFieldError, expectNoChange, ownerOfNewOrg, unique, warmedUp, type Actor } from './customers-common';

forEachBackend('API customer type, lead source and flag', (backend) => {
  let b: Backend;
  let owner: Actor;
  beforeAll(async () => (b = await warmedUp(backend)));
  /** The owner of an organization of the test's own: its list holds only what the test made. */
  const fresh = async () => (owner = await ownerOfNewOrg(b, 'Flag Org'));
  const page = async (query: string) => {
    const r = await owner.get(`${CUSTOMERS}?${query}`);
    expect(r.status, r.text).toBe(200);
    return r.body as { count: number; results: CustomerListItem[] };
  };
  const names = async (query: string) => (await page(query)).results.map((c) => c.name);

  describe('D48 the record', () => {
    test('D48 a new customer is residential, without source or flag, unless told; the fields come back as sent and are audited', async () => {
      await fresh();
      const plain = await owner.create();
      expect(plain).toMatchObject({ type: 'residential', lead_source: null, do_not_service: false, do_not_service_reason: null });
      const c = await owner.create({ type: 'commercial', lead_source: ' Yelp ', do_not_service: true, do_not_service_reason: ' Unpaid invoices ' });
      expect(c).toMatchObject({ type: 'commercial', lead_source: 'Yelp', do_not_service: true, do_not_service_reason: 'Unpaid invoices' });
      expect((await owner.get(customerPath(c.id))).body).toEqual(c);
      const [entry] = await auditAbout(b.server.db, 'customer', c.id);
      expect(entry!.changes).toMatchObject({ type: 'commercial', lead_source: 'Yelp', do_not_service: true, do_not_service_reason: 'Unpaid invoices' });
    });

    test('D31 D48 PATCH changes them with the version; the audit entry lists them from/to like other fields', async () => {
      await fresh();
      const c = await owner.create({ lead_source: 'Yelp' });
      const r = await owner.patch(customerPath(c.id), {
        version: 1,
        type: 'commercial',
        lead_source: '',
        do_not_service: true,
        do_not_service_reason: 'Threatened a tech',
      });
      expect(r.status, r.text).toBe(200);
      expect(r.body).toMatchObject({ type: 'commercial', lead_source: null, do_not_service: true, do_not_service_reason: 'Threatened a tech', version: 2 });
      const entries = await auditAbout(b.server.db, 'customer', c.id);
      expect(entries[1]!.changes).toEqual({
        type: { from: 'residential', to: 'commercial' },
        lead_source: { from: 'Yelp', to: null },
        do_not_service: { from: false, to: true },
        do_not_service_reason: { from: null, to: 'Threatened a tech' },
      });
      expectError(await owner.patch(customerPath(c.id), { version: 1, do_not_service: false }), 409, 'conflict');
    });

    test('D19 D48 a type not in the list, a flag that is not a boolean, a source over 100 or a reason over 500 characters: 400 naming the field', async () => {
      await fresh();
      const c = await owner.create();
      await expectNoChange(b.server.db, async () => {
        const bad: [Record<string, unknown>, string][] = [
          [{ type: 'industrial' }, 'type'],
          [{ type: '' }, 'type'],
          [{ do_not_service: 'true' }, 'do_not_service'],
          [{ do_not_service: 1 }, 'do_not_service'],
          [{ lead_source: 'x'.repeat(101) }, 'lead_source'],
          [{ lead_source: 'Ye\u0000lp' }, 'lead_source'],
          [{ do_not_service_reason: 'x'.repeat(501) }, 'do_not_service_reason'],
        ];
        for (const [fields, field] of bad) {
          expectFieldError(await owner.post(CUSTOMERS, { name: unique('Bad '), ...fields }), field);
          expectFieldError(await owner.patch(customerPath(c.id), { version: 1, ...fields }), field);
        }
        expectFieldError(await owner.patch(customerPath(c.id), { version: 1, type: null }), 'type');
      });
      const ok = await owner.create({ lead_source: 'x'.repeat(100), do_not_service_reason: 'y'.repeat(500) });
      expect([ok.lead_source?.length, ok.do_not_service_reason?.length]).toEqual([100, 500]);
    });
  });

  describe('D48 the list', () => {
    test('D48 each list item carries type and do_not_service; type= and do_not_service=true filter, with the count', async () => {
      await fresh();
      const a = await owner.create({ name: 'Ann', type: 'commercial' });
      await owner.create({ name: 'Bob' });
      await owner.create({ name: 'Cid', type: 'commercial', do_not_service: true });
      await owner.create({ name: 'Dee', do_not_service: true });
      const all = await page('');
      expect(all.results.find((c) => c.id === a.id)).toMatchObject({ type: 'commercial', do_not_service: false });
      expect(await names('type=commercial')).toEqual(['Ann', 'Cid']);
      expect((await page('type=residential')).count).toBe(2);
      expect(await names('do_not_service=true')).toEqual(['Cid', 'Dee']);
      expect(await names('do_not_service=true&type=residential')).toEqual(['Dee']);
      expect(await names('do_not_service=false')).toEqual(['Ann', 'Bob', 'Cid', 'Dee']);
      expect(await names('do_not_service=true&q=ci')).toEqual(['Cid']);
      for (const query of ['type=industrial', 'do_not_service=yes']) expectError(await owner.get(`${CUSTOMERS}?${query}`), 400);
    });

    test('D46 D48 sort by status and by city (the primary location’s, else the billing city; none last), both ways, pages without overlap', async () => {
      await fresh();
      const ann = await owner.create({ name: 'Ann', city: 'Salem', status: 'lead' });
      await owner.create({ name: 'Bob', city: 'Astoria', status: 'active' });
      await owner.create({ name: 'Cid', status: 'inactive' });
      await owner.create({ name: 'Dee', city: 'bend', status: 'active' });
      expect(await names('sort=status')).toEqual(['Bob', 'Dee', 'Cid', 'Ann']);
      expect(await names('sort=-status')).toEqual(['Ann', 'Cid', 'Dee', 'Bob']);
      expect(await names('sort=city')).toEqual(['Bob', 'Dee', 'Ann', 'Cid']);
      expect((await owner.post(customerPath(ann.id, 'locations/'), { label: 'Rental', city: 'Albany' })).status).toBe(201);
      expect((await page('sort=city')).results.map((c) => [c.name, c.city])).toEqual([
        ['Ann', 'Albany'],
        ['Bob', 'Astoria'],
        ['Dee', 'bend'],
        ['Cid', null],
      ]);
      expect(await names('sort=-city')).toEqual(['Cid', 'Dee', 'Bob', 'Ann']);
      const paged = [];
      for (const p of [1, 2, 3]) paged.push(...(await names(`sort=city&page=${p}&page_size=2`)));
      expect(paged).toEqual(['Ann', 'Bob', 'Dee', 'Cid']);
      // A search gathers its matches and sorts them the same way (every email here is at example.test).
      expect(await names('sort=city&q=example')).toEqual(['Ann', 'Bob', 'Dee', 'Cid']);
      expect(await names('sort=-status&q=example')).toEqual(['Ann', 'Cid', 'Dee', 'Bob']);
    });

    test('D48 lead-source suggestions: the organization’s earlier sources containing the text, those beginning with it first, then most used', async () => {
      await fresh();
      for (const source of ['Yelp', 'yelp', 'Google Ads', 'Google Ads', 'Google Ads', 'Angi', 'Help wanted sign']) await owner.create({ lead_source: source });
      const gone = await owner.create({ lead_source: 'Deleted Source' });
      expect((await owner.del(customerPath(gone.id))).status).toBe(204);
      const suggest = async (q: string) => {
        const r = await owner.get(`${CUSTOMERS}lead-sources/${q ? `?q=${encodeURIComponent(q)}` : ''}`);
        expect(r.status, r.text).toBe(200);
        return r.body.results as string[];
      };
      expect(await suggest('')).toEqual(['Google Ads', 'Yelp', 'Angi', 'Help wanted sign']);
      expect(await suggest('ELP')).toEqual(['Yelp', 'Help wanted sign']);
      expect(await suggest('a')).toEqual(['Angi', 'Google Ads', 'Help wanted sign']);
      expect(await suggest('deleted')).toEqual([]);
      expect(await suggest('50%_')).toEqual([]);
      expectError(await owner.get(`${CUSTOMERS}lead-sources/?q=${'x'.repeat(101)}`), 400);
    });
  });
});
