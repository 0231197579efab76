// D60 import from another system: real export headers (Outlook, Google Contacts old and new, a file of one
// row per property, in test/server/fixtures/) mapped without a change; the person's own mapping (columns=),
// checked; the organization's last mapping offered again; rows grouped into customers with locations and
// contacts; custom fields; the same guarantees as D27 (the preview writes nothing, all rows or none).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import type { CustomerListItem, ImportPreview, ImportResult } from '../../contract/customers';
import { columnsParam, groupingText, type ImportColumn } from '../../contract/import-mapping';
import { CUSTOMERS, expectError } from './api-common';
import { forEachBackend, type Backend } from './backends';
import { addField } from './custom-fields-common';
import { fingerprint, ownerOfNewOrg, warmedUp, type Actor } from './customers-common';
import { statementsDuring } from './statements';

const PREVIEW = `${CUSTOMERS}import/preview/`;
const IMPORT = `${CUSTOMERS}import/`;
const fixture = (name: string) => readFileSync(path.join(import.meta.dirname, 'fixtures', name));
const targetOf = (columns: ImportColumn[], header: string) => columns.find((c) => c.header === header)?.target;

forEachBackend('API customers import mapping (D60)', (backend) => {
  let b: Backend;
  beforeAll(async () => (b = await warmedUp(backend)));
  const upload = (who: Actor, p: string, csv: string | Buffer, query = '') =>
    b.api.request(`${p}${query}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${who.token}`, 'X-Organization-ID': String(who.org), 'Content-Type': 'text/csv' },
      body: typeof csv === 'string' ? csv : new Uint8Array(csv),
    });
  const previewOf = async (who: Actor, csv: string | Buffer, query = '') => {
    const r = await upload(who, PREVIEW, csv, query);
    expect(r.status, r.text.slice(0, 400)).toBe(200);
    return r.body as unknown as ImportPreview;
  };
  const importOf = async (who: Actor, csv: string | Buffer, query = '') => {
    const r = await upload(who, IMPORT, csv, query);
    expect(r.status, r.text.slice(0, 400)).toBe(200);
    return r.body as unknown as ImportResult;
  };
  const customersOf = (who: Actor) =>
    b.server.db.query<Record<string, unknown>>(
      `select c.id, c.name, c.company, c.email, c.phone, c.address_line, c.city, c.region, c.postal_code, c.country, c.tags, c.custom,
              (select json_agg(json_build_object('label', l.label, 'address_line', l.address_line, 'city', l.city, 'access_notes', l.access_notes, 'primary', l.is_primary, 'custom', l.custom) order by l.id)
                 from customer_locations l where l.customer_id = c.id) as locations,
              (select json_agg(json_build_object('name', k.name, 'email', k.email, 'phone', k.phone) order by k.id) from customer_contacts k where k.customer_id = c.id) as contacts,
              (select json_agg(n.body order by n.id) from customer_notes n where n.customer_id = c.id) as notes
         from customers c where c.org_id = $1 order by c.id`,
      [who.org],
    );

  /** D46 D47: customers whose parts_key or primary_city differ from what the parts' triggers make of their parts. */
  const staleKeys = async (who: Actor) => {
    const [row] = await b.server.db.query<{ n: unknown }>(
      `select count(*) as n from customers c where c.org_id = $1 and (
         c.parts_key is distinct from (select string_agg(k, E'\\n' order by o, id) from (
           select search_key as k, 0 as o, id from customer_locations where org_id = c.org_id and customer_id = c.id
           union all select search_key, 1, id from customer_contacts where org_id = c.org_id and customer_id = c.id) p)
         or c.primary_city is distinct from (select city from customer_locations where customer_id = c.id and is_primary))`,
      [who.org],
    );
    return Number(row!.n);
  };

  describe('D60 real exports map without a change', () => {
    test("D60: an Outlook export: first + middle + last name, company, Business address billing and Home the service location, the first e-mail and phone the customer's, the others a contact, Categories tags, Notes a note", async () => {
      const who = await ownerOfNewOrg(b);
      const csv = fixture('outlook-contacts.csv');
      const p = await previewOf(who, csv);
      expect(p.encoding).toBe('windows-1252');
      expect(p.mapping).toBe('guessed');
      const expected: Record<string, string | null> = {
        'First Name': 'first_name',
        'Middle Name': 'middle_name',
        'Last Name': 'last_name',
        Company: 'company',
        'Business Street': 'address_line',
        'Business Street 2': 'address_line',
        'Business City': 'city',
        'Business State': 'region',
        'Business Postal Code': 'postal_code',
        'Business Country/Region': 'country',
        'Home Street': 'location.address_line',
        'Home City': 'location.city',
        'Home State': 'location.region',
        'Home Postal Code': 'location.postal_code',
        'Home Country/Region': 'location.country',
        'Business Phone': 'phone',
        'Mobile Phone': 'phone',
        'Home Phone': 'phone',
        'E-mail Address': 'email',
        'E-mail 2 Address': 'email',
        Categories: 'tags',
        Notes: 'note',
        'Referred By': 'lead_source',
        Title: null,
        'Business Fax': null,
        "Assistant's Phone": null,
        'E-mail Display Name': null,
        'Other Street': null,
        Location: null,
      };
      for (const [header, target] of Object.entries(expected)) expect([header, targetOf(p.columns, header)]).toEqual([header, target]);
      expect(p.ignored_columns).toContain('Title');
      expect(p.summary).toMatchObject({ total: 3, valid: 3, invalid: 0 });
      expect(p.grouping).toEqual({ by: 'email', customers: 3, locations: 2, contacts: 1 });
      expect(p.rows[0]!.values).toMatchObject({ name: 'Maria J. Lopez', email: 'maria@lopezdental.example', address_line: '410 Main St, Suite 2' });

      const before = await fingerprint(b.server.db);
      expect(await fingerprint(b.server.db)).toBe(before); // the preview wrote nothing
      expect(await importOf(who, csv)).toEqual({ created: 3, updated: 0, unchanged: 0, skipped: 0, changed_since_preview: [], locations: 2, contacts: 1 });
      const [maria, tom, cascade] = await customersOf(who);
      expect(maria).toMatchObject({
        name: 'Maria J. Lopez',
        company: 'Lopez Dental',
        email: 'maria@lopezdental.example',
        phone: '(541) 555-0110',
        address_line: '410 Main St, Suite 2',
        city: 'Bend',
        region: 'OR',
        postal_code: '97701',
        tags: ['Customers', 'VIP'],
        locations: [{ label: null, address_line: '22 Pine Ridge Rd', city: 'Bend', access_notes: null, primary: true, custom: {} }],
        contacts: [{ name: 'Maria J. Lopez', email: 'maria.lopez@home.example', phone: '(541) 555-0111' }],
        notes: ['Prefers morning visits. Café entrance.'],
      });
      expect(tom).toMatchObject({
        name: 'Tom Okafor',
        phone: '541-555-0120',
        address_line: null,
        locations: [{ address_line: '9 Alder Ct', city: 'Redmond' }],
        contacts: null,
      });
      expect(cascade).toMatchObject({ name: 'Cascade Property Group', company: 'Cascade Property Group', phone: '541 555 0130', locations: null });
    });

    test("D60: a Google Contacts export (older header): Name, else Given + Family; ' ::: ' values split, the first the customer's; '* myContacts' and '* starred' are not tags; Organization 1 - Name the company", async () => {
      const who = await ownerOfNewOrg(b);
      const csv = fixture('google-contacts.csv');
      const p = await previewOf(who, csv);
      for (const [header, target] of Object.entries({
        Name: 'name',
        'Given Name': 'first_name',
        'Additional Name': 'middle_name',
        'Family Name': 'last_name',
        'Group Membership': 'tags',
        'E-mail 1 - Value': 'email',
        'E-mail 2 - Value': 'email',
        'Phone 1 - Value': 'phone',
        'Phone 2 - Value': 'phone',
        'Address 1 - Street': 'address_line',
        'Address 1 - City': 'city',
        'Address 1 - Region': 'region',
        'Address 1 - Postal Code': 'postal_code',
        'Address 1 - Country': 'country',
        'Address 1 - Formatted': null,
        'Organization 1 - Name': 'company',
        'Organization 1 - Title': null,
        'E-mail 1 - Type': null,
        Notes: 'note',
      }))
        expect([header, targetOf(p.columns, header)]).toEqual([header, target]);
      expect(p.grouping).toEqual({ by: 'none', customers: 2, locations: 0, contacts: 1 });
      await importOf(who, csv);
      const [priya, sam] = await customersOf(who);
      expect(priya).toMatchObject({
        name: 'Priya Natarajan',
        email: 'priya.n@example.org',
        phone: '+1 503-555-0140',
        address_line: '77 Oak St',
        city: 'Portland',
        tags: ['Customers', 'Water heaters'],
        contacts: [{ name: 'Priya Natarajan', email: 'priya@work.example', phone: '503-555-0141' }],
        notes: ['Dog in the yard.'],
      });
      expect(sam).toMatchObject({ name: 'Sam Reed', company: 'Reed Farms', email: 'sam.reed@example.com', tags: [], contacts: null });
    });

    test("D60: a Google Contacts export (newer header): First + Middle + Last Name, Organization Name, Labels, 'E-mail 2 - Value' a contact", async () => {
      const who = await ownerOfNewOrg(b);
      const p = await previewOf(who, fixture('google-contacts-new.csv'));
      expect(targetOf(p.columns, 'Organization Name')).toBe('company');
      expect(targetOf(p.columns, 'Labels')).toBe('tags');
      expect(targetOf(p.columns, 'Organization Title')).toBeNull();
      await importOf(who, fixture('google-contacts-new.csv'));
      expect((await customersOf(who))[0]).toMatchObject({
        name: 'Lena Rose Fischer',
        company: 'Fischer Bakery',
        email: 'lena@fischerbakery.example',
        city: 'Salem',
        tags: ['Customers'],
        contacts: [{ name: 'Lena Rose Fischer', email: 'lena.fischer@example.net', phone: null }],
      });
    });
  });

  describe('D60 grouping', () => {
    test("D60: rows that share an email become one customer with a location per row and the rows' contacts; the preview says '4 rows → 2 customers'", async () => {
      const who = await ownerOfNewOrg(b);
      const csv = fixture('one-row-per-property.csv');
      const before = await fingerprint(b.server.db);
      const p = await previewOf(who, csv);
      expect(await fingerprint(b.server.db)).toBe(before);
      expect(p.columns.map((c) => c.target)).toEqual([
        'name',
        'email',
        'phone',
        'location.label',
        'location.address_line',
        'location.city',
        'location.region',
        'location.postal_code',
        'location.access_notes',
        'contact.name',
        'contact.phone',
      ]);
      expect(p.grouping).toEqual({ by: 'email', customers: 2, locations: 4, contacts: 2 });
      expect(p.rows.map((r) => r.joins)).toEqual([undefined, 2, 2, undefined]);
      expect(await importOf(who, csv)).toMatchObject({ created: 2, locations: 4, contacts: 2 });
      const [harbor, dee] = await customersOf(who);
      expect(harbor).toMatchObject({
        name: 'Harbor Rentals LLC',
        email: 'ops@harborrentals.example',
        phone: '503-555-0160',
        locations: [
          { label: 'Duplex on Elm', address_line: '12 Elm St', access_notes: '#4411', primary: true },
          { label: 'Cottage', address_line: '3 Bay Rd', primary: false },
          { label: 'Warehouse', city: 'Warrenton', access_notes: 'Key in lockbox', primary: false },
        ],
        contacts: [
          { name: 'Ana Ruiz', phone: '503-555-0161' },
          { name: 'Ben Cho', phone: '503-555-0162' },
        ],
      });
      expect(dee).toMatchObject({ name: 'Dee Walsh', locations: [{ label: 'Home' }], contacts: null });
      // D45 D46: the new parts are searchable at once, and the list shows the primary location's city.
      expect(await staleKeys(who)).toBe(0);
      const found = await who.get(`${CUSTOMERS}?q=${encodeURIComponent('bay rd')}`);
      expect((found.body.results as CustomerListItem[]).map((c) => [c.name, c.city])).toEqual([['Harbor Rentals LLC', 'Astoria']]);
      expect((await who.get(`${CUSTOMERS}?q=ben%20cho`)).body.count).toBe(1);
    });

    test('D60: group_by=<column> groups by that column; group_by=none keeps the rows apart and a repeated email names the first line', async () => {
      const who = await ownerOfNewOrg(b);
      const csv = 'Account No,Name,Email,Service Street\r\n17,Kim Park,kim@example.test,1 A St\r\n17,Kim Park,,2 B St\r\n18,Lee Wu,lee@example.test,3 C St\r\n';
      const byColumn = await previewOf(who, csv, '?group_by=0');
      expect(byColumn.grouping).toEqual({ by: 0, customers: 2, locations: 3, contacts: 0 });
      expect(byColumn.rows[1]!.joins).toBe(2);
      const apart = await previewOf(who, fixture('one-row-per-property.csv'), '?group_by=none');
      expect(apart.grouping.customers).toBe(4);
      expect(apart.rows[1]!.errors).toEqual([{ field: 'email', detail: 'is the same as on line 2' }]);
      expectError(await upload(who, PREVIEW, csv, '?group_by=9'), 400, 'invalid_field');
      const r = await upload(who, IMPORT, fixture('one-row-per-property.csv'), '?group_by=none');
      expectError(r, 400, 'import_invalid');
      expect((await customersOf(who)).length).toBe(0);
      expect(await importOf(who, csv, '?group_by=0')).toMatchObject({ created: 2, locations: 3 });
    });

    test('D60 D46: a customer past 50 locations is refused naming the line that would be the 51st; nothing is written', async () => {
      const who = await ownerOfNewOrg(b);
      const rows = Array.from({ length: 51 }, (_, i) => `Big Co,big@example.test,${i + 1} Long Rd`);
      const csv = `Name,Email,Property Address\r\n${rows.join('\r\n')}\r\n`;
      const p = await previewOf(who, csv);
      expect(p.rows.filter((r) => r.errors.length).map((r) => [r.line, r.errors[0]!.field])).toEqual([[52, 'location.label']]);
      expectError(await upload(who, IMPORT, csv), 400, 'import_invalid');
      expect((await customersOf(who)).length).toBe(0);
    });
  });

  test('D60 D34: 10,000 rows of one row per property (5,000 customers, a location and a contact each row) import in a handful of statements', async () => {
    const who = await ownerOfNewOrg(b);
    const rows = Array.from(
      { length: 10_000 },
      (_, i) => `Owner ${i >> 1},owner${i >> 1}@example.test,${i} Main St,Bend,Tenant ${i},541 555 ${String(i).padStart(4, '0')}`,
    );
    const csv = `Customer Name,Email,Property Address,Property City,Tenant Name,Tenant Phone\r\n${rows.join('\r\n')}\r\n`;
    const { result, texts } = await statementsDuring(b.server, () => importOf(who, csv));
    expect(result).toMatchObject({ created: 5_000, locations: 10_000, contacts: 10_000 });
    // A statement per batch of 1,000 rows written and per 2,000 emails looked up, never one per row.
    expect(texts.length).toBeLessThan(45);
    const [counts] = await b.server.db.query<{ l: unknown; k: unknown }>(
      'select (select count(*) from customer_locations where org_id = $1) as l, (select count(*) from customer_contacts where org_id = $1) as k',
      [who.org],
    );
    expect([Number(counts!.l), Number(counts!.k)]).toEqual([10_000, 10_000]);
    expect(await staleKeys(who)).toBe(0);
  }, 120_000);

  describe('D60 an update adds locations and contacts', () => {
    const head = 'name,email,location.label,location.address_line,location.city,contact.name,contact.email,contact.phone\n';
    test("D60: an update of an existing customer adds the row's location and contact it does not have (same address folded, same contact email or phone: not again); the preview says 'adds 1 location'", async () => {
      const who = await ownerOfNewOrg(b);
      await importOf(who, `${head}Ada Ray,ada@example.com,Home,12 Elm St,Astoria,Ben Cho,ben@example.com,503-555-0100\n`);
      const csv =
        `${head}Ada Ray,ada@example.com,Home again,12 ELM ST ,astoria,Ben C.,BEN@example.com,\n` +
        'Ada Ray,ada@example.com,Cottage,3 Bay Rd,Astoria,Cy Dee,,(503) 555-0100\n' +
        'Ada Ray,ada@example.com,Shop,9 Oak Ave,Astoria,Eve Fox,eve@example.com,\n';
      const before = await fingerprint(b.server.db);
      const p = await previewOf(who, csv, '?on_duplicate=update');
      expect(await fingerprint(b.server.db)).toBe(before);
      expect(p.rows[0]!.adds).toEqual({ locations: 2, contacts: 1 });
      expect(p.grouping).toMatchObject({ customers: 1, added_locations: 2, added_contacts: 1 });
      expect(groupingText(p.summary.total, p.grouping)).toBe('3 rows → 1 customer; an update adds 2 locations and 1 contact to existing customers');
      // Skipping duplicates adds nothing.
      expect(await importOf(who, csv)).toMatchObject({ created: 0, updated: 0 });
      expect(await importOf(who, csv, '?on_duplicate=update')).toMatchObject({ created: 0, updated: 1, locations: 2, contacts: 1 });
      const [ada] = await customersOf(who);
      expect(ada!.locations).toMatchObject([
        { label: 'Home', primary: true },
        { label: 'Cottage', primary: false },
        { label: 'Shop', primary: false },
      ]);
      expect((ada!.contacts as { name: string }[]).map((c) => c.name)).toEqual(['Ben Cho', 'Eve Fox']);
      expect(await staleKeys(who)).toBe(0);
      // The same file again adds nothing more.
      expect((await previewOf(who, csv, '?on_duplicate=update')).rows[0]!.adds).toBeUndefined();
      expect(await importOf(who, csv, '?on_duplicate=update')).toMatchObject({ updated: 0, unchanged: 1 });
    });

    test("D60: a customer with no location yet gets the file's first as its primary", async () => {
      const who = await ownerOfNewOrg(b);
      await importOf(who, 'name,email\nDee Walsh,dee@example.com\n');
      await importOf(who, `${head}Dee Walsh,dee@example.com,Home,1 Pine St,Salem,,,\n`, '?on_duplicate=update');
      const [dee] = await customersOf(who);
      expect(dee!.locations).toMatchObject([{ label: 'Home', primary: true }]);
      expect(await staleKeys(who)).toBe(0);
    });
  });

  describe('D60 the person changes the mapping', () => {
    test('D60: columns= sets every target (`-` for none); the preview and the import both follow it', async () => {
      const who = await ownerOfNewOrg(b);
      const csv = 'Client,Mail,Extra\r\nJo Bell,jo@example.test,Leaks in attic\r\n';
      const guessed = await previewOf(who, csv);
      expect(guessed.columns).toEqual([
        { header: 'Client', target: 'name', sample: 'Jo Bell' },
        { header: 'Mail', target: 'email', sample: 'jo@example.test' },
        { header: 'Extra', target: null, sample: 'Leaks in attic' },
      ]);
      const chosen = [
        { header: 'Client', target: 'name' },
        { header: 'Mail', target: null },
        { header: 'Extra', target: 'location.access_notes' },
      ];
      const query = `?columns=${encodeURIComponent(columnsParam(chosen))}`;
      const p = await previewOf(who, csv, query);
      expect(p.mapping).toBe('chosen');
      expect(p.ignored_columns).toEqual(['Mail']);
      expect(p.rows[0]!.errors).toEqual([{ field: 'location.address_line', detail: 'a location needs an address or at least a label' }]);
      const fixed = `?columns=${encodeURIComponent('name,contact.email,location.label')}`;
      await importOf(who, csv, fixed);
      expect((await customersOf(who))[0]).toMatchObject({
        email: null,
        locations: [{ label: 'Leaks in attic' }],
        contacts: [{ name: 'Jo Bell', email: 'jo@example.test' }],
      });
    });

    test('D60: an unknown target, a target only one column may fill used twice, or the wrong number of columns is a 400 naming the column; nothing is written', async () => {
      const who = await ownerOfNewOrg(b);
      const csv = 'A,B,C\r\nJo,jo@example.test,x\r\n';
      const before = await fingerprint(b.server.db);
      for (const p of [PREVIEW, IMPORT]) {
        const unknown = await upload(who, p, csv, `?columns=${encodeURIComponent('name,email,cf.nope')}`);
        expectError(unknown, 400, 'invalid_field');
        expect(String(unknown.body.detail)).toContain('column 3 ("C")');
        const twice = await upload(who, p, csv, `?columns=${encodeURIComponent('name,company,company')}`);
        expectError(twice, 400, 'invalid_field');
        expect(String(twice.body.detail)).toMatch(/column 3 \("C"\) and column 2 \("B"\)/);
        expectError(await upload(who, p, csv, '?columns=name,email'), 400, 'invalid_field');
        expectError(await upload(who, p, csv, '?columns=-,email,-'), 400, 'invalid_csv'); // no name
      }
      // Several emails (and phones, tags) may share a target: the first filled is the customer's.
      expect((await previewOf(who, csv, `?columns=${encodeURIComponent('name,email,email')}`)).columns.map((c) => c.target)).toEqual(['name', 'email', 'email']);
      expect(await fingerprint(b.server.db)).toBe(before);
    });

    test("D60: the organization's last mapping for the same header row is offered again after an import (not after a preview), and to no other organization", async () => {
      const who = await ownerOfNewOrg(b);
      const other = await ownerOfNewOrg(b);
      const csv = 'Client,Mail,Extra\r\nJo Bell,jo@example.test,Leaks\r\n';
      const query = `?columns=${encodeURIComponent('name,email,location.label')}`;
      await previewOf(who, csv, query);
      expect((await previewOf(who, csv)).mapping).toBe('guessed');
      await importOf(who, csv, query);
      // The same header written differently (case, spaces) is the same header row.
      const again = await previewOf(who, 'CLIENT , mail,extra\r\nAl Ray,al@example.test,Shed\r\n');
      expect(again.mapping).toBe('saved');
      expect(again.columns.map((c) => c.target)).toEqual(['name', 'email', 'location.label']);
      expect(again.grouping.by).toBe('email');
      expect((await previewOf(other, csv)).mapping).toBe('guessed');
    });
  });

  describe('D60 custom fields', () => {
    test("D60 D56: a unique custom field's value twice in the file, or already another customer's, is an error naming the line and column; a duplicate keeps its own", async () => {
      const who = await ownerOfNewOrg(b);
      await addField(who, { label: 'Meter No', key: 'meter', unique: true });
      await who.create({ name: 'Holder', email: 'holder@example.test', custom: { meter: 'M-1' } });
      const csv = 'Name,Email,Meter No\r\nA,a@example.test,m-1\r\nB,b@example.test,M-2\r\nC,c@example.test,M-2\r\nHolder,holder@example.test,M-1\r\n';
      const p = await previewOf(who, csv);
      expect(p.rows.map((r) => [r.line, r.errors])).toEqual([
        [2, [{ field: 'cf.meter', detail: "is Holder's already: it must be unique" }]],
        [3, []],
        [4, [{ field: 'cf.meter', detail: 'is the same as on line 3: it must be unique' }]],
        [5, []],
      ]);
      expectError(await upload(who, IMPORT, csv), 400, 'import_invalid');
      expect(
        await importOf(
          who,
          csv
            .split('\r\n')
            .filter((l) => !l.startsWith('A,') && !l.startsWith('C,'))
            .join('\r\n'),
        ),
      ).toMatchObject({ created: 1, skipped: 1 });
    });

    test('D60 D56: a custom field is guessed from its label or key and imported by type (a choice by its label, a number, yes/no); a bad value names the line and column', async () => {
      const who = await ownerOfNewOrg(b);
      await addField(who, { label: 'Plan', type: 'choice', options: [{ label: 'Gold' }, { label: 'Silver' }] });
      await addField(who, { label: 'Units', type: 'number' });
      await addField(who, { label: 'Has dog', type: 'yes_no' });
      await addField(who, { label: 'Gate code', record_kind: 'location' });
      const script = await addField(who, { label: '日本語' }); // a label of no Latin letter: its key is made up ('f'), the label still maps
      const csv = 'Name,Plan,units,Has Dog,Service Street,Location Gate Code,日本語\r\nAnn,gold,3,yes,1 Main St,#12,はい\r\nBo,Bronze,x,maybe,,,\r\n';
      const p = await previewOf(who, csv);
      expect(p.columns.map((c) => c.target)).toEqual(['name', 'cf.plan', 'cf.units', 'cf.has_dog', 'location.address_line', 'location.cf.gate_code', `cf.${script.key}`]);
      expect(p.targets).toContainEqual({ target: 'cf.plan', label: 'Plan', group: 'custom' });
      expect(p.targets).toContainEqual({ target: 'location.cf.gate_code', label: 'Gate code', group: 'location' });
      expect(p.rows[1]!.errors.map((e) => e.field)).toEqual(['cf.plan', 'cf.units', 'cf.has_dog']);
      const ok = csv.split('\r\n').slice(0, 2).join('\r\n');
      await importOf(who, ok);
      const [ann] = await customersOf(who);
      const plan = (ann!.custom as Record<string, unknown>).plan;
      expect(ann).toMatchObject({ custom: { units: 3, has_dog: true, [script.key]: 'はい' }, locations: [{ address_line: '1 Main St', custom: { gate_code: '#12' } }] });
      expect(typeof plan).toBe('string');
    });
  });
});
