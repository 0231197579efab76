// D67 an owner downloads everything of the organization as one ZIP of CSV files (customers with custom
// fields, locations, contacts, notes, the activity log, members, roles, the custom fields), which our own
// import reads back for customers, locations and contacts; audited; only an owner; D9 nothing of another organization in it.
import { beforeAll, describe, expect, test } from 'vitest';
import type { ImportResult } from '../../contract/customers';
import { expectError } from './api-common';
import { forEachBackend, type Backend } from './backends';
import { parseRfc4180, unzip } from './csv-common';
import { addField } from './custom-fields-common';
import { customerPath, newActor, ownerOfNewOrg, partsOf, type Actor } from './customers-common';
import { warmedUp } from './customers-common';
import { createUser } from './helpers';
import { newOrg } from './people';

const EXPORT = '/api/v1/organization/export/';
const FILES = ['customers.csv', 'locations.csv', 'contacts.csv', 'notes.csv', 'activity.csv', 'members.csv', 'roles.csv', 'custom-fields.csv'];

forEachBackend('API export everything', (backend) => {
  let b: Backend;
  beforeAll(async () => {
    b = await warmedUp(backend);
  });
  const download = async (who: Actor) => {
    const res = await fetch(new URL(EXPORT.replace(/^\//, ''), b.server.url), {
      method: 'POST',
      headers: { Authorization: `Bearer ${who.token}`, 'X-Organization-ID': String(who.org) },
    });
    return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
  };
  const sheet = (files: Map<string, Buffer>, name: string) => {
    const text = files.get(name)!.toString('utf8');
    expect(text.startsWith('\uFEFF'), name).toBe(true);
    const [header, ...rows] = parseRfc4180(text.slice(1));
    return rows.map((r) => Object.fromEntries(header!.map((h, i) => [h, r[i]])));
  };

  describe('D67 the file', () => {
    test('D67 one ZIP of CSV files, each checked by its CRC: customers with custom fields by label, locations, contacts, notes, the log, members, roles', async () => {
      const owner = await ownerOfNewOrg(b, 'Export');
      const panel = await addField(owner, { label: 'Panel brand', type: 'choice', options: [{ label: 'Siemens' }, { label: 'Eaton' }] });
      const gate = await addField(owner, { label: 'Gate code', record_kind: 'location' });
      const ann = await owner.create({ name: 'Ann Lee', email: 'ann@example.test', tags: ['landlord', 'vip'], custom: { [panel.key]: panel.options[1]!.id } });
      const rental = await partsOf<{ id: number }>('locations').add(owner, ann.id, { label: 'Rental', address_line: '1 Main St', city: 'Portland' });
      await b.server.db.query('update customer_locations set custom = $2::text::jsonb where id = $1', [rental.id, JSON.stringify({ [gate.key]: '#4521' })]);
      await partsOf('contacts').add(owner, ann.id, { name: 'Bob Lee', phone: '503-555-0101' });
      await owner.post(customerPath(ann.id, 'notes/'), { body: 'Likes mornings, "really"' });
      const r = await download(owner);
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toBe('application/zip');
      expect(r.headers.get('content-disposition')).toMatch(/^attachment; filename="organization-\d+-\d{4}-\d{2}-\d{2}\.zip"$/);
      const files = unzip(r.bytes);
      expect([...files.keys()]).toEqual(FILES);
      const [customer] = sheet(files, 'customers.csv');
      expect(customer).toMatchObject({ id: String(ann.id), name: 'Ann Lee', email: 'ann@example.test', tags: 'landlord; vip', 'Panel brand': 'Eaton' });
      expect(sheet(files, 'locations.csv')).toEqual([
        expect.objectContaining({ customer_id: String(ann.id), customer_name: 'Ann Lee', label: 'Rental', city: 'Portland', 'Gate code': '#4521' }),
      ]);
      expect(sheet(files, 'contacts.csv')).toEqual([expect.objectContaining({ customer_name: 'Ann Lee', name: 'Bob Lee', phone: '503-555-0101' })]);
      expect(sheet(files, 'notes.csv')).toEqual([expect.objectContaining({ customer_name: 'Ann Lee', body: 'Likes mornings, "really"' })]);
      expect(sheet(files, 'activity.csv').map((e) => e.action)).toEqual(
        expect.arrayContaining(['custom_field.created', 'customer.created', 'location.added', 'contact.added', 'note.added']),
      );
      expect(sheet(files, 'members.csv')).toEqual([expect.objectContaining({ role: 'owner' })]);
      expect(sheet(files, 'roles.csv')).toContainEqual({ role: 'viewer', permission: 'customers:view' });
      expect(sheet(files, 'custom-fields.csv').map((f) => [f.label, f.options])).toEqual([
        ['Panel brand', 'Siemens; Eaton'],
        ['Gate code', ''],
      ]);
    });

    test('D67 the customers file is one our import reads back: a new organization gets the same customers', async () => {
      const owner = await ownerOfNewOrg(b, 'Export');
      for (const name of ['Ann Lee', 'Ben Ode', '=SUM(A1)', 'Zoë Ünal']) await owner.create({ name, tags: ['x'], status: 'lead' });
      const customers = unzip((await download(owner)).bytes).get('customers.csv')!;
      const other = await ownerOfNewOrg(b, 'Import');
      const r = await b.api.request('/api/v1/customers/import/', {
        method: 'POST',
        headers: { Authorization: `Bearer ${other.token}`, 'X-Organization-ID': String(other.org), 'Content-Type': 'text/csv' },
        body: new Uint8Array(customers),
      });
      expect(r.status, r.text).toBe(200);
      expect((r.body as unknown as ImportResult).created).toBe(4);
      const list = (await other.get('/api/v1/customers/?sort=name')).body.results as { name: string; status: string; tags: string[] }[];
      expect(list.map((c) => [c.name, c.status, c.tags])).toEqual([
        ['=SUM(A1)', 'lead', ['x']],
        ['Ann Lee', 'lead', ['x']],
        ['Ben Ode', 'lead', ['x']],
        ['Zoë Ünal', 'lead', ['x']],
      ]);
    });

    test("D67 D59 a customer's assignee goes with it, by email, and comes back where the same person is a member", async () => {
      const [here, there] = [await newOrg(b.server.db, 'Export'), await newOrg(b.server.db, 'Import')];
      const [owner, other] = [await newActor(b, here.name, 'owner'), await newActor(b, there.name, 'owner')];
      const tech = await createUser(b.server.db, {
        memberships: [
          [here.name, 'member'],
          [there.name, 'member'],
        ],
      });
      await owner.create({ name: 'Ann Lee', assigned_to: tech.id });
      await owner.create({ name: 'Ben Ode' });
      const customers = unzip((await download(owner)).bytes).get('customers.csv')!;
      expect(sheet(new Map([['customers.csv', customers]]), 'customers.csv').map((c) => [c.name, c['Assigned to']])).toEqual([
        ['Ann Lee', tech.email],
        ['Ben Ode', ''],
      ]);
      const r = await b.api.request('/api/v1/customers/import/', {
        method: 'POST',
        headers: { Authorization: `Bearer ${other.token}`, 'X-Organization-ID': String(other.org), 'Content-Type': 'text/csv' },
        body: new Uint8Array(customers),
      });
      expect(r.status, r.text).toBe(200);
      const list = (await other.get('/api/v1/customers/?sort=name')).body.results as { name: string; assigned_to: { id: number } | null }[];
      expect(list.map((c) => [c.name, c.assigned_to?.id ?? null])).toEqual([
        ['Ann Lee', tech.id],
        ['Ben Ode', null],
      ]);
    });

    test("D67 D60 its locations.csv and contacts.csv read back too: imported after customers.csv with 'Update them', each customer gets its locations and contacts", async () => {
      const owner = await ownerOfNewOrg(b, 'Export');
      const gate = await addField(owner, { label: 'Gate code', record_kind: 'location' });
      const ann = await owner.create({ name: 'Ann Lee', email: 'ann.parts@example.test' });
      const ben = await owner.create({ name: 'Ben Ode' }); // no email: its parts name it by name
      const locations = partsOf<{ id: number }>('locations');
      const rental = await locations.add(owner, ann.id, { label: 'Rental', address_line: '1 Main St', city: 'Portland' });
      await b.server.db.query('update customer_locations set custom = $2::text::jsonb where id = $1', [rental.id, JSON.stringify({ [gate.key]: '#4521' })]);
      await locations.add(owner, ann.id, { label: 'Cabin', address_line: '9 Lake Rd', city: 'Bend' });
      await locations.add(owner, ben.id, { label: 'Shop', address_line: '2 Elm St', city: 'Salem' });
      await partsOf('contacts').add(owner, ann.id, { name: 'Bob Lee', phone: '503-555-0101', role: 'tenant' });
      const files = unzip((await download(owner)).bytes);

      const other = await ownerOfNewOrg(b, 'Import');
      await addField(other, { label: 'Gate code', record_kind: 'location' });
      const send = (name: string, q = '') =>
        b.api.request(`/api/v1/customers/import/${q}`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${other.token}`, 'X-Organization-ID': String(other.org), 'Content-Type': 'text/csv' },
          body: new Uint8Array(files.get(name)!),
        });
      expect((await send('customers.csv')).body).toMatchObject({ created: 2 });
      const preview = await send('locations.csv', 'preview/');
      expect(preview.status, preview.text).toBe(200);
      expect((preview.body.columns as { header: string; target: string | null }[]).map((c) => [c.header, c.target])).toEqual([
        ['customer_id', null],
        ['customer_name', 'name'],
        ['customer_email', 'email'],
        ['label', 'location.label'],
        ['address_line', 'location.address_line'],
        ['city', 'location.city'],
        ['region', 'location.region'],
        ['postal_code', 'location.postal_code'],
        ['country', 'location.country'],
        ['access_notes', 'location.access_notes'],
        ['primary', null],
        ['Gate code', expect.stringMatching(/^location\.cf\./)],
      ]);
      for (const name of ['locations.csv', 'contacts.csv']) {
        const r = await send(name, '?on_duplicate=update');
        expect(r.status, `${name}: ${r.text}`).toBe(200);
        expect((r.body as unknown as ImportResult).created).toBe(0);
      }
      const list = (await other.get('/api/v1/customers/?sort=name')).body.results as { id: number; name: string }[];
      expect(list.map((c) => c.name)).toEqual(['Ann Lee', 'Ben Ode']);
      const [annThere, benThere] = await Promise.all(list.map(async (c) => (await other.get(customerPath(c.id))).body));
      const places = (c: Record<string, unknown>) =>
        (c.locations as { label: string; city: string; custom: Record<string, unknown> }[]).map((l) => [l.label, l.city, Object.values(l.custom)]);
      expect(places(annThere!).sort()).toEqual([
        ['Cabin', 'Bend', []],
        ['Rental', 'Portland', ['#4521']],
      ]);
      expect(places(benThere!)).toEqual([['Shop', 'Salem', []]]);
      expect((annThere!.contacts as { name: string; role: string; phone: string }[]).map((c) => [c.name, c.role, c.phone])).toEqual([
        ['Bob Lee', 'tenant', '503-555-0101'],
      ]);
      // Read back twice, nothing more: the same locations and contacts are not added again.
      for (const name of ['locations.csv', 'contacts.csv']) expect((await send(name, '?on_duplicate=update')).body).toMatchObject({ created: 0, updated: 0 });
    });

    test('D67 D30 the download is audited (who, when, which files)', async () => {
      const owner = await ownerOfNewOrg(b, 'Export');
      await download(owner);
      const rows = await b.server.db.query<{ actor_id: unknown; changes: { files: string[] } }>(
        `select actor_id, changes from audit_log where org_id = $1 and action = 'organization.exported'`,
        [owner.org],
      );
      expect(rows).toHaveLength(1);
      expect(Number(rows[0]!.actor_id)).toBe(owner.userId);
      expect(rows[0]!.changes.files).toEqual(FILES);
    });
  });

  describe('D67 who may', () => {
    test('D67 only an owner: an admin (who may export customers) gets 403 owner_required, and nothing is audited', async () => {
      const { name } = await newOrg(b.server.db, 'Export');
      const admin = await newActor(b, name, 'admin');
      const r = await admin.post(EXPORT);
      expectError(r, 403, 'owner_required');
      const rows = await b.server.db.query(`select 1 from audit_log where org_id = $1 and action = 'organization.exported'`, [admin.org]);
      expect(rows).toHaveLength(0);
    });

    test('D9 D67 nothing of another organization is in the file', async () => {
      const owner = await ownerOfNewOrg(b, 'Export');
      const other = await ownerOfNewOrg(b, 'Export');
      await owner.create({ name: 'Ours Only' });
      await other.create({ name: 'Theirs Secret' });
      const files = unzip((await download(owner)).bytes);
      const all = [...files.values()].map((f) => f.toString('utf8')).join('\n');
      expect(all).toContain('Ours Only');
      expect(all).not.toContain('Theirs Secret');
    });
  });
});
