// D58 bulk actions on customers through the API: ids or the list's filter with the count the person saw
// (409 selection_changed otherwise), set-based in one transaction with one audit entry, customers that would
// not change untouched, a timeline entry on each one changed, and one exact undo within 30 days that leaves
// customers changed since as they are and names them; each needs the single-customer permission.
import { beforeAll, describe, expect, test } from 'vitest';
import { BULK_MAX, type BulkResult, type BulkUndoResult } from '../../contract/bulk';
import type { Customer } from '../../contract/customers';
import { expectError } from './api-common';
import { forEachBackend, type Backend } from './backends';
import { customerPath, customRole, expectFieldError, expectNoChange, fingerprint, newActor, uniqueEmail, warmedUp, type Actor } from './customers-common';
import { addField } from './custom-fields-common';
import { newOrg } from './people';

const BULK = '/api/v1/customers/bulk/';
const BULK_DELETE = `${BULK}delete/`;
const undoPath = (id: number) => `${BULK}${id}/undo/`;

forEachBackend('API bulk actions', (backend) => {
  let b: Backend;
  beforeAll(async () => {
    b = await warmedUp(backend);
  });
  /** A new organization with its owner, a member and a viewer, and `n` customers of its own. */
  const setup = async (n = 4, fields: Record<string, unknown> = {}) => {
    const { name } = await newOrg(b.server.db, 'Bulk');
    const [owner, member, viewer] = await Promise.all(['owner', 'member', 'viewer'].map((role) => newActor(b, name, role)));
    const customers: Customer[] = [];
    for (let i = 0; i < n; i++) customers.push(await owner!.create({ name: `Bulk ${String.fromCharCode(65 + i)}`, ...fields }));
    return { name, owner: owner!, member: member!, viewer: viewer!, customers };
  };
  const bulk = async (who: Actor, body: Record<string, unknown>, path = BULK): Promise<BulkResult> => {
    const r = await who.post(path, body);
    expect(
      r.status,
      r.text +
        b.server.logs
          .filter((l) => l.includes('failed'))
          .slice(-2)
          .join('\n'),
    ).toBe(200);
    return r.body as unknown as BulkResult;
  };
  const undo = async (who: Actor, id: number): Promise<BulkUndoResult> => {
    const r = await who.post(undoPath(id));
    expect(
      r.status,
      r.text +
        b.server.logs
          .filter((l) => l.includes('failed'))
          .slice(-2)
          .join('\n'),
    ).toBe(200);
    return r.body as unknown as BulkUndoResult;
  };
  const get = async (who: Actor, id: number) => (await who.get(customerPath(id))).body as unknown as Customer;
  const ids = (cs: Customer[]) => cs.map((c) => c.id);
  const entries = async (orgId: number, action: string) =>
    b.server.db.query<{ target_id: unknown; changes: Record<string, unknown> }>(
      'select target_id, changes from audit_log where org_id = $1 and action = $2 order by id',
      [orgId, action],
    );

  describe('D58 an action', () => {
    test('D58 add a tag to the ids picked: written set-based, those that have it untouched, one audit entry, a timeline entry on each one changed', async () => {
      const t = await setup(4);
      const [a, bb, c, d] = t.customers;
      const tagged = (await t.owner.patch(customerPath(bb!.id), { tags: ['Landlord'], version: bb!.version })).body as unknown as Customer;
      const r = await bulk(t.member, { ids: [a!.id, tagged.id, c!.id], action: 'add_tag', tag: 'landlord' });
      expect(r).toMatchObject({ action: 'add_tag', changed: 2, unchanged: 1 });
      expect((await get(t.owner, a!.id)).tags).toEqual(['landlord']);
      expect(await get(t.owner, tagged.id)).toMatchObject({ tags: ['Landlord'], version: tagged.version }); // not written
      expect((await get(t.owner, d!.id)).tags).toEqual([]); // not selected
      const [entry, ...more] = await entries(t.owner.org, 'customers.bulk_changed');
      expect(more).toEqual([]);
      expect(Number(entry!.target_id)).toBe(r.bulk_id);
      expect(entry!.changes).toMatchObject({ action: 'add_tag', tag: 'landlord', changed: 2, unchanged: 1 });
      const timeline = (await t.owner.get(customerPath(a!.id, 'timeline/'))).body.results as { action: string; changes: unknown }[];
      expect(timeline[0]).toMatchObject({ action: 'customer.updated', changes: { tags: { from: [], to: ['landlord'] } } });
      const untouched = (await t.owner.get(customerPath(tagged.id, 'timeline/'))).body.results as { changes: unknown }[];
      expect(JSON.stringify(untouched)).not.toContain('"to":["Landlord","landlord"]');
    });

    test('D58 every customer the list’s filter matches, with the count the person saw; a count that moved is 409 selection_changed with the new one, nothing written', async () => {
      const t = await setup(3, { status: 'lead' });
      await t.owner.create({ name: 'Bulk Active', status: 'active' });
      const r = await bulk(t.owner, { filter: 'status=lead', count: 3, action: 'set_status', status: 'inactive' });
      expect(r).toMatchObject({ changed: 3, unchanged: 0 });
      for (const c of t.customers) expect((await get(t.owner, c.id)).status).toBe('inactive');
      await t.owner.create({ name: 'Bulk New Lead', status: 'lead' });
      await t.owner.create({ name: 'Bulk Newer Lead', status: 'lead' });
      await expectNoChange(b.server.db, async () => {
        const stale = await t.owner.post(BULK, { filter: 'status=lead', count: 1, action: 'set_type', type: 'commercial' });
        expectError(stale, 409, 'selection_changed');
        expect(stale.body.count).toBe(2);
      });
    });

    test('D58 status, type, do-not-service and a custom field each set and cleared in bulk, each undone exactly', async () => {
      const t = await setup(3);
      const size = await addField(t.owner, { label: 'Tank size', type: 'number' });
      const cases: [Record<string, unknown>, (c: Customer) => unknown, unknown][] = [
        [{ action: 'set_type', type: 'commercial' }, (c) => c.type, 'commercial'],
        [{ action: 'set_do_not_service', reason: 'Unpaid invoices' }, (c) => [c.do_not_service, c.do_not_service_reason], [true, 'Unpaid invoices']],
        [{ action: 'set_custom', custom: { [size.key]: 50 } }, (c) => c.custom[size.key], 50],
      ];
      for (const [body, read, value] of cases) {
        const before = await Promise.all(t.customers.map((c) => get(t.owner, c.id).then(read)));
        const r = await bulk(t.owner, { ids: ids(t.customers), ...body });
        expect(r.changed, JSON.stringify(body)).toBe(3);
        for (const c of t.customers) expect(read(await get(t.owner, c.id))).toEqual(value);
        expect(await undo(t.owner, r.bulk_id!)).toEqual({ restored: 3, changed_since_count: 0, changed_since: [] });
        expect(await Promise.all(t.customers.map((c) => get(t.owner, c.id).then(read)))).toEqual(before);
      }
      await bulk(t.owner, { ids: ids(t.customers), action: 'set_custom', custom: { [size.key]: 7 } });
      const cleared = await bulk(t.owner, { ids: ids(t.customers), action: 'clear_custom', custom: { [size.key]: null } });
      expect(cleared.changed).toBe(3);
      expect((await get(t.owner, t.customers[0]!.id)).custom).toEqual({});
      await undo(t.owner, cleared.bulk_id!);
      expect((await get(t.owner, t.customers[0]!.id)).custom).toEqual({ [size.key]: 7 });
      const removed = await bulk(t.owner, { ids: ids(t.customers), action: 'set_status', status: 'lead' });
      await undo(t.owner, removed.bulk_id!);
      for (const c of t.customers) expect((await get(t.owner, c.id)).status).toBe('active');
    });

    test('D58 nothing that would change: no write, no audit entry, nothing to undo', async () => {
      const t = await setup(2);
      await expectNoChange(b.server.db, async () => {
        expect(await bulk(t.owner, { ids: ids(t.customers), action: 'remove_tag', tag: 'nobody has it' })).toEqual({
          bulk_id: null,
          action: 'remove_tag',
          changed: 0,
          unchanged: 2,
        });
      });
    });
  });

  describe('D58 undo', () => {
    test('D58 undo is exact; a customer changed since keeps the later change and is counted and named; undo of an undo is 409', async () => {
      const t = await setup(3);
      const r = await bulk(t.owner, { ids: ids(t.customers), action: 'add_tag', tag: 'show-2026' });
      const later = await get(t.owner, t.customers[1]!.id);
      await t.member.patch(customerPath(later.id), { tags: ['show-2026', 'called'], version: later.version });
      const u = await undo(t.member, r.bulk_id!);
      expect(u).toEqual({ restored: 2, changed_since_count: 1, changed_since: [{ id: later.id, name: later.name }] });
      expect((await get(t.owner, t.customers[0]!.id)).tags).toEqual([]);
      expect((await get(t.owner, later.id)).tags).toEqual(['show-2026', 'called']);
      const timeline = (await t.owner.get(customerPath(t.customers[0]!.id, 'timeline/'))).body.results as { action: string; changes: unknown }[];
      expect(timeline.slice(0, 2)).toMatchObject([
        { action: 'customer.updated', changes: { tags: { from: ['show-2026'], to: [] } } },
        { action: 'customer.updated', changes: { tags: { from: [], to: ['show-2026'] } } },
      ]);
      const [entry] = await entries(t.owner.org, 'customers.bulk_undone');
      expect(entry!.changes).toMatchObject({ action: 'add_tag', restored: 2, changed_since: 1 });
      expectError(await t.owner.post(undoPath(r.bulk_id!)), 409, 'already_undone');
    });

    test('D58 a bulk delete comes back with its undo; one whose email another customer took since is left deleted and named', async () => {
      const t = await setup(0);
      const email = uniqueEmail();
      const [a, c] = [await t.owner.create({ name: 'Gone A', email }), await t.owner.create({ name: 'Gone B' })];
      const r = await bulk(t.owner, { ids: [a.id, c.id] }, BULK_DELETE);
      expect(r).toMatchObject({ action: 'delete', changed: 2 });
      expectError(await t.owner.get(customerPath(a.id)), 404);
      const timeline = (await t.owner.get(`/api/v1/customers/?deleted=true`)).body.results as { id: number }[];
      expect(timeline.map((x) => x.id).sort()).toEqual([a.id, c.id].sort());
      await t.owner.create({ name: 'Took the email', email });
      const u = await undo(t.owner, r.bulk_id!);
      expect(u).toEqual({ restored: 1, changed_since_count: 1, changed_since: [{ id: a.id, name: 'Gone A' }] });
      expect((await t.owner.get(customerPath(c.id))).status).toBe(200);
      const history = (await t.owner.get(customerPath(c.id, 'timeline/'))).body.results as { action: string }[];
      expect(history.slice(0, 2).map((e) => e.action)).toEqual(['customer.restored', 'customer.deleted']);
    });

    test("D56 D58 a bulk delete's undo leaves deleted a customer whose unique value another took since (text in any case, a number), and names it", async () => {
      const t = await setup(0);
      const serial = await addField(t.owner, { label: 'Serial', unique: true });
      const meter = await addField(t.owner, { label: 'Meter', type: 'number', unique: true });
      const a = await t.owner.create({ name: 'Gone A', custom: { [serial.key]: 'SN-77' } });
      const m = await t.owner.create({ name: 'Gone M', custom: { [meter.key]: 42 } });
      const c = await t.owner.create({ name: 'Gone C', custom: { [serial.key]: 'SN-78', [meter.key]: 43 } });
      const r = await bulk(t.owner, { ids: [a.id, m.id, c.id] }, BULK_DELETE);
      await t.owner.create({ name: 'Took the serial', custom: { [serial.key]: 'sn-77' } });
      await t.owner.create({ name: 'Took the meter', custom: { [meter.key]: 42 } });
      const u = await undo(t.owner, r.bulk_id!);
      expect(u).toEqual({
        restored: 1,
        changed_since_count: 2,
        changed_since: [
          { id: a.id, name: 'Gone A' },
          { id: m.id, name: 'Gone M' },
        ],
      });
      expectError(await t.owner.get(customerPath(a.id)), 404);
      expect((await t.owner.get(customerPath(c.id))).body.custom).toEqual({ [serial.key]: 'SN-78', [meter.key]: 43 });
    });

    test('D58 undo within 30 days only: then 409 undo_expired', async () => {
      const t = await setup(1);
      const r = await bulk(t.owner, { ids: ids(t.customers), action: 'set_status', status: 'lead' });
      await b.server.db.query(`update bulk_actions set created_at = created_at - interval '31 days' where id = $1`, [r.bulk_id]);
      expectError(await t.owner.post(undoPath(r.bulk_id!)), 409, 'undo_expired');
    });
  });

  describe('D58 who may', () => {
    test('D58 each action needs the permission of the same action on one customer, and so does its undo', async () => {
      const t = await setup(2);
      await expectNoChange(b.server.db, async () => {
        expectError(await t.viewer.post(BULK, { ids: ids(t.customers), action: 'set_status', status: 'lead' }), 403, 'permission_denied');
        expectError(await t.member.post(BULK_DELETE, { ids: ids(t.customers) }), 403, 'permission_denied');
      });
      const gone = await bulk(t.owner, { ids: ids(t.customers) }, BULK_DELETE);
      expectError(await t.member.post(undoPath(gone.bulk_id!)), 403, 'permission_denied');
      const role = await customRole(b.server.db, t.name, ['customers:view', 'customers:update']);
      const editor = await newActor(b, t.name, role);
      await undo(t.owner, gone.bulk_id!);
      const r = await bulk(editor, { ids: ids(t.customers), action: 'set_type', type: 'commercial' });
      await b.server.db.query(`delete from role_permissions where org_id = $1 and role = $2 and permission = 'customers:update'`, [editor.org, role]);
      expectError(await editor.post(undoPath(r.bulk_id!)), 403, 'permission_denied');
    });

    test('D9 D58 ids of another organization change nothing there: 409 selection_changed; its actions are a 404 to undo', async () => {
      const t = await setup(1);
      const other = await setup(1);
      const before = await fingerprint(b.server.db);
      const r = await t.owner.post(BULK, { ids: [t.customers[0]!.id, other.customers[0]!.id], action: 'set_status', status: 'lead' });
      expectError(r, 409, 'selection_changed');
      expect(r.body.count).toBe(1);
      expect(r.body.ids).toEqual([t.customers[0]!.id]); // the ones it still holds, to go on with; never the other's
      expectError(await t.owner.post(BULK_DELETE, { ids: ids(other.customers) }), 409, 'selection_changed');
      expect(await fingerprint(b.server.db)).toBe(before);
      const theirs = await bulk(other.owner, { ids: ids(other.customers), action: 'set_status', status: 'lead' });
      expectError(await t.owner.post(undoPath(theirs.bulk_id!)), 404, 'not_found');
    });
  });

  describe('D58 bad input', () => {
    test.each([
      ['ids', { ids: [], action: 'set_status', status: 'lead' }],
      ['ids', { action: 'set_status', status: 'lead' }],
      ['ids', { ids: Array.from({ length: BULK_MAX + 1 }, (_, i) => i + 1), action: 'set_status', status: 'lead' }],
      ['ids', { ids: [1], filter: 'status=lead', count: 1, action: 'set_status', status: 'lead' }],
      ['count', { filter: 'status=lead', action: 'set_status', status: 'lead' }],
      ['tag', { ids: [1], action: 'add_tag', tag: 'x'.repeat(31) }],
      ['tag', { ids: [1], action: 'add_tag' }],
      ['status', { ids: [1], action: 'set_status', status: 'sleeping' }],
      ['action', { ids: [1], action: 'drop_table' }],
      ['custom', { ids: [1], action: 'set_custom', custom: {} }],
      ['custom.nope', { ids: [1], action: 'set_custom', custom: { nope: 1 } }],
      ['status', { filter: 'status=asleep', count: 1, action: 'set_type', type: 'commercial' }],
    ])('D58 %s refused with a 400 naming it, nothing written (%#)', async (field, body) => {
      const t = await setup(0);
      await expectNoChange(b.server.db, async () => expectFieldError(await t.owner.post(BULK, body), field));
    });

    test('D56 D58 a unique custom field is not set in bulk, and a required one is not cleared: 400, nothing written', async () => {
      const t = await setup(2);
      const serial = await addField(t.owner, { label: 'Serial', unique: true });
      const must = await addField(t.owner, { label: 'Must', type: 'number' });
      await b.server.db.query('update custom_fields set required = true where id = $1', [must.id]);
      await expectNoChange(b.server.db, async () => {
        expectFieldError(await t.owner.post(BULK, { ids: ids(t.customers), action: 'set_custom', custom: { [serial.key]: 'S-1' } }), `custom.${serial.key}`);
        expectFieldError(await t.owner.post(BULK, { ids: ids(t.customers), action: 'clear_custom', custom: { [must.key]: null } }), `custom.${must.key}`);
        expectFieldError(await t.owner.post(BULK, { ids: ids(t.customers), action: 'set_custom', custom: { [must.key]: 'many' } }), `custom.${must.key}`);
      });
    });

    test('D22 D58 adding a tag to a customer at the tag limit is 409 too_many_tags, nothing written', async () => {
      const t = await setup(1, { tags: Array.from({ length: 20 }, (_, i) => `t${i}`) });
      await expectNoChange(b.server.db, async () =>
        expectError(await t.owner.post(BULK, { ids: ids(t.customers), action: 'add_tag', tag: 'one more' }), 409, 'too_many_tags'),
      );
    });
  });
});
