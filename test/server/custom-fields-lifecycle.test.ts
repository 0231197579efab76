// D56 what a definition's life does to the values: archiving hides them and refuses writes, restoring
// brings them back, deleting (archived only) hides them at once and removes them from every record in small
// steps after (D34), saying how many; options
// removed only when unused; a type change converts or refuses.
import { beforeAll, describe, expect, test } from 'vitest';
import type { Customer } from '../../contract/customers';
import { CUSTOMERS, expectError } from './api-common';
import { forEachBackend, type Backend } from './backends';
import { auditAbout, customerPath, ownerOfNewOrg, warmedUp, type Actor } from './customers-common';
import { addField, FIELDS, fieldPath, fieldsOf } from './custom-fields-common';
import { purgeDeletedFields } from '../../server/features/custom-fields/purge';
import { PURGE_SPAN, removeValuesFrom } from '../../server/features/custom-fields/values-repo';
import type { SqlParam } from '../../server/db';

forEachBackend('API custom field lifecycle', (backend) => {
  let b: Backend;
  let o: Actor;
  beforeAll(async () => {
    b = await warmedUp(backend);
  });
  const fresh = async () => (o = await ownerOfNewOrg(b, 'Lifecycle'));
  const record = async (id: number) => (await o.get(customerPath(id))).body as unknown as Customer;
  const stored = async (id: number) => (await b.server.db.query<{ custom: Record<string, unknown> }>('select custom from customers where id = $1', [id]))[0]!.custom;

  describe('D56 archive and restore', () => {
    test('D56 an archived field: its values are kept but left out of every answer, and writing one is 400; restoring brings them back', async () => {
      await fresh();
      const gate = await addField(o, { label: 'Gate', key: 'gate' });
      await addField(o, { label: 'Alarm', key: 'alarm' });
      const c = await o.create({ custom: { gate: '1234', alarm: '9' } });
      expect((await o.post(fieldPath(gate.id, 'archive/'))).status).toBe(200);
      expect((await record(c.id)).custom).toEqual({ alarm: '9' });
      const row = ((await o.get(`${CUSTOMERS}?page_size=100`)).body.results as Customer[]).find((x) => x.id === c.id);
      expect(row?.custom).toEqual({ alarm: '9' });
      expect(await stored(c.id)).toEqual({ gate: '1234', alarm: '9' });
      const refused = await o.patch(customerPath(c.id), { version: c.version, custom: { gate: '5678' } });
      expectError(refused, 400);
      expect(refused.body.field).toBe('custom.gate');
      // D56: named apart as archived, so a form open since can save the rest and say what it left out.
      expect(refused.body).toMatchObject({ code: 'field_archived', archived: ['custom.gate'] });
      expectError(await o.post(CUSTOMERS, { name: 'New', custom: { gate: '1' } }), 400);
      // A save of the other fields leaves the archived value as it is.
      expect((await o.patch(customerPath(c.id), { version: c.version, custom: { alarm: '8' } })).status).toBe(200);
      expect((await o.post(fieldPath(gate.id, 'restore/'))).status).toBe(200);
      expect((await record(c.id)).custom).toEqual({ gate: '1234', alarm: '8' });
    });
  });

  describe('D56 delete', () => {
    test('D56 DELETE needs an archived field (409 field_not_archived); then the field goes at once, says how many records held a value, audited; its values are removed from every record after', async () => {
      await fresh();
      const gate = await addField(o, { label: 'Gate', key: 'gate' });
      await addField(o, { label: 'Alarm', key: 'alarm' });
      const [x, y] = [await o.create({ custom: { gate: '1', alarm: '2' } }), await o.create({ custom: { gate: '3' } })];
      const bare = await o.create();
      expect((await o.del(customerPath(y.id))).status).toBe(204); // in the trash, and holding a value still
      expectError(await o.del(fieldPath(gate.id)), 409, 'field_not_archived');
      expect((await o.post(fieldPath(gate.id, 'archive/'))).status).toBe(200);
      expect((await o.get(fieldPath(gate.id))).body).toMatchObject({ records_with_value: 2 });
      const r = await o.del(fieldPath(gate.id));
      expect([r.status, r.body]).toEqual([200, { id: gate.id, label: 'Gate', records_with_value: 2 }]);
      expect((await fieldsOf(o)).map((f) => f.key)).toEqual(['alarm']);
      expect((await record(x.id)).custom).toEqual({ alarm: '2' });
      expectError(await o.del(fieldPath(gate.id)), 404, 'not_found');
      const entries = await auditAbout(b.server.db, 'custom_field', gate.id);
      expect(entries.at(-1)).toMatchObject({ action: 'custom_field.deleted', target_label: 'Gate', changes: { records_with_value: 2 } });
      await expect.poll(async () => [await stored(x.id), await stored(y.id), await stored(bare.id)]).toEqual([{ alarm: '2' }, {}, {}]);
      await expect.poll(async () => (await b.server.db.query('select 1 from custom_fields where id = $1', [gate.id])).length).toBe(0);
      // The key is free again once the values are gone: a new field of that key starts empty.
      await addField(o, { label: 'Gate again', key: 'gate' });
      expect((await record(x.id)).custom).toEqual({ alarm: '2' });
    });

    test('D34 D56 a deleted field’s values are removed a range of a few hundred ids at a time, each range its own statement, every id covered, the trash included and no other organization touched; a purge cut short is run again (values hidden meanwhile, the key taken)', async () => {
      await fresh();
      const other = await ownerOfNewOrg(b, 'Lifecycle other');
      const gate = await addField(o, { label: 'Gate', key: 'gate' });
      const db = b.server.db;
      const insert = async (org: number, n: number, custom: string, trashed = false) =>
        (
          await db.query<{ id: unknown }>(
            `insert into customers (org_id, name, custom, deleted_at) select $1, 'Held ' || g, $2::text::jsonb, ${trashed ? 'now()' : 'null'} from generate_series(1, ${n}) g returning id`,
            [org, custom],
          )
        ).map((r) => Number(r.id));
      const first = await insert(o.org, PURGE_SPAN, '{"gate": "1"}');
      const elsewhere = await insert(other.org, 3, '{"gate": "x"}'); // ids among ours
      const rest = [...(await insert(o.org, PURGE_SPAN + 7, '{"gate": "1", "keep": 2}')), ...(await insert(o.org, 1, '{"gate": "1"}', true))];
      await db.query('update custom_fields set archived_at = now(), deleted_at = now() where id = $1', [gate.id]); // as a delete leaves it, the purge not run
      expectError(await o.post(FIELDS, { label: 'Other gate', key: 'gate', type: 'text' }), 409, 'duplicate_key');
      const held = async () => Number((await db.query<{ n: unknown }>(`select count(*) as n from customers where org_id = $1 and custom ? 'gate'`, [o.org]))[0]!.n);
      const holding = [...first, ...rest].length;
      // One step: the ids in [from, from + PURGE_SPAN) only.
      await removeValuesFrom(db, o.org, gate, first[0]!);
      expect(await held()).toBe(holding - PURGE_SPAN);
      // The purge (as after a restart) goes over every range; each statement names one range.
      const [query] = [db.query];
      const ranges: [number, number][] = [];
      db.query = ((text: string, params?: readonly SqlParam[]) => {
        if (text.startsWith('update customers set custom = custom - ')) ranges.push([Number(params![2]), Number(params![3])]);
        return query.call(db, text, params);
      }) as typeof db.query;
      try {
        await purgeDeletedFields(db);
      } finally {
        Object.assign(db, { query });
      }
      // Ranges of PURGE_SPAN ids, one after another from 0, past the table's highest id.
      expect(ranges.length).toBeGreaterThan(1);
      expect(ranges).toEqual(ranges.map((_, k) => [k * PURGE_SPAN, (k + 1) * PURGE_SPAN]));
      const [top] = await db.query<{ id: unknown }>('select max(id) as id from customers');
      expect(ranges.at(-1)![1]).toBeGreaterThan(Number(top!.id));
      expect(await held()).toBe(0);
      const custom = async (id: number) => (await db.query<{ custom: unknown }>('select custom from customers where id = $1', [id]))[0]!.custom;
      expect(await custom(rest[0]!)).toEqual({ keep: 2 });
      expect(await custom(rest.at(-1)!)).toEqual({}); // the trashed one
      expect(await custom(elsewhere[1]!)).toEqual({ gate: 'x' });
      expect(await db.query('select 1 from custom_fields where id = $1', [gate.id])).toEqual([]);
      await addField(o, { label: 'Other gate', key: 'gate' });
    });
  });

  describe('D56 options and types', () => {
    test('D56 renaming an option keeps its values; removing one that records hold is 409 option_in_use naming it; an unused one goes', async () => {
      await fresh();
      const plan = await addField(o, { label: 'Plan', key: 'plan', type: 'choice', options: [{ label: 'Gold' }, { label: 'Silver' }, { label: 'Bronze' }] });
      const extras = await addField(o, { label: 'Extras', key: 'extras', type: 'choices', options: [{ label: 'Filter' }, { label: 'Pump' }] });
      const c = await o.create({ custom: { plan: 'o1', extras: ['o2'] } });
      expect(
        (
          await o.patch(fieldPath(plan.id), {
            options: [
              { id: 'o1', label: 'Platinum' },
              { id: 'o2', label: 'Silver' },
              { id: 'o3', label: 'Bronze' },
            ],
          })
        ).status,
      ).toBe(200);
      expect((await record(c.id)).custom).toEqual({ plan: 'o1', extras: ['o2'] });
      const r = await o.patch(fieldPath(plan.id), { options: [{ id: 'o2', label: 'Silver' }] });
      expectError(r, 409, 'option_in_use');
      expect(r.body.detail).toBe('1 customer has the option “Platinum”: change them first');
      expectError(await o.patch(fieldPath(extras.id), { options: [{ id: 'o1', label: 'Filter' }] }), 409, 'option_in_use');
      const dropped = await o.patch(fieldPath(plan.id), {
        options: [
          { id: 'o1', label: 'Platinum' },
          { id: 'o3', label: 'Bronze' },
        ],
      });
      expect(dropped.body.options).toEqual([
        { id: 'o1', label: 'Platinum' },
        { id: 'o3', label: 'Bronze' },
      ]);
    });

    test('D56 one choice → several turns each value into a list of it; long text → text is refused while a value would not fit', async () => {
      await fresh();
      const plan = await addField(o, { label: 'Plan', key: 'plan', type: 'choice', options: [{ label: 'Gold' }] });
      const notes = await addField(o, { label: 'Notes', key: 'notes', type: 'long_text' });
      const c = await o.create({ custom: { plan: 'o1', notes: 'Line one\nline two' } });
      expect((await o.patch(fieldPath(plan.id), { type: 'choices' })).status).toBe(200);
      expect((await record(c.id)).custom.plan).toEqual(['o1']);
      const r = await o.patch(fieldPath(notes.id), { type: 'text' });
      expectError(r, 409, 'type_change_refused');
      expect(r.body.detail).toMatch(/1 value is longer than 500 characters or with line breaks/);
      const fresher = await record(c.id);
      expect((await o.patch(customerPath(c.id), { version: fresher.version, custom: { notes: 'One line' } })).status).toBe(200);
      expect((await o.patch(fieldPath(notes.id), { type: 'text' })).body).toMatchObject({ type: 'text' });
    });
  });
});
