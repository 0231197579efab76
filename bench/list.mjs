// The customers list at scale: 200,000 customers in one organization ("Acme Plumbing"), on PGlite and on
// PostgreSQL. The built server starts with SEED=demo; the customers are then inserted with one SQL
// statement, and their 400,000 locations and 100,000 contacts with one each (lib/list-parts.mjs, which
// checks that primary cities, city keys and search keys read as the app's writes leave them)
// (PostgreSQL: through the `postgres` package while the server runs; PGlite: the server is stopped, the
// data directory opened with @electric-sql/pglite, and the server restarted), followed by
// VACUUM ANALYZE, as autovacuum or the server's housekeeping would do on a live database. Then GET
// /api/v1/customers/ as owner@demo.test for: no search (page after page), name fragments, phone digits,
// the same digits written another way, pages from 4000 on (page size 25), and (D45) a number with its
// country code, a city, accents folded and a tag in another case, and (issue 19, D46 D47) a location's
// city that is no billing city, a contact's phone and a contact's email; each up to 200 requests one
// at a time, then up to 200 at a few at once, no two of a case alike (see CASES); a case stops early
// after LIST_MAX_S seconds and says how many requests it got. Issue 38 (D59): the list, searches and the
// dashboard as solo@demo.test, whose member role sees only the 2,000 customers assigned to them.
//   node bench/list.mjs [--check]          (npm run bench:list)
//   LIST_COUNT=200000 LIST_CONTACTS=100000 LIST_PERSONS=200000 LIST_REQUESTS=200 LIST_CONCURRENCY=4 LIST_MAX_S=20 LIST_CASES=regex
//   LIST_BACKENDS=pglite,postgres (both by default)
// Budget (issue 21): p99 ≤ 50 ms on PostgreSQL, ≤ 100 ms on PGlite (checked for both the sequential and the
// concurrent runs). With --check the exit code is 1 on any MISS.
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { build } from '../build.mjs';
import { authHeaders, CUSTOMERS, login, orgIdOf, ORG_NAME, OWNER } from './lib/crm.mjs';
import { json, request } from './lib/http.mjs';
import { fixedLoadInWorker } from './lib/load.mjs';
import { openPglite } from './lib/fill.mjs';
import { envNumber, table, Verdicts } from './lib/report.mjs';
import { fmtCounts, fmtMs, summarize } from './lib/stats.mjs';
import { backendsFrom, onBackends, withCrm } from './lib/backends.mjs';
import { contactEmail, contactPhone, insertParts, LOCATION_CITIES, primaryCitySql } from './lib/list-parts.mjs';
import { CUSTOM_CASES, customSql, insertFields, INSERT_PERSONS_SQL, personCases, PERSONS_ORG } from './lib/list-custom.mjs';

const COUNT = envNumber('LIST_COUNT', 200_000);
const REQUESTS = envNumber('LIST_REQUESTS', 200);
const CONCURRENCY = envNumber('LIST_CONCURRENCY', 4);
const MAX_S = envNumber('LIST_MAX_S', 20);
/** Issue 19: contacts beside the customers (locations are 2 per customer on average, lib/list-parts.mjs). */
const CONTACTS = envNumber('LIST_CONTACTS', Math.min(100_000, Math.floor(COUNT / 2)));
/** Issue 36: customers named 'Person <32 hex digits>' in the other organization (lib/list-custom.mjs). */
const PERSONS = envNumber('LIST_PERSONS', COUNT);
/** LIST_CASES=regex: only the cases whose name matches (e.g. LIST_CASES='phone|city'). */
const ONLY_CASES = process.env.LIST_CASES ? new RegExp(process.env.LIST_CASES, 'i') : null;
const BUDGET_P99_MS = { PGlite: 100, PostgreSQL: 50 };
/** Issue 38 (D59): the scoped member, and one customer in how many assigned to them. */
const SCOPED = 'solo@demo.test';
const ASSIGNED_EVERY = 100;

// Every request of a case asks for something else, as people do (the database's own caches would flatter
// a request repeated word for word).
// `query(i)` is request i's query string (i counts on across the sequential and the concurrent runs, so
// no two requests of a case are the same); `first` is shown as the example.
const pad4 = (n) => String(n).padStart(4, '0');
/** Line numbers 0000–9999 in a scattered order (37 is prime to 10,000). */
const line = (i) => pad4((123 + i * 37) % 10_000);
const CASES = [
  { name: 'no search, pages 1, 2, 3, …', query: (i) => `?page=${1 + i}` },
  {
    name: 'name fragments ("ann", "mar", …)',
    query: (i) => `?q=${encodeURIComponent(FRAGMENTS[i % FRAGMENTS.length] ?? '')}${i < FRAGMENTS.length ? '' : `&page=${1 + Math.floor(i / FRAGMENTS.length)}`}`,
  },
  { name: 'phone digits ("5550123", …)', query: (i) => `?q=555${line(i)}` },
  { name: 'phone written "555-0123", …', query: (i) => `?q=555-${line(i)}` },
  { name: 'pages 4000, 4001, … (page_size 25)', query: (i) => `?page=${4000 + i}&page_size=25` },
  // D45: a number with its country code finds it stored without; a city; accents and case folded; tags by key.
  { name: 'phone with country code ("+1 503 555 0123", …)', query: (i) => `?q=${encodeURIComponent(`+1 ${AREAS[i % AREAS.length]} 555 ${line(i)}`)}` },
  {
    name: 'a city ("tigard", …), pages 1, 2, …',
    query: (i) => `?q=${encodeURIComponent(CITIES[i % CITIES.length].toLowerCase())}&page=${1 + Math.floor(i / CITIES.length)}`,
  },
  { name: 'accents folded ("orsted", "muller", …), pages', query: (i) => `?q=${FOLDED[i % FOLDED.length]}&page=${1 + Math.floor(i / FOLDED.length)}` },
  { name: 'tag in another case ("BOILER", …), pages', query: (i) => `?tag=${TAGS[i % TAGS.length].toUpperCase()}&page=${1 + Math.floor(i / TAGS.length)}` },
  // Issue 19 (D46 D47): found through a location or a contact, not the customer's own fields.
  {
    name: 'a location\'s city, not the billing city ("yamhill", …), pages',
    query: (i) => `?q=${encodeURIComponent(LOCATION_CITIES[i % LOCATION_CITIES.length].toLowerCase())}&page=${1 + Math.floor(i / LOCATION_CITIES.length)}`,
  },
  { name: 'a contact\'s phone ("(425) 555-0123", …)', query: (i) => `?q=${encodeURIComponent(contactPhone(contactIndex(i)))}` },
  { name: 'a contact\'s email ("pm.123@property.example", …)', query: (i) => `?q=${encodeURIComponent(contactEmail(contactIndex(i)) ?? '')}` },
  // Issue 36: by custom field (D56), and the persons' searches.
  ...CUSTOM_CASES,
  ...personCases(PERSONS),
  // Issue 38 (D59): solo@demo.test, a member of Acme whose member role sees only the customers assigned to
  // them: every 100th customer (2,000 of 200,000). The list, a search, a typo, and the dashboard.
  { as: SCOPED, name: 'scoped member: pages 1, 2, 3, …', query: (i) => `?page=${1 + (i % 80)}&sort=${i % 2 ? '-updated_at' : 'name'}` },
  {
    as: SCOPED,
    name: 'scoped member: name fragments ("ann", …)',
    query: (i) => `?q=${encodeURIComponent(FRAGMENTS[i % FRAGMENTS.length] ?? '')}&page=${1 + Math.floor(i / FRAGMENTS.length)}`,
  },
  { as: SCOPED, name: 'scoped member: a typo matching nothing ("zzzzq0", …)', query: (i) => `?q=zzzzq${i}` },
  { as: SCOPED, name: 'scoped member: phone digits ("5550123", …)', query: (i) => `?q=555${line(i)}` },
  { as: SCOPED, path: '/api/v1/dashboard/', name: 'scoped member: the dashboard (GET /api/v1/dashboard/)', query: (i) => `?n=${i}` },
];
/** Contact asked for by request i: scattered, never one without an email (every fifth), no two alike. */
const contactIndex = (i) => 5 * ((123 + i * 7919) % Math.floor(CONTACTS / 5)) + 1 + (i % 4);

// ───────────────────────────────────────────────────────────────────────────────────────────────────────
// THE BULK INSERT. The one place to change when customers gets new columns: columns not named here take
// their defaults (or are generated). $1 = organization id, $2 = number of customers.
// Names: 40 first × 40 last names; emails: 1 in 11 missing, the rest unique; phones: 1 in 13 missing,
// the rest in four formats ("(503) 555-0123", "503.555.0123", "+1 503 555 0123", "503-555-0123"), area
// codes 503/971/360/541/206, line numbers 0000–9999 (555 numbers: fictional); created over two years.
// ───────────────────────────────────────────────────────────────────────────────────────────────────────
/** D1 D3: the demo's names (server/demo-names.json, which the seed reads too). */
const NAMES = JSON.parse(readFileSync(new URL('../server/demo-names.json', import.meta.url), 'utf8'));
const FIRST = NAMES.first;
const LAST = NAMES.last;
/** Three-letter pieces of the names (lower case, first seen first): what a person types to find someone. */
const FRAGMENTS = [
  ...new Set(
    [...FIRST, ...LAST].flatMap((n) => {
      const w = n.toLowerCase().replace(/[^a-z]/g, '');
      return Array.from({ length: Math.max(0, w.length - 2) }, (_, k) => w.slice(k, k + 3));
    }),
  ),
].sort((a, b) => (a === 'ann' ? -1 : b === 'ann' ? 1 : 0));
/** D45: cities, companies with accents and tags on some customers, for the cases that search them. */
const AREAS = ['503', '971', '360', '541', '206'];
const CITIES = ['Portland', 'Tigard', 'Beaverton', 'Gresham', 'Hillsboro', 'Salem', 'Eugene', 'Bend', 'Medford', 'Corvallis', 'Vancouver', 'Seattle'];
const COMPANIES = ['Ørsted Family Trust', 'Müller & Söhne', 'Núñez Plumbing', 'Łukasz Dąbrowski Builders', 'Ærø Heating', 'Zoë Café'];
const FOLDED = ['orsted', 'muller', 'nunez', 'lukasz', 'aero', 'zoe cafe', 'sohne', 'dabrowski'];
const TAGS = ['Boiler', 'vip', 'North', 'Commercial', 'Annual-Service'];
const sqlList = (items) => `array[${items.map((s) => `'${s.replace(/'/g, "''")}'`).join(', ')}]`;
const INSERT_CUSTOMERS_SQL = `
  insert into customers (org_id, name, email, phone, created_at, company, address_line, city, postal_code, tags, primary_city, custom)
  select $1::integer,
         v.first || ' ' || v.last,
         case when g % 11 = 0 then null
              else lower(v.first) || '.' || lower(replace(v.last, '''', '')) || g || '@' || (array['example.com', 'example.net', 'example.org', 'mail.example'])[1 + g % 4] end,
         case when g % 13 = 0 then null
              when g % 4 = 0 then '(' || v.area || ') 555-' || v.line
              when g % 4 = 1 then v.area || '.555.' || v.line
              when g % 4 = 2 then '+1 ' || v.area || ' 555 ' || v.line
              else v.area || '-555-' || v.line end,
         now() - make_interval(days => g % 730, secs => (g * 37) % 86400),
         case when g % 9 = 0 then (${sqlList(COMPANIES)})[1 + (g / 9) % ${COMPANIES.length}] end,
         (g % 9973) || ' ' || (array['Oak', 'Hemlock', 'Alder', 'Main', 'Pine'])[1 + g % 5] || ' St',
         (${sqlList(CITIES)})[1 + (g / 3) % ${CITIES.length}],
         '97' || lpad((g % 1000)::text, 3, '0'),
         case when g % 3 = 0 then array[(${sqlList(TAGS)})[1 + (g / 3) % ${TAGS.length}]] else '{}'::text[] end,
         ${primaryCitySql('g')},
         ${customSql('g')}
    from generate_series(1, $2::integer) as g,
         lateral (select (${sqlList(FIRST)})[1 + g % ${FIRST.length}] as first,
                         (${sqlList(LAST)})[1 + (g / ${FIRST.length}) % ${LAST.length}] as last,
                         (${sqlList(AREAS)})[1 + (g / 7) % 5] as area,
                         lpad((g % 10000)::text, 4, '0') as line) as v`;

/** Inserts `count` customers into organization `orgId` (and the persons into theirs); `query(text, params)` runs SQL on either driver. */
async function insertCustomers(query, orgId, count, personsOrgId) {
  // The benchmarks' PostgreSQL commits asynchronously, and VACUUM cannot mark a page all-visible while
  // the commit that wrote it is not yet on disk: this one commit waits for it.
  await query('set synchronous_commit = on', []);
  const [{ base }] = await query('select coalesce(max(id), 0) as base from customers', []);
  await insertFields(query, orgId); // D56
  await query(INSERT_CUSTOMERS_SQL, [orgId, count]);
  if (PERSONS) await query(INSERT_PERSONS_SQL, [personsOrgId, PERSONS]);
  // Issue 19: their locations and contacts (after the customers, whose ids they name).
  const parts = await insertParts(query, orgId, Number(base), CONTACTS);
  // Issue 38 (D59): Acme's member role sees only its own; every 100th customer is assigned to solo@demo.test.
  await query(`update customers set assigned_to = (select id from users where email = $3) where org_id = $1 and id > $2 and (id - $2) % ${ASSIGNED_EVERY} = 0`, [
    orgId,
    Number(base),
    SCOPED,
  ]);
  await query("insert into role_scopes (org_id, role, sees) values ($1, 'member', 'assigned') on conflict do nothing", [orgId]);
  // VACUUM too, as autovacuum (PostgreSQL) or the server's hourly housekeeping (PGlite) would: it sets the
  // visibility map that lets a deep page read its ids from the index alone.
  await query('vacuum analyze customers', []);
  await query('vacuum analyze customer_custom_values', []);
  // Index-only scans skip the table only on pages the map marks all-visible: say how many are, since a
  // deep page's cost depends on it (without the synchronous commit: 1 of 7,773 on PostgreSQL, 300+ ms a page).
  const [vm] = await query("select relallvisible as visible, relpages as pages from pg_class where relname = 'customers'", []);
  return `${parts}; visibility map: ${vm.visible} of ${vm.pages} pages all-visible`;
}
// ───────────────────────────────────────────────────────────────────────────────────────────────────────

const ORG_ID_SQL = 'select id from organizations where name = $1';

async function fillPostgres(url) {
  const { default: postgres } = await import('postgres');
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const [org] = await sql.unsafe(ORG_ID_SQL, [ORG_NAME]);
    const [persons] = await sql.unsafe(ORG_ID_SQL, [PERSONS_ORG]);
    if (!org || !persons) throw new Error(`no organization ${ORG_NAME} or ${PERSONS_ORG}`);
    return await insertCustomers((text, params) => sql.unsafe(text, params), org.id, COUNT, persons.id);
  } finally {
    await sql.end({ timeout: 5 });
  }
}

async function fillPglite(dataDir) {
  const db = await openPglite(dataDir);
  try {
    const { rows } = await db.query(ORG_ID_SQL, [ORG_NAME]);
    const persons = (await db.query(ORG_ID_SQL, [PERSONS_ORG])).rows[0];
    if (!rows[0] || !persons) throw new Error(`no organization ${ORG_NAME} or ${PERSONS_ORG}`);
    return await insertCustomers(async (text, params) => (await db.query(text, params)).rows ?? [], rows[0].id, COUNT, persons.id);
  } finally {
    await db.close();
  }
}

async function measure(backend, server, verdicts) {
  const budget = BUDGET_P99_MS[backend];
  const { access } = await login(server.url, OWNER);
  const acme = authHeaders(access, await orgIdOf(server.url, access));
  const beacon = authHeaders(access, await orgIdOf(server.url, access, PERSONS_ORG));
  const scopedAccess = (await login(server.url, SCOPED)).access;
  const scoped = authHeaders(scopedAccess, await orgIdOf(server.url, scopedAccess));
  const rows = [];
  for (const c of CASES.filter((k) => !ONLY_CASES || ONLY_CASES.test(k.name))) {
    // The example is request 0's; the measured ones start at 1, so none is answered from memory.
    const headers = c.as === SCOPED ? scoped : c.org === PERSONS_ORG ? beacon : acme;
    const path = c.path ?? CUSTOMERS;
    const example = c.query(0);
    const first = await request(server.url + path + example, { headers });
    const body = json(first);
    const found =
      first.status === 200
        ? body.results
          ? `e.g. ${example}: ${body.count} found, ${body.results.length} on the page`
          : `${body.customers?.total} customers, ${body.customers?.recently_updated?.length} recently updated`
        : first.error
          ? `no answer: ${first.error}`
          : `HTTP ${first.status}`;
    let next = 1;
    for (const concurrency of [1, CONCURRENCY]) {
      const requests = Array.from({ length: REQUESTS }, (_, k) => ({ path: path + c.query(next + k), headers }));
      next += REQUESTS;
      const r = await fixedLoadInWorker({ url: server.url, concurrency, durationMs: MAX_S * 1000, maxRequests: REQUESTS, requests });
      const s = summarize(r.labels.all, r.elapsedMs / 1000);
      const ok = s.errors === 0 && Object.keys(s.statuses).every((k) => k === '200');
      const mode = concurrency === 1 ? 'one at a time' : `${concurrency} at once`;
      const verdict = verdicts.figure(`${backend} list, ${c.name}, ${mode}: p99${ok ? '' : ' (not all 200)'}`, fmtMs(s.p99), `≤ ${budget} ms`, ok && s.p99 <= budget);
      rows.push([
        concurrency === 1 ? c.name : '',
        concurrency === 1 ? found : '',
        mode,
        s.count,
        fmtMs(s.p50),
        fmtMs(s.p99),
        fmtMs(s.max),
        ok ? '200' : `${fmtCounts(s.statuses)} ${fmtCounts(s.errorKinds)}`,
        verdict,
      ]);
    }
    if (server.exited()) throw new Error(`the server exited during "${c.name}":\n${server.output().slice(-3000)}`);
  }
  console.log('');
  console.log(`${backend}: ${COUNT.toLocaleString('en-US')} customers in ${ORG_NAME}; budget p99 ≤ ${budget} ms`);
  table(['GET /api/v1/customers/', 'answer', 'requests', 'n', 'p50', 'p99', 'max', 'status', 'budget'], rows);
}

await build();
console.log(`node ${process.version}, ${os.cpus().length} CPU(s), load average ${os.loadavg()[0].toFixed(1)}`);
const verdicts = new Verdicts('list');

await onBackends(
  verdicts,
  async (label, db) => {
    const t0 = performance.now();
    // The seeded database is filled while no server runs (PGlite: none may hold its directory).
    await withCrm(db, async () => {});
    const vm = db.dataDir ? await fillPglite(db.dataDir) : await fillPostgres(db.databaseUrl);
    console.log(`\n${label}: inserted ${COUNT.toLocaleString('en-US')} customers and analyzed in ${((performance.now() - t0) / 1000).toFixed(1)} s; ${vm}`);
    await withCrm(db, (server) => measure(label, server, verdicts));
  },
  backendsFrom(process.env.LIST_BACKENDS),
);
console.log(`\nload average at the end: ${os.loadavg()[0].toFixed(1)}`);
verdicts.finish();
