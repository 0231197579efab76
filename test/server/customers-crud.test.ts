// D22 D23 D25 D31: one customer created, read, changed, deleted and restored, and the duplicates look-up;
// D9 D10 D19 D30 their refusals, cross-organization ids and audit entries.
import { beforeAll, beforeEach, describe, expect, test } from 'vitest';
import type { Customer, CustomerListItem, DuplicateMatch } from '../../contract/customers';
import { CUSTOMERS, expectError } from './api-common';
import { forEachBackend, type Backend } from './backends';
import {
  acceptable,
  ACME,
  auditAbout,
  auditSince,
  BEACON,
  customerPath,
  expectClientError,
  expectFieldError,
  expectNoChange,
  HOSTILE_RAW_BODIES,
  HOSTILE_VALUES,
  inOrg,
  lastAuditId,
  LONE_SURROGATES,
  newActor,
  signIn,
  surrogateProblem,
  unique,
  uniqueEmail,
  warmedUp,
  type Actor,
} from './customers-common';
import { DAY, MINUTE, type Reply } from './helpers';

const TEXT_FIELDS = ['name', 'company', 'email', 'phone', 'address_line', 'city', 'region', 'postal_code', 'country'];
// D48 type, source and flag; D46 D47 locations and contacts.
const SERVICE_KEYS = ['type', 'lead_source', 'do_not_service', 'do_not_service_reason', 'locations', 'contacts'];
const CUSTOMER_KEYS = [
  ...TEXT_FIELDS,
  ...SERVICE_KEYS,
  'status',
  'tags',
  'created_at',
  'created_by',
  'updated_at',
  'updated_by',
  'version',
  'id',
  'custom',
  'assigned_to',
].sort(); // D56 custom, D59 assigned_to

forEachBackend('API customers: one customer', (backend) => {
  let b: Backend;
  let owner: Actor;
  beforeAll(async () => (b = await warmedUp(backend)));
  // Every test signs in afresh: some move the clock past the access token's 15 minutes.
  const fresh = async () => (owner = await signIn(b, 'owner@demo.test', ACME));
  beforeEach(fresh);
  const row = async (id: number) => (await b.server.db.query<Record<string, unknown>>('select * from customers where id = $1', [id]))[0];
  const restore = (who: Actor, id: number) => who.post(customerPath(id, 'restore/'));
  const actions = async (id: number) => (await auditAbout(b.server.db, 'customer', id)).map((e) => e.action);

  describe('D22 create and read', () => {
    test('D22 POST creates the customer: 201 with every field, text trimmed, email lower-cased, active by default, version 1', async () => {
      const email = uniqueEmail();
      const r = await owner.post(CUSTOMERS, {
        name: '  Ada  Lovelace ',
        company: ' Analytical Engines ',
        email: `  ${email.toUpperCase()} `,
        phone: ' (503) 555-0199 ',
        address_line: ' 1 Main St ',
        city: ' Portland',
        region: 'OR ',
        postal_code: ' 97201 ',
        country: ' US ',
        tags: [' vip ', 'Plumbing'],
      });
      expect(r.status, r.text).toBe(201);
      const c = r.body as unknown as Customer;
      expect(Object.keys(c).sort()).toEqual(CUSTOMER_KEYS);
      expect(c).toMatchObject({
        name: 'Ada  Lovelace',
        company: 'Analytical Engines',
        email,
        phone: '(503) 555-0199',
        address_line: '1 Main St',
        city: 'Portland',
        region: 'OR',
        postal_code: '97201',
        country: 'US',
        status: 'active',
        tags: ['vip', 'Plumbing'],
        version: 1,
        created_by: { id: owner.userId, name: 'Olivia' },
        updated_by: { id: owner.userId, name: 'Olivia' },
        created_at: new Date(b.clock.now()).toISOString(),
      });
      expect((await owner.get(customerPath(c.id))).body).toEqual(c);
      expect(await row(c.id)).toMatchObject({ org_id: owner.org, email, phone_digits: '5035550199', deleted_at: null });
      // Only the name is needed; empty optional fields are null, and a chosen status is kept.
      const bare = await owner.post(CUSTOMERS, { name: 'Just A Name', company: '', email: '   ', phone: null, status: 'lead' });
      expect(bare).toMatchObject({ status: 201, body: { company: null, email: null, phone: null, city: null, status: 'lead', tags: [] } });
    });

    test('D30 a creation writes one customer.created entry in the same transaction: actor, target, the filled fields', async () => {
      const c = await owner.create({ company: 'Pipes Ltd', tags: ['a'] });
      const [entry, ...more] = await auditAbout(b.server.db, 'customer', c.id);
      expect(more).toEqual([]);
      expect(entry).toMatchObject({ org_id: owner.org, actor_id: owner.userId, actor_label: 'Olivia', action: 'customer.created', target_label: c.name });
      expect(entry!.changes).toEqual({ name: c.name, company: 'Pipes Ltd', email: c.email, status: 'active', tags: ['a'], type: 'residential' });
    });

    test("D22 every field's limits: past one is a 400 naming the field and writes nothing; the limit itself is accepted", async () => {
      const long = 'x'.repeat(201);
      const refused: [Record<string, unknown>, string][] = [
        ...TEXT_FIELDS.filter((f) => f !== 'email' && f !== 'phone').map((f): [Record<string, unknown>, string] => [{ [f]: long }, f]),
        [{ name: '' }, 'name'],
        [{ name: '   ' }, 'name'],
        [{ email: 'not-an-email' }, 'email'],
        [{ email: 'a@b' }, 'email'],
        [{ email: 'a b@c.de' }, 'email'],
        [{ email: `${'x'.repeat(245)}@example.io` }, 'email'],
        [{ phone: '555-012' }, 'phone'],
        [{ phone: `1234567${' '.repeat(34)}x` }, 'phone'],
        [{ phone: 'call me' }, 'phone'],
        [{ status: 'archived' }, 'status'],
        [{ status: 'Active' }, 'status'],
        [{ tags: Array.from({ length: 21 }, (_, i) => `t${i}`) }, 'tags'],
        [{ tags: ['x'.repeat(31)] }, 'tags'],
        [{ tags: [''] }, 'tags'],
        [{ tags: ['VIP', 'vip'] }, 'tags'],
        [{ tags: 'vip' }, 'tags'],
      ];
      await expectNoChange(b.server.db, async () => {
        for (const [fields, field] of refused) {
          const r = await owner.post(CUSTOMERS, { name: 'Limits', ...fields });
          expectError(r, 400);
          expect(String(r.body.field), JSON.stringify(fields).slice(0, 60)).toMatch(new RegExp(`^${field}(\\[\\d+\\])?$`));
        }
      });
      const atLimits = await owner.post(CUSTOMERS, {
        name: 'n'.repeat(200),
        company: 'c'.repeat(200),
        email: `${'x'.repeat(243)}@example.io`,
        phone: `+1 (503) 555-0100${' ext'.padEnd(23, '9')}`,
        address_line: 'a'.repeat(200),
        city: 'c'.repeat(200),
        region: 'r'.repeat(200),
        postal_code: 'p'.repeat(200),
        country: 'c'.repeat(200),
        tags: Array.from({ length: 20 }, (_, i) => `${i}`.padEnd(30, 't')),
      });
      expect(atLimits.status, atLimits.text).toBe(201);
      expect(((atLimits.body as unknown as Customer).phone ?? '').length).toBe(40);
    });

    test('D22 a control character (C0, DEL or C1) in any text field or tag is refused with a 400 naming the field', async () => {
      await expectNoChange(b.server.db, async () => {
        for (const field of TEXT_FIELDS) {
          for (const bad of ['a\u0000b', 'line\nbreak', 'tab\there', 'bell\u0007', 'del\u007f', 'next line\u0085', 'csi\u009b31m']) {
            const value = field === 'email' ? `x${bad}@example.io` : field === 'phone' ? `555 0100 ${bad}` : bad;
            expectFieldError(await owner.post(CUSTOMERS, { name: 'Control', [field]: value }), field);
          }
        }
        expectFieldError(await owner.post(CUSTOMERS, { name: 'Control', tags: ['ok', 'no\u0001'] }), 'tags[1]');
      });
    });

    test('D22 a field the record does not have is a 400 unknown_field naming it, even a real column', async () => {
      await expectNoChange(b.server.db, async () => {
        for (const field of ['id', 'version', 'org_id', 'created_by', 'deleted_at', 'Name', 'address']) {
          expectFieldError(await owner.post(CUSTOMERS, { name: 'Unknown', [field]: 1 }), field, 'unknown_field');
        }
      });
    });

    test('D19 hostile bodies on POST are refused with a 4xx, never a 500; only a value fit for the field is ever stored', async () => {
      for (const field of ['name', 'email', 'phone', 'status', 'tags', 'city'])
        for (const value of HOSTILE_VALUES) {
          const [r, what] = [await owner.post(CUSTOMERS, { name: 'Hostile', [field]: value }), `${field}=${JSON.stringify(value).slice(0, 40)}`];
          if (r.status === 201) expect(acceptable(field, value), what).toBe(true);
          else expectClientError(r, what);
        }
      for (const raw of HOSTILE_RAW_BODIES) {
        const r = await owner.send('POST', CUSTOMERS, raw);
        if (r.status !== 201) expectClientError(r, raw.slice(0, 40));
      }
      expectError(await owner.send('POST', CUSTOMERS, 'name=x', { 'Content-Type': 'application/x-www-form-urlencoded' }), 415);
      expectError(await owner.send('POST', CUSTOMERS, JSON.stringify({ name: 'x'.repeat(64 * 1024) })), 413);
    });

    test('D19 D22 text that is not Unicode (a lone surrogate) in any field is never a 500: a 400 naming the field, or stored well-formed', async () => {
      const c = await owner.create();
      const problems: (string | null)[] = [];
      for (const value of LONE_SURROGATES) {
        for (const [field, what] of ['name', 'company', 'city', 'country'].map((f) => [f, `${f}=${JSON.stringify(value)}`] as const)) {
          problems.push(surrogateProblem(await owner.post(CUSTOMERS, { name: 'Surrogate', [field]: value }), field, `POST ${what}`));
          const { version } = (await owner.get(customerPath(c.id))).body as unknown as Customer;
          problems.push(surrogateProblem(await owner.patch(customerPath(c.id), { version, [field]: value }), field, `PATCH ${what}`));
        }
        problems.push(surrogateProblem(await owner.post(CUSTOMERS, { name: 'Surrogate', tags: [value] }), 'tags[0]', `POST tags=[${JSON.stringify(value)}]`));
      }
      expect(problems.filter(Boolean)).toEqual([]);
    });

    test("D9 GET /customers/{id}/ of a missing, deleted or other organization's customer is the same 404 not_found", async () => {
      const theirs = await (await signIn(b, 'owner@demo.test', BEACON)).create();
      const deleted = await owner.create();
      expect((await owner.del(customerPath(deleted.id))).status).toBe(204);
      const answers = await Promise.all([theirs.id, deleted.id, 2_000_000_000].map((id) => owner.get(customerPath(id))));
      for (const r of answers) expectError(r, 404, 'not_found');
      expect(answers.map((r) => r.body)).toEqual([answers[2]!.body, answers[2]!.body, answers[2]!.body]);
    });
  });

  describe('D31 update', () => {
    test('D31 PATCH with the current version changes the given fields only, bumps the version and writes customer.updated from/to', async () => {
      const c = await owner.create({ company: 'Old Co', city: 'Salem', tags: ['a'] });
      b.clock.advance(MINUTE);
      const solo = await signIn(b, 'solo@demo.test', ACME);
      const r = await solo.patch(customerPath(c.id), { version: 1, company: '  New Co ', city: '', status: 'inactive', tags: ['a', 'b'] });
      expect(r.status, r.text).toBe(200);
      expect(r.body).toEqual({
        ...c,
        company: 'New Co',
        city: null,
        status: 'inactive',
        tags: ['a', 'b'],
        version: 2,
        updated_by: { id: solo.userId, name: 'Sam' },
        updated_at: new Date(b.clock.now()).toISOString(),
      });
      expect((await owner.get(customerPath(c.id))).body).toEqual(r.body);
      const entries = await auditAbout(b.server.db, 'customer', c.id);
      expect(entries.map((e) => e.action)).toEqual(['customer.created', 'customer.updated']);
      expect(entries[1]).toMatchObject({ actor_id: solo.userId, target_label: c.name });
      expect(entries[1]!.changes).toEqual({
        company: { from: 'Old Co', to: 'New Co' },
        city: { from: 'Salem', to: null },
        status: { from: 'active', to: 'inactive' },
        tags: { from: ['a'], to: ['a', 'b'] },
      });
    });

    test('D31 a stale version is a 409 conflict carrying the current record, and nothing is written', async () => {
      const c = await owner.create();
      const first = await owner.patch(customerPath(c.id), { version: 1, name: 'First Save' });
      expect(first.status).toBe(200);
      await expectNoChange(b.server.db, async () => {
        for (const version of [1, 3, 99]) {
          const r = await owner.patch(customerPath(c.id), { version, name: 'Second Save' });
          expectError(r, 409, 'conflict');
          expect(r.body.current).toEqual(first.body);
        }
      });
    });

    test('D31 of several saves based on the same version at once, exactly one wins; the others are 409 conflict', async () => {
      const c = await owner.create();
      const answers = await Promise.all([1, 2, 3, 4, 5].map((i) => owner.patch(customerPath(c.id), { version: 1, city: `City ${i}` })));
      expect(answers.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409]);
      const winner = answers.find((r) => r.status === 200)!.body;
      for (const r of answers.filter((a) => a.status === 409)) expect(r.body).toMatchObject({ code: 'conflict', current: winner });
      expect(await actions(c.id)).toEqual(['customer.created', 'customer.updated']);
    });

    test('D31 a PATCH without version is a 400 missing_field naming version; a version of the wrong type is a 400 naming it', async () => {
      const c = await owner.create();
      await expectNoChange(b.server.db, async () => {
        expectFieldError(await owner.patch(customerPath(c.id), { name: 'No Version' }), 'version', 'missing_field');
        for (const version of ['1', 1.5, 0, -1, true, [1], { v: 1 }, 2 ** 53, 1e308]) {
          expectFieldError(await owner.patch(customerPath(c.id), { name: 'Bad Version', version }), 'version');
        }
      });
    });

    test('D31 a PATCH that changes nothing keeps the version and writes no audit entry', async () => {
      const c = await owner.create({ company: 'Same Co', tags: ['x'] });
      const mark = await lastAuditId(b.server.db);
      b.clock.advance(MINUTE);
      const r = await owner.patch(customerPath(c.id), { version: 1, name: ` ${c.name} `, email: c.email!.toUpperCase(), company: 'Same Co', tags: ['x'] });
      expect([r.status, r.body]).toEqual([200, c]);
      expect((await owner.patch(customerPath(c.id), { version: 1 })).body).toEqual(c);
      expect(await auditSince(b.server.db, mark)).toEqual([]);
    });

    test('D22 D19 PATCH checks fields as POST does: a bad value is a 400 naming the field, a hostile body a 4xx, and nothing changes', async () => {
      const c = await owner.create();
      await expectNoChange(b.server.db, async () => {
        const cases: [Record<string, unknown>, string, string?][] = [
          [{ name: '' }, 'name'],
          [{ name: null }, 'name'],
          [{ status: null }, 'status'],
          [{ status: 'gone' }, 'status'],
          [{ tags: null }, 'tags'],
          [{ email: 'x@' }, 'email'],
          [{ phone: '12' }, 'phone'],
          [{ city: 'a\nb' }, 'city'],
          [{ id: 5 }, 'id', 'unknown_field'],
          [{ updated_by: 1 }, 'updated_by', 'unknown_field'],
        ];
        for (const [fields, field, code] of cases) {
          expectFieldError(await owner.patch(customerPath(c.id), { version: 1, ...fields }), field, code);
        }
        for (const value of HOSTILE_VALUES) {
          for (const field of ['name', 'tags', 'email', 'status']) {
            expectClientError(await owner.patch(customerPath(c.id), { version: 99, [field]: value }), `${field}=${JSON.stringify(value).slice(0, 40)}`);
          }
        }
        for (const raw of HOSTILE_RAW_BODIES) expectClientError(await owner.send('PATCH', customerPath(c.id), raw), raw.slice(0, 40));
      });
    });
  });

  describe('D23 duplicates', () => {
    test('D23 a second live customer with the same email is a 409 duplicate_email naming the existing one', async () => {
      const [first, other] = [await owner.create(), await owner.create()];
      await expectNoChange(b.server.db, async () => {
        for (const r of [
          await owner.post(CUSTOMERS, { name: 'Second', email: first.email }),
          await owner.post(CUSTOMERS, { name: 'Second', email: ` ${first.email!.toUpperCase()} ` }),
          await owner.patch(customerPath(other.id), { version: 1, email: first.email!.toUpperCase() }),
        ]) {
          expectError(r, 409, 'duplicate_email');
          expect(r.body).toMatchObject({ field: 'email', existing: { id: first.id, name: first.name } });
        }
      });
    });

    test('D23 of several creations with one email at once, exactly one is saved; the others are 409 duplicate_email naming it', async () => {
      const email = uniqueEmail();
      const answers = await Promise.all([1, 2, 3, 4].map((i) => owner.post(CUSTOMERS, { name: `Racer ${i}`, email })));
      expect(answers.map((r) => r.status).sort()).toEqual([201, 409, 409, 409]);
      const winner = answers.find((r) => r.status === 201)!.body as unknown as Customer;
      for (const r of answers.filter((a) => a.status === 409)) {
        expectError(r, 409, 'duplicate_email');
        expect(r.body.existing, r.text).toEqual({ id: winner.id, name: winner.name });
      }
      expect(await b.server.db.query('select id from customers where email = $1', [email])).toHaveLength(1);
    });

    test("D23 a deleted customer's email, and another organization's, are free to use", async () => {
      const gone = await owner.create();
      expect((await owner.del(customerPath(gone.id))).status).toBe(204);
      expect((await owner.post(CUSTOMERS, { name: 'Reuses Email', email: gone.email })).status).toBe(201);
      expect((await (await signIn(b, 'owner@demo.test', BEACON)).post(CUSTOMERS, { name: 'Same Email Elsewhere', email: gone.email })).status).toBe(201);
    });

    test('D23 GET /duplicates/ lists live customers of this organization with the email or the phone digits however written, at most 5', async () => {
      const d = String(Date.now()).slice(-7);
      const same: Customer[] = [];
      for (const phone of [`${d.slice(0, 3)}-${d.slice(3)}`, `(${d.slice(0, 3)}) ${d.slice(3)}`, d, `${d.slice(0, 3)}.${d.slice(3)}`, `+${d}`, `${d} `])
        same.push(await owner.create({ phone }));
      await owner.del(customerPath((await owner.create({ phone: d })).id));
      await (await signIn(b, 'owner@demo.test', BEACON)).create({ phone: d, email: same[0]!.email });
      const look = async (query: string) => {
        const r = await owner.get(`${CUSTOMERS}duplicates/?${query}`);
        expect(r.status, r.text).toBe(200);
        return r.body.results as DuplicateMatch[];
      };
      const byPhone = await look(`phone=${encodeURIComponent(` ${d.slice(0, 3)} ${d.slice(3)} `)}`);
      expect(byPhone).toHaveLength(5);
      for (const m of byPhone)
        expect([Object.keys(m).sort(), m.match, same.some((c) => c.id === m.id)]).toEqual([['contact', 'email', 'id', 'match', 'name', 'phone'], 'phone', true]);
      const first = same[0]!;
      expect(await look(`email=${encodeURIComponent(first.email!.toUpperCase())}`)).toEqual([
        { id: first.id, name: first.name, email: first.email, phone: first.phone, match: 'email', contact: null },
      ]);
      expect(await look(`email=${encodeURIComponent(first.email!)}&exclude=${first.id}`)).toEqual([]);
      expect(await look(`email=${uniqueEmail()}&phone=123`)).toEqual([]);
      for (const query of ['exclude=abc', 'exclude=-1', `email=${'x'.repeat(300)}`, 'phone=%00', 'email=a&email=b'])
        expectClientError(await owner.get(`${CUSTOMERS}duplicates/?${query}`), query);
    });

    test('D23 the same name (case and accents folded, curly apostrophes as typed) is a possible duplicate too, reported after email and phone matches', async () => {
      const sfx = unique('');
      const named = await owner.create({ name: `Renée O’Brien ${sfx}` });
      const look = async (query: Record<string, string>) => {
        const r = await owner.get(`${CUSTOMERS}duplicates/?${new URLSearchParams(query)}`);
        expect(r.status, r.text).toBe(200);
        return (r.body.results as DuplicateMatch[]).map((m) => [m.id, m.match]);
      };
      for (const name of [`Renée O’Brien ${sfx}`, `RENEE O'BRIEN ${sfx}`, `  renée o'brien ${sfx} `, `Rene\u0301e O’brien ${sfx}`])
        expect(await look({ name }), name).toEqual([[named.id, 'name']]);
      // Only the whole name: a part of it, or more, is another name.
      expect(await look({ name: `Renée ${sfx}` })).toEqual([]);
      expect(await look({ name: `Renée O’Brien ${sfx} Jr` })).toEqual([]);
      expect(await look({ name: named.name, exclude: String(named.id) })).toEqual([]);
      // A customer matching by email is reported so, once, before one matching only by name.
      const mailed = await owner.create({ name: `Other ${sfx}` });
      const both = await owner.create({ name: `Renée O’Brien ${sfx}`, email: uniqueEmail() });
      expect(await look({ name: named.name, email: both.email!, exclude: String(mailed.id) })).toEqual([
        [both.id, 'email'],
        [named.id, 'name'],
      ]);
      // A warning, never a refusal: the same name saves; deleted customers and other organizations' never match.
      expect((await owner.post(CUSTOMERS, { name: named.name })).status).toBe(201);
      await owner.del(customerPath(both.id));
      const beacon = await signIn(b, 'owner@demo.test', BEACON);
      await beacon.create({ name: named.name });
      expect((await look({ name: named.name })).map(([, m]) => m)).toEqual(['name', 'name']);
      expectClientError(await owner.get(`${CUSTOMERS}duplicates/?name=${'x'.repeat(201)}`), 'a name over 200 characters');
    });
  });

  describe('D25 delete and restore', () => {
    test('D25 DELETE is soft: 204, then 404 to read, change or delete again; listed only under ?deleted=true with who and when', async () => {
      const c = await owner.create();
      b.clock.advance(MINUTE);
      const r = await owner.del(customerPath(c.id));
      expect([r.status, r.text]).toEqual([204, '']);
      expect(await row(c.id)).toMatchObject({ deleted_by: owner.userId, deleted_at: new Date(b.clock.now()) });
      for (const res of [await owner.get(customerPath(c.id)), await owner.patch(customerPath(c.id), { version: 1, name: 'x' }), await owner.del(customerPath(c.id))]) {
        expectError(res, 404, 'not_found');
      }
      expect((await owner.get(`${CUSTOMERS}?q=${encodeURIComponent(c.email!)}`)).body.count).toBe(0);
      const deleted = await owner.get(`${CUSTOMERS}?deleted=true&page_size=100`);
      expect((deleted.body.results as CustomerListItem[]).find((i) => i.id === c.id)).toMatchObject({
        name: c.name,
        deleted_at: new Date(b.clock.now()).toISOString(),
        deleted_by: { id: owner.userId, name: 'Olivia' },
      });
      expect(await actions(c.id)).toEqual(['customer.created', 'customer.deleted']);
    });

    test('D25 restore brings the customer back everywhere and writes customer.restored', async () => {
      const c = await owner.create();
      await owner.del(customerPath(c.id));
      const r = await restore(owner, c.id);
      expect(r).toMatchObject({ status: 200, body: { id: c.id, name: c.name, email: c.email } });
      expect((await owner.get(customerPath(c.id))).body).toEqual(r.body);
      expect((await owner.get(`${CUSTOMERS}?q=${encodeURIComponent(c.email!)}`)).body.count).toBe(1);
      expect(await actions(c.id)).toEqual(['customer.created', 'customer.deleted', 'customer.restored']);
      expect(await row(c.id)).toMatchObject({ deleted_at: null, deleted_by: null });
    });

    test('D25 restore is a 409 duplicate_email when its email now belongs to another live customer; it stays deleted', async () => {
      const c = await owner.create();
      await owner.del(customerPath(c.id));
      const taker = await owner.create({ email: c.email });
      await expectNoChange(b.server.db, async () => {
        const r = await restore(owner, c.id);
        expectError(r, 409, 'duplicate_email');
        expect(r.body.existing).toEqual({ id: taker.id, name: taker.name });
      });
      expectError(await owner.get(customerPath(c.id)), 404, 'not_found');
    });

    test('D25 restore is a 404 for a live customer and once 30 days have passed since the delete', async () => {
      expectError(await restore(owner, (await owner.create()).id), 404, 'not_found');
      const [early, late] = [await owner.create(), await owner.create()];
      await owner.del(customerPath(early.id));
      await owner.del(customerPath(late.id));
      b.clock.advance(29 * DAY);
      expect((await restore(await fresh(), early.id)).status).toBe(200);
      b.clock.advance(1 * DAY + MINUTE);
      await fresh();
      await expectNoChange(b.server.db, async () => expectError(await restore(owner, late.id), 404, 'not_found'));
      expect((await owner.get(`${CUSTOMERS}?deleted=true&page_size=100`)).body.results).not.toContainEqual(expect.objectContaining({ id: late.id }));
    });
  });

  describe('D9 D10 refusals', () => {
    test('D10 a viewer may only read, a member not delete, restore or see the deleted: 403 permission_denied, nothing written', async () => {
      const beacon = await signIn(b, 'owner@demo.test', BEACON);
      const [c, gone] = [await beacon.create(), await beacon.create()];
      await beacon.del(customerPath(gone.id));
      const viewer = await signIn(b, 'viewer@demo.test', BEACON);
      const member = await newActor(b, BEACON, 'member');
      expect((await viewer.get(customerPath(c.id))).status).toBe(200);
      expect((await member.patch(customerPath((await member.create()).id), { version: 1, city: 'Eugene' })).status).toBe(200);
      const refused: [Actor, (who: Actor) => Promise<Reply>, string][] = [
        [viewer, (w) => w.post(CUSTOMERS, { name: 'Nope' }), 'customers:create'],
        [viewer, (w) => w.patch(customerPath(c.id), { version: 1, name: 'Nope' }), 'customers:update'],
        ...[viewer, member].flatMap((who): [Actor, (w: Actor) => Promise<Reply>, string][] => [
          [who, (w) => w.del(customerPath(c.id)), 'customers:delete'],
          [who, (w) => restore(w, gone.id), 'customers:delete'],
          [who, (w) => w.get(`${CUSTOMERS}?deleted=true`), 'customers:delete'],
        ]),
      ];
      await expectNoChange(b.server.db, async () => {
        for (const [who, call, permission] of refused) {
          const r = await call(who);
          expectError(r, 403, 'permission_denied');
          expect(r.body.detail).toContain(permission);
        }
      });
    });

    test('D9 every customer route: no token is a 401 and a non-member a 403 not_a_member, before anything else', async () => {
      const c = await owner.create();
      const stranger = inOrg(b, await newActor(b, BEACON, 'owner'), owner.org);
      const calls: [string, string, unknown?][] = [
        ['POST', CUSTOMERS, { name: 'x' }],
        ['GET', customerPath(c.id)],
        ['PATCH', customerPath(c.id), { version: 1 }],
        ['DELETE', customerPath(c.id)],
        ['POST', customerPath(c.id, 'restore/')],
        ['GET', `${CUSTOMERS}duplicates/?email=${c.email!}`],
        ['GET', `${CUSTOMERS}?deleted=true`],
      ];
      await expectNoChange(b.server.db, async () => {
        for (const [method, path, body] of calls) {
          expectError(await b.api.request(path, { method, headers: { 'X-Organization-ID': String(owner.org) } }), 401, 'not_authenticated');
          expectError(await stranger.send(method, path, body), 403, 'not_a_member');
        }
      });
    });

    test("D9 another organization's customer id is a 404 on every route that takes one, and nothing changes", async () => {
      const beacon = await signIn(b, 'owner@demo.test', BEACON);
      const [theirs, theirGone] = [await beacon.create(), await beacon.create()];
      await beacon.del(customerPath(theirGone.id));
      const calls: [string, string, unknown?][] = [
        ['GET', customerPath(theirs.id)],
        ['PATCH', customerPath(theirs.id), { version: 1, name: 'Hijacked' }],
        ['DELETE', customerPath(theirs.id)],
        ['POST', customerPath(theirGone.id, 'restore/')],
        ['GET', customerPath(theirs.id, 'notes/')],
        ['POST', customerPath(theirs.id, 'notes/'), { body: 'x' }],
        ['GET', customerPath(theirs.id, 'timeline/')],
      ];
      await expectNoChange(b.server.db, async () => {
        for (const [method, path, body] of calls) expectError(await owner.send(method, path, body), 404, 'not_found');
      });
      expect((await owner.get(`${CUSTOMERS}duplicates/?email=${encodeURIComponent(theirs.email!)}`)).body).toEqual({ results: [] });
    });

    test('D19 a malformed or impossible id is a 400 or 404 on every route, never a 500', async () => {
      for (const id of ['0', '-1', 'abc', '1.5', '1e3', '%20', '99999999999999999999', '2147483648', '9007199254740993', '%00', "1'", unique()]) {
        for (const [method, rest] of [
          ['GET', ''],
          ['PATCH', ''],
          ['DELETE', ''],
          ['POST', 'restore/'],
          ['GET', 'notes/'],
          ['GET', 'timeline/'],
        ] as const) {
          const r = await owner.send(method, customerPath(id, rest), method === 'PATCH' ? { version: 1 } : undefined);
          expectClientError(r, `${method} ${id}/${rest}`);
          expect([400, 404], `${method} ${id}/${rest}`).toContain(r.status);
        }
      }
    });
  });
});
