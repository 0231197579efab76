// D56 D26: the customers list by custom field: equals, contains, range and is-empty conditions (cf.<key>…),
// a sort by a field's value (ties by id, no value last), the search finding custom text, and the refusals
// (400 naming the parameter) for unknown keys, archived fields, conditions a type does not take and values
// of the wrong type.
import { beforeAll, describe, expect, test } from 'vitest';
import type { CustomField } from '../../contract/custom-fields';
import type { CustomerListItem } from '../../contract/customers';
import { CUSTOMERS, expectError, SUITE_ENV } from './api-common';
import { forEachBackend, type Backend } from './backends';
import { customerPath, ownerOfNewOrg, warmedUp, type Actor } from './customers-common';
import { addField, fieldPath } from './custom-fields-common';

forEachBackend('API customers list by custom field', (backend) => {
  let b: Backend;
  let o: Actor;
  const f: Record<string, CustomField> = {};
  const ids: Record<string, number> = {};
  beforeAll(async () => {
    b = await warmedUp(backend);
    o = await ownerOfNewOrg(b, 'CustomList');
    const options = { options: [{ label: 'Gold' }, { label: 'Silver' }] };
    for (const [key, type, more] of [
      ['model', 'text', {}],
      ['notes', 'long_text', {}],
      ['amps', 'number', {}],
      ['since', 'date', {}],
      ['pets', 'yes_no', {}],
      ['plan', 'choice', options],
      ['extras', 'choices', options],
      ['old', 'text', {}],
    ] as const)
      f[key] = await addField(o, { label: `${key.toUpperCase()} field`, key, type, ...more });
    const people: [string, Record<string, unknown>][] = [
      ['Ada', { model: 'Rheem XE50', amps: 200, since: '2024-03-01', pets: true, plan: 'o1', extras: ['o1', 'o2'], notes: 'Blue gate, ring twice' }],
      ['Bea', { model: 'rhéem xe50', amps: 100, since: '2023-12-31', pets: false, plan: 'o2', old: 'zebrafish' }],
      ['Cy', { model: 'Bradford White', amps: 100.5, since: '2024-06-15', extras: ['o2'] }],
      ['Dee', { amps: -5 }],
      ['Eve', {}],
    ];
    for (const [name, custom] of people) ids[name] = (await o.create({ name, custom })).id;
    const r = await o.post(fieldPath(f.old!.id, 'archive/'));
    expect(r.status, r.text).toBe(200);
  });
  const list = async (query: string) => {
    const r = await o.get(`${CUSTOMERS}?${query}`);
    expect(r.status, r.text).toBe(200);
    return r.body as { count: number; results: CustomerListItem[] };
  };
  const names = async (query: string) => (await list(query)).results.map((c) => c.name);

  describe('D56 conditions', () => {
    test('D56: equals finds text folded as names are, a number, a date, yes/no, a choice and an option of several', async () => {
      expect(await names('cf.model=RHEEM%20XE50')).toEqual(['Ada', 'Bea']);
      expect(await names('cf.model=Rheem')).toEqual([]);
      expect(await names('cf.amps=100')).toEqual(['Bea']);
      expect(await names('cf.amps=100.5')).toEqual(['Cy']);
      expect(await names('cf.since=2024-03-01')).toEqual(['Ada']);
      expect(await names('cf.pets=false')).toEqual(['Bea']);
      expect(await names('cf.plan=o2')).toEqual(['Bea']);
      expect(await names('cf.extras=o2')).toEqual(['Ada', 'Cy']);
      const one = await list('cf.extras=o1');
      expect(one.count).toBe(1);
    });

    test('D56: contains finds a fragment of a text or long text field, folded; nothing in other fields', async () => {
      expect(await names('cf.model.contains=HEEM')).toEqual(['Ada', 'Bea']);
      expect(await names('cf.notes.contains=ring%20tw')).toEqual(['Ada']);
      expect(await names('cf.notes.contains=rheem')).toEqual([]);
    });

    test('D56: a range takes either end or both, ends included (numbers as numbers, dates as dates)', async () => {
      expect(await names('cf.amps.from=100&cf.amps.to=150')).toEqual(['Bea', 'Cy']);
      expect(await names('cf.amps.to=0')).toEqual(['Dee']);
      expect(await names('cf.amps.from=150')).toEqual(['Ada']);
      expect(await names('cf.since.from=2024-01-01')).toEqual(['Ada', 'Cy']);
      expect(await names('cf.since.from=2023-12-31&cf.since.to=2024-03-01')).toEqual(['Ada', 'Bea']);
    });

    test("D56: is empty and has a value; conditions add up, with the list's own filters too", async () => {
      expect(await names('cf.model.empty=true')).toEqual(['Dee', 'Eve']);
      expect(await names('cf.model.empty=false')).toEqual(['Ada', 'Bea', 'Cy']);
      expect(await names('cf.model.empty=false&cf.amps=100')).toEqual(['Bea']);
      expect(await names('cf.model.empty=false&q=cy')).toEqual(['Cy']);
      expect((await list('cf.extras.empty=true')).count).toBe(3);
      expect(await names('cf.extras.empty=false')).toEqual(['Ada', 'Cy']);
      // 'No' is a value; so is a number below zero.
      expect(await names('cf.pets.empty=true')).toEqual(['Cy', 'Dee', 'Eve']);
      expect(await names('cf.amps.empty=false')).toEqual(['Ada', 'Bea', 'Cy', 'Dee']);
    });

    test('D56: a deleted customer is in no condition, and back when restored', async () => {
      expect((await o.del(customerPath(ids.Cy!))).status).toBe(204);
      expect(await names('cf.amps.from=100')).toEqual(['Ada', 'Bea']);
      expect(await names('cf.model.empty=true')).toEqual(['Dee', 'Eve']);
      expect((await o.post(customerPath(ids.Cy!, 'restore/'))).status).toBe(200);
      expect(await names('cf.amps.from=100')).toEqual(['Ada', 'Bea', 'Cy']);
    });

    test('D56: a changed value is found by its new value only', async () => {
      const c = (await o.get(customerPath(ids.Dee!))).body;
      const r = await o.patch(customerPath(ids.Dee!), { version: c.version, custom: { amps: 7 } });
      expect(r.status, r.text).toBe(200);
      expect(await names('cf.amps=7')).toEqual(['Dee']);
      expect(await names('cf.amps=-5')).toEqual([]);
    });
  });

  describe('D56 sort', () => {
    test('D56: sort by a number either way, ties by id, customers without a value last', async () => {
      const c = (await o.get(customerPath(ids.Dee!))).body;
      await o.patch(customerPath(ids.Dee!), { version: c.version, custom: { amps: 100 } });
      expect(await names('sort=cf.amps')).toEqual(['Bea', 'Dee', 'Cy', 'Ada', 'Eve']);
      expect(await names('sort=-cf.amps')).toEqual(['Ada', 'Cy', 'Dee', 'Bea', 'Eve']);
    });

    test('D56: sort by text folded, by date, by yes/no; pages continue where the last ended', async () => {
      expect(await names('sort=cf.model')).toEqual(['Cy', 'Ada', 'Bea', 'Dee', 'Eve']);
      expect(await names('sort=-cf.since')).toEqual(['Cy', 'Ada', 'Bea', 'Eve', 'Dee']); // without a value: by id, this way too
      expect(await names('sort=cf.pets')).toEqual(['Bea', 'Ada', 'Cy', 'Dee', 'Eve']);
      const pages = [];
      for (const page of [1, 2, 3]) pages.push(...(await names(`sort=-cf.amps&page_size=2&page=${page}`)));
      expect(pages).toEqual(await names('sort=-cf.amps'));
      const page2 = await list('sort=cf.amps&page_size=2&page=2');
      expect(page2.count).toBe(5);
    });

    test('D56: customers without a value follow by id, whatever their status, in pages too', async () => {
      const other = await ownerOfNewOrg(b, 'CustomListStatuses');
      await addField(other, { label: 'Contract', key: 'contract', type: 'text' });
      for (const [name, status, custom] of [
        ['Ann', 'lead', {}],
        ['Ben', 'inactive', {}],
        ['Cat', 'active', { contract: 'SC-1' }],
        ['Dan', 'lead', {}],
        ['Eli', 'active', {}],
      ] as const)
        await other.create({ name, status, custom });
      const namesOf = async (query: string) => {
        const r = await other.get(`${CUSTOMERS}?${query}`);
        expect(r.status, r.text).toBe(200);
        return (r.body as { results: CustomerListItem[] }).results.map((c) => c.name);
      };
      expect(await namesOf('sort=cf.contract')).toEqual(['Cat', 'Ann', 'Ben', 'Dan', 'Eli']);
      expect(await namesOf('sort=-cf.contract')).toEqual(['Cat', 'Eli', 'Dan', 'Ben', 'Ann']);
      const pages = [];
      for (const page of [1, 2, 3]) pages.push(...(await namesOf(`sort=-cf.contract&page_size=2&page=${page}`)));
      expect(pages).toEqual(['Cat', 'Eli', 'Dan', 'Ben', 'Ann']);
    });

    test('D56: sort with a condition counts and orders only the matches', async () => {
      const r = await list('sort=-cf.amps&cf.model.empty=false');
      expect(r.results.map((c) => c.name)).toEqual(['Ada', 'Cy', 'Bea']);
      expect(r.count).toBe(3);
    });
  });

  describe('D56 search', () => {
    test("D56: q finds a live text field's value, folded; not a choice id, not an archived field's value", async () => {
      expect(await names('q=bradford')).toEqual(['Cy']);
      expect(await names('q=BLUE%20GATE')).toEqual(['Ada']);
      expect(await names('q=zebrafish')).toEqual([]);
      expect(await names('q=2024-06')).toEqual([]);
    });
  });

  describe('D56 the export and bulk actions', () => {
    test('D56 D27 D58: the export and a bulk action over the matches take the same conditions', async () => {
      const csv = await o.get(`${CUSTOMERS}export.csv?cf.amps.from=100&cf.amps.to=100`);
      expect(csv.status).toBe(200);
      const lines = csv.text.trim().split(/\r?\n/).slice(1);
      expect(lines.map((l) => l.split(',')[0]).sort()).toEqual(['Bea', 'Dee']);
      const r = await o.post(`${CUSTOMERS}bulk/`, { filter: 'cf.model.contains=rheem', count: 2, action: 'add_tag', tag: 'rheem' });
      expect(r.status, r.text).toBe(200);
      expect(await names('tag=rheem')).toEqual(['Ada', 'Bea']);
      expectError(await o.post(`${CUSTOMERS}bulk/`, { filter: 'cf.nope=1', count: 1, action: 'add_tag', tag: 'x' }), 400);
    });
  });

  describe('D56 long text', () => {
    test('D56: equals tells apart texts alike in their first 200 characters', async () => {
      await addField(o, { label: 'Long equals', key: 'long_eq', type: 'text' });
      const base = 'x'.repeat(200);
      await o.create({ name: 'Lee', custom: { long_eq: `${base}A` } });
      await o.create({ name: 'Lou', custom: { long_eq: `${base}B` } });
      expect(await names(`cf.long_eq=${base}b`)).toEqual(['Lou']);
      expect(await names(`cf.long_eq=${base}`)).toEqual([]);
    });
  });

  describe('D56 refusals', () => {
    test.each([
      ['cf.nope=1', 'cf.nope', 'unknown_field'],
      ['cf.old=zebrafish', 'cf.old', undefined],
      ['cf.amps=ten', 'cf.amps', undefined],
      ['cf.amps.from=1e3', 'cf.amps.from', undefined],
      ['cf.since=2024-02-30', 'cf.since', undefined],
      ['cf.pets=yes', 'cf.pets', undefined],
      ['cf.plan=o9', 'cf.plan', undefined],
      ['cf.model.from=a', 'cf.model.from', undefined],
      ['cf.notes=x', 'cf.notes', undefined],
      ['cf.model.contains=ab', 'cf.model.contains', undefined],
      ['cf.model.empty=maybe', 'cf.model.empty', undefined],
      ['cf.model.near=x', 'cf.model.near', 'unknown_field'],
      ['cf.Bad-Key=x', 'cf.Bad-Key', 'unknown_field'],
      ['cf.model=a&cf.model=b', 'cf.model', undefined],
      ['sort=cf.nope', 'sort', 'unknown_field'],
      ['sort=cf.old', 'sort', undefined],
      ['sort=-cf.extras', 'sort', undefined],
    ])('D56: %s is a 400 naming %s', async (query, field, code) => {
      const r = await o.get(`${CUSTOMERS}?${query}`);
      expectError(r, 400, code);
      expect(r.body.field).toBe(field);
    });

    test('D56: more than 10 conditions is a 400', async () => {
      const q = Array.from({ length: 11 }, (_, i) => `cf.k${i}=1`).join('&');
      expectError(await o.get(`${CUSTOMERS}?${q}`), 400);
    });
  });
});

// With the count's bound lowered to 2, a filter matches 'many': a sort by field then walks the field's values.
forEachBackend(
  'API customers list sorted by custom field, past the bound',
  (backend) => {
    let o: Actor;
    const ids: number[] = [];
    beforeAll(async () => {
      const b = await warmedUp(backend);
      o = await ownerOfNewOrg(b, 'CustomSortBound');
      for (const key of ['amps', 'third', 'even']) await addField(o, { label: key, key, type: key === 'amps' ? 'number' : 'text' });
      for (let i = 1; i <= 12; i++) {
        const custom = { ...(i % 2 ? { amps: i % 5 } : { even: 'yes' }), ...(i % 3 ? {} : { third: 'yes' }) };
        ids.push((await o.create({ name: `P${i}`, custom })).id);
      }
    });
    /** The list's order: values in order (ties by id), then the others by id, each in the sort's direction. */
    const expected = (match: (i: number) => boolean, dir: 1 | -1) => {
      const all = ids.map((id, k) => ({ id, i: k + 1 })).filter(({ i }) => match(i));
      const valued = all.filter(({ i }) => i % 2).sort((a, b) => dir * ((a.i % 5) - (b.i % 5) || a.id - b.id));
      const others = all.filter(({ i }) => !(i % 2)).sort((a, b) => dir * (a.id - b.id));
      return [...valued, ...others].map(({ id }) => id);
    };
    const pages = async (query: string, n: number) => {
      const got: number[] = [];
      for (let page = 1; page <= n; page++) {
        const r = await o.get(`${CUSTOMERS}?${query}&page_size=2&page=${page}`);
        expect(r.status, r.text).toBe(200);
        got.push(...(r.body.results as CustomerListItem[]).map((c) => c.id));
      }
      return got;
    };

    test("D56: sorted with a filter matching many, pages follow the field's order, the others after", async () => {
      expect(await pages('sort=cf.amps&cf.third.empty=true', 4)).toEqual(expected((i) => i % 3 !== 0, 1));
      expect(await pages('sort=-cf.amps&cf.third.empty=true', 4)).toEqual(expected((i) => i % 3 !== 0, -1));
    });

    test('D56: sorted with a filter whose matches hold no value, the list is the others by id', async () => {
      expect(await pages('sort=-cf.amps&cf.even.empty=false', 3)).toEqual(expected((i) => i % 2 === 0, -1));
    });
  },
  { env: { ...SUITE_ENV, LIST_COUNT_BOUND: '2' } },
);
