// Mixed traffic: does keeping answers pay when someone, somewhere, is always writing? (STYLE "Simple
// first": a cache is kept only when a benchmark of mixed reads and writes across organizations shows it
// pays.) For PGlite and then PostgreSQL, the built server with SEED=demo:
//   readers  Beacon Electric's viewer, 20 keep-alive clients, each request another one: `me`, the list
//            with another search piece, sort and page size, or one customer's page, in turn
//   writer   Acme Plumbing's owner adds a note every WRITE_EVERY_MS (another organization's work)
// Two shapes of reading: a closed loop (20 clients of one session, each asking again as soon as answered,
// the shape of the API benchmark's rows) and people (PEOPLE sessions, each loading a page: its three calls
// at once, then a pause of 0–2×THINK_MS before the next page). Two phases each, the writer on and then off,
// each PHASE_S seconds. The server's CPU (and PostgreSQL's) per reader answer
// and the readers' p99 are printed. The writer-off phase is the most any cache could
// save the readers (nothing they read is ever written). To judge a cache, run this on a build with it and
// on one without, back to back (docs/performance.md, 2026-12-02).
//   node bench/mixed.mjs          (npm run bench:mixed)
//   MIXED_PHASE_S=10 MIXED_BACKENDS=postgres
import http from 'node:http';
import { build } from '../build.mjs';
import { authHeaders, CUSTOMERS, login, ME, orgIdOf } from './lib/crm.mjs';
import { expectStatus, json, request } from './lib/http.mjs';
import { fixedLoadInWorker } from './lib/load.mjs';
import { cpuSecondsOf, postgresCpuSeconds } from './lib/proc.mjs';
import { envNumber, table } from './lib/report.mjs';
import { backendsFrom, onBackends, withCrm } from './lib/backends.mjs';
import { fmtMs, mergeEntries, Recorder, summarize } from './lib/stats.mjs';

const READERS = 20;
const PHASE_S = envNumber('MIXED_PHASE_S', 10);
const WRITE_EVERY_MS = 50;
const PEOPLE = 40;
const THINK_MS = envNumber('MIXED_THINK_MS', 200);
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

/** PEOPLE sessions loading pages for `ms`: each page's calls at once, then a pause. */
async function people(url, sessions, requests, ms) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: PEOPLE * 3 });
  const rec = new Recorder();
  const deadline = performance.now() + ms;
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    sessions.map(async (headers) => {
      while (performance.now() < deadline) {
        const page = [0, 1, 2].map(() => requests[next++ % requests.length]);
        const answers = await Promise.all(page.map((spec) => request(url + spec.path, { headers, agent })));
        for (const [i, a] of answers.entries()) rec.record(page[i].label, a);
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 2 * THINK_MS));
      }
    }),
  );
  agent.destroy();
  return { elapsedMs: performance.now() - t0, labels: rec.toJSON() };
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
    const peopleHeaders = [];
    for (let i = 0; i < PEOPLE; i++) peopleHeaders.push(authHeaders((await login(url, 'viewer@demo.test')).access, readerHeaders['X-Organization-ID']));
    for (const [shape, writing] of [
      ['closed loop', true],
      ['closed loop', false],
      ['people', true],
      ['people', false],
    ]) {
      const requests = readerRequests(readerHeaders, beacon, offset + PHASE_REQUESTS).slice(offset);
      offset += PHASE_REQUESTS;
      const stop = { done: false };
      const cpu0 = cpuSecondsOf(server.pid) + (pgPort ? postgresCpuSeconds(pgPort) : 0);
      const writes = writing ? writer(url, writerHeaders, acme, stop) : Promise.resolve({ writes: 0, failed: 0 });
      const load =
        shape === 'people'
          ? await people(url, peopleHeaders, requests, PHASE_S * 1000)
          : await fixedLoadInWorker({ url, concurrency: READERS, durationMs: PHASE_S * 1000, requests });
      stop.done = true;
      const w = await writes;
      const cpu = cpuSecondsOf(server.pid) + (pgPort ? postgresCpuSeconds(pgPort) : 0) - cpu0;
      const all = summarize(mergeEntries(Object.values(load.labels)), load.elapsedMs / 1000);
      const non2xx = Object.entries(all.statuses)
        .filter(([s]) => s !== '200')
        .reduce((n, [, v]) => n + v, 0);
      rows.push([
        label,
        shape,
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
console.log(
  `\nMixed traffic: ${READERS} clients of one session, or ${PEOPLE} people pausing 0–${2 * THINK_MS} ms between pages (every request another one), a writer in another organization every ${WRITE_EVERY_MS} ms; ${PHASE_S} s a phase`,
);
table(['database', 'readers', 'writer', 'reader answers', 'req/s', 'p50', 'p99', 'CPU per answer (server + PostgreSQL)', 'not 200'], rows);
