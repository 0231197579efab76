// D46 D47 search over a customer's locations and contacts, and D23 D47 the duplicate warning through
// contacts, on each database; another organization's locations and contacts never match.
import { beforeAll, describe, expect, test } from 'vitest';
import type { CustomerListItem, DuplicateMatch } from '../../contract/customers';
import { CUSTOMERS } from './api-common';
import { forEachBackend, type Backend } from './backends';
import { ACME, BEACON, partsOf, signIn, unique, uniqueNumber, warmedUp, type Actor } from './customers-common';

forEachBackend('API customers: search through locations and contacts', (backend) => {
  let b: Backend;
  let owner: Actor;
  let other: Actor;
  beforeAll(async () => {
    b = await warmedUp(backend);
    owner = await signIn(b, 'owner@demo.test', ACME);
    other = await signIn(b, 'owner@demo.test', BEACON);
  });
  const locations = partsOf<{ id: number }>('locations');
  const contacts = partsOf<{ id: number; name: string }>('contacts');
  const search = async (who: Actor, q: string) => {
    const r = await who.get(`${CUSTOMERS}?q=${encodeURIComponent(q)}&page_size=100`);
    expect(r.status, `${q}: ${r.text.slice(0, 200)}`).toBe(200);
    return (r.body.results as CustomerListItem[]).map((c) => c.id);
  };
  const duplicates = async (who: Actor, query: Record<string, string>) => {
    const r = await who.get(`${CUSTOMERS}duplicates/?${new URLSearchParams(query)}`);
    expect(r.status, r.text).toBe(200);
    return r.body.results as DuplicateMatch[];
  };

  describe('D46 D47 search', () => {
    test("D46 search finds a customer by a location's city, address, postal code and label (folded, any fragment), once however many match; not another organization's", async () => {
      const tag = unique('').slice(-6);
      const c = await owner.create();
      const city = `Tigård${tag}`;
      expect(await search(owner, city)).toEqual([]); // then found once added: no answer kept from before
      await locations.add(owner, c.id, { label: `Rental ${tag}Unit`, address_line: `12 ${tag}Elm Street`, city, postal_code: `97${tag}` });
      await locations.add(owner, c.id, { label: 'Second rental', city }); // two matching locations: listed once
      const stranger = await other.create();
      await locations.add(other, stranger.id, { city });
      for (const q of [city, `TIGARD${tag}`, `gard${tag}`, `${tag}elm st`, `${tag}unit`, `97${tag}`]) expect(await search(owner, q), q).toEqual([c.id]);
      expect(await search(other, city)).toEqual([stranger.id]);
    });

    test("D47 search finds a customer by a contact's name, email and phone (digits however written); not another organization's", async () => {
      const tag = unique('').slice(-6);
      const phone = uniqueNumber();
      const c = await owner.create();
      await contacts.add(owner, c.id, { name: `Pät Manager${tag}`, email: `pm${tag}@agency.test`, phone });
      const stranger = await other.create();
      await contacts.add(other, stranger.id, { name: `Pat Manager${tag}`, email: `pm${tag}@agency.test`, phone });
      const digits = phone.replace(/\D/g, '');
      for (const q of [`pat manager${tag}`, `pm${tag}@agency`, digits.slice(3), `+1 ${phone}`, `1${digits}`]) expect(await search(owner, q), q).toEqual([c.id]);
      expect(await search(other, `pm${tag}@agency`)).toEqual([stranger.id]);
    });
    test('D46 D47 the search follows every write of a part: changed, removed, moved by a merge and back by its undo (migration 15 keeps the customer’s search text)', async () => {
      const tag = unique('').slice(-6);
      const [a, z] = [await owner.create(), await owner.create()];
      const place = await locations.add(owner, a.id, { label: `Shed ${tag}`, address_line: `1 Birch${tag} Rd`, city: `Oldtown${tag}` });
      const person = await contacts.add(owner, a.id, { name: `Robin Keeper${tag}`, email: `robin${tag}@x.test` });
      expect(await search(owner, `oldtown${tag}`)).toEqual([a.id]);
      let r = await owner.patch(locations.one(a.id, place.id), { city: `Newtown${tag}` });
      expect(r.status, r.text).toBe(200);
      expect(await search(owner, `oldtown${tag}`)).toEqual([]);
      expect(await search(owner, `newtown${tag}`)).toEqual([a.id]);
      // Two parts are lines of their own: a search spanning one part's end and the next's start finds nothing.
      expect(await search(owner, `birch${tag} rd`)).toEqual([a.id]);
      expect(await search(owner, `newtown${tag} robin`)).toEqual([]);
      r = await owner.del(contacts.one(a.id, person.id));
      expect(r.status, r.text).toBe(204);
      expect(await search(owner, `keeper${tag}`)).toEqual([]);
      await contacts.add(owner, a.id, { name: `Sam Keeper${tag}` });
      r = await owner.post(`${CUSTOMERS}merge/`, { survivor_id: z.id, merged_id: a.id, fields: {} });
      expect(r.status, r.text).toBe(200);
      for (const q of [`newtown${tag}`, `sam keeper${tag}`]) expect(await search(owner, q), q).toEqual([z.id]);
      r = await owner.post(`${CUSTOMERS}merges/${r.body.merge_id}/undo/`);
      expect(r.status, r.text).toBe(200);
      for (const q of [`newtown${tag}`, `sam keeper${tag}`]) expect(await search(owner, q), q).toEqual([a.id]);
    });
  });

  describe('D23 D47 the duplicate warning', () => {
    test('D47 the duplicate warning includes contacts: their email or phone matches, named in `contact`; the customer’s own match first; not another organization’s', async () => {
      const tag = unique('').slice(-6);
      const phone = uniqueNumber();
      const email = `front${tag}@office.test`;
      const c = await owner.create();
      const contact = await contacts.add(owner, c.id, { name: `Front Desk ${tag}`, email, phone });
      const stranger = await other.create();
      await contacts.add(other, stranger.id, { name: 'Elsewhere', email, phone });
      const expected = { id: c.id, name: c.name, email: c.email, phone: c.phone, contact: { id: contact.id, name: contact.name } };
      expect(await duplicates(owner, { email: email.toUpperCase() })).toEqual([{ ...expected, match: 'email' }]);
      expect(await duplicates(owner, { phone: `+1 ${phone}` })).toEqual([{ ...expected, match: 'phone' }]);
      expect(await duplicates(owner, { email, exclude: String(c.id) })).toEqual([]);
      const own = await owner.create({ email: `own${tag}@office.test` });
      await contacts.add(owner, own.id, { name: 'Also', email: own.email });
      expect(await duplicates(owner, { email: own.email! })).toEqual([{ id: own.id, name: own.name, email: own.email, phone: own.phone, match: 'email', contact: null }]);
    });
  });
});
