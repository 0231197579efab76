// D56 an organization's custom field definitions through the API: made, listed, renamed, retyped where no
// value is lost, reordered, archived and restored; D61 fields:manage; D9 another organization's field.
import { beforeAll, describe, expect, test } from 'vitest';
import { CUSTOM_FIELD_LIMITS, type CustomField } from '../../contract/custom-fields';
import { DEFAULT_ROLE_PERMISSIONS } from '../../contract/permissions';
import { expectError } from './api-common';
import { forEachBackend, type Backend } from './backends';
import { ACME, auditAbout, BEACON, expectFieldError, newActor, ownerOfNewOrg, signIn, unique, warmedUp, type Actor } from './customers-common';
import { addField, FIELDS, fieldPath, fieldsOf } from './custom-fields-common';

forEachBackend('API custom fields', (backend) => {
  let b: Backend;
  let owner: Actor;
  beforeAll(async () => {
    b = await warmedUp(backend);
    owner = await signIn(b, 'owner@demo.test', ACME);
  });
  const label = () => unique('Field ');

  describe('D56 definitions', () => {
    test('D56 POST a field: 201 with its key made from the label, after the others; audited as custom_field.created with the label', async () => {
      const o = await ownerOfNewOrg(b, 'Fields');
      const first = await addField(o, { label: 'Gate code' });
      const r = await o.post(FIELDS, { label: 'Größe / size #2', type: 'number', help: ' In cm ', required: true });
      expect(r.status, r.text).toBe(201);
      const f = r.body as unknown as CustomField;
      expect(f).toMatchObject({ record_kind: 'customer', key: 'grosse_size_2', label: 'Größe / size #2', type: 'number', help: 'In cm', required: true });
      expect(f).toMatchObject({ unique: false, options: [], archived: false, archived_at: null, position: first.position + 1 });
      const [entry] = await auditAbout(b.server.db, 'custom_field', f.id);
      expect(entry).toMatchObject({ action: 'custom_field.created', actor_id: o.userId, org_id: o.org, target_label: 'Größe / size #2' });
      expect(entry!.changes).toMatchObject({ key: 'grosse_size_2', type: 'number', required: true });
    });

    test('D56 a key made from a label already taken gets a number; a key given that is taken is 409 duplicate_key', async () => {
      const o = await ownerOfNewOrg(b, 'Fields');
      await addField(o, { label: 'Serial', key: 'serial_no' });
      expect((await addField(o, { label: 'Serial no' })).key).toBe('serial_no_2');
      expectError(await o.post(FIELDS, { label: 'Other', key: 'serial_no', type: 'text' }), 409, 'duplicate_key');
    });

    test.each(['Gate code', 'gate-code', '1abc', 'gate.code', 'ÿes', 'a'.repeat(41)])('D56 a key with odd characters (%s) is 400 naming key', async (key) => {
      expectFieldError(await owner.post(FIELDS, { label: label(), key, type: 'text' }), 'key');
    });

    test('D56 a label used twice, regardless of case, is 409 duplicate_label; the same label for locations is another field', async () => {
      const o = await ownerOfNewOrg(b, 'Fields');
      await addField(o, { label: 'Warranty' });
      const r = await o.post(FIELDS, { label: 'WARRANTY', type: 'date' });
      expectError(r, 409, 'duplicate_label');
      expect(r.body.field).toBe('label');
      expect((await addField(o, { label: 'Warranty', record_kind: 'location' })).record_kind).toBe('location');
      const other = await addField(o, { label: 'Warranty 2' });
      expectError(await o.patch(fieldPath(other.id), { label: 'warranty' }), 409, 'duplicate_label');
    });

    test(`D56 at most ${CUSTOM_FIELD_LIMITS.customer} customer and ${CUSTOM_FIELD_LIMITS.location} location fields, archived ones counted: then 409 too_many_custom_fields`, async () => {
      const o = await ownerOfNewOrg(b, 'Fields');
      for (const [kind, limit] of Object.entries(CUSTOM_FIELD_LIMITS)) {
        const made = [];
        for (let i = 0; i < limit; i++) made.push(await addField(o, { label: `${kind} ${i}`, record_kind: kind }));
        expect((await o.post(fieldPath(made[0]!.id, 'archive/'))).status).toBe(200);
        const r = await o.post(FIELDS, { label: `${kind} one more`, type: 'text', record_kind: kind });
        expectError(r, 409, 'too_many_custom_fields');
        expect(r.body.detail).toContain(String(limit));
      }
      expect((await fieldsOf(o)).length).toBe(CUSTOM_FIELD_LIMITS.customer + CUSTOM_FIELD_LIMITS.location);
    });

    test('D56 choice fields need options (≤ 100, labels unique); other types take none; only text and number may be unique', async () => {
      const o = await ownerOfNewOrg(b, 'Fields');
      const f = await addField(o, { label: 'Plan', type: 'choice', options: [{ label: 'Gold' }, { label: 'Silver' }] });
      expect(f.options).toEqual([
        { id: 'o1', label: 'Gold' },
        { id: 'o2', label: 'Silver' },
      ]);
      expectFieldError(await o.post(FIELDS, { label: 'Empty', type: 'choices', options: [] }), 'options');
      expectFieldError(await o.post(FIELDS, { label: 'Twice', type: 'choice', options: [{ label: 'A' }, { label: 'a' }] }), 'options[1].label');
      expectFieldError(await o.post(FIELDS, { label: 'Many', type: 'choice', options: Array.from({ length: 101 }, (_, i) => ({ label: `o${i}` })) }), 'options');
      expectFieldError(await o.post(FIELDS, { label: 'Text', type: 'text', options: [{ label: 'A' }] }), 'options');
      expectFieldError(await o.post(FIELDS, { label: 'Sure', type: 'yes_no', unique: true }), 'unique');
      expect((await addField(o, { label: 'Serial', unique: true })).unique).toBe(true);
    });

    test('D56 GET lists both kinds in order, archived ones with archived: true; a viewer may read them', async () => {
      const o = await ownerOfNewOrg(b, 'Fields');
      const [a, c] = [await addField(o, { label: 'A' }), await addField(o, { label: 'C' })];
      const l = await addField(o, { label: 'L', record_kind: 'location' });
      const r = await o.post(fieldPath(a.id, 'archive/'));
      expect(r.status, r.text).toBe(200);
      expect(r.body).toMatchObject({ archived: true, archived_at: new Date(b.clock.now()).toISOString() });
      expect((await fieldsOf(o)).map((f) => [f.label, f.archived])).toEqual([
        ['A', true],
        ['C', false],
        ['L', false],
      ]);
      const viewer = await newActor(b, ACME, 'viewer');
      expect((await viewer.get(FIELDS)).status).toBe(200);
      expect((await o.get(fieldPath(c.id))).body).toMatchObject({ id: c.id, records_with_value: 0 });
      expect(l.position).toBe(1); // each kind has its own order
    });
  });

  describe('D56 changes', () => {
    test('D56 PATCH label, help, required and options by id (renaming keeps the id, a new one gets the next); audited with from/to', async () => {
      const o = await ownerOfNewOrg(b, 'Fields');
      const f = await addField(o, { label: 'Plan', type: 'choice', options: [{ label: 'Gold' }, { label: 'Silver' }] });
      const r = await o.patch(fieldPath(f.id), {
        label: 'Service plan',
        help: 'What they pay for',
        required: true,
        options: [{ id: 'o1', label: 'Platinum' }, { label: 'Bronze' }, { id: 'o2', label: 'Silver' }],
      });
      expect(r.status, r.text).toBe(200);
      expect(r.body).toMatchObject({ label: 'Service plan', help: 'What they pay for', required: true, key: f.key });
      expect(r.body.options).toEqual([
        { id: 'o1', label: 'Platinum' },
        { id: 'o3', label: 'Bronze' },
        { id: 'o2', label: 'Silver' },
      ]);
      const [, entry] = await auditAbout(b.server.db, 'custom_field', f.id);
      expect(entry).toMatchObject({ action: 'custom_field.updated', target_label: 'Service plan' });
      expect(entry!.changes).toMatchObject({ label: { from: 'Plan', to: 'Service plan' }, options: { from: ['Gold', 'Silver'], to: ['Platinum', 'Bronze', 'Silver'] } });
      expectFieldError(await o.patch(fieldPath(f.id), { options: [{ id: 'o9', label: 'Nine' }] }), 'options[0].id');
    });

    test('D56 a type changes only where no value is lost: text ↔ long text, one choice → several; otherwise 409 type_change_refused saying why', async () => {
      const o = await ownerOfNewOrg(b, 'Fields');
      const t = await addField(o, { label: 'Notes' });
      expect((await o.patch(fieldPath(t.id), { type: 'long_text' })).body).toMatchObject({ type: 'long_text' });
      expect((await o.patch(fieldPath(t.id), { type: 'text' })).body).toMatchObject({ type: 'text' });
      const c = await addField(o, { label: 'Plan', type: 'choice', options: [{ label: 'Gold' }] });
      expect((await o.patch(fieldPath(c.id), { type: 'choices' })).body).toMatchObject({ type: 'choices' });
      for (const [from, to] of [
        ['number', 'date'],
        ['text', 'number'],
        ['yes_no', 'text'],
      ] as const) {
        const f = await addField(o, { label: label(), type: from });
        const r = await o.patch(fieldPath(f.id), { type: to });
        expectError(r, 409, 'type_change_refused');
        expect(r.body.detail).toMatch(/values would be lost/);
      }
      expectError(await o.patch(fieldPath(c.id), { type: 'choice' }), 409, 'type_change_refused');
    });

    test('D56 PUT order: positions follow the ids; every field of the kind once or 400; audited as custom_field.reordered', async () => {
      const o = await ownerOfNewOrg(b, 'Fields');
      const [x, y, z] = [await addField(o, { label: 'X' }), await addField(o, { label: 'Y' }), await addField(o, { label: 'Z' })];
      const r = await o.send('PUT', `${FIELDS}order/`, { ids: [z.id, x.id, y.id] });
      expect(r.status, r.text).toBe(200);
      expect((await fieldsOf(o)).map((f) => [f.label, f.position])).toEqual([
        ['Z', 1],
        ['X', 2],
        ['Y', 3],
      ]);
      expectFieldError(await o.send('PUT', `${FIELDS}order/`, { ids: [z.id, x.id] }), 'ids');
      expectFieldError(await o.send('PUT', `${FIELDS}order/`, { ids: [z.id, x.id, x.id] }), 'ids');
      const entries = (
        await b.server.db.query<{ changes: unknown }>("select changes from audit_log where org_id = $1 and action = 'custom_field.reordered'", [o.org])
      ).map((e) => (typeof e.changes === 'string' ? JSON.parse(e.changes) : e.changes));
      expect(entries).toEqual([{ order: ['Z', 'X', 'Y'] }]);
    });

    test('D56 archive and restore: 409 when it is already so; each audited with the label', async () => {
      const o = await ownerOfNewOrg(b, 'Fields');
      const f = await addField(o, { label: 'Alarm code' });
      expectError(await o.post(fieldPath(f.id, 'restore/')), 409, 'not_archived');
      expect((await o.post(fieldPath(f.id, 'archive/'))).status).toBe(200);
      expectError(await o.post(fieldPath(f.id, 'archive/')), 409, 'already_archived');
      const r = await o.post(fieldPath(f.id, 'restore/'));
      expect([r.status, r.body.archived]).toEqual([200, false]);
      const entries = await auditAbout(b.server.db, 'custom_field', f.id);
      expect(entries.map((e) => [e.action, e.target_label])).toEqual([
        ['custom_field.created', 'Alarm code'],
        ['custom_field.archived', 'Alarm code'],
        ['custom_field.restored', 'Alarm code'],
      ]);
    });
  });

  describe('D61 D9 who may', () => {
    test('D61 fields:manage is owner and admin by default; a member without it gets 403 on every change, and reads the fields', async () => {
      expect(DEFAULT_ROLE_PERMISSIONS.owner).toContain('fields:manage');
      expect(DEFAULT_ROLE_PERMISSIONS.admin).toContain('fields:manage');
      expect([...DEFAULT_ROLE_PERMISSIONS.member, ...DEFAULT_ROLE_PERMISSIONS.viewer]).not.toContain('fields:manage');
      const f = await addField(owner, { label: label() });
      const admin = await newActor(b, ACME, 'admin');
      expect((await admin.patch(fieldPath(f.id), { help: 'By an admin' })).status).toBe(200);
      const member = await newActor(b, ACME, 'member');
      expect((await member.get(FIELDS)).status).toBe(200);
      const calls = [
        member.post(FIELDS, { label: label(), type: 'text' }),
        member.patch(fieldPath(f.id), { label: label() }),
        member.post(fieldPath(f.id, 'archive/')),
        member.post(fieldPath(f.id, 'restore/')),
        member.del(fieldPath(f.id)),
        member.send('PUT', `${FIELDS}order/`, { ids: [f.id] }),
      ];
      for (const r of await Promise.all(calls)) expectError(r, 403, 'permission_denied');
    });

    test("D9 another organization's field id is 404 on every route, and it is left as it was", async () => {
      const f = await addField(owner, { label: label() });
      const beacon = await signIn(b, 'owner@demo.test', BEACON); // the same person, in the other organization
      for (const r of [
        await beacon.get(fieldPath(f.id)),
        await beacon.patch(fieldPath(f.id), { label: label() }),
        await beacon.post(fieldPath(f.id, 'archive/')),
        await beacon.post(fieldPath(f.id, 'restore/')),
        await beacon.del(fieldPath(f.id)),
      ])
        expectError(r, 404, 'not_found');
      expect((await fieldsOf(owner)).find((x) => x.id === f.id)).toEqual(f);
    });
  });
});
