// D26 GET /v1/customers/ at scale, on each database: the answer's JSON as the database builds it (the bytes
// JSON.stringify wrote before), a search's bounded count (LIST_COUNT_BOUND lowered to 5 here), and pages
// that keep every sort's order and ties page after page.
import { ITEM_COLUMNS } from '../../server/customer-list';
import { beforeAll, describe, expect, test } from 'vitest';
import { CUSTOMER_SORTS, SERVICE_SORTS, type CustomerListItem, type CustomerSort } from '../../contract/customers';
import { CUSTOMERS, SUITE_ENV } from './api-common';
import { forEachBackend, type Backend } from './backends';
import { signIn, unique, warmUp, type Actor } from './customers-common';
import { newOrg } from './people';

const BOUND = 5;

forEachBackend(
  'API customers list: pages and counts',
  (backend) => {
    let b: Backend;
    beforeAll(async () => {
      b = backend();
      await warmUp(b);
    });

    /** An organization of the test's own holding `rows` (SQL values lists of name, city, created_at, updated_at, tags). */
    async function orgWith(rows: [string, string, string, string, string[] | null][]): Promise<{ who: Actor; org: number }> {
      const org = await newOrg(b.server.db, 'List');
      const [user] = await b.server.db.query<{ id: unknown }>("select id from users where email = 'owner@demo.test'");
      await b.server.db.query("insert into memberships (user_id, org_id, role) values ($1, $2, 'owner')", [Number(user?.id), org.id]);
      for (const [i, [name, city, created, updated, tags]] of rows.entries()) {
        await b.server.db.query('insert into customers (org_id, name, city, created_at, updated_at, tags, status) values ($1, $2, $3, $4, $5, $6, $7)', [
          org.id,
          name,
          city,
          created,
          updated,
          (tags ?? []) as never,
          i % 3 === 0 ? 'lead' : 'active',
        ]);
      }
      return { who: await signIn(b, 'owner@demo.test', org.name), org: org.id };
    }

    /** Set-up, bulk work: without the server's statement timeout, which a starved machine can pass (D34). */
    async function bulk(sql: string, params: unknown[]): Promise<void> {
      await b.server.db.transaction((tx) => tx.query(sql, params as never), { statementTimeoutMs: 0 });
    }

    /** The ids of the organization's live customers in a sort's order (id breaks ties), straight from the database. */
    async function idsInOrder(org: number, sort: CustomerSort, where = 'true', params: unknown[] = []): Promise<number[]> {
      const column = { name: 'name_key', created_at: 'created_at', updated_at: 'updated_at', status: 'status', city: 'city_key' }[sort.replace('-', '') as 'name'];
      const dir = sort.startsWith('-') ? 'desc' : 'asc';
      const rows = await b.server.db.query<{ id: unknown }>(
        `select id from customers where org_id = $1 and deleted_at is null and ${where} order by ${column} ${dir}, id ${dir}`,
        [org, ...params] as never,
      );
      return rows.map((r) => Number(r.id));
    }

    describe('D26 the answer', () => {
      test('D26 the list is JSON built by the database: the same bytes JSON.stringify wrote (text, nulls, tags, timestamps to the millisecond)', async () => {
        const odd = ['Quote " and back\\slash', 'Émile 😀 Ærø', 'Line\u2028separator </script>', 'plain'];
        const { who, org } = await orgWith(
          odd.map((name, i) => [
            name,
            i % 2 ? 'Town' : '',
            `2024-01-0${i + 1} 03:04:05.678999+00`,
            `2024-02-0${i + 1} 10:00:00.000500+00`,
            i % 2 ? ['a "tag"', 'b'] : null,
          ]),
        );
        await b.server.db.query("update customers set city = null, email = 'x@example.test', phone = '+1 503 555 0100' where org_id = $1 and name = 'plain'", [org]);
        const rows = await b.server.db.query<Record<string, unknown>>(
          `select ${ITEM_COLUMNS} from customers c where c.org_id = $1`, // the columns toItem reads, in its order
          [org],
        );
        const item = (r: Record<string, unknown>): CustomerListItem => ({
          ...(r as unknown as CustomerListItem),
          id: Number(r.id),
          tags: (r.tags as string[] | null) ?? [],
          created_at: (r.created_at as Date).toISOString(),
          updated_at: (r.updated_at as Date).toISOString(),
        });
        for (const query of ['sort=name', 'sort=-updated_at&page_size=2&page=2', 'q=town', 'tag=B', 'status=lead']) {
          const r = await who.get(`${CUSTOMERS}?${query}`);
          expect(r.status, r.text).toBe(200);
          const order = (r.body.results as CustomerListItem[]).map((c) => c.id);
          expect(order.length, query).toBeGreaterThan(0);
          const expected = { count: r.body.count, results: order.map((id) => item(rows.find((x) => Number(x.id) === id)!)) };
          expect(r.text, query).toBe(JSON.stringify(expected));
          expect(r.headers.get('content-type')).toBe('application/json; charset=utf-8');
          expect(Number(r.headers.get('content-length'))).toBe(Buffer.byteLength(r.text));
        }
      });
    });

    describe(`D26 a search's count stops at LIST_COUNT_BOUND (${BOUND} here) or at the page's end, whichever is further`, () => {
      test("D26 past the bound the answer says 'more than' (count_exact: false, count the bound); within it the count is exact and count_exact absent", async () => {
        const town = unique('Bound');
        const rows = Array.from(
          { length: 12 },
          (_, i) =>
            [`Person ${String(i).padStart(2, '0')}`, i < 4 ? `Other ${town}` : town, '2024-01-01', '2024-01-01', ['t']] as [string, string, string, string, string[]],
        );
        const { who, org } = await orgWith(rows);
        const page = async (query: string) => {
          const r = await who.get(`${CUSTOMERS}?${query}`);
          expect(r.status, r.text).toBe(200);
          return { count: r.body.count, exact: r.body.count_exact, keys: Object.keys(r.body), ids: (r.body.results as CustomerListItem[]).map((c) => c.id) };
        };
        // All 12 are found by the town's name (4 live in 'Other …'), in name order.
        const anywhere = await idsInOrder(org, 'name');
        expect(anywhere).toHaveLength(12);
        expect(await page(`q=${town}&page_size=2`)).toEqual({ count: BOUND, exact: false, keys: ['count', 'count_exact', 'results'], ids: anywhere.slice(0, 2) });
        // A page further than the bound counts to its own end: more than (page × size).
        expect(await page(`q=${town}&page_size=2&page=4`)).toEqual({ count: 8, exact: false, keys: ['count', 'count_exact', 'results'], ids: anywhere.slice(6, 8) });
        // Counting past the last match is exact again; past the end, an empty page with the count.
        expect(await page(`q=${town}&page_size=2&page=6`)).toEqual({ count: 12, exact: undefined, keys: ['count', 'results'], ids: anywhere.slice(10, 12) });
        expect(await page(`q=${town}&page_size=2&page=9`)).toEqual({ count: 12, exact: undefined, keys: ['count', 'results'], ids: [] });
        // Few matches: exact; the tag filter is bounded the same way; browsing (counted in customer_counts) always exact.
        expect(await page(`q=${encodeURIComponent(`other ${town}`)}&page_size=2`)).toEqual({
          count: 4,
          exact: undefined,
          keys: ['count', 'results'],
          ids: anywhere.slice(0, 2),
        });
        expect(await page('tag=T&page_size=3')).toEqual({ count: BOUND, exact: false, keys: ['count', 'count_exact', 'results'], ids: anywhere.slice(0, 3) });
        expect(await page('page_size=2')).toEqual({ count: 12, exact: undefined, keys: ['count', 'results'], ids: anywhere.slice(0, 2) });
      });
    });

    describe('D26 pages keep the order', () => {
      test('D26 D48 every sort, with ties on its key, pages through the same rows as the full order (id breaks ties), browsing and searching past the bound', async () => {
        // Ties everywhere: three names, two creation times, two update times, each shared by several customers.
        const town = unique('Ties');
        const rows = Array.from(
          { length: 11 },
          (_, i) =>
            [['Ann Lee', 'bob ray', 'Ann lee'][i % 3]!, town, `2024-03-0${1 + (i % 2)} 10:00:00+00`, `2024-04-0${1 + (i % 4 === 0 ? 1 : 0)} 09:00:00+00`, null] as [
              string,
              string,
              string,
              string,
              null,
            ],
        );
        const { who, org } = await orgWith(rows);
        for (const sort of [...CUSTOMER_SORTS, ...SERVICE_SORTS]) {
          for (const [filter, where] of [
            ['', 'true'],
            [`&q=${town}`, 'true'],
            ['&status=active', "status = 'active'"],
          ] as const) {
            const expected = await idsInOrder(org, sort, where);
            const seen: number[] = [];
            for (let p = 1; p <= Math.ceil(expected.length / 3) + 1; p++) {
              const r = await who.get(`${CUSTOMERS}?sort=${sort}&page_size=3&page=${p}${filter}`);
              expect(r.status, r.text).toBe(200);
              seen.push(...(r.body.results as CustomerListItem[]).map((c) => c.id));
            }
            expect(seen, `${sort}${filter}`).toEqual(expected);
          }
        }
      });

      test("D26 D45 a search past the bound pages alike however its page is read: its matches up to the bound, or every match up to the page's edge in them", async () => {
        // 6,000 customers, 60 of them in the town (with tied names and times): the first pages read the
        // matches up to the edge the bound's sample gives (the sample is in the table's order, so by
        // -created_at most of the page is not in it), and the last page, counted to its end, is exact and
        // sorts the matches read for the count. D46 D47: a third of them are in the town only through a
        // location or a contact's name.
        const { who, org } = await orgWith([]);
        const town = unique('Walk');
        await bulk(
          `insert into customers (org_id, name, city, created_at) select $1::integer, 'P ' || (g % 7), case when g % 100 = 0 and g % 300 <> 0 then $2 else 'Elsewhere' end,
                '2024-01-01'::timestamptz + make_interval(days => g % 5) from generate_series(1, 6000) g`,
          [org, town],
        );
        const others = `org_id = $1 and city = 'Elsewhere'`;
        await bulk(`insert into customer_locations (org_id, customer_id, city) select org_id, id, $2 from customers where ${others} order by id offset 10 limit 10`, [
          org,
          town,
        ]);
        await bulk(
          `insert into customer_contacts (org_id, customer_id, name) select org_id, id, 'Site lead at ' || $2 from customers where ${others} order by id desc offset 10 limit 10`,
          [org, town],
        );
        // Many locations elsewhere (each customer's parts_key, migration 15), none of them in the town.
        await bulk(`insert into customer_locations (org_id, customer_id, city) select org_id, id, 'Nowhere' from customers where ${others}`, [org]);
        for (const sort of ['name', '-created_at'] as const) {
          const inTown = `(city = $2 or id in (select customer_id from customer_locations where city = $2) or id in (select customer_id from customer_contacts where name like '%' || $2))`;
          const expected = await idsInOrder(org, sort, inTown, [town]);
          expect(expected).toHaveLength(60);
          for (const page of [1, 2, 10, 29, 30, 31]) {
            const r = await who.get(`${CUSTOMERS}?q=${town}&sort=${sort}&page_size=2&page=${page}`);
            expect(r.status, r.text).toBe(200);
            expect(
              (r.body.results as CustomerListItem[]).map((c) => c.id),
              `${sort} page ${page}`,
            ).toEqual(expected.slice((page - 1) * 2, page * 2));
            expect([r.body.count, r.body.count_exact], `${sort} page ${page}`).toEqual(page >= 30 ? [60, undefined] : [Math.max(BOUND, page * 2), false]);
          }
        }
      });

      test("D26 D45 matches bunched at either end of the sort page alike past the bound: the page's edge is in its matches, not a share of the table", async () => {
        // 5,200 names that do not match, then 12 that do, all of them last by name (first by -name): a page
        // read by walking the sort's order testing rows (as the list once did) would read 5,200 rows for
        // nothing; the edge the bound's sample gives holds the page whichever end the matches are at.
        const { who, org } = await orgWith([]);
        const word = unique('Bunch').toLowerCase();
        await bulk(
          `insert into customers (org_id, name) select $1::integer, case when g > 5200 then 'Zz ' || $2 || ' ' || g else 'Aa ' || g end from generate_series(1, 5212) g`,
          [org, word],
        );
        for (const sort of ['name', '-name'] as const) {
          const expected = await idsInOrder(org, sort, "name like '%' || $2 || '%'", [word]);
          expect(expected).toHaveLength(12);
          for (const page of [1, 2, 3]) {
            const r = await who.get(`${CUSTOMERS}?q=${word}&sort=${sort}&page_size=2&page=${page}`);
            expect(r.status, r.text).toBe(200);
            expect(
              (r.body.results as CustomerListItem[]).map((c) => c.id),
              `${sort} page ${page}`,
            ).toEqual(expected.slice((page - 1) * 2, page * 2));
            expect([r.body.count, r.body.count_exact]).toEqual([Math.max(BOUND, page * 2), false]);
          }
        }
      });
    });
  },
  { env: { ...SUITE_ENV, LIST_COUNT_BOUND: String(BOUND) } },
);
