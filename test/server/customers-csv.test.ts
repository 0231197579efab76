// D27 CSV: the export (the list as filtered, RFC 4180, spreadsheet-safe) and the import (preview, then
// all rows or none with one audit entry); D10 D19 their permissions, limits and hostile files.
import { beforeAll, describe, expect, test } from 'vitest';
import type { Customer, CustomerListItem, ImportPreview } from '../../contract/customers';
import { EXPORT_IDS_MAX } from '../../contract/bulk';
import { CUSTOMERS, expectError } from './api-common';
import { forEachBackend, type Backend } from './backends';
import { parseRfc4180 } from './csv-common';
import {
  ACME,
  auditSince,
  BEACON,
  customerPath,
  customRole,
  expectClientError,
  fingerprint,
  inOrg,
  lastAuditId,
  newActor,
  ownerOfNewOrg,
  signIn,
  unique,
  uniqueEmail,
  warmedUp,
  type Actor,
} from './customers-common';

const HEADER =
  'name,company,email,phone,address_line,city,region,postal_code,country,status,tags,type,lead_source,do_not_service,do_not_service_reason,created_at,updated_at';
/** D3 D56: Acme Plumbing's custom customer fields, after D22's columns. */
const DEMO_FIELDS = 'Water heater model,Last service date,Maintenance plan';
const EXPORT = `${CUSTOMERS}export.csv`;
const PREVIEW = `${CUSTOMERS}import/preview/`;
const IMPORT = `${CUSTOMERS}import/`;

/** What D27 writes for a value: a formula start gets a leading ' (the CSV quoting is undone by the parser). */
const safe = (v: string | null) => (v === null ? '' : /^[=+\-@\t\r]/.test(v) ? `'${v}` : v);

forEachBackend('API customers CSV', (backend) => {
  let b: Backend;
  let owner: Actor;
  beforeAll(async () => (b = await warmedUp(backend)));
  const fresh = async () => (owner = await signIn(b, 'owner@demo.test', ACME));
  const download = async (who: Actor, query = '') => {
    const res = await fetch(new URL(`${EXPORT}${query}`.replace(/^\//, ''), b.server.url), {
      headers: { Authorization: `Bearer ${who.token}`, 'X-Organization-ID': String(who.org) },
    });
    const text = Buffer.from(await res.arrayBuffer()).toString('utf8');
    return { status: res.status, headers: res.headers, text, rows: parseRfc4180(text.replace(/^\uFEFF/, '')) };
  };
  const upload = (who: Actor, path: string, csv: string | Buffer, type = 'text/csv') =>
    b.api.request(path, {
      method: 'POST',
      headers: { Authorization: `Bearer ${who.token}`, 'X-Organization-ID': String(who.org), 'Content-Type': type },
      body: typeof csv === 'string' ? csv : new Uint8Array(csv),
    });
  /** Every row of the list for a query, page by page, as the export should have them. */
  const listAll = async (who: Actor, query: string) => {
    const all: CustomerListItem[] = [];
    for (let page = 1; ; page++) {
      const r = await who.get(`${CUSTOMERS}?${query}&page=${page}&page_size=100`);
      expect(r.status, r.text).toBe(200);
      all.push(...(r.body.results as CustomerListItem[]));
      if (all.length >= Number(r.body.count)) return all;
    }
  };

  describe('D27 export', () => {
    test('D27 export is a UTF-8 text/csv attachment: a BOM, the header row, CRLF lines, one row per customer of the list', async () => {
      await fresh();
      const r = await download(owner);
      expect(r.status, r.text).toBe(200);
      expect(r.headers.get('content-type')).toMatch(/^text\/csv; charset=utf-8$/i);
      expect(r.headers.get('content-disposition')).toMatch(/^attachment; filename="[\w.-]+\.csv"$/);
      expect(r.text.startsWith(`\uFEFF${HEADER},${DEMO_FIELDS}\r\n`)).toBe(true); // D56: then the demo's custom fields by label
      expect(r.text.endsWith('\r\n')).toBe(true);
      const list = await listAll(owner, 'sort=name');
      expect(r.rows).toHaveLength(list.length + 1);
      expect(r.rows.slice(1).map((row) => [row[0], row[2]])).toEqual(list.map((c) => [safe(c.name), c.email ?? '']));
      for (const row of r.rows) expect(row).toHaveLength(HEADER.split(',').length + DEMO_FIELDS.split(',').length);
    });

    test('D27 cells with commas, quotes and line breaks are quoted per RFC 4180, and formula starts = + - @ tab CR get a leading quote', async () => {
      await fresh();
      const tag = unique('csv');
      for (const fields of [
        { name: 'Smith, John', company: 'The "Best" Pipes', tags: [tag, 'b c'] },
        { name: '=HYPERLINK("http://x.test","click")', company: '+cmd|calc', tags: [tag] },
        { name: '-2+3', company: '@SUM(A1:A9)', phone: '+1 (503) 555-0100', tags: [tag] },
        { name: 'Zoë Ünïcode 管', company: "O'Brien; Sons", tags: [tag] },
      ])
        await owner.create(fields);
      // Text from before D22's checks (or written by another tool) may hold line breaks and tabs.
      for (const [name, company] of [
        ['Line\nBreak', 'tab\tinside'],
        ['\tTab Start', '\rCR start'],
        ['multi\r\nline "quoted"', 'a,b\nc'],
      ] as const) {
        await b.server.db.query('insert into customers (org_id, name, company, tags) values ($1, $2, $3, array[$4])', [owner.org, name, company, tag]);
      }
      const rows = await b.server.db.query<{ name: string; company: string | null; phone: string | null; tags: string[] }>(
        'select name, company, phone, tags from customers where org_id = $1 and $2 = any(tags) order by name_key, id',
        [owner.org, tag],
      );
      const r = await download(owner, `?tag=${tag}`);
      expect(r.status).toBe(200);
      expect(r.rows.slice(1).map((row) => [row[0], row[1], row[3], row[10]])).toEqual(rows.map((c) => [safe(c.name), safe(c.company), safe(c.phone), c.tags.join('; ')]));
      expect(r.text).toContain('"Smith, John","The ""Best"" Pipes"');
      expect(r.text).toContain(`"'=HYPERLINK(""http://x.test"",""click"")",'+cmd|calc`);
      expect(r.text).toContain(`'-2+3,'@SUM(A1:A9)`);
      expect(r.text).toContain('"Line\nBreak"');
      expect(r.text).toContain(`"'\rCR start"`);
    });

    test("D27 the export takes exactly the list's filters and sort: q, status, tag, sort", async () => {
      await fresh();
      const tag = unique('flt');
      for (const [i, status] of (['lead', 'active', 'inactive', 'lead'] as const).entries()) await owner.create({ name: `Filter ${tag} ${i}`, status, tags: [tag] });
      for (const query of [`tag=${tag}`, `tag=${tag}&status=lead`, `q=${tag}&sort=-name`, 'status=inactive', 'sort=-created_at', 'q=ex&sort=updated_at', 'q=zzzz-none']) {
        const r = await download(owner, `?${query}`);
        expect(r.status, query).toBe(200);
        expect(
          r.rows.slice(1).map((row) => row[0]),
          query,
        ).toEqual((await listAll(owner, query)).map((c) => safe(c.name)));
      }
      for (const query of ['status=gone', 'sort=id', `q=${'x'.repeat(101)}`, 'tag=a%00b', 'status=lead&status=active'])
        expectError(await owner.get(`${EXPORT}?${query}`), 400);
    });

    test('D58 the export of the customers picked (ids=…) holds exactly those, of this organization only; over EXPORT_IDS_MAX or not ids is a 400', async () => {
      await fresh();
      const tag = unique('ids');
      const made = [];
      for (const i of [0, 1, 2]) made.push(await owner.create({ name: `Picked ${tag} ${i}`, tags: [tag] }));
      const theirs = await (await signIn(b, 'owner@demo.test', BEACON)).create({ name: `Theirs ${tag}` });
      const r = await download(owner, `?ids=${made[2]!.id},${made[0]!.id},${theirs.id},999999999&sort=name`);
      expect(r.status).toBe(200);
      expect(r.rows.slice(1).map((row) => row[0])).toEqual([`Picked ${tag} 0`, `Picked ${tag} 2`]);
      const both = await download(owner, `?ids=${made[1]!.id},${made[2]!.id}&tag=${tag}&status=lead`);
      expect(both.rows.slice(1)).toEqual([]); // the filters still apply
      for (const query of ['ids=1,,2', 'ids=a', `ids=${Array.from({ length: EXPORT_IDS_MAX + 1 }, (_, i) => i + 1).join(',')}`, 'ids=0'])
        expectError(await owner.get(`${EXPORT}?${query}`), 400);
    });

    test('D10 export needs customers:export: a member and a viewer get 403, a non-member 403 not_a_member, no token 401', async () => {
      await fresh();
      expectError(await (await signIn(b, 'solo@demo.test', ACME)).get(EXPORT), 403, 'permission_denied');
      expectError(await (await signIn(b, 'viewer@demo.test', BEACON)).get(EXPORT), 403, 'permission_denied');
      expectError(await inOrg(b, await newActor(b, BEACON, 'owner'), owner.org).get(EXPORT), 403, 'not_a_member');
      expectError(await b.api.get(EXPORT, { 'X-Organization-ID': String(owner.org) }), 401, 'not_authenticated');
      expect((await download(await signIn(b, 'owner@demo.test', BEACON))).status).toBe(200); // an admin may
    });
  });

  describe('D27 import', () => {
    test("D27 preview reads the header case-insensitively with aliases, lists ignored columns, each row's errors and duplicates; writes nothing", async () => {
      await fresh();
      const existing = await owner.create();
      const [a, c] = [uniqueEmail(), uniqueEmail()];
      const csv = [
        ' NAME ,EMAIL,Phone,Zip,State,Organization,Favourite colour,Status,Tags',
        `Ann,${a},503 555 0101,97201,OR,Acme,blue,lead,vip; new`,
        `"Bob ""the"" Builder",${existing.email!.toUpperCase()},,,,,,,`,
        ',bad-email,12,,,,,gone,',
        `"Multi\nline",${c},,,,,,,`,
        `Dee,${a},,,,,,,`,
        '',
      ].join('\r\n');
      const before = await fingerprint(b.server.db);
      const r = await upload(owner, PREVIEW, csv);
      expect(r.status, r.text).toBe(200);
      const p = r.body as unknown as ImportPreview;
      expect(p.ignored_columns).toEqual(['Favourite colour']);
      expect(p.summary).toEqual({ total: 5, valid: 2, invalid: 3, duplicates: 1, unchanged: 0 });
      expect(p.rows.map((row) => row.line)).toEqual([2, 3, 4, 5, 7]);
      expect(p.rows[0]).toEqual({
        line: 2,
        errors: [],
        duplicate: null,
        changes: null,
        values: { name: 'Ann', email: a, phone: '503 555 0101', postal_code: '97201', region: 'OR', company: 'Acme', status: 'lead', tags: 'vip; new' },
      });
      expect(p.rows[1]).toMatchObject({ errors: [], duplicate: { id: existing.id, name: existing.name }, values: { name: 'Bob "the" Builder' } });
      expect(p.rows[2]!.errors.map((e) => e.field).sort()).toEqual(['email', 'name', 'phone', 'status']);
      expect(p.rows[3]!.errors.map((e) => e.field)).toEqual(['name']); // a line break is a control character
      expect(p.rows[4]!.errors).toEqual([{ field: 'email', detail: expect.stringContaining('2') as unknown as string }]);
      expect(await fingerprint(b.server.db)).toBe(before);
    });

    test('D27 an import writes every row in one transaction with exactly one customers.imported audit entry', async () => {
      const who = await ownerOfNewOrg(b);
      const emails = [uniqueEmail(), uniqueEmail(), uniqueEmail()];
      const mark = await lastAuditId(b.server.db);
      const csv = `name,email,city,tags,status\r\n  Ann ,${emails[0]!.toUpperCase()},Bend,"a; b",lead\r\nBob,${emails[1]!},,,\r\n"Cy, Jr.",${emails[2]!},Salem,,inactive\r\n`;
      const r = await upload(who, IMPORT, csv);
      expect(r.status, r.text).toBe(200);
      expect(r.body).toEqual({ created: 3, updated: 0, unchanged: 0, skipped: 0, changed_since_preview: [] });
      const rows = await b.server.db.query<Record<string, unknown>>(
        'select name, email, city, tags, status, created_by, version from customers where org_id = $1 order by id',
        [who.org],
      );
      expect(rows).toEqual([
        { name: 'Ann', email: emails[0], city: 'Bend', tags: ['a', 'b'], status: 'lead', created_by: who.userId, version: 1 },
        { name: 'Bob', email: emails[1], city: null, tags: [], status: 'active', created_by: who.userId, version: 1 },
        { name: 'Cy, Jr.', email: emails[2], city: 'Salem', tags: [], status: 'inactive', created_by: who.userId, version: 1 },
      ]);
      const entries = await auditSince(b.server.db, mark);
      expect(entries.map((e) => [e.action, e.org_id, e.actor_id])).toEqual([['customers.imported', who.org, who.userId]]);
      expect(entries[0]!.changes).toMatchObject({ created: 3, updated: 0, unchanged: 0, skipped: 0 });
    });

    test('D27 a file with any invalid row is a 400 import_invalid listing those rows, and nothing is written', async () => {
      await fresh();
      const before = await fingerprint(b.server.db);
      const r = await upload(
        owner,
        `${IMPORT}?on_duplicate=update`,
        `name,email\r\nGood One,${uniqueEmail()}\r\n,${uniqueEmail()}\r\nGood Two,${uniqueEmail()}\r\nBad Mail,nope\r\n`,
      );
      expectError(r, 400, 'import_invalid');
      expect((r.body.rows as { line: number; errors: { field: string }[] }[]).map((row) => [row.line, row.errors.map((e) => e.field)])).toEqual([
        [3, ['name']],
        [5, ['email']],
      ]);
      expect(await fingerprint(b.server.db)).toBe(before);
    });

    test('D27 on_duplicate=skip (the default) leaves customers with the same email alone; duplicates are by email within the organization', async () => {
      await fresh();
      const existing = await owner.create({ city: 'Keep' });
      const beaconOne = await (await signIn(b, 'owner@demo.test', BEACON)).create();
      const csv = `name,email,city\r\nChanged,${existing.email!},Lost\r\nFrom Beacon,${beaconOne.email!},X\r\n`;
      for (const query of ['', '?on_duplicate=skip']) {
        const r = await upload(owner, `${IMPORT}${query}`, csv.replace('From Beacon', `From Beacon ${query}`).replace(beaconOne.email!, uniqueEmail()));
        expect(r.body, r.text).toEqual({ created: 1, updated: 0, unchanged: 0, skipped: 1, changed_since_preview: [] });
      }
      expect((await owner.get(customerPath(existing.id))).body).toEqual(existing);
      expect((await upload(owner, IMPORT, csv)).body).toEqual({ created: 1, updated: 0, unchanged: 0, skipped: 1, changed_since_preview: [] });
    });

    test("D27 on_duplicate=update changes only the cells the file fills in; an empty or blank cell keeps the customer's value", async () => {
      await fresh();
      const existing = await owner.create({ company: 'Keep Co', city: 'Old Town', region: 'OR', tags: ['keep'] });
      const member = await signIn(b, 'solo@demo.test', ACME);
      const r = await upload(member, `${IMPORT}?on_duplicate=update`, `name,email,company,city,region,tags\r\n${existing.name},${existing.email!},,New Town,   ,  \r\n`);
      expect(r.body, r.text).toEqual({ created: 0, updated: 1, unchanged: 0, skipped: 0, changed_since_preview: [] });
      const after = (await owner.get(customerPath(existing.id))).body as unknown as Customer;
      expect(after).toMatchObject({ company: 'Keep Co', city: 'New Town', region: 'OR', tags: ['keep'], version: 2, updated_by: { id: member.userId } });
    });

    test('D10 import needs customers:create, and on_duplicate=update also customers:update (403 permission_denied, nothing written)', async () => {
      await fresh();
      const existing = await owner.create();
      const csv = `name,email\r\nSomeone,${existing.email!}\r\n`;
      const before = await fingerprint(b.server.db);
      const viewer = await signIn(b, 'viewer@demo.test', BEACON);
      expectError(await upload(viewer, PREVIEW, csv), 403, 'permission_denied');
      expectError(await upload(viewer, IMPORT, csv), 403, 'permission_denied');
      const role = await customRole(b.server.db, ACME, ['customers:view', 'customers:create']);
      const creator = await newActor(b, ACME, role);
      const refused = await upload(creator, `${IMPORT}?on_duplicate=update`, csv);
      expectError(refused, 403, 'permission_denied');
      expect(refused.body.detail).toContain('customers:update');
      expectError(await inOrg(b, await newActor(b, BEACON, 'owner'), owner.org).send('POST', IMPORT, csv, { 'Content-Type': 'text/csv' }), 403, 'not_a_member');
      expect(await fingerprint(b.server.db)).toBe(before);
      expect((await upload(creator, IMPORT, csv)).body).toEqual({ created: 0, updated: 0, unchanged: 0, skipped: 1, changed_since_preview: [] });
    });

    test('D27 D19 limits: 415 not CSV, 413 over 5 MB, 400 invalid_csv for broken quoting, no name column or over 10,000 rows', async () => {
      await fresh();
      const before = await fingerprint(b.server.db);
      for (const path of [PREVIEW, IMPORT]) {
        for (const type of ['application/json', 'text/html', 'multipart/form-data; boundary=x', 'text/csv; charset=shift_jis'])
          expectError(await upload(owner, path, 'name\r\nA\r\n', type), 415);
        expectError(await upload(owner, path, `name\r\n${'x'.repeat(5 * 1024 * 1024)}\r\n`), 413);
        for (const csv of ['name,email\r\n"Unclosed,a@b.co\r\n', 'name\r\nA "quote" inside\r\n', 'company,email\r\nAcme,a@b.co\r\n', '', '\uFEFF']) {
          expectError(await upload(owner, path, csv), 400, 'invalid_csv');
        }
        expectError(await upload(owner, path, `name\r\n${'n\r\n'.repeat(10_001)}`), 400, 'invalid_csv');
      }
      expectError(await upload(owner, `${IMPORT}?on_duplicate=overwrite`, 'name\r\nA\r\n'), 400);
      expect(await fingerprint(b.server.db)).toBe(before);
      const preview = await upload(owner, PREVIEW, `name\r\n${'n\r\n'.repeat(10_000)}`);
      expect(preview.body.summary, preview.text.slice(0, 300)).toEqual({ total: 10_000, valid: 10_000, invalid: 0, duplicates: 0, unchanged: 0 });
    });

    test('D27 a file of 10,000 rows imports in one go', async () => {
      const who = await ownerOfNewOrg(b);
      const csv = `name,email\r\n${Array.from({ length: 10_000 }, (_, i) => `Bulk ${i},bulk${i}@example.test`).join('\r\n')}`;
      const r = await upload(who, IMPORT, csv);
      expect(r.body, r.text.slice(0, 300)).toEqual({ created: 10_000, updated: 0, unchanged: 0, skipped: 0, changed_since_preview: [] });
      expect((await who.get(CUSTOMERS)).body.count).toBe(10_000);
    }, 60_000);

    test('D19 hostile files are refused with a 4xx or read as rows, never a 500', async () => {
      await fresh();
      const hostile: (string | Buffer)[] = [
        Buffer.from([0xff, 0xfe, 0x00, 0x41]),
        Buffer.from('name\r\n\xc3\x28\r\n', 'latin1'),
        'name\r\n\u0000\r\n',
        'name\r\n\ud800\r\n',
        'name\rA\rB\r',
        `${Array.from({ length: 3000 }, (_, i) => `c${i}`).join(',')},name\r\nx\r\n`,
        `name\r\n${'y'.repeat(1_000_000)}\r\n`,
        '"name"""\r\n',
        'name\r\n"a""\r\n',
        'name,tags\r\nA,"' + ';'.repeat(5000) + '"\r\n',
        'name,status\r\n=cmd|calc,lead\r\n',
        '\r\n\r\n\r\n',
        ',,,\r\n,,,\r\n',
        'NAME\r\n"x"y\r\n',
      ];
      for (const csv of hostile) {
        for (const path of [PREVIEW, `${IMPORT}?on_duplicate=update`]) {
          const r = await upload(owner, path, csv);
          const what = `${path} ${String(csv).slice(0, 30)}`;
          if (r.status !== 200) expectClientError(r, what);
        }
      }
    });

    test('D27 an export imports back: the header is read, created_at and updated_at are ignored, the values come back', async () => {
      await fresh();
      const tag = unique('rt');
      for (const fields of [
        { name: 'Round, Trip', company: 'Say "hi"', city: 'Zoë', phone: '(503) 555-0142' },
        { name: 'Plain', status: 'lead', region: 'OR', postal_code: '97201' },
      ]) {
        await owner.create({ ...fields, tags: [tag, 'x y'] });
      }
      const exported = (await download(owner, `?tag=${tag}`)).text;
      const who = await ownerOfNewOrg(b);
      const preview = (await upload(who, PREVIEW, exported)).body as unknown as ImportPreview;
      // The new organization has none of Acme's custom fields (D56): their columns are listed as left out too.
      expect(preview.ignored_columns).toEqual(['created_at', 'updated_at', ...DEMO_FIELDS.split(',')]);
      expect(preview.summary).toEqual({ total: 2, valid: 2, invalid: 0, duplicates: 0, unchanged: 0 });
      expect((await upload(who, IMPORT, exported)).body).toEqual({ created: 2, updated: 0, unchanged: 0, skipped: 0, changed_since_preview: [] });
      const fields = 'name, company, email, phone, address_line, city, region, postal_code, country, status, tags';
      const [mine, theirs] = [owner, who].map((a) =>
        b.server.db.query(`select ${fields} from customers where org_id = $1 and $2 = any(tags) order by name_key`, [a.org, tag]),
      );
      expect(await theirs).toEqual(await mine);
    });

    test('D27 D48 type, lead source and the do-not-service flag with its reason are exported and imported (flag as true/false or yes/no, type in any case)', async () => {
      await fresh();
      const tag = unique('svc');
      await owner.create({ name: 'Flagged', tags: [tag], type: 'commercial', lead_source: 'Yelp', do_not_service: true, do_not_service_reason: 'Unpaid' });
      await owner.create({ name: 'Plain', tags: [tag] });
      const exported = await download(owner, `?tag=${tag}`);
      const col = (name: string) => exported.rows[0]!.indexOf(name);
      expect(exported.rows.slice(1, 3).map((r) => ['type', 'lead_source', 'do_not_service', 'do_not_service_reason'].map((c) => r[col(c)]))).toEqual([
        ['commercial', 'Yelp', 'true', 'Unpaid'],
        ['residential', '', 'false', ''],
      ]);
      const who = await ownerOfNewOrg(b);
      expect((await upload(who, IMPORT, exported.text)).status).toBe(200);
      const fields = 'name, type, lead_source, do_not_service, do_not_service_reason';
      const [mine, theirs] = [owner, who].map((a) =>
        b.server.db.query(`select ${fields} from customers where org_id = $1 and $2 = any(tags) order by name_key`, [a.org, tag]),
      );
      expect(await theirs).toEqual(await mine);
      const csv = `name,type,do_not_service,lead_source\r\nA,Commercial,yes,Angi\r\nB,,no,\r\nC,industrial,maybe,\r\n`;
      const preview = (await upload(who, PREVIEW, csv)).body as unknown as ImportPreview;
      expect(preview.rows.map((r) => r.errors.map((e) => e.field))).toEqual([[], [], ['type', 'do_not_service']]);
    });
  });
});
