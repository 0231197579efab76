// D39 inputs that render safely (addr-spec emails, phone extensions apart, search text that is not Unicode)
// and D45 matching as people write (phone numbers by their last digits, folded search over every address
// field, tags by key with suggestions), on each database.
import { beforeAll, beforeEach, describe, expect, test } from 'vitest';
import type { CustomerListItem, DuplicateMatch } from '../../contract/customers';
import { fold } from '../../contract/fold';
import { phoneDigits } from '../../contract/matching';
import { CUSTOMERS, expectError } from './api-common';
import { forEachBackend, type Backend } from './backends';
import { ACME, BEACON, expectFieldError, signIn, unique, uniqueNumber, warmedUp, type Actor } from './customers-common';

forEachBackend('API customers: search and matching', (backend) => {
  let b: Backend;
  let owner: Actor;
  beforeAll(async () => (b = await warmedUp(backend)));
  beforeEach(async () => {
    owner = await signIn(b, 'owner@demo.test', ACME);
  });
  const search = async (who: Actor, query: string) => {
    const r = await who.get(`${CUSTOMERS}?${query}&page_size=100`);
    expect(r.status, `${query}: ${r.text.slice(0, 200)}`).toBe(200);
    return (r.body.results as CustomerListItem[]).map((c) => c.id);
  };
  const duplicates = async (query: Record<string, string>) => {
    const r = await owner.get(`${CUSTOMERS}duplicates/?${new URLSearchParams(query)}`);
    expect(r.status, r.text).toBe(200);
    return (r.body.results as DuplicateMatch[]).map((m) => m.id);
  };

  describe('D39 inputs that render safely', () => {
    test('D39 an email is an addr-spec only: headers, spaces, quotes, & and % are refused (400 naming email); plain and non-ASCII addresses are kept', async () => {
      for (const email of [
        'billing@client.test?bcc=spy%40evil.test',
        'billing@client.test?cc=a@b.test',
        'a&b@client.test',
        'a%40b@client.test',
        '"quoted"@client.test',
        "o'neil@client.test",
        'two words@client.test',
        'a@b',
        'a@@b.test',
        'a@b..test',
        '.a@b.test',
        '<a@b.test>',
        'a@[127.0.0.1]',
        'a@b.test#x',
      ]) {
        const r = await owner.post(CUSTOMERS, { name: unique('Mail '), email });
        expectFieldError(r, 'email');
        const edit = await owner.create();
        expectFieldError(await owner.patch(`${CUSTOMERS}${edit.id}/`, { email, version: edit.version }), 'email');
      }
      for (const email of [`first.last+plumbing-${unique()}@sub.client.test`, `josé.${unique()}@exämple.test`, `x_y=z-${unique()}@client.co`]) {
        const c = await owner.create({ email });
        expect(c.email).toBe(email.toLowerCase());
      }
    });

    test('D39 search text that is not Unicode is a 400 naming the parameter; U+10FFFF (the last code point) searches without a 500', async () => {
      // U+10FFFF is a scalar value: before, a one-character search of it was RangeError: Invalid code point (500).
      for (const q of ['%F4%8F%BF%BF', 'a%F4%8F%BF%BF', '%F4%8F%BF%BF%F4%8F%BF%BF', '%ED%9F%BF', '%F4%8F%BF%BFabc', '100%', '%zz']) {
        const r = await owner.get(`${CUSTOMERS}?q=${q}`);
        expect(r.status, `${q}: ${r.text.slice(0, 200)}`).toBe(200);
      }
      // An encoded surrogate (%ED%A0%80), a code point past U+10FFFF, bytes that are not UTF-8: not text.
      for (const bad of ['%ED%A0%80', '%ED%BF%BF', '%F4%90%80%80', '%F5%80%80%80', '%C0%AF', '%FF', 'a%E9b']) {
        expectFieldError(await owner.get(`${CUSTOMERS}?q=${bad}`), 'q');
        expectFieldError(await owner.get(`${CUSTOMERS}?tag=${bad}`), 'tag');
        expectFieldError(await owner.get(`${CUSTOMERS}export.csv?q=${bad}`), 'q');
        expectFieldError(await owner.get(`${CUSTOMERS}duplicates/?email=${bad}`), 'email');
        expectFieldError(await owner.get(`${CUSTOMERS}duplicates/?phone=${bad}`), 'phone');
        expectFieldError(await owner.get(`${CUSTOMERS}tags/?q=${bad}`), 'q');
        // In a path, the same bytes are a 400 too (the path cannot be decoded).
        expectError(await owner.get(`${CUSTOMERS}${bad}/`), 400);
      }
    });

    test('D39 a phone keeps its extension apart: stored as written, matched by the number alone', async () => {
      const number = uniqueNumber();
      const c = await owner.create({ phone: `${number} ext. 1234` });
      expect(c.phone).toBe(`${number} ext. 1234`);
      expect(await duplicates({ phone: number })).toEqual([c.id]);
      expect(await duplicates({ phone: `${number} x 99` })).toEqual([c.id]);
      expect(await duplicates({ phone: `+1 ${number}#5` })).toEqual([c.id]);
      // The extension's digits are not the number's: only the number finds it by its digits.
      expect(await search(owner, `q=${encodeURIComponent(phoneDigits(number))}`)).toContain(c.id);
      expect(await search(owner, `q=${encodeURIComponent(`${phoneDigits(number)}1234`)}`)).not.toContain(c.id);
      // At least 7 digits in the number itself: an extension does not make up for them.
      expectFieldError(await owner.post(CUSTOMERS, { name: unique('Ext '), phone: '555 x 1234567' }), 'phone');
    });
  });

  describe('D45 matching as people write', () => {
    test("D45 the duplicate warning: one number matches another when the shorter one's digits (at least 7) end the longer one's", async () => {
      const number = uniqueNumber(); // (2ab) 8cd-efgh
      const digits = phoneDigits(number);
      const c = await owner.create({ phone: number });
      for (const same of [
        `+1 ${digits.slice(0, 3)} ${digits.slice(3, 6)} ${digits.slice(6)}`,
        `1-${digits.slice(0, 3)}-${digits.slice(3, 6)}-${digits.slice(6)}`,
        digits,
        `${digits.slice(3, 6)}-${digits.slice(6)}`,
        `+44 ${digits}`,
      ]) {
        expect(await duplicates({ phone: same }), same).toEqual([c.id]);
      }
      // Same last seven digits, another area code: another number. Six digits: not a number.
      expect(await duplicates({ phone: `(3${digits.slice(1, 3)}) ${digits.slice(3, 6)}-${digits.slice(6)}` })).toEqual([]);
      expect(await duplicates({ phone: digits.slice(4) })).toEqual([]);
      // Stored with a country code, found by the number without it (the other way round).
      const other = uniqueNumber();
      const withCode = await owner.create({ phone: `+1 ${other}` });
      expect(await duplicates({ phone: other })).toEqual([withCode.id]);
      expect(await duplicates({ phone: `1.${phoneDigits(other)}` })).toEqual([withCode.id]);
      // Never another organization's customer.
      const beacon = await signIn(b, 'owner@demo.test', BEACON);
      expect((await beacon.get(`${CUSTOMERS}duplicates/?phone=${encodeURIComponent(number)}`)).body.results).toEqual([]);
    });

    test('D45 search finds a number written with or without its country code, however punctuated', async () => {
      const number = uniqueNumber();
      const digits = phoneDigits(number);
      const plain = await owner.create({ phone: number });
      const coded = await owner.create({ phone: `+1 ${digits.slice(0, 3)} ${digits.slice(3, 6)} ${digits.slice(6)}` });
      for (const q of [
        number,
        `+1 ${number}`,
        `1-${digits.slice(0, 3)}-${digits.slice(3, 6)}-${digits.slice(6)}`,
        `1${digits}`,
        digits,
        `${digits.slice(3, 6)}-${digits.slice(6)}`,
      ]) {
        expect((await search(owner, `q=${encodeURIComponent(q)}`)).sort(), q).toEqual([plain.id, coded.id].sort());
      }
    });

    test("D45 search covers name, company, email, phone and every address field, ignoring case and accents ('orsted' finds 'Ørsted')", async () => {
      const town = unique('Tigard');
      const street = `${unique('Hemlock')} Street`;
      const postal = `9${Math.floor(Math.random() * 1e8)}`;
      const trust = await owner.create({ name: `Ørsted Family Trust ${unique('')}`, company: `Zoë Ångström Söhne ${unique('')}` });
      const placed = await owner.create({ address_line: `12 ${street}`, city: town, region: unique('Oregón'), postal_code: postal, country: unique('Österreich') });
      const expectFound = async (q: string, id: number) => expect(await search(owner, `q=${encodeURIComponent(q)}`), q).toContain(id);
      for (const q of ['orsted family', 'ØRSTED FAMILY', 'Orsted Family', 'ørsted family', 'zoe angstrom', 'ZOË ÅNGSTRÖM SÖHNE', 'sohne']) await expectFound(q, trust.id);
      for (const q of [town, town.toUpperCase(), street.toLowerCase(), postal, 'oregon', 'osterreich']) await expectFound(q, placed.id);
      // Decomposed accents (e + U+0301) fold like composed ones.
      const decomposed = await owner.create({ name: `Rene\u0301e ${unique('Dupre')}` });
      await expectFound('renée', decomposed.id);
      await expectFound('renee', decomposed.id);
      // The tag filter of another organization, and its search, never see these.
      const beacon = await signIn(b, 'owner@demo.test', BEACON);
      expect(await search(beacon, `q=${encodeURIComponent(town)}`)).toEqual([]);
    });

    test('D26 D45 a search matching thousands pages alike, shallow pages and deep ones', async () => {
      // An organization of its own with 12,000 customers, 2,100 of them in a town: fewer than the count's
      // bound, so each page sorts the matches read for the count (customers-list-pages.test.ts pages the
      // other way: past the bound, the matches up to the page's edge).
      const db = b.server.db;
      const town = unique('Sherwood');
      const [org] = await db.query<{ id: unknown }>('insert into organizations (name) values ($1) returning id', [unique('Walk Org ')]);
      const [user] = await db.query<{ id: unknown }>("select id from users where email = 'owner@demo.test'");
      await db.query("insert into memberships (user_id, org_id, role) values ($1, $2, 'owner')", [user?.id, org?.id] as never);
      // Set-up, bulk work: without the ordinary statement timeout, which a starved machine can pass (D34).
      await db.transaction(
        (tx) =>
          tx.query(
            `insert into customers (org_id, name, city) select $1::integer, 'Person ' || lpad(((g * 7919) % 12000)::text, 5, '0'), case when g % 40 < 7 then $2 else 'Elsewhere' end
           from generate_series(1, 12000) g`,
            [org?.id, town] as never,
          ),
        { statementTimeoutMs: 0 },
      );
      const inTown = await db.query<{ id: unknown }>('select id from customers where org_id = $1 and city = $2 order by name_key, id', [org?.id, town] as never);
      expect(inTown).toHaveLength(2100);
      const orgName = (await db.query<{ name: string }>('select name from organizations where id = $1', [org?.id] as never))[0]!.name;
      const member = await signIn(b, 'owner@demo.test', orgName);
      for (const [page, sort] of [
        [1, 'name'],
        [2, 'name'],
        [60, 'name'],
        [84, 'name'],
        [1, '-name'],
        [70, '-name'],
      ] as const) {
        const r = await member.get(`${CUSTOMERS}?q=${encodeURIComponent(town.toUpperCase())}&page=${page}&page_size=25&sort=${sort}`);
        expect(r.status, r.text.slice(0, 200)).toBe(200);
        expect(r.body.count).toBe(2100);
        const ids = inTown.map((c) => Number(c.id));
        const order = sort === 'name' ? ids : [...ids].reverse();
        expect(
          (r.body.results as CustomerListItem[]).map((c) => c.id),
          `page ${page} ${sort}`,
        ).toEqual(order.slice((page - 1) * 25, page * 25));
      }
    });

    test('D45 the folding of stored text (SQL) and of searches (the app and the server) agree on every folded character', async () => {
      // Every letter of Latin-1, Latin Extended-A and -B, Greek, Cyrillic and Latin Extended Additional, one
      // at a time (a capital sigma folds alike alone or at the end of a word) and as words.
      const blocks: [number, number][] = [
        [0xc0, 0x24f],
        [0x370, 0x3ff],
        [0x400, 0x4ff],
        [0x1e00, 0x1eff],
      ];
      const letters = blocks.flatMap(([a, z]) => Array.from({ length: z - a + 1 }, (_, i) => String.fromCodePoint(a + i))).filter((c) => /\p{L}/u.test(c));
      const [each] = await b.server.db.query<{ f: string[] }>('select array_agg(crm_fold(c) order by n) as f from unnest($1::text[]) with ordinality as u(c, n)', [
        letters,
      ] as never);
      const differ = letters
        .filter((c, i) => each?.f[i] !== fold(c))
        .map((c) => `${c} U+${c.codePointAt(0)!.toString(16)}: ${fold(c)} vs ${each?.f[letters.indexOf(c)]}`);
      expect(differ.slice(0, 10)).toEqual([]);
      const samples = [
        letters.join(' '),
        'Renée “Ree” O’Brien – Smith—Sons ‘x’ Oʼ',
        'Ørsted Family Trust',
        'ŁÓDŹ',
        'Straße',
        'Ærøskøbing',
        'МОСКВА',
        'Ελληνικά',
        'e\u0301',
        'plain ascii 123',
        '😀 Ünïcödé 漢字',
      ];
      for (const s of samples) {
        const [row] = await b.server.db.query<{ f: string }>('select crm_fold($1) as f', [s]);
        expect(row?.f, s.slice(0, 40)).toBe(fold(s));
      }
      const tags = ['Ørsted', 'BOILER', 'Café', 'ß-Straße', 'plain'];
      const [row] = await b.server.db.query<{ f: string[] }>('select crm_fold_tags($1::text[]) as f', [tags] as never);
      expect(row?.f).toEqual(tags.map(fold));
      for (const phone of ['(503) 555-0177 ext. 1234', '+1 503 555 0177 x12', '503.555.0177#9', '503 555 0177 Extension 7', '5035550177', 'x5035550177']) {
        const [row] = await b.server.db.query<{ d: string }>('select crm_phone_digits($1) as d', [phone]);
        expect(row?.d, phone).toBe(phoneDigits(phone));
      }
    });

    test('D45 a typed \' " - finds the curly quotes and dashes ’ ‘ ʼ “ ” – — and the other way round, in names, contacts and locations', async () => {
      const sfx = unique('');
      const curly = await owner.create({ name: `Renée “Ree” O’Brien ${sfx}`, company: `Smith – Sons ${sfx}` });
      const straight = await owner.create({ name: `Dan O'Hara ${sfx}` });
      const parts = await owner.create({ name: `Parts ${sfx}` });
      expect((await owner.post(`${CUSTOMERS}${parts.id}/contacts/`, { name: `Pat Oʼ Neil ${sfx}` })).status).toBe(201);
      expect((await owner.post(`${CUSTOMERS}${parts.id}/locations/`, { label: `‘Oak’ rental ${sfx}` })).status).toBe(201);
      const found = async (q: string) => search(owner, `q=${encodeURIComponent(`${q}`)}`);
      for (const q of ["O'Brien", 'o’brien', 'oʼbrien', 'o‘brien', '"ree" o\'brien', '“Ree”', 'smith - sons', 'Smith — Sons'])
        expect(await found(q), q).toEqual([curly.id]);
      for (const q of ["o'hara", 'O’Hara']) expect(await found(q), q).toEqual([straight.id]);
      for (const q of ["pat o' neil", 'Pat O’ Neil', "'oak' rental", '’Oak’ rental']) expect(await found(q), q).toEqual([parts.id]);
    });

    test('D45 the tag filter ignores case and accents', async () => {
      const tag = unique('Café');
      const c = await owner.create({ tags: [tag] });
      for (const t of [tag, tag.toUpperCase(), tag.toLowerCase(), fold(tag)]) expect(await search(owner, `tag=${encodeURIComponent(t)}`), t).toEqual([c.id]);
      expect(await search(owner, `tag=${encodeURIComponent(`${tag}x`)}`)).toEqual([]);
    });

    test("D45 GET /customers/tags/ suggests the organization's tags containing what is typed, most used first; follows adds, edits and deletes", async () => {
      const stem = unique('Boiler');
      const tags = async (who: Actor, q: string) => {
        const r = await who.get(`${CUSTOMERS}tags/?q=${encodeURIComponent(q)}`);
        expect(r.status, r.text).toBe(200);
        return r.body.results as string[];
      };
      const a = await owner.create({ tags: [`${stem}-Annual`, `${stem}-Repair`] });
      await owner.create({ tags: [`${stem}-repair`.toUpperCase().replace('REPAIR', 'Repair'), 'x'] });
      expect(await tags(owner, stem.toLowerCase())).toEqual([`${stem}-Repair`, `${stem}-Annual`]);
      expect(await tags(owner, `${stem}-ann`.toUpperCase())).toEqual([`${stem}-Annual`]);
      // A viewer of another organization, or its owner, never sees Acme's tags.
      const beaconViewer = await signIn(b, 'viewer@demo.test', BEACON);
      expect(await tags(beaconViewer, stem)).toEqual([]);
      expect((await beaconViewer.get(`${CUSTOMERS}tags/?q=${encodeURIComponent(stem)}`)).status).toBe(200);
      // Edited away and deleted: a tag no live customer has is no longer suggested.
      const edited = await owner.patch(`${CUSTOMERS}${a.id}/`, { tags: [`${stem}-Repair`], version: a.version });
      expect(edited.status, edited.text).toBe(200);
      expect(await tags(owner, stem)).toEqual([`${stem}-Repair`]);
      expect((await owner.del(`${CUSTOMERS}${a.id}/`)).status).toBe(204);
      expect(await tags(owner, stem)).toEqual([`${stem}-Repair`]);
      expect((await owner.post(`${CUSTOMERS}${a.id}/restore/`)).status).toBe(200);
      expect(await tags(owner, stem)).toEqual([`${stem}-Repair`]);
      // LIKE characters are taken literally; without q, the most used tags.
      expect(await tags(owner, '%')).not.toContain(`${stem}-Repair`);
      expect((await tags(owner, '')).length).toBeGreaterThan(0);
    });
  });
});
