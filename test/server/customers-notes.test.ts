// D24 a customer's notes and timeline; D10 D30 who may write them and what the audit log keeps; D9 D19
// their refusals, other organizations' ids and hostile bodies.
import { beforeAll, describe, expect, test } from 'vitest';
import type { Customer, Note, TimelineItem } from '../../contract/customers';
import { CUSTOMERS, expectError } from './api-common';
import { forEachBackend, type Backend } from './backends';
import {
  ACME,
  auditAbout,
  BEACON,
  customerPath,
  expectClientError,
  fingerprint,
  HOSTILE_RAW_BODIES,
  HOSTILE_VALUES,
  inOrg,
  LONE_SURROGATES,
  newActor,
  signIn,
  surrogateProblem,
  warmedUp,
  type Actor,
} from './customers-common';
import { MINUTE } from './helpers';

const NOTE_KEYS = ['author', 'body', 'created_at', 'id', 'updated_at'];

forEachBackend('API customer notes and timeline', (backend) => {
  let b: Backend;
  let owner: Actor;
  beforeAll(async () => (b = await warmedUp(backend)));
  const fresh = async () => (owner = await signIn(b, 'owner@demo.test', ACME));
  const notesOf = (id: number, query = '') => customerPath(id, `notes/${query}`);
  const noteOf = (id: number, noteId: number) => customerPath(id, `notes/${noteId}/`);
  const addNote = async (who: Actor, customerId: number, body: string): Promise<Note> => {
    const r = await who.post(notesOf(customerId), { body });
    expect(r.status, r.text).toBe(201);
    return r.body as unknown as Note;
  };
  const timelineOf = async (who: Actor, id: number, query = '') => {
    const r = await who.get(customerPath(id, `timeline/${query}`));
    expect(r.status, r.text).toBe(200);
    return r.body as { count: number; results: TimelineItem[] };
  };

  describe('D24 notes', () => {
    test('D24 POST a note: 201 with the trimmed body, lines kept, the caller as author; audited as note.added on the note', async () => {
      await fresh();
      const c = await owner.create();
      const r = await owner.post(notesOf(c.id), { body: '  Called about the leak.\r\n\n\tBack on Friday.  ' });
      expect(r.status, r.text).toBe(201);
      const note = r.body as unknown as Note;
      expect(Object.keys(note).sort()).toEqual(NOTE_KEYS);
      const at = new Date(b.clock.now()).toISOString();
      expect(note).toEqual({
        id: note.id,
        body: 'Called about the leak.\r\n\n\tBack on Friday.',
        author: { id: owner.userId, name: 'Olivia' },
        created_at: at,
        updated_at: at,
      });
      expect((await owner.get(notesOf(c.id))).body).toEqual({ count: 1, results: [note] });
      const [entry, ...more] = await auditAbout(b.server.db, 'note', note.id);
      expect(more).toEqual([]);
      expect(entry).toMatchObject({ action: 'note.added', actor_id: owner.userId, org_id: owner.org, target_label: c.name });
      expect(entry!.changes).toMatchObject({ customer_id: c.id, body: note.body });
    });

    test('D24 a note is 1 to 5,000 characters: empty, blank or longer is a 400 naming body; other control characters too', async () => {
      await fresh();
      const c = await owner.create();
      const before = await fingerprint(b.server.db);
      for (const body of ['', '   \n\t ', 'x'.repeat(5001), 'nul\u0000', 'bell\u0007', 'esc\u001b[31m', 'del\u007f', 'csi\u009b31m']) {
        const r = await owner.post(notesOf(c.id), { body });
        expectError(r, 400);
        expect(r.body.field, JSON.stringify(body.slice(0, 20))).toBe('body');
      }
      expectError(await owner.post(notesOf(c.id), {}), 400, 'missing_field');
      expectError(await owner.post(notesOf(c.id), { body: 'ok', pinned: true }), 400, 'unknown_field');
      expect(await fingerprint(b.server.db)).toBe(before);
      for (const body of ['x'.repeat(5000), '管'.repeat(5000), `  ${'y'.repeat(5000)}  `, '.']) {
        const r = await owner.post(notesOf(c.id), { body });
        expect(r.status, `${body.length} characters`).toBe(201);
        expect(r.body.body).toBe(body.trim());
      }
    });

    test('D24 notes are listed newest first and paged, with the count', async () => {
      await fresh();
      const c = await owner.create();
      const notes: Note[] = [];
      for (let i = 0; i < 5; i++) {
        b.clock.advance(MINUTE);
        notes.push(await addNote(owner, c.id, `note ${i}`));
      }
      const newestFirst = [...notes].reverse();
      expect((await owner.get(notesOf(c.id))).body).toEqual({ count: 5, results: newestFirst });
      const pages = [];
      for (const page of [1, 2, 3]) pages.push(...((await owner.get(notesOf(c.id, `?page=${page}&page_size=2`))).body.results as Note[]));
      expect(pages).toEqual(newestFirst);
      expect((await owner.get(notesOf(c.id, '?page=9&page_size=2'))).body).toEqual({ count: 5, results: [] });
      for (const query of ['?page=0', '?page_size=101', '?page=x']) expectError(await owner.get(notesOf(c.id, query)), 400);
    });

    test('D24 PATCH and DELETE a note: new body and updated_at, then gone; audited as note.edited (from/to) and note.deleted', async () => {
      await fresh();
      const c = await owner.create();
      const note = await addNote(owner, c.id, 'first words');
      b.clock.advance(MINUTE);
      const r = await owner.patch(noteOf(c.id, note.id), { body: ' better words ' });
      expect(r.status, r.text).toBe(200);
      expect(r.body).toEqual({ ...note, body: 'better words', updated_at: new Date(b.clock.now()).toISOString() });
      const gone = await owner.del(noteOf(c.id, note.id));
      expect([gone.status, gone.text]).toEqual([204, '']);
      expect((await owner.get(notesOf(c.id))).body).toEqual({ count: 0, results: [] });
      expectError(await owner.patch(noteOf(c.id, note.id), { body: 'again' }), 404, 'not_found');
      expectError(await owner.del(noteOf(c.id, note.id)), 404, 'not_found');
      const entries = await auditAbout(b.server.db, 'note', note.id);
      expect(entries.map((e) => e.action)).toEqual(['note.added', 'note.edited', 'note.deleted']);
      expect(entries[1]!.changes).toMatchObject({ customer_id: c.id, body: { from: 'first words', to: 'better words' } });
      expect(entries[2]!.changes).toMatchObject({ customer_id: c.id, body: 'better words' });
    });

    test('D24 the author may edit and delete their own note without customers:update; others need customers:update (else 403)', async () => {
      await fresh();
      const c = await owner.create();
      const author = await newActor(b, ACME, 'member');
      const note = await addNote(author, c.id, 'written by a member');
      await b.server.db.query("update memberships set role = 'viewer' where user_id = $1", [author.userId]);
      const viewer = await newActor(b, ACME, 'viewer');
      const before = await fingerprint(b.server.db);
      expectError(await viewer.post(notesOf(c.id), { body: 'a viewer writes' }), 403, 'permission_denied');
      expectError(await viewer.patch(noteOf(c.id, note.id), { body: 'not mine' }), 403, 'permission_denied');
      expectError(await viewer.del(noteOf(c.id, note.id)), 403, 'permission_denied');
      expectError(await author.post(notesOf(c.id), { body: 'now a viewer' }), 403, 'permission_denied');
      expect(await fingerprint(b.server.db)).toBe(before);
      expect((await viewer.get(notesOf(c.id))).body.count).toBe(1);
      const own = await author.patch(noteOf(c.id, note.id), { body: 'still mine' });
      expect(own.status, own.text).toBe(200);
      const member = await newActor(b, ACME, 'member');
      expect((await member.patch(noteOf(c.id, note.id), { body: 'edited by a colleague' })).status).toBe(200);
      const second = await addNote(member, c.id, "the colleague's note");
      expectError(await author.del(noteOf(c.id, second.id)), 403, 'permission_denied');
      expect((await author.del(noteOf(c.id, note.id))).status).toBe(204);
    });
  });

  describe('D24 timeline', () => {
    test('D24 the timeline shows, newest first, the notes and every audit entry about the customer: created, updated, deleted, restored, imported', async () => {
      await fresh();
      const c = await owner.create({ company: 'Old Co', city: 'Bend' });
      b.clock.advance(MINUTE);
      const n1 = await addNote(owner, c.id, 'first note');
      b.clock.advance(MINUTE);
      const patched = await owner.patch(customerPath(c.id), { version: 1, company: 'New Co', status: 'lead' });
      expect(patched.status, patched.text).toBe(200);
      b.clock.advance(MINUTE);
      const n2 = await addNote(owner, c.id, 'second note');
      b.clock.advance(MINUTE);
      expect((await owner.del(customerPath(c.id))).status).toBe(204);
      expectError(await owner.get(customerPath(c.id, 'timeline/')), 404, 'not_found');
      b.clock.advance(MINUTE);
      expect((await owner.post(customerPath(c.id, 'restore/'))).status).toBe(200);
      b.clock.advance(MINUTE);
      const other = await owner.create(); // imported alongside, but not this customer's business
      const csv = `name,email,city\r\n${c.name},${c.email!},Salem\r\n${other.name},${other.email!},Eugene\r\n`;
      const imported = await owner.send('POST', `${CUSTOMERS}import/?on_duplicate=update`, csv, { 'Content-Type': 'text/csv' });
      expect(imported.status, imported.text).toBe(200);

      const { count, results } = await timelineOf(owner, c.id);
      expect(count).toBe(7);
      expect(results.map((i) => (i.kind === 'note' ? `note ${i.body}` : i.action))).toEqual([
        'customer.updated',
        'customer.restored',
        'customer.deleted',
        'note second note',
        'customer.updated',
        'note first note',
        'customer.created',
      ]);
      const at = results.map((i) => (i.kind === 'note' ? i.created_at : i.at));
      expect([...at].sort().reverse()).toEqual(at);
      expect(results[3]).toEqual({ kind: 'note', ...n2 });
      expect(results[5]).toEqual({ kind: 'note', ...n1 });
      const audit = results.filter((i) => i.kind === 'audit');
      for (const entry of audit) {
        expect(Object.keys(entry).sort()).toEqual(['action', 'actor', 'at', 'changes', 'id', 'kind', 'target']);
        expect(entry.actor).toEqual({ id: owner.userId, name: 'Olivia' });
      }
      const byAction = Object.fromEntries(audit.map((e) => [e.action, e]));
      expect(byAction['customer.created']!.changes).toEqual({ name: c.name, email: c.email, company: 'Old Co', city: 'Bend', status: 'active', type: 'residential' });
      expect(byAction['customer.created']!.target).toEqual({ type: 'customer', id: c.id, label: c.name });
      expect(byAction['customer.updated']!.changes).toEqual({ company: { from: 'Old Co', to: 'New Co' }, status: { from: 'active', to: 'lead' } });
      // D44: the import's update is written like an edit: this customer's own fields before → after.
      expect(audit[0]).toMatchObject({ action: 'customer.updated', target: { type: 'customer', id: c.id }, changes: { city: { from: 'Bend', to: 'Salem' } } });
      expect(JSON.stringify(audit[0]!.changes)).not.toMatch(new RegExp(`\\b${other.id}\\b`));
      // The other customer's timeline has its own update and its creation, none of this one's entries.
      expect((await timelineOf(owner, other.id)).results.map((i) => (i.kind === 'audit' ? i.action : i.kind))).toEqual(['customer.updated', 'customer.created']);
    });

    test('D24 the timeline is paged: pages follow on without overlap, and past the end is empty with the count', async () => {
      await fresh();
      const c = await owner.create();
      for (let i = 0; i < 4; i++) {
        b.clock.advance(MINUTE);
        await addNote(owner, c.id, `note ${i}`);
        const current = (await owner.get(customerPath(c.id))).body as unknown as Customer;
        await owner.patch(customerPath(c.id), { version: current.version, city: `City ${i}` });
      }
      const all = await timelineOf(owner, c.id, '?page_size=100');
      expect(all.count).toBe(9);
      const paged: TimelineItem[] = [];
      for (const page of [1, 2, 3, 4, 5]) paged.push(...(await timelineOf(owner, c.id, `?page=${page}&page_size=2`)).results);
      expect(paged).toEqual(all.results);
      expect(await timelineOf(owner, c.id, '?page=6&page_size=2')).toEqual({ count: 9, results: [] });
      const viewer = await newActor(b, ACME, 'viewer');
      expect(await timelineOf(viewer, c.id, '?page_size=100')).toEqual(all);
    });
  });

  describe('D9 D19 refusals', () => {
    test("D9 another organization's customer or note id is a 404 on every notes and timeline route, and nothing changes", async () => {
      await fresh();
      const beacon = await signIn(b, 'owner@demo.test', BEACON);
      const theirs = await beacon.create();
      const theirNote = await addNote(beacon, theirs.id, 'Beacon only');
      const mine = await owner.create();
      const myOther = await owner.create();
      const myNote = await addNote(owner, myOther.id, 'on another customer');
      const gone = await owner.create();
      const goneNote = await addNote(owner, gone.id, 'on a deleted customer');
      await owner.del(customerPath(gone.id));
      const before = await fingerprint(b.server.db);
      const calls: [string, string, unknown?][] = [
        ['GET', notesOf(theirs.id)],
        ['POST', notesOf(theirs.id), { body: 'x' }],
        ['GET', customerPath(theirs.id, 'timeline/')],
        ['PATCH', noteOf(theirs.id, theirNote.id), { body: 'x' }],
        ['DELETE', noteOf(theirs.id, theirNote.id)],
        ['PATCH', noteOf(mine.id, theirNote.id), { body: 'x' }],
        ['DELETE', noteOf(mine.id, theirNote.id)],
        ['PATCH', noteOf(mine.id, myNote.id), { body: 'x' }],
        ['DELETE', noteOf(mine.id, myNote.id)],
        ['GET', notesOf(gone.id)],
        ['POST', notesOf(gone.id), { body: 'x' }],
        ['GET', customerPath(gone.id, 'timeline/')],
        ['PATCH', noteOf(gone.id, goneNote.id), { body: 'x' }],
        ['DELETE', noteOf(gone.id, goneNote.id)],
      ];
      for (const [method, path, body] of calls) {
        const r = await owner.send(method, path, body);
        expectError(r, 404, 'not_found');
        expect(r.text, `${method} ${path}`).not.toContain('Beacon only');
      }
      expect(await fingerprint(b.server.db)).toBe(before);
    });

    test('D9 notes and timeline: no token is a 401, a non-member a 403 not_a_member, before anything else', async () => {
      await fresh();
      const c = await owner.create();
      const note = await addNote(owner, c.id, 'hello');
      const stranger = inOrg(b, await newActor(b, BEACON, 'owner'), owner.org);
      const before = await fingerprint(b.server.db);
      for (const [method, path, body] of [
        ['GET', notesOf(c.id)],
        ['POST', notesOf(c.id), { body: 'x' }],
        ['PATCH', noteOf(c.id, note.id), { body: 'x' }],
        ['DELETE', noteOf(c.id, note.id)],
        ['GET', customerPath(c.id, 'timeline/')],
      ] as [string, string, unknown?][]) {
        expectError(await b.api.request(path, { method, headers: { 'X-Organization-ID': String(owner.org) } }), 401, 'not_authenticated');
        expectError(await stranger.send(method, path, body), 403, 'not_a_member');
      }
      expect(await fingerprint(b.server.db)).toBe(before);
    });

    test('D19 hostile note bodies and ids are refused with a 4xx, never a 500, and write nothing', async () => {
      await fresh();
      const c = await owner.create();
      const note = await addNote(owner, c.id, 'target');
      const before = await fingerprint(b.server.db);
      for (const value of HOSTILE_VALUES) {
        if (typeof value === 'string' && !/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(value) && value.length <= 5000) continue; // a fine note
        expectClientError(await owner.post(notesOf(c.id), { body: value }), `POST ${JSON.stringify(value).slice(0, 40)}`);
        expectClientError(await owner.patch(noteOf(c.id, note.id), { body: value }), `PATCH ${JSON.stringify(value).slice(0, 40)}`);
      }
      for (const raw of HOSTILE_RAW_BODIES) {
        expectClientError(await owner.send('POST', notesOf(c.id), raw), `POST ${raw.slice(0, 40)}`);
        expectClientError(await owner.send('PATCH', noteOf(c.id, note.id), raw), `PATCH ${raw.slice(0, 40)}`);
      }
      for (const id of ['0', '-1', 'x', '1.5', '99999999999999999999', '2147483648']) {
        for (const method of ['PATCH', 'DELETE']) {
          const r = await owner.send(method, customerPath(c.id, `notes/${id}/`), method === 'PATCH' ? { body: 'x' } : undefined);
          expectClientError(r, `${method} note ${id}`);
        }
      }
      expect(await fingerprint(b.server.db)).toBe(before);
    });

    test('D19 D24 a note that is not Unicode text (a lone surrogate) is never a 500: a 400 naming body, or stored well-formed', async () => {
      await fresh();
      const c = await owner.create();
      const note = await addNote(owner, c.id, 'target');
      const problems: (string | null)[] = [];
      for (const value of LONE_SURROGATES) {
        problems.push(surrogateProblem(await owner.post(notesOf(c.id), { body: value }), 'body', `POST ${JSON.stringify(value)}`));
        problems.push(surrogateProblem(await owner.patch(noteOf(c.id, note.id), { body: value }), 'body', `PATCH ${JSON.stringify(value)}`));
      }
      expect(problems.filter(Boolean)).toEqual([]);
    });
  });
});
