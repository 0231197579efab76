// D49 undoing a merge through the API: exact (both customers as they were, every note, location and
// contact back where it came from), changes made to the survivor since kept; refusals (twice, too late,
// the survivor deleted or merged since, another organization's), audit entries on both timelines.
import { beforeAll, describe, expect, test } from 'vitest';
import type { Customer } from '../../contract/customers';
import { MERGE_UNDO_DAYS } from '../../contract/merge';
import { purgeDeleted } from '../../server/features/customers/deleted-repo';
import { CUSTOMERS, expectError } from './api-common';
import { forEachBackend, type Backend } from './backends';
import { ACME, auditAbout, BEACON, customerPath, expectNoChange, ownerOfNewOrg, signIn, uniqueNumber, warmedUp } from './customers-common';
import { addNote, contacts, duplicatePair, locations, merged, notesOf, read, timelineActions, undoPath } from './customers-merge-common';
import { DAY, MINUTE } from './helpers';

/** A customer without what every save moves (its version and when and by whom it was last changed). */
const fields = ({ version: _v, updated_at: _u, updated_by: _b, ...rest }: Customer) => rest;

forEachBackend('API customer merge undo', (backend) => {
  let b: Backend;
  beforeAll(async () => (b = await warmedUp(backend)));
  const owner = () => ownerOfNewOrg(b, 'Undo');

  describe('D49 undo', () => {
    test('D49 an undo is exact: both customers, their notes, locations, contacts and tags read back as before; both back in the list', async () => {
      const who = await owner();
      const { survivor, other } = await duplicatePair(who);
      const notes = [await notesOf(who, survivor.id), await notesOf(who, other.id)];
      const mergeId = await merged(who, survivor.id, other.id, { name: 'merged', email: 'merged', company: 'merged', do_not_service: 'merged', type: 'merged' });
      b.clock.advance(MINUTE);
      const r = await who.post(undoPath(mergeId));
      expect(r.status, r.text).toBe(200);
      expect(r.body).toEqual({ survivor: await read(who, survivor.id), merged: await read(who, other.id) });
      expect(await read(who, other.id)).toEqual(other);
      expect(fields(await read(who, survivor.id))).toEqual(fields(survivor));
      expect([await notesOf(who, survivor.id), await notesOf(who, other.id)]).toEqual(notes);
      expect((await who.get(CUSTOMERS)).body.count).toBe(2);
      expect((await who.get(`${CUSTOMERS}?q=Salem`)).body.results).toEqual([expect.objectContaining({ id: other.id })]);
      // D30: each timeline tells the story, newest first.
      expect((await timelineActions(who, survivor.id)).slice(0, 2)).toEqual(['customer.merge_undone', 'customer.merged']);
      const [undone] = (await auditAbout(b.server.db, 'customer', other.id)).filter((e) => e.action === 'customer.merge_undone');
      expect(undone).toMatchObject({ actor_id: who.userId, changes: { merge_id: mergeId, survivor: { id: survivor.id, name: survivor.name } } });
      const [onSurvivor] = (await auditAbout(b.server.db, 'customer', survivor.id)).filter((e) => e.action === 'customer.merge_undone');
      expect(onSurvivor!.changes).toMatchObject({
        merge_id: mergeId,
        merged_customer: { id: other.id, name: other.name },
        name: { from: other.name, to: survivor.name },
      });
    });

    test('D49 a survivor field changed after the merge is kept; notes and locations added since stay with the survivor', async () => {
      const who = await owner();
      const { survivor, other } = await duplicatePair(who);
      const ownNotes = (await notesOf(who, survivor.id)).map((n) => n.id);
      const mergeId = await merged(who, survivor.id, other.id, { company: 'merged', status: 'merged', lead_source: 'merged' });
      const now = await read(who, survivor.id);
      expect((await who.patch(customerPath(survivor.id), { version: now.version, company: 'Changed Co' })).status).toBe(200);
      const note = await addNote(who, survivor.id, 'Added after the merge');
      const loc = await locations.add(who, survivor.id, { label: 'New shop', city: 'Bend' });
      const r = await who.post(undoPath(mergeId));
      expect(r.status, r.text).toBe(200);
      const after = await read(who, survivor.id);
      expect(after).toMatchObject({ company: 'Changed Co', status: survivor.status, lead_source: survivor.lead_source, tags: survivor.tags });
      expect(after.locations.map((l) => l.id)).toEqual([...survivor.locations.map((l) => l.id), loc.id]);
      expect((await notesOf(who, survivor.id)).map((n) => n.id)).toEqual([...ownNotes, note.id]);
      expect(await read(who, other.id)).toEqual(other);
      const [entry] = (await auditAbout(b.server.db, 'customer', survivor.id)).filter((e) => e.action === 'customer.merge_undone');
      expect(entry!.changes).toMatchObject({ kept: ['company'], status: { from: 'lead', to: 'active' } });
    });

    test('D49 D46 the merged customer gets its primary location back; the survivor’s own location added since becomes its primary', async () => {
      const who = await owner();
      const [s, m] = [await who.create(), await who.create()];
      const home = await locations.add(who, m.id, { label: 'Home' });
      const cabin = await locations.add(who, m.id, { label: 'Cabin' });
      const before = await read(who, m.id);
      const mergeId = await merged(who, s.id, m.id);
      const shop = await locations.add(who, s.id, { label: 'Shop' });
      expect((await read(who, s.id)).locations.map((l) => [l.id, l.primary])).toEqual([
        [home.id, true],
        [cabin.id, false],
        [shop.id, false],
      ]);
      expect((await who.post(undoPath(mergeId))).status).toBe(200);
      expect(await read(who, m.id)).toEqual(before);
      expect((await read(who, s.id)).locations.map((l) => [l.id, l.primary])).toEqual([[shop.id, true]]);
    });
  });

  describe('D66 undo takes back the contacts the merge kept', () => {
    test('D66 an undo removes exactly the contacts the merge made for the details not picked: the survivor reads back as before, search no longer finds it by them', async () => {
      const who = await owner();
      const { survivor, other } = await duplicatePair(who);
      const otherPhone = uniqueNumber();
      expect((await who.patch(customerPath(other.id), { phone: otherPhone, version: other.version })).status).toBe(200);
      const otherNow = await read(who, other.id);
      const mergeId = await merged(who, survivor.id, other.id, { phone: 'merged' });
      const afterMerge = await read(who, survivor.id);
      const kept = afterMerge.contacts.filter((c) => c.note?.startsWith('Kept when'));
      expect(kept.map((c) => [c.name, c.email, c.phone])).toEqual([
        [other.name, other.email, null],
        [survivor.name, null, survivor.phone],
      ]);
      // A contact the survivor gets after the merge stays; the kept ones go, however they were edited since.
      const later = await contacts.add(who, survivor.id, { name: 'Added later' });
      expect((await who.patch(customerPath(survivor.id, `contacts/${kept[0]!.id}/`), { role: 'old email' })).status).toBe(200);
      const r = await who.post(undoPath(mergeId));
      expect(r.status, r.text).toBe(200);
      const back = await read(who, survivor.id);
      expect(back.contacts.map((c) => c.id)).toEqual([later.id]);
      expect(fields({ ...back, contacts: [] })).toEqual(fields({ ...survivor, contacts: [] }));
      expect(await read(who, other.id)).toEqual(otherNow);
      expect(((await who.get(`${CUSTOMERS}?q=${encodeURIComponent(other.email!)}`)).body.results as { id: number }[]).map((c) => c.id)).toEqual([other.id]);
      const [entry] = (await auditAbout(b.server.db, 'customer', survivor.id)).filter((e) => e.action === 'customer.merge_undone');
      expect(entry!.changes.removed_contacts).toEqual(kept.map(({ id, name, email, phone }) => ({ id, name, email, phone })));
    });
  });

  describe('D49 undo refusals change nothing', () => {
    test('D49 twice 409 merge_undone; an unknown or another organization’s merge 404', async () => {
      const who = await signIn(b, 'owner@demo.test', ACME);
      const [s, m] = [await who.create(), await who.create()];
      const mergeId = await merged(who, s.id, m.id);
      const beacon = await signIn(b, 'owner@demo.test', BEACON);
      await expectNoChange(b.server.db, async () => {
        expectError(await beacon.post(undoPath(mergeId)), 404, 'not_found');
        expectError(await who.post(undoPath(2_000_000_000)), 404, 'not_found');
      });
      expect((await who.post(undoPath(mergeId))).status).toBe(200);
      await expectNoChange(b.server.db, async () => expectError(await who.post(undoPath(mergeId)), 409, 'merge_undone'));
      // Undone, the pair may be merged again, and that merge undone.
      const again = await merged(who, s.id, m.id);
      expect((await who.post(undoPath(again))).status).toBe(200);
    });

    test('D49 the survivor deleted since 409 customer_deleted, merged since 409 already_merged', async () => {
      const who = await owner();
      const [s, m, third] = [await who.create(), await who.create(), await who.create()];
      const mergeId = await merged(who, s.id, m.id);
      await who.del(customerPath(s.id));
      await expectNoChange(b.server.db, async () => expectError(await who.post(undoPath(mergeId)), 409, 'customer_deleted'));
      expect((await who.post(customerPath(s.id, 'restore/'))).status).toBe(200);
      const second = await merged(who, third.id, s.id);
      await expectNoChange(b.server.db, async () => expectError(await who.post(undoPath(mergeId)), 409, 'already_merged'));
      // Undone in turn, last first, each comes back.
      expect((await who.post(undoPath(second))).status).toBe(200);
      expect((await who.post(undoPath(mergeId))).status).toBe(200);
      expect((await who.get(CUSTOMERS)).body.count).toBe(3);
    });

    test('D23 D49 the merged customer’s email taken by a new customer since: 409 duplicate_email naming it', async () => {
      const who = await owner();
      const [s, m] = [await who.create(), await who.create()];
      const mergeId = await merged(who, s.id, m.id);
      const taker = await who.create({ email: m.email });
      await expectNoChange(b.server.db, async () => {
        const r = await who.post(undoPath(mergeId));
        expectError(r, 409, 'duplicate_email');
        expect(r.body.existing).toEqual({ id: taker.id, name: taker.name });
      });
    });

    test('D49 after 30 days 410 merge_expired; within them it is undone', async () => {
      const who = await signIn(b, 'owner@demo.test', ACME);
      const [a, c, d, e] = [await who.create(), await who.create(), await who.create(), await who.create()];
      const early = await merged(who, a.id, c.id);
      b.clock.advance(MINUTE);
      const late = await merged(who, d.id, e.id);
      b.clock.advance(MERGE_UNDO_DAYS * DAY - MINUTE / 2);
      const again = await signIn(b, 'owner@demo.test', ACME); // the clock moved past the first token
      await expectNoChange(b.server.db, async () => expectError(await again.post(undoPath(early)), 410, 'merge_expired'));
      expect((await again.post(undoPath(late))).status).toBe(200);
    });
  });

  describe('D25 D49 housekeeping', () => {
    test('D25 D49 housekeeping never removes a merged customer on its own; removing its survivor for good takes it and the merge along', async () => {
      const who = await owner();
      const [s, m] = [await who.create(), await who.create()];
      const mergeId = await merged(who, s.id, m.id);
      const later = b.clock.now() + (MERGE_UNDO_DAYS + 1) * DAY; // the purge is given its time; the server's clock stays
      await purgeDeleted(b.server.db, later);
      expectError(await who.get(customerPath(m.id)), 404, 'merged');
      await who.del(customerPath(s.id));
      await purgeDeleted(b.server.db, later);
      expectError(await who.get(customerPath(m.id)), 404, 'not_found');
      expect(await b.server.db.query('select id from customer_merges where id = $1', [mergeId])).toEqual([]);
    });
  });
});
