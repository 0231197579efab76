// D46 a customer's service locations: added, changed, made primary and removed through the API, in the
// customer's record, list and timeline; D9 D10 D19 D30 their refusals, other organizations' ids, audit.
import { beforeAll, describe, expect, test } from 'vitest';
import type { CustomerLocation } from '../../contract/customer-parts';
import type { Customer, CustomerListItem, TimelineItem } from '../../contract/customers';
import { CUSTOMERS, expectError } from './api-common';
import { forEachBackend, type Backend } from './backends';
import { ACME, auditAbout, BEACON, customerPath, expectFieldError, expectNoChange, inOrg, newActor, partsOf, signIn, warmedUp, type Actor } from './customers-common';
import { MINUTE } from './helpers';

const LOCATION_KEYS = ['access_notes', 'address_line', 'city', 'country', 'created_at', 'custom', 'id', 'label', 'postal_code', 'primary', 'region', 'updated_at']; // D56 custom

forEachBackend('API customer locations', (backend) => {
  let b: Backend;
  let owner: Actor;
  beforeAll(async () => (b = await warmedUp(backend)));
  const fresh = async () => (owner = await signIn(b, 'owner@demo.test', ACME));
  const { all: locationsOf, one: locationOf, add } = partsOf<CustomerLocation>('locations');
  const record = async (id: number) => (await owner.get(customerPath(id))).body as unknown as Customer;
  const listed = async (id: number, query = '') => ((await owner.get(`${CUSTOMERS}?page_size=100${query}`)).body.results as CustomerListItem[]).find((c) => c.id === id);
  const primaries = async (customerId: number) =>
    (await b.server.db.query<{ id: unknown }>('select id from customer_locations where customer_id = $1 and is_primary', [customerId])).map((r) => Number(r.id));

  describe('D46 locations', () => {
    test('D46 POST a location: 201 with the trimmed fields, the first one primary; in the record and audited as location.added on the customer', async () => {
      await fresh();
      const c = await owner.create({ city: 'Portland' });
      const r = await owner.post(locationsOf(c.id), {
        label: ' Rental on Oak St ',
        address_line: '12 Oak St',
        city: ' Tigard ',
        region: 'OR',
        postal_code: '97223',
        country: 'US',
        access_notes: 'Gate code 1234.\nDog in the yard.',
      });
      expect(r.status, r.text).toBe(201);
      const loc = r.body as unknown as CustomerLocation;
      expect(Object.keys(loc).sort()).toEqual(LOCATION_KEYS);
      const at = new Date(b.clock.now()).toISOString();
      expect(loc).toEqual({
        id: loc.id,
        label: 'Rental on Oak St',
        address_line: '12 Oak St',
        city: 'Tigard',
        region: 'OR',
        postal_code: '97223',
        country: 'US',
        access_notes: 'Gate code 1234.\nDog in the yard.',
        primary: true,
        custom: {}, // D56
        created_at: at,
        updated_at: at,
      });
      expect((await record(c.id)).locations).toEqual([loc]);
      expect((await owner.get(locationsOf(c.id))).body).toEqual({ count: 1, results: [loc] });
      const [, entry] = await auditAbout(b.server.db, 'customer', c.id);
      expect(entry).toMatchObject({ action: 'location.added', actor_id: owner.userId, org_id: owner.org, target_label: c.name });
      expect(entry!.changes).toMatchObject({ location_id: loc.id, location: 'Rental on Oak St', city: 'Tigard', primary: true });
    });

    test('D46 making a location primary un-primaries the other in the same change; the primary is listed first and is the list city', async () => {
      await fresh();
      const c = await owner.create({ city: 'Portland' });
      const home = await add(owner, c.id, { label: 'Home', city: 'Beaverton' });
      const rental = await add(owner, c.id, { label: 'Rental', city: 'Tigard' });
      expect([home.primary, rental.primary]).toEqual([true, false]);
      expect((await listed(c.id))?.city).toBe('Beaverton');
      b.clock.advance(MINUTE);
      const r = await owner.patch(locationOf(c.id, rental.id), { primary: true });
      expect(r.status, r.text).toBe(200);
      expect(r.body).toMatchObject({ id: rental.id, primary: true, updated_at: new Date(b.clock.now()).toISOString() });
      expect(await primaries(c.id)).toEqual([rental.id]);
      expect((await record(c.id)).locations.map((l) => [l.id, l.primary])).toEqual([
        [rental.id, true],
        [home.id, false],
      ]);
      expect((await listed(c.id))?.city).toBe('Tigard');
      // A new location asked to be primary takes it over too.
      const office = await add(owner, c.id, { label: 'Office', city: 'Salem', primary: true });
      expect(await primaries(c.id)).toEqual([office.id]);
      // The primary cannot simply stop being one: another is made primary instead.
      await expectNoChange(b.server.db, async () => expectFieldError(await owner.patch(locationOf(c.id, office.id), { primary: false }), 'primary'));
    });

    test('D46 removing the primary makes the oldest one left primary; with none left the list shows the billing city; audited', async () => {
      await fresh();
      const c = await owner.create({ city: 'Portland' });
      const first = await add(owner, c.id, { city: 'Beaverton' });
      const second = await add(owner, c.id, { city: 'Tigard' });
      const third = await add(owner, c.id, { city: 'Salem', primary: true });
      const gone = await owner.del(locationOf(c.id, third.id));
      expect([gone.status, gone.text]).toEqual([204, '']);
      expect(await primaries(c.id)).toEqual([first.id]);
      expect((await listed(c.id))?.city).toBe('Beaverton');
      for (const l of [first, second]) expect((await owner.del(locationOf(c.id, l.id))).status).toBe(204);
      expect((await record(c.id)).locations).toEqual([]);
      expect((await listed(c.id))?.city).toBe('Portland');
      expectError(await owner.del(locationOf(c.id, first.id)), 404, 'not_found');
      const removed = (await auditAbout(b.server.db, 'customer', c.id)).filter((e) => e.action === 'location.removed');
      expect(removed.map((e) => e.changes.location_id)).toEqual([third.id, first.id, second.id]);
      expect(removed[0]!.changes).toMatchObject({ location: 'Salem', city: 'Salem' });
    });

    test('D46 a PATCH changes the given fields, audited from/to; one that changes nothing writes nothing', async () => {
      await fresh();
      const c = await owner.create();
      const loc = await add(owner, c.id, { label: 'Home', city: 'Tigard', access_notes: 'Gate 1' });
      const r = await owner.patch(locationOf(c.id, loc.id), { access_notes: 'Gate 2', city: 'Tigard' });
      expect(r.status, r.text).toBe(200);
      expect(r.body).toMatchObject({ label: 'Home', city: 'Tigard', access_notes: 'Gate 2' });
      const entries = await auditAbout(b.server.db, 'customer', c.id);
      expect(entries.at(-1)).toMatchObject({ action: 'location.updated' });
      expect(entries.at(-1)!.changes).toEqual({ location_id: loc.id, location: 'Home', access_notes: { from: 'Gate 1', to: 'Gate 2' } });
      await expectNoChange(b.server.db, async () => expect((await owner.patch(locationOf(c.id, loc.id), { label: ' Home ' })).status).toBe(200));
    });

    test('D46 at most 50 locations: the 51st is a 409 too_many_locations and writes nothing', async () => {
      await fresh();
      const c = await owner.create();
      for (let i = 0; i < 50; i++) await add(owner, c.id, { label: `Unit ${i}` });
      await expectNoChange(b.server.db, async () => expectError(await owner.post(locationsOf(c.id), { label: 'Unit 50' }), 409, 'too_many_locations'));
      expect((await record(c.id)).locations).toHaveLength(50);
    });

    test('D46 changes at once are taken one after another: two made primary leave one primary; two adds at 49 leave 50 and one 409', async () => {
      await fresh();
      const c = await owner.create();
      const a = await add(owner, c.id, { label: 'A' });
      const [x, y] = [await add(owner, c.id, { label: 'X' }), await add(owner, c.id, { label: 'Y' })];
      const both = await Promise.all([x, y].map((l) => owner.patch(locationOf(c.id, l.id), { primary: true })));
      expect(both.map((r) => r.status)).toEqual([200, 200]);
      expect(await primaries(c.id)).toHaveLength(1);
      expect([a.id, x.id, y.id]).toContain((await primaries(c.id))[0]);
      for (let i = 3; i < 49; i++) await add(owner, c.id, { label: `Unit ${i}` });
      const racing = await Promise.all(['Last', 'One too many'].map((label) => owner.post(locationsOf(c.id), { label })));
      expect(racing.map((r) => r.status).sort()).toEqual([201, 409]);
      expect((await record(c.id)).locations).toHaveLength(50);
    });

    test('D19 D46 bad input is a 400 naming the field and writes nothing; the limits themselves are accepted', async () => {
      await fresh();
      const c = await owner.create();
      const loc = await add(owner, c.id, { label: 'Home' });
      await expectNoChange(b.server.db, async () => {
        const bad: [Record<string, unknown>, string][] = [
          [{ label: 'x'.repeat(101) }, 'label'],
          [{ city: 'x'.repeat(201) }, 'city'],
          [{ city: 'Tig\u0000ard' }, 'city'],
          [{ access_notes: 'x'.repeat(1001) }, 'access_notes'],
          [{ label: 'Home', primary: 'yes' }, 'primary'],
          [{ label: 'Home', floor: 2 }, 'floor'],
          [{}, 'address_line'],
          [{ label: '  ', city: '' }, 'address_line'],
        ];
        for (const [body, field] of bad) expectFieldError(await owner.post(locationsOf(c.id), body), field);
        expectFieldError(await owner.patch(locationOf(c.id, loc.id), { label: null }), 'address_line');
        expectFieldError(await owner.patch(locationOf(c.id, loc.id), { primary: null }), 'primary');
      });
      expect((await owner.post(locationsOf(c.id), { label: 'x'.repeat(100), access_notes: 'y'.repeat(1000) })).status).toBe(201);
    });

    test("D9 another organization's customer or location, another customer's location and a deleted customer are 404s; nothing changes", async () => {
      await fresh();
      const c = await owner.create();
      const other = await owner.create();
      const loc = await add(owner, c.id, { label: 'Home' });
      const gone = await owner.create();
      const goneLoc = await add(owner, gone.id, { label: 'Gone' });
      expect((await owner.del(customerPath(gone.id))).status).toBe(204);
      const beacon = inOrg(b, owner, (await signIn(b, 'owner@demo.test', BEACON)).org);
      await expectNoChange(b.server.db, async () => {
        for (const who of [beacon]) {
          expectError(await who.get(locationsOf(c.id)), 404, 'not_found');
          expectError(await who.post(locationsOf(c.id), { label: 'Mine now' }), 404, 'not_found');
          expectError(await who.patch(locationOf(c.id, loc.id), { label: 'Mine now' }), 404, 'not_found');
          expectError(await who.del(locationOf(c.id, loc.id)), 404, 'not_found');
        }
        expectError(await owner.patch(locationOf(other.id, loc.id), { label: 'Moved' }), 404, 'not_found');
        expectError(await owner.del(locationOf(other.id, loc.id)), 404, 'not_found');
        expectError(await owner.get(locationsOf(gone.id)), 404, 'not_found');
        expectError(await owner.post(locationsOf(gone.id), { label: 'Again' }), 404, 'not_found');
        expectError(await owner.patch(locationOf(gone.id, goneLoc.id), { label: 'Again' }), 404, 'not_found');
      });
    });

    test('D10 reading needs customers:view; adding, changing and removing need customers:update (a viewer gets 403)', async () => {
      await fresh();
      const c = await owner.create();
      const loc = await add(owner, c.id, { label: 'Home' });
      const viewer = await newActor(b, ACME, 'viewer');
      expect((await viewer.get(locationsOf(c.id))).body).toEqual({ count: 1, results: [loc] });
      await expectNoChange(b.server.db, async () => {
        expectError(await viewer.post(locationsOf(c.id), { label: 'Office' }), 403, 'permission_denied');
        expectError(await viewer.patch(locationOf(c.id, loc.id), { label: 'Office' }), 403, 'permission_denied');
        expectError(await viewer.del(locationOf(c.id, loc.id)), 403, 'permission_denied');
      });
      const member = await newActor(b, ACME, 'member');
      expect((await member.patch(locationOf(c.id, loc.id), { label: 'Office' })).status).toBe(200);
    });

    test("D24 D46 adding, changing and removing a location are entries in the customer's timeline", async () => {
      await fresh();
      const c = await owner.create();
      const loc = await add(owner, c.id, { label: 'Home', city: 'Tigard' });
      b.clock.advance(MINUTE);
      expect((await owner.patch(locationOf(c.id, loc.id), { city: 'Salem' })).status).toBe(200);
      b.clock.advance(MINUTE);
      expect((await owner.del(locationOf(c.id, loc.id))).status).toBe(204);
      const r = await owner.get(customerPath(c.id, 'timeline/'));
      const items = (r.body as { results: TimelineItem[] }).results;
      expect(items.map((i) => (i.kind === 'audit' ? i.action : i.kind))).toEqual(['location.removed', 'location.updated', 'location.added', 'customer.created']);
      expect(items[1]).toMatchObject({ target: { type: 'customer', id: c.id }, changes: { location_id: loc.id, city: { from: 'Tigard', to: 'Salem' } } });
    });
  });
});
