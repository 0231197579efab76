// Mixed traffic: does keeping answers pay when someone, somewhere, is always writing? (STYLE "Simple
// first": a cache is kept only when a benchmark of mixed reads and writes across organizations shows it
// pays.) For PGlite and then PostgreSQL, the built server with SEED=demo:
//   readers  Beacon Electric's viewer, 20 keep-alive clients, each request another one: `me`, the list
//            with another search piece, sort and page size, or one customer's page, in turn
//   writer   Acme Plumbing's owner adds a note every WRITE_EVERY_MS (another organization's work)
// Two phases, the writer on and then off, each PHASE_S seconds. The server's CPU (and PostgreSQL's) per
// 1,000 reader answers and the readers' p99 are printed. The writer-off phase is the most any cache could
// save the readers (nothing they read is ever written): run this on a build with a cache and on one
// without, and compare that phase.
//   node bench/mixed.mjs          (npm run bench:mixed)
//   MIXED_PHASE_S=10 MIXED_BACKENDS=postgres
import { build } from '../build.mjs';
import { authHeaders, CUSTOMERS, login, ME, orgIdOf } from './lib/crm.mjs';
import { expectStatus, json, request } from './lib/http.mjs';
import { fixedLoadInWorker } from './lib/load.mjs';
import { cpuSecondsOf, postgresCpuSeconds } from './lib/proc.mjs';
import { envNumber, table } from './lib/report.mjs';
import { backendsFrom, onBackends, withCrm } from './lib/backends.mjs';
import { fmtMs, mergeEntries, summarize } from './lib/stats.mjs';

const READERS = 20;
const PHASE_S = envNumber('MIXED_PHASE_S', 10);
const WRITE_EVERY_MS = 50;
const SORTS = ['name', '-name', 'created_at', '-created_at', 'updated_at', '-updated_at'];
/** More than a phase asks for (about 8,000 a second at most here), so no list is asked for twice. */
const PHASE_REQUESTS = 150_000;
const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/** Every reader request another one: a search piece, sort and page size seen once, among me and record reads. */
function readerRequests(headers, customerIds, count) {
  const out = [];
  for (let i = 0; out.length < count; i++) {
    const piece = LETTERS[i % 26] + LETTERS[Math.floor(i / 26) % 26];
    const sort = SORTS[Math.floor(i / 676) % SORTS.length];
    const size = 10 + (Math.floor(i / 4056) % 91);
    out.push({ label: 'list', path: `${CUSTOMERS}?search=${piece}&sort=${sort}&page_size=${size}`, headers });
    out.push({ label: 'me', path: ME, headers });
    out.push({ label: 'customer', path: `${CUSTOMERS}${customerIds[i % customerIds.length]}/`, headers });
  }
  return out;
}

async function writer(url, headers, ids, stop) {
  let n = 0;
  let failed = 0;
  while (!stop.done) {
    const started = performance.now();
    const r = await request(`${url}${CUSTOMERS}${ids[n % ids.length]}/notes/`, {
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'application/json' },
      body: { body: `Checked the meter, visit ${n}` },
    });
    if (r.status !== 201) failed++;
    n++;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, WRITE_EVERY_MS - (performance.now() - started))));
  }
  return { writes: n, failed };
}

async function measure(label, db) {
  return withCrm(db, async (server) => {
    const url = server.url;
    const reader = await login(url, 'viewer@demo.test');
    const readerHeaders = authHeaders(reader.access, await orgIdOf(url, reader.access, 'Beacon Electric'));
    const owner = await login(url, 'owner@demo.test');
    const writerHeaders = authHeaders(owner.access, await orgIdOf(url, owner.access, 'Acme Plumbing'));
    const list = async (headers) => json(expectStatus(await request(`${url}${CUSTOMERS}?page_size=100`, { headers }), 200, 'GET customers')).results.map((c) => c.id);
    const beacon = await list(readerHeaders);
    const acme = await list(writerHeaders);
    const pgPort = db.databaseUrl ? Number(new URL(db.databaseUrl).port) : null;
    const rows = [];
    let offset = 0;
    for (const writing of [true, false]) {
      const requests = readerRequests(readerHeaders, beacon, offset + PHASE_REQUESTS).slice(offset);
      offset += PHASE_REQUESTS;
      const stop = { done: false };
      const cpu0 = cpuSecondsOf(server.pid) + (pgPort ? postgresCpuSeconds(pgPort) : 0);
      const writes = writing ? writer(url, writerHeaders, acme, stop) : Promise.resolve({ writes: 0, failed: 0 });
      const load = await fixedLoadInWorker({ url, concurrency: READERS, durationMs: PHASE_S * 1000, requests });
      stop.done = true;
      const w = await writes;
      const cpu = cpuSecondsOf(server.pid) + (pgPort ? postgresCpuSeconds(pgPort) : 0) - cpu0;
      const all = summarize(mergeEntries(Object.values(load.labels)), load.elapsedMs / 1000);
      const non2xx = Object.entries(all.statuses)
        .filter(([s]) => s !== '200')
        .reduce((n, [, v]) => n + v, 0);
      rows.push([
        label,
        writing ? `on (${w.writes} notes, ${w.failed} failed)` : 'off',
        String(all.count),
        all.rps.toFixed(0),
        fmtMs(all.p50),
        fmtMs(all.p99),
        `${((cpu * 1e6) / all.count).toFixed(0)} µs`,
        String(non2xx + all.errors),
      ]);
    }
    return rows;
  });
}

await build();
const rows = [];
await onBackends(
  { figure: () => {} },
  async (label, db) => {
    rows.push(...(await measure(label, db)));
  },
  backendsFrom(process.env.MIXED_BACKENDS),
);
console.log(`\nMixed traffic: ${READERS} readers (every request another one), a writer in another organization every ${WRITE_EVERY_MS} ms; ${PHASE_S} s a phase`);
table(['database', 'writer', 'reader answers', 'req/s', 'p50', 'p99', 'CPU per answer (server + PostgreSQL)', 'not 200'], rows);
