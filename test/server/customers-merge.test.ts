// D49 merging two customers through the API: the preview, the merge (fields chosen, the rest combined),
// the merged id's 404 naming the survivor, the merged customer gone from every list; D9 D55 D30 refusals,
// other organizations' ids, audit entries on both timelines; D66 the emails and phones not picked kept as
// contacts of the survivor, and the survivor proposed by history.
import { beforeAll, describe, expect, test } from 'vitest';
import type { Customer, CustomerListItem, DashboardData, TimelineItem } from '../../contract/customers';
import { phoneDigits } from '../../contract/matching';
import type { MergePreview, MergeRequest } from '../../contract/merge';
import { CUSTOMERS, expectError } from './api-common';
import { forEachBackend, type Backend } from './backends';
import {
  ACME,
  auditAbout,
  BEACON,
  customerPath,
  customRole,
  expectNoChange,
  newActor,
  ownerOfNewOrg,
  signIn,
  uniqueEmail,
  uniqueNumber,
  warmedUp,
  type Actor,
} from './customers-common';
import { addNote, contacts, duplicatePair, locations, merge, merged, MERGE, notesOf, previewPath, read, timelineActions, undoPath } from './customers-merge-common';

forEachBackend('API customer merge', (backend) => {
  let b: Backend;
  beforeAll(async () => (b = await warmedUp(backend)));
  const owner = () => ownerOfNewOrg(b, 'Merge');

  describe('D49 preview and merge', () => {
    test('D49 the preview answers both customers as GET does and counts what the merged one brings', async () => {
      const who = await owner();
      const { survivor, other } = await duplicatePair(who);
      await expectNoChange(b.server.db, async () => {
        const r = await who.get(previewPath(survivor.id, other.id));
        expect(r.status, r.text).toBe(200);
        const p = r.body as unknown as MergePreview;
        expect(p.survivor).toEqual(survivor);
        expect(p.merged).toEqual(other);
        expect(p.moves).toEqual({ notes: 2, locations: 2, contacts: 1, tags: ['landlord'] });
      });
    });

    test('D49 a merge takes the chosen fields (do_not_service with its reason), combines tags, moves notes, locations and contacts; the survivor keeps its primary', async () => {
      const who = await owner();
      const { survivor, other } = await duplicatePair(who);
      const r = await merge(who, survivor.id, other.id, { company: 'merged', status: 'merged', do_not_service: 'merged', name: 'survivor' });
      expect(r.status, r.text).toBe(200);
      const { merge_id, ...after } = r.body as unknown as Customer & { merge_id: number };
      expect(merge_id).toBeGreaterThan(0);
      expect(after).toEqual(await read(who, survivor.id));
      expect(after).toMatchObject({
        name: survivor.name,
        company: 'Lee Rentals',
        status: 'lead',
        city: 'Portland',
        type: 'residential',
        lead_source: null,
        do_not_service: true,
        do_not_service_reason: 'Unpaid invoice',
        tags: ['vip', 'north', 'landlord'],
        version: survivor.version + 1,
      });
      expect(after.locations.map((l) => [l.label, l.primary])).toEqual([
        ['Home', true],
        ['Rental on Oak St', false],
        ['Rental on Elm St', false],
      ]);
      // D66: the email not taken is kept as a contact named after its customer (the phone is the same).
      expect(after.contacts.map((c) => [c.name, c.email, c.phone])).toEqual([
        ['Pat Manager', null, other.contacts[0]!.phone],
        [other.name, other.email, null],
      ]);
      expect((await notesOf(who, survivor.id)).map((n) => n.body)).toEqual(['Survivor note', 'Other note one', 'Other note two']);
    });

    test('D49 D46 a survivor without locations gets the merged one’s primary as its own; it may take the merged one’s email', async () => {
      const who = await owner();
      const survivor = await who.create();
      const other = await who.create();
      const home = await locations.add(who, other.id, { label: 'Home' });
      await locations.add(who, other.id, { label: 'Cabin' });
      const r = await merge(who, survivor.id, other.id, { email: 'merged' });
      expect(r.status, r.text).toBe(200);
      expect(r.body.email).toBe(other.email);
      expect((r.body as unknown as Customer).locations.map((l) => [l.id, l.primary])).toEqual([
        [home.id, true],
        [expect.any(Number), false],
      ]);
    });

    test('D49 the merged id answers 404 merged naming the survivor, wherever a customer is read or changed', async () => {
      const who = await owner();
      const { survivor, other } = await duplicatePair(who);
      await merged(who, survivor.id, other.id);
      const note = (await addNote(who, survivor.id, 'x')).id;
      const calls = [
        who.get(customerPath(other.id)),
        who.patch(customerPath(other.id), { version: other.version, name: 'Back' }),
        who.del(customerPath(other.id)),
        who.post(customerPath(other.id, 'restore/')),
        who.get(customerPath(other.id, 'notes/')),
        who.post(customerPath(other.id, 'notes/'), { body: 'x' }),
        who.patch(customerPath(other.id, `notes/${note}/`), { body: 'y' }),
        who.get(customerPath(other.id, 'timeline/')),
        who.get(customerPath(other.id, 'locations/')),
        who.post(customerPath(other.id, 'contacts/'), { name: 'X' }),
      ];
      await expectNoChange(b.server.db, async () => {
        for (const r of await Promise.all(calls)) {
          expectError(r, 404, 'merged');
          expect(r.body).toMatchObject({ detail: `This customer was merged into ${survivor.name}.`, merged_into: { id: survivor.id, name: survivor.name } });
        }
      });
      // A chain leads to its end: merged into the survivor, the survivor merged into a third.
      const third = await who.create();
      await merged(who, third.id, survivor.id);
      expect((await who.get(customerPath(other.id))).body.merged_into).toEqual({ id: third.id, name: third.name });
      // And the end of the chain's timeline holds the history of both it took in.
      const targets = ((await who.get(`${customerPath(third.id, 'timeline/')}?page_size=100`)).body.results as TimelineItem[]).flatMap((i) =>
        i.kind === 'audit' && i.action === 'customer.created' ? [i.target.id] : [],
      );
      expect(targets.sort()).toEqual([third.id, survivor.id, other.id].sort());
    });

    test('D49 the merged customer is gone from the list, search, duplicates, counts, the dashboard, the export and the trash', async () => {
      const who = await owner();
      const { survivor, other } = await duplicatePair(who);
      const ids = async (query: string) => ((await who.get(`${CUSTOMERS}?page_size=100${query}`)).body.results as CustomerListItem[]).map((c) => c.id);
      const count = async () => (await who.get(CUSTOMERS)).body.count as number;
      const dashboard = async () => ((await who.get('/api/v1/dashboard/')).body as unknown as DashboardData).customers!;
      expect(await count()).toBe(2);
      expect((await dashboard()).by_status).toMatchObject({ active: 1, lead: 1 });
      await merged(who, survivor.id, other.id);
      expect(await ids('')).toEqual([survivor.id]);
      expect(await count()).toBe(1);
      // D66: its email is kept as a contact of the survivor, named after it: both find the survivor, never it.
      expect(await ids(`&q=${encodeURIComponent(other.email!)}`)).toEqual([survivor.id]);
      expect(await ids(`&q=${encodeURIComponent(other.name)}`)).toEqual([survivor.id]);
      expect(await ids('&q=Salem')).toEqual([survivor.id]); // its location came along
      expect(await ids('&status=lead')).toEqual([]);
      expect(await ids('&type=commercial')).toEqual([]);
      expect(await ids('&do_not_service=true')).toEqual([]);
      expect(await ids('&tag=landlord')).toEqual([survivor.id]);
      const dupes = await who.get(`${CUSTOMERS}duplicates/?phone=${encodeURIComponent(other.phone!)}&email=${encodeURIComponent(other.email!)}`);
      expect((dupes.body.results as { id: number }[]).map((d) => d.id)).toEqual([survivor.id]);
      expect((await dashboard()).total).toBe(1);
      expect((await dashboard()).by_status).toMatchObject({ active: 1, lead: 0 });
      const csv = (await who.get(`${CUSTOMERS}export.csv`)).text;
      expect(csv).toContain(survivor.email!);
      expect(csv).not.toContain(other.email!);
      expect(await ids('&deleted=true')).toEqual([]);
    });

    test('D49 D30 each customer’s timeline tells the story: customer.merged on both, naming the other, with the fields taken and the counts', async () => {
      const who = await owner();
      const { survivor, other } = await duplicatePair(who);
      const mergeId = await merged(who, survivor.id, other.id, { company: 'merged' });
      const [onSurvivor] = (await auditAbout(b.server.db, 'customer', survivor.id)).filter((e) => e.action === 'customer.merged');
      expect(onSurvivor).toMatchObject({ actor_id: who.userId, org_id: who.org, target_label: survivor.name });
      expect(onSurvivor!.changes).toEqual({
        merge_id: mergeId,
        merged_customer: { id: other.id, name: other.name },
        company: { from: null, to: 'Lee Rentals' },
        tags: { from: ['vip', 'north'], to: ['vip', 'north', 'landlord'] },
        notes: 2,
        locations: 2,
        contacts: 1,
        kept_contacts: [{ id: expect.any(Number), name: other.name, email: other.email, phone: null }], // D66
      });
      const [onMerged] = (await auditAbout(b.server.db, 'customer', other.id)).filter((e) => e.action === 'customer.merged');
      expect(onMerged).toMatchObject({ target_label: other.name, changes: { merge_id: mergeId, survivor: { id: survivor.id, name: survivor.name } } });
      expect((await timelineActions(who, survivor.id))[0]).toBe('customer.merged');
      // D49 timelines combined: the survivor's shows the merged one's history too (its merge entry once, the survivor's).
      const about = async (id: number) =>
        ((await who.get(`${customerPath(survivor.id, 'timeline/')}?page_size=100`)).body.results as TimelineItem[]).flatMap((i) =>
          i.kind === 'audit' && i.target.id === id ? [i.action] : [],
        );
      expect(await about(other.id)).toEqual(['contact.added', 'location.added', 'location.added', 'customer.created']);
      expect(await about(survivor.id)).toEqual(['customer.merged', 'location.added', 'customer.created']);
      expect((await who.post(undoPath(mergeId))).status).toBe(200);
      expect(await about(other.id)).toEqual([]);
    });
  });

  describe('D66 a merge loses no contact detail', () => {
    const search = async (who: Actor, q: string) => ((await who.get(`${CUSTOMERS}?q=${encodeURIComponent(q)}`)).body.results as CustomerListItem[]).map((c) => c.id);

    test('D66 an email and a phone not picked for the survivor are kept as its contacts, named after the customer they were; search and the duplicate warning find the survivor by them', async () => {
      const who = await owner();
      const [phoneS, phoneM] = [uniqueNumber(), uniqueNumber()];
      const survivor = await who.create({ name: 'Ann Lee', phone: phoneS });
      const other = await who.create({ name: 'Anna Lee', phone: phoneM });
      const r = await merge(who, survivor.id, other.id, { phone: 'merged' });
      expect(r.status, r.text).toBe(200);
      const after = r.body as unknown as Customer;
      expect([after.email, after.phone]).toEqual([survivor.email, phoneM]);
      const note = 'Kept when Anna Lee was merged into this customer';
      expect(after.contacts.map(({ name, role, email, phone, note }) => ({ name, role, email, phone, note }))).toEqual([
        { name: 'Anna Lee', role: null, email: other.email, phone: null, note },
        { name: 'Ann Lee', role: null, email: null, phone: phoneS, note },
      ]);
      for (const q of [other.email!, phoneS, phoneDigits(phoneS)]) expect(await search(who, q), q).toEqual([survivor.id]);
      const dupes = await who.get(`${CUSTOMERS}duplicates/?email=${encodeURIComponent(other.email!)}`);
      expect(dupes.body.results).toEqual([expect.objectContaining({ id: survivor.id, match: 'email', contact: { id: after.contacts[0]!.id, name: 'Anna Lee' } })]);
      // One audit entry, in the merge's transaction, names the contacts it kept.
      const [entry] = (await auditAbout(b.server.db, 'customer', survivor.id)).filter((e) => e.action === 'customer.merged');
      expect(entry!.changes.kept_contacts).toEqual(after.contacts.map(({ id, name, email, phone }) => ({ id, name, email, phone })));
    });

    test('D66 nothing is kept that the survivor still has: the same number written otherwise, an email it keeps, one a contact already holds, none at all', async () => {
      const who = await owner();
      const digits = phoneDigits(uniqueNumber());
      const pairs: [Record<string, unknown>, Record<string, unknown>, MergeRequest['fields']][] = [
        [{ phone: `(${digits.slice(0, 3)}) ${digits.slice(3, 6)}-${digits.slice(6)}` }, { phone: `+1 ${digits}`, email: null }, {}],
        [{ email: null, phone: null }, { email: null, phone: null }, {}],
        [{}, { email: null }, { email: 'merged' }], // the survivor's email gives way to none: kept
      ];
      const keptOf = async (s: Record<string, unknown>, m: Record<string, unknown>, fields: MergeRequest['fields']) => {
        const [a, c] = [await who.create(s), await who.create(m)];
        return (((await merge(who, a.id, c.id, fields)).body as unknown as Customer).contacts ?? []).map((k) => [k.email, k.phone]);
      };
      expect(await keptOf(...pairs[0]!)).toEqual([]);
      expect(await keptOf(...pairs[1]!)).toEqual([]);
      expect(await keptOf(...pairs[2]!)).toEqual([[expect.stringContaining('@'), null]]);
      // The merged customer's email already a contact of the survivor's: not twice.
      const [a, c] = [await who.create(), await who.create({ email: null })];
      const email = uniqueEmail();
      await contacts.add(who, a.id, { name: 'Billing', email });
      await who.patch(customerPath(c.id), { email, version: c.version });
      expect((((await merge(who, a.id, c.id)).body as unknown as Customer).contacts ?? []).map((k) => k.name)).toEqual(['Billing']);
    });

    test('D66 D47 the kept contacts count toward the limit: a survivor that would pass 20 contacts with them is a 409, nothing changed', async () => {
      const who = await owner();
      const [a, c] = [await who.create(), await who.create()]; // two emails: the merged one's would be kept
      await b.server.db.query(`insert into customer_contacts (org_id, customer_id, name) select $1::int, $2::int, 'P' || g from generate_series(1, 20) g`, [
        who.org,
        a.id,
      ]);
      await expectNoChange(b.server.db, async () => expectError(await merge(who, a.id, c.id), 409, 'too_many_contacts'));
      await b.server.db.query("delete from customer_contacts where org_id = $1 and customer_id = $2 and name = 'P20'", [who.org, a.id]);
      expect((await merge(who, a.id, c.id)).status).toBe(200);
    });

    test('D66 the preview weighs each customer’s history (notes, other timeline entries); with propose=true the one with more is the survivor, with as much the older', async () => {
      const who = await owner();
      const started = await who.create({ name: 'Anna Lee' }); // the misspelled one, the person started from
      const rich = await who.create({ name: 'Ann Lee' });
      for (const body of ['one', 'two', 'three']) await addNote(who, rich.id, body);
      await locations.add(who, rich.id, { label: 'Home' });
      await who.patch(customerPath(rich.id), { city: 'Salem', version: rich.version });
      await addNote(who, started.id, 'only');
      const preview = async (s: number, m: number, propose = '') => {
        const r = await who.get(`${previewPath(s, m)}${propose}`);
        expect(r.status, r.text).toBe(200);
        const p = r.body as unknown as MergePreview;
        return [p.survivor.id, p.merged.id, p.history, p.moves.notes];
      };
      const richHistory = { notes: 3, entries: 3 }; // created, the location added, the city changed
      const startedHistory = { notes: 1, entries: 1 };
      expect(await preview(started.id, rich.id)).toEqual([started.id, rich.id, { survivor: startedHistory, merged: richHistory }, 3]);
      expect(await preview(started.id, rich.id, '&propose=true')).toEqual([rich.id, started.id, { survivor: richHistory, merged: startedHistory }, 1]);
      expect(await preview(rich.id, started.id, '&propose=true')).toEqual([rich.id, started.id, { survivor: richHistory, merged: startedHistory }, 1]);
      expect(await preview(started.id, rich.id, '&propose=false')).toEqual([started.id, rich.id, { survivor: startedHistory, merged: richHistory }, 3]);
      // As much history: the older record.
      const [first, second] = [await who.create(), await who.create()];
      expect((await preview(second.id, first.id, '&propose=true')).slice(0, 2)).toEqual([first.id, second.id]);
      expectError(await who.get(`${previewPath(first.id, second.id)}&propose=yes`), 400);
    });
  });

  describe('D49 D38 concurrent merges', () => {
    test('D49 one pair merged both ways at once: one merge, the other 409 already_merged, never a 500 or a deadlock', async () => {
      const who = await owner();
      for (let round = 0; round < 3; round++) {
        const [a, c] = [await who.create(), await who.create()];
        const answers = await Promise.all([merge(who, a.id, c.id), merge(who, c.id, a.id)]);
        expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
        expect(answers.find((r) => r.status === 409)?.body.code).toBe('already_merged');
      }
    });

    test('D49 a note added while its customer is merged lands on the merged customer before the merge (and moves) or is a 404 merged: never lost', async () => {
      const who = await owner();
      const [a, c] = [await who.create(), await who.create()];
      const [note, done] = await Promise.all([who.post(customerPath(c.id, 'notes/'), { body: 'Racing note' }), merge(who, a.id, c.id)]);
      expect(done.status).toBe(200);
      const onSurvivor = (await notesOf(who, a.id)).map((n) => n.body);
      if (note.status === 201) expect(onSurvivor).toEqual(['Racing note']);
      else {
        expectError(note, 404, 'merged');
        expect(onSurvivor).toEqual([]);
      }
    });
  });

  describe('D3 D46–D49 demo data', () => {
    test('D3 the demo has a landlord with rentals and a property manager, a clinic served away from its billing address, a customer not to serve, and a duplicate pair ready to merge', async () => {
      const who = await signIn(b, 'owner@demo.test', ACME);
      const list = async (query: string) => (await who.get(`${CUSTOMERS}?page_size=100${query}`)).body.results as CustomerListItem[];
      const all = await list('');
      const records = await Promise.all(all.map((c) => read(who, c.id)));
      const landlord = records.find((c) => c.locations.length >= 3);
      expect(landlord?.contacts.map((c) => c.role)).toContain('property manager');
      expect(landlord?.locations.filter((l) => l.access_notes).length).toBeGreaterThan(0);
      const clinic = records.find((c) => c.name === 'Harbor View Dental');
      expect(clinic).toMatchObject({ type: 'commercial', locations: [expect.objectContaining({ primary: true, label: 'Clinic' })] });
      expect(clinic!.locations[0]!.city).not.toBe(clinic!.city);
      const flagged = await list('&do_not_service=true');
      expect(flagged).toHaveLength(1);
      expect(records.find((c) => c.id === flagged[0]!.id)?.do_not_service_reason).toBeTruthy();
      expect((await who.get(`${CUSTOMERS}lead-sources/`)).body.results).toEqual(expect.arrayContaining(['Google', 'Referral', 'Website form']));
      const byPhone = new Map<string, Customer[]>();
      for (const c of records) if (c.phone) byPhone.set(c.phone, [...(byPhone.get(c.phone) ?? []), c]);
      const pairs = [...byPhone.values()].filter((p) => p.length === 2);
      expect(pairs).toHaveLength(1);
      const [older, newer] = pairs[0]!.sort((x, y) => Date.parse(x.created_at) - Date.parse(y.created_at));
      expect(newer!.name).not.toBe(older!.name);
      const dupes = await who.get(`${CUSTOMERS}duplicates/?phone=${encodeURIComponent(older!.phone!)}&exclude=${older!.id}`);
      expect((dupes.body.results as { id: number }[]).map((d) => d.id)).toEqual([newer!.id]);
      expect((await who.get(previewPath(older!.id, newer!.id))).status).toBe(200);
      // D66: opened from the mistyped one, the merge screen proposes keeping the original.
      const proposed = (await who.get(`${previewPath(newer!.id, older!.id)}&propose=true`)).body as unknown as MergePreview;
      expect([proposed.survivor.id, proposed.merged.id]).toEqual([older!.id, newer!.id]);
    });
  });

  describe('D49 refusals change nothing', () => {
    test('D49 same customer 400, an unknown id 404, a bad field or choice 400 validation_error naming each', async () => {
      const who = await owner();
      const { survivor, other } = await duplicatePair(who);
      await expectNoChange(b.server.db, async () => {
        expectError(await merge(who, survivor.id, survivor.id), 400, 'same_customer');
        expectError(await who.get(previewPath(survivor.id, survivor.id)), 400, 'same_customer');
        expectError(await merge(who, survivor.id, 2_000_000_000), 404, 'not_found');
        expectError(await merge(who, 2_000_000_000, other.id), 404, 'not_found');
        expectError(await who.get(previewPath(survivor.id, 2_000_000_000)), 404, 'not_found');
        const r = await who.post(MERGE, { survivor_id: survivor.id, merged_id: other.id, fields: { name: 'merged', tags: 'merged', email: 'both' } });
        expectError(r, 400, 'validation_error');
        expect(r.body.errors).toEqual([
          { field: 'fields.tags', detail: expect.any(String) },
          { field: 'fields.email', detail: expect.any(String) },
        ]);
        expectError(await who.post(MERGE, { survivor_id: survivor.id, merged_id: other.id, fields: ['name'] }), 400, 'validation_error');
        expectError(await who.post(MERGE, { survivor_id: survivor.id, merged_id: other.id, extra: 1 }), 400);
      });
    });

    test('D49 another organization’s customer is a 404 for either id, in the preview and the merge', async () => {
      const who = await signIn(b, 'owner@demo.test', ACME);
      const beacon = await signIn(b, 'owner@demo.test', BEACON);
      const [mine, theirs] = [await who.create(), await beacon.create()];
      await expectNoChange(b.server.db, async () => {
        expectError(await merge(who, mine.id, theirs.id), 404, 'not_found');
        expectError(await merge(who, theirs.id, mine.id), 404, 'not_found');
        expectError(await who.get(previewPath(mine.id, theirs.id)), 404, 'not_found');
        expectError(await who.get(previewPath(theirs.id, mine.id)), 404, 'not_found');
      });
    });

    test('D49 into or from a deleted customer 409 customer_deleted; merging twice 409 already_merged', async () => {
      const who = await owner();
      const [a, c, gone] = [await who.create(), await who.create(), await who.create()];
      await who.del(customerPath(gone.id));
      await expectNoChange(b.server.db, async () => {
        expectError(await merge(who, a.id, gone.id), 409, 'customer_deleted');
        expectError(await merge(who, gone.id, a.id), 409, 'customer_deleted');
        expectError(await who.get(previewPath(a.id, gone.id)), 409, 'customer_deleted');
      });
      await merged(who, a.id, c.id);
      await expectNoChange(b.server.db, async () => {
        expectError(await merge(who, a.id, c.id), 409, 'already_merged');
        expectError(await merge(who, c.id, a.id), 409, 'already_merged');
        expectError(await who.get(previewPath(a.id, c.id)), 409, 'already_merged');
      });
    });

    test('D46 D47 together over the limit: 409 too_many_locations / too_many_contacts, nothing changed', async () => {
      const who = await owner();
      const [a, c] = [await who.create(), await who.create()];
      await b.server.db.query(
        `insert into customer_contacts (org_id, customer_id, name) select $1::int, $2::int, 'P' || g from generate_series(1, 11) g
         union all select $1::int, $3::int, 'Q' || g from generate_series(1, 10) g`,
        [who.org, a.id, c.id],
      );
      await expectNoChange(b.server.db, async () => expectError(await merge(who, a.id, c.id), 409, 'too_many_contacts'));
      await b.server.db.query(
        `insert into customer_locations (org_id, customer_id, label, is_primary) select $1::int, $2::int, 'L' || g, g = 1 from generate_series(1, 30) g
         union all select $1::int, $3::int, 'M' || g, g = 1 from generate_series(1, 21) g`,
        [who.org, a.id, c.id],
      );
      await expectNoChange(b.server.db, async () => expectError(await merge(who, a.id, c.id), 409, 'too_many_locations'));
    });

    test('D9 D55 without customers:merge: 403 permission_denied on every merge route, for a member and a role with everything else', async () => {
      const who = await signIn(b, 'owner@demo.test', ACME);
      const [a, c] = [await who.create(), await who.create()];
      const mergeId = await merged(who, a.id, c.id);
      const role = await customRole(b.server.db, ACME, ['customers:view', 'customers:create', 'customers:update', 'customers:delete', 'customers:export']);
      const refused: Actor[] = [await newActor(b, ACME, 'member'), await newActor(b, ACME, role)];
      const [x, y] = [await who.create(), await who.create()];
      await expectNoChange(b.server.db, async () => {
        for (const w of refused) {
          for (const r of [await w.get(previewPath(x.id, y.id)), await merge(w, x.id, y.id), await w.post(undoPath(mergeId))]) {
            expectError(r, 403, 'permission_denied');
          }
        }
      });
    });
  });
});
