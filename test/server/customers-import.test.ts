// D34 D43 D44: the import's bounded work (limits, set-based writes, nothing written when nothing
// changes), its round trip with the export (formula guard, encodings, delimiters), and what an update
// says and records (before → after, per customer; a customer changed since the preview is left alone).
import { beforeAll, describe, expect, test } from 'vitest';
import { IMPORT_IGNORED_NAMES_SHOWN, IMPORT_MAX_COLUMNS, IMPORT_PREVIEW_CELL_MAX, type Customer, type ImportPreview, type ImportResult } from '../../contract/customers';
import type { Queryable, SqlParam } from '../../server/db';
import { CUSTOMERS, expectError } from './api-common';
import { forEachBackend, type Backend } from './backends';
import { addField } from './custom-fields-common';
import { auditSince, customerPath, expectNoChange, lastAuditId, ownerOfNewOrg, unique, uniqueEmail, warmedUp, type Actor } from './customers-common';

const EXPORT = `${CUSTOMERS}export.csv`;
const PREVIEW = `${CUSTOMERS}import/preview/`;
const IMPORT = `${CUSTOMERS}import/`;
const MINUTE = 60_000;

/** Windows-1252 bytes of a Latin-1 string (é is 0xE9), as Excel on Windows writes 'CSV'. */
const cp1252 = (text: string) => Buffer.from(text, 'latin1');
const utf16be = (text: string) => {
  const le = Buffer.from(text, 'utf16le');
  for (let i = 0; i + 1 < le.length; i += 2) [le[i], le[i + 1]] = [le[i + 1]!, le[i]!];
  return le;
};

forEachBackend('API customers import', (backend) => {
  let b: Backend;
  beforeAll(async () => (b = await warmedUp(backend)));
  const upload = (who: Actor, path: string, csv: string | Buffer, type = 'text/csv') =>
    b.api.request(path, {
      method: 'POST',
      headers: { Authorization: `Bearer ${who.token}`, 'X-Organization-ID': String(who.org), 'Content-Type': type },
      body: typeof csv === 'string' ? csv : new Uint8Array(csv),
    });
  const previewOf = async (who: Actor, csv: string | Buffer, type?: string) => {
    const r = await upload(who, PREVIEW, csv, type);
    expect(r.status, r.text.slice(0, 300)).toBe(200);
    return r.body as unknown as ImportPreview;
  };
  const importOf = async (who: Actor, csv: string | Buffer, query = '') => {
    const r = await upload(who, `${IMPORT}${query}`, csv);
    expect(r.status, r.text.slice(0, 300)).toBe(200);
    return r.body as unknown as ImportResult;
  };
  const download = async (who: Actor) => {
    const res = await fetch(new URL(EXPORT.replace(/^\//, ''), b.server.url), {
      headers: { Authorization: `Bearer ${who.token}`, 'X-Organization-ID': String(who.org) },
    });
    expect(res.status).toBe(200);
    return Buffer.from(await res.arrayBuffer());
  };
  const customersOf = (who: Actor) =>
    b.server.db.query<Record<string, unknown>>('select id, name, company, email, phone, city, status, tags, version from customers where org_id = $1 order by id', [
      who.org,
    ]);

  describe('D34 bounded work', () => {
    test('D34 a header wider than the column limit is a 400 naming the limit, however wide (5 MB of commas)', async () => {
      const who = await ownerOfNewOrg(b);
      const wide = `name${','.repeat(5 * 1024 * 1024 - 200)}\r\n${'a\r\n'.repeat(10)}`;
      for (const path of [PREVIEW, IMPORT]) {
        const r = await upload(who, path, wide);
        expectError(r, 400, 'invalid_csv');
        expect(String(r.body.detail)).toContain(String(IMPORT_MAX_COLUMNS));
        expect(r.text.length).toBeLessThan(1000);
      }
      const row = await upload(who, PREVIEW, `name\r\nok\r\nx${','.repeat(IMPORT_MAX_COLUMNS)}\r\n`);
      expectError(row, 400, 'invalid_csv');
      expect(String(row.body.detail)).toMatch(new RegExp(`line 3: more than ${IMPORT_MAX_COLUMNS} columns`));
      expect((await previewOf(who, `name${',x'.repeat(IMPORT_MAX_COLUMNS - 1)}\r\nok\r\n`)).summary.total).toBe(1);
    });

    test('D34 the preview answers only the known columns: ignored names capped with their count, long cells cut', async () => {
      const who = await ownerOfNewOrg(b);
      const extra = Array.from({ length: 150 }, (_, i) => `extra${i}`);
      const p = await previewOf(who, `${extra.join(',')},name,email\r\n${extra.map(() => 'junk').join(',')},Ann,ann@example.test\r\n`);
      expect(p.ignored_columns).toEqual(extra.slice(0, IMPORT_IGNORED_NAMES_SHOWN));
      expect(p.ignored_column_count).toBe(150);
      expect(p.rows[0]!.values).toEqual({ name: 'Ann', email: 'ann@example.test' });
      const long = await previewOf(who, `name\r\n${'y'.repeat(100_000)}\r\n`);
      expect(long.rows[0]!.values.name).toHaveLength(IMPORT_PREVIEW_CELL_MAX + 1);
      expect(long.rows[0]!.errors.map((e) => e.field)).toEqual(['name']);
    });

    test('D34 an import is a handful of statements, not one per row: 1,000 new and 1,000 changed rows', async () => {
      const who = await ownerOfNewOrg(b);
      const emails = Array.from({ length: 2000 }, (_, i) => `row${i}.${unique()}@example.test`);
      await importOf(
        who,
        `name,email,city\r\n${emails
          .slice(0, 1000)
          .map((e, i) => `Row ${i},${e},Bend`)
          .join('\r\n')}`,
      );
      const db = b.server.db;
      const [query, transaction] = [db.query, db.transaction];
      let statements = 0;
      const counted = (q: Queryable): Queryable => ({ query: (text: string, params?: readonly SqlParam[]) => (statements++, q.query(text, params)) }) as Queryable;
      db.query = ((text: string, params?: readonly SqlParam[]) => (statements++, query.call(db, text, params))) as typeof db.query;
      db.transaction = ((fn: (tx: Queryable) => Promise<unknown>) => transaction.call(db, (tx) => fn(counted(tx)))) as typeof db.transaction;
      let result: ImportResult;
      try {
        result = await importOf(who, `name,email,city\r\n${emails.map((e, i) => `Row ${i},${e},Salem`).join('\r\n')}`, '?on_duplicate=update');
      } finally {
        Object.assign(db, { query, transaction });
      }
      expect(result).toEqual({ created: 1000, updated: 1000, unchanged: 0, skipped: 0, changed_since_preview: [] });
      expect(statements).toBeLessThan(15);
    }, 60_000);

    test('D34 an update import of more than 2,000 duplicates finds every one (their emails are looked up 2,000 to a statement)', async () => {
      const who = await ownerOfNewOrg(b);
      const emails = Array.from({ length: 2500 }, (_, i) => `batch${i}.${unique()}@example.test`);
      const csv = (city: string) => `name,email,city\r\n${emails.map((e, i) => `Batch ${i},${e},${city}`).join('\r\n')}`;
      await importOf(who, csv('Bend'));
      expect(await importOf(who, csv('Salem'), '?on_duplicate=update')).toEqual({ created: 0, updated: 2500, unchanged: 0, skipped: 0, changed_since_preview: [] });
      expect(await importOf(who, csv('Salem'), '?on_duplicate=update')).toEqual({ created: 0, updated: 0, unchanged: 2500, skipped: 0, changed_since_preview: [] });
    }, 60_000);

    test('D34 a short apply: each update sets only the fields it changes, and the search indexes merge the new entries after the commit', async () => {
      const who = await ownerOfNewOrg(b);
      const emails = [0, 1, 2].map((i) => `short${i}.${unique()}@example.test`);
      await importOf(who, `name,email,city,phone\r\n${emails.map((e, i) => `Short ${i},${e},Bend,503 555 010${i}`).join('\r\n')}`);
      const db = b.server.db;
      const [query, transaction] = [db.query, db.transaction];
      const log: string[] = [];
      const logged = (q: Queryable): Queryable =>
        ({ query: (text: string, params?: readonly SqlParam[]) => (log.push(`tx: ${text}`), q.query(text, params)) }) as Queryable;
      db.query = ((text: string, params?: readonly SqlParam[]) => (log.push(text), query.call(db, text, params))) as typeof db.query;
      db.transaction = ((fn: (tx: Queryable) => Promise<unknown>) => transaction.call(db, (tx) => fn(logged(tx)))) as typeof db.transaction;
      try {
        // Row 0 changes its city, row 1 its phone, row 2 nothing; a new row is created.
        const csv = `name,email,city,phone\r\nShort 0,${emails[0]},Salem,503 555 0100\r\nShort 1,${emails[1]},Bend,503 555 0191\r\nShort 2,${emails[2]},Bend,503 555 0102\r\nShort 3,new.${unique()}@example.test,Bend,`;
        expect(await importOf(who, csv, '?on_duplicate=update')).toMatchObject({ created: 1, updated: 2, unchanged: 1, skipped: 0 });
      } finally {
        Object.assign(db, { query, transaction });
      }
      const updates = log.filter((t) => t.startsWith('tx: update customers'));
      expect(updates.map((t) => t.match(/ set (.*?), version =/s)?.[1])).toEqual(['city = r.city', 'phone = r.phone']);
      const pending = log.findIndex((t) => t.includes('gin_pending_list_limit'));
      const merge = log.findIndex((t) => t.includes('gin_clean_pending_list'));
      expect(log[pending]).toMatch(/^tx: set local/);
      expect(merge).toBeGreaterThan(log.findIndex((t) => t.startsWith('tx: insert into audit_log')));
      expect(log[merge]).not.toMatch(/^tx:/);
      const after = await customersOf(who);
      expect(after.map((c) => [c.name, c.city, c.phone, c.version]).sort()).toEqual([
        ['Short 0', 'Salem', '503 555 0100', 2],
        ['Short 1', 'Bend', '503 555 0191', 2],
        ['Short 2', 'Bend', '503 555 0102', 1],
        ['Short 3', 'Bend', null, 1],
      ]);
    });

    test("D34 after an import nothing is left in the pending list of any search index, the custom fields' one included", async () => {
      const who = await ownerOfNewOrg(b);
      await addField(who, { key: 'gate', label: 'Gate code' });
      const csv = `name,email,Gate code\r\n${[0, 1, 2].map((i) => `Gate ${i},gate${i}.${unique()}@example.test,Code ${i}${unique()}`).join('\r\n')}`;
      expect(await importOf(who, csv)).toMatchObject({ created: 3 });
      const left = await b.server.db.query<{ name: string; pages: number }>(
        `select c.relname as name, gin_clean_pending_list(i.indexrelid::regclass)::int as pages
           from pg_index i join pg_class c on c.oid = i.indexrelid join pg_am a on a.oid = c.relam
          where a.amname = 'gin' and i.indrelid in ('customers'::regclass, 'customer_locations'::regclass, 'customer_contacts'::regclass)`,
      );
      expect(left.map((r) => r.name)).toContain('customers_custom_key_trgm_idx');
      expect(left.filter((r) => r.pages > 0)).toEqual([]);
    });

    test('D34 rows that would not change are not written: the same file twice changes nothing the second time', async () => {
      const who = await ownerOfNewOrg(b);
      const csv = `name,email,city,tags\r\n${Array.from({ length: 50 }, (_, i) => `Same ${i},same${i}.${unique()}@example.test,Bend,a; b`).join('\r\n')}`;
      await importOf(who, csv);
      const changed = csv.replace('Same 3,', 'Same Three,');
      expect(await importOf(who, changed, '?on_duplicate=update')).toMatchObject({ created: 0, updated: 1, unchanged: 49, skipped: 0 });
      const before = await customersOf(who);
      expect(before.filter((c) => c.version !== 1).map((c) => c.name)).toEqual(['Same Three']);
      await expectNoChange(b.server.db, async () => {
        expect(await importOf(who, changed, '?on_duplicate=update')).toEqual({ created: 0, updated: 0, unchanged: 50, skipped: 0, changed_since_preview: [] });
        expect(await importOf(who, changed)).toEqual({ created: 0, updated: 0, unchanged: 0, skipped: 50, changed_since_preview: [] });
      });
    });
  });

  describe('D43 a CSV round trip changes nothing', () => {
    test("D43 an exported file imports back unchanged: the formula guard's quote is taken off, exactly that", async () => {
      const who = await ownerOfNewOrg(b);
      const made = [
        await who.create({ name: 'Ann Guard', phone: '+1 503 555 0114', company: '=not a formula', tags: ['-minus'] }),
        await who.create({ name: "'Quoted already", company: "'plain", city: '@home' }),
      ];
      const file = await download(who);
      expect(file.toString('utf8')).toContain("'+1 503 555 0114");
      const p = await previewOf(who, file);
      expect(p.encoding).toBe('utf-8');
      expect(p.rows.map((r) => r.values.phone ?? '')).toContain('+1 503 555 0114');
      expect(p.rows.every((r) => r.changes && Object.keys(r.changes).length === 0)).toBe(true);
      await expectNoChange(b.server.db, async () => {
        expect(await importOf(who, file, '?on_duplicate=update')).toMatchObject({ created: 0, updated: 0, unchanged: 2 });
      });
      const other = await ownerOfNewOrg(b);
      await importOf(other, file);
      const strip = async (a: Actor) => (await customersOf(a)).map(({ id: _id, ...rest }) => rest).sort((x, y) => String(x.name).localeCompare(String(y.name)));
      expect(await strip(other)).toEqual(await strip(who));
      expect((await strip(other)).map((c) => [c.phone, c.company, c.city])).toEqual([
        [made[1]!.phone, "'plain", '@home'],
        [made[0]!.phone, '=not a formula', null],
      ]);
    });

    test('D43 Windows-1252 (Excel on Windows), UTF-8 with and without BOM, UTF-16 LE and BE with BOM are read and named', async () => {
      const who = await ownerOfNewOrg(b);
      const text = 'name,city\r\nRenée Dupré,Zürich\r\n';
      const cases: [Buffer, ImportPreview['encoding']][] = [
        [cp1252(text), 'windows-1252'],
        [Buffer.from(text, 'utf8'), 'utf-8'],
        [Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text, 'utf8')]), 'utf-8'],
        [Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]), 'utf-16le'],
        [Buffer.concat([Buffer.from([0xfe, 0xff]), utf16be(text)]), 'utf-16be'],
      ];
      for (const [bytes, encoding] of cases) {
        const p = await previewOf(who, bytes);
        expect([p.encoding, p.rows[0]!.values]).toEqual([encoding, { name: 'Renée Dupré', city: 'Zürich' }]);
      }
      expect((await previewOf(who, cp1252(text), 'text/csv; charset=windows-1252')).encoding).toBe('windows-1252');
      expectError(await upload(who, PREVIEW, cp1252(text), 'text/csv; charset=utf-8'), 400, 'invalid_body');
      expectError(await upload(who, PREVIEW, cp1252(text), 'text/csv; charset=shift_jis'), 415);
      expect(await importOf(who, cp1252(text))).toMatchObject({ created: 1 });
      expect((await customersOf(who)).map((c) => [c.name, c.city])).toEqual([['Renée Dupré', 'Zürich']]);
    });

    test('D43 Windows-1252 bytes 0x80–0x9F are its curly quotes, apostrophe, dashes and euro sign, not control characters; the name is found as typed', async () => {
      const who = await ownerOfNewOrg(b);
      // The bytes Excel on Windows writes for a semicolon 'CSV' of Renée “Ree” O’Brien (é 0xE9, “ 0x93, ” 0x94,
      // ’ 0x92, – 0x96, — 0x97, € 0x80, … 0x85, ™ 0x99, Ÿ 0x9F).
      const bytes = Buffer.concat([
        Buffer.from('Name;Company;City\r\nRen', 'latin1'),
        Buffer.from([0xe9]),
        Buffer.from('e ', 'latin1'),
        Buffer.from([0x93]),
        Buffer.from('Ree', 'latin1'),
        Buffer.from([0x94]),
        Buffer.from(' O', 'latin1'),
        Buffer.from([0x92]),
        Buffer.from('Brien;Smith ', 'latin1'),
        Buffer.from([0x96]),
        Buffer.from(' Sons ', 'latin1'),
        Buffer.from([0x97, 0x20, 0x80, 0x35, 0x85, 0x99, 0x9f]),
        Buffer.from(';Lyon\r\n', 'latin1'),
      ]);
      const p = await previewOf(who, bytes);
      expect([p.encoding, p.delimiter, p.rows[0]!.values, p.rows[0]!.errors]).toEqual([
        'windows-1252',
        ';',
        { name: 'Renée “Ree” O’Brien', company: 'Smith – Sons — €5…™Ÿ', city: 'Lyon' },
        [],
      ]);
      expect((await previewOf(who, bytes, 'text/csv; charset=windows-1252')).rows[0]!.values.name).toBe('Renée “Ree” O’Brien');
      expect(await importOf(who, bytes)).toMatchObject({ created: 1 });
      const [made] = await customersOf(who);
      expect([made!.name, made!.company]).toEqual(['Renée “Ree” O’Brien', 'Smith – Sons — €5…™Ÿ']);
      // D45: typed with a straight apostrophe, quotes and a hyphen, or as written, it is found.
      for (const q of ["O'Brien", 'o’brien', 'renee "ree"', 'Renée “Ree” O’Brien', 'smith - sons', 'Smith – Sons']) {
        const r = await who.get(`${CUSTOMERS}?q=${encodeURIComponent(q)}`);
        expect(
          (r.body.results as { id: unknown }[]).map((c) => c.id),
          q,
        ).toEqual([made!.id]);
      }
    });

    test('D43 the five bytes Windows-1252 does not define (0x81, 0x8D, 0x8F, 0x90, 0x9D) are a 400 naming the line; nothing is written', async () => {
      const who = await ownerOfNewOrg(b);
      for (const byte of [0x81, 0x8d, 0x8f, 0x90, 0x9d]) {
        const bytes = Buffer.concat([Buffer.from('name;city\r\nAnn Lee;Lyon\nBo ', 'latin1'), Buffer.from([0xe9, byte]), Buffer.from(';Paris\r\n', 'latin1')]);
        const hex = `0x${byte.toString(16).toUpperCase()}`;
        await expectNoChange(b.server.db, async () => {
          for (const [path, type] of [
            [PREVIEW, 'text/csv'],
            [IMPORT, 'text/csv'],
            [PREVIEW, 'text/csv; charset=windows-1252'],
          ] as const) {
            const r = await upload(who, path, bytes, type);
            expectError(r, 400, 'invalid_body');
            expect(r.body.detail, `${hex} ${path} ${type}`).toBe(
              `The file is not valid Windows-1252: line 3 has the byte ${hex}, which Windows-1252 does not define (save the file as 'CSV UTF-8' and import it again)`,
            );
          }
        });
      }
      expect(await customersOf(who)).toEqual([]);
    });

    test('D43 semicolon and tab delimiters are recognised from the header row; a comma inside a cell stays', async () => {
      const who = await ownerOfNewOrg(b);
      const semi = await previewOf(who, cp1252('Name;Email;City;Tags\r\n"Dupré, Renée";renee@example.test;Lyon;a,b\r\n'));
      expect([semi.delimiter, semi.rows[0]!.values]).toEqual([';', { name: 'Dupré, Renée', email: 'renee@example.test', city: 'Lyon', tags: 'a,b' }]);
      const tab = await previewOf(who, 'name\temail\r\nTab Person\ttab@example.test\r\n');
      expect([tab.delimiter, tab.rows[0]!.values]).toEqual(['\t', { name: 'Tab Person', email: 'tab@example.test' }]);
      expect((await previewOf(who, 'name\r\nSolo\r\n')).delimiter).toBe(',');
    });
  });

  describe('D44 an import says what it will change', () => {
    test("D44 the preview shows each duplicate's changes before → after and its version; the update writes them to each timeline like an edit", async () => {
      const who = await ownerOfNewOrg(b);
      const abigail = await who.create({ name: 'Abigail Okafor', tags: ['old', 'vip', 'x'], city: 'Bend' });
      const same = await who.create({ name: 'Same Person', city: 'Bend' });
      const csv = `name,email,city,tags\r\nAbby Okafor,${abigail.email!},,new\r\n${same.name},${same.email!},Bend,\r\nNew Person,${uniqueEmail()},Salem,\r\n`;
      const p = await previewOf(who, csv);
      expect(p.rows.map((r) => [r.duplicate, r.changes])).toEqual([
        [
          { id: abigail.id, name: 'Abigail Okafor', version: 1 },
          { name: { from: 'Abigail Okafor', to: 'Abby Okafor' }, tags: { from: ['old', 'vip', 'x'], to: ['new'] } },
        ],
        [{ id: same.id, name: same.name, version: 1 }, {}],
        [null, null],
      ]);
      expect(p.summary).toMatchObject({ duplicates: 2, unchanged: 1 });
      const mark = await lastAuditId(b.server.db);
      b.clock.advance(MINUTE);
      const result = await importOf(who, csv, `?on_duplicate=update&previewed_at=${encodeURIComponent(p.previewed_at)}`);
      expect(result).toEqual({ created: 1, updated: 1, unchanged: 1, skipped: 0, changed_since_preview: [] });
      const entries = await auditSince(b.server.db, mark);
      const changes = { name: { from: 'Abigail Okafor', to: 'Abby Okafor' }, tags: { from: ['old', 'vip', 'x'], to: ['new'] } };
      expect(entries.map((e) => [e.action, e.target_id])).toEqual([['customers.imported', null]]); // D27: one entry
      expect(entries[0]!.changes).toMatchObject({ updated: 1, unchanged: 1, updates: { [abigail.id]: changes } });
      const timeline = (await who.get(customerPath(abigail.id, 'timeline/'))).body.results as { action?: string; changes?: unknown }[];
      expect(timeline[0]).toMatchObject({ action: 'customer.updated', target: { type: 'customer', id: abigail.id, label: 'Abby Okafor' }, changes });
      expect(((await who.get(customerPath(same.id, 'timeline/'))).body.results as { action?: string }[]).map((i) => i.action)).toEqual(['customer.created']);
      const activity = (await who.get('/api/v1/audit/?action=customers.imported')).body.results as { changes: Record<string, unknown> }[];
      expect(activity[0]!.changes).not.toHaveProperty('updates');
      expect(((await who.get(customerPath(same.id))).body as unknown as Customer).version).toBe(1);
    });

    test('D44 with Skip, a row whose email another customer took after the preview is skipped and that customer named; the rest created', async () => {
      const who = await ownerOfNewOrg(b);
      const [taken, free] = [uniqueEmail(), uniqueEmail()];
      const csv = `name,email\r\nAnn Lee,${taken}\r\nBo Chen,${free}\r\n`;
      const p = await previewOf(who, csv);
      expect(p.summary).toMatchObject({ valid: 2, duplicates: 0 });
      b.clock.advance(MINUTE);
      const meanwhile = await who.create({ name: 'Ann Lee-Park', email: taken });
      b.clock.advance(MINUTE);
      const result = await importOf(who, csv, `?on_duplicate=skip&previewed_at=${encodeURIComponent(p.previewed_at)}`);
      expect(result).toEqual({ created: 1, updated: 0, unchanged: 0, skipped: 1, changed_since_preview: [{ id: meanwhile.id, name: 'Ann Lee-Park' }] });
      // Without a preview time (an API client) nothing is reported that way.
      const again = `name,email\r\nAnn Lee,${taken}\r\n`;
      expect(await importOf(who, again, '?on_duplicate=skip')).toEqual({ created: 0, updated: 0, unchanged: 0, skipped: 1, changed_since_preview: [] });
    });

    test('D44 a customer edited after the preview is reported and left as it is; the others are updated', async () => {
      const who = await ownerOfNewOrg(b);
      const [one, two] = [await who.create({ city: 'Bend' }), await who.create({ city: 'Bend' })];
      const csv = `name,email,city\r\n${one.name},${one.email!},Salem\r\n${two.name},${two.email!},Salem\r\n`;
      const p = await previewOf(who, csv);
      b.clock.advance(MINUTE);
      const edited = await who.patch(customerPath(one.id), { city: 'Portland', version: one.version });
      expect(edited.status, edited.text).toBe(200);
      b.clock.advance(MINUTE);
      const result = await importOf(who, csv, `?on_duplicate=update&previewed_at=${encodeURIComponent(p.previewed_at)}`);
      expect(result).toEqual({ created: 0, updated: 1, unchanged: 0, skipped: 1, changed_since_preview: [{ id: one.id, name: one.name }] });
      expect(((await who.get(customerPath(one.id))).body as unknown as Customer).city).toBe('Portland');
      expect(((await who.get(customerPath(two.id))).body as unknown as Customer).city).toBe('Salem');
      expectError(await upload(who, `${IMPORT}?on_duplicate=update&previewed_at=yesterday`, csv), 400);
    });
  });
});
