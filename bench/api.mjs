// API throughput against its floor, all figures from one run. For PGlite and then PostgreSQL: the built
// server with SEED=demo, logged in as owner@demo.test acting in "Acme Plumbing" (X-Organization-ID).
// GET /api/v1/auth/me/ and GET /api/v1/customers/ (the first page, and a different search each request) are each loaded by 50 concurrent keep-alive clients
// (the first two are the same request again and again; the third is never the same),
// in rounds alternating with a bare node:http server that answers the same captured bytes (status,
// headers, body), so the ratio compares like with like on the same machine at the same time. The load
// runs in a worker thread of this process; the servers are child processes.
//   node bench/api.mjs [--check]          (npm run bench:api)
//   API_PHASE_S=5 API_ROUNDS=2            seconds per phase, rounds of (server, bare) per endpoint
//   API_BACKENDS=postgres                 one database only (pglite,postgres by default)
// Budget, each endpoint: PostgreSQL ≥ 0.5× the bare handler's req/s and p99 ≤ 25 ms (issue 21);
// PGlite ≥ 0.15× and p99 ≤ 60 ms. With --check the exit code is 1 on any MISS.
import os from 'node:os';
import { build } from '../build.mjs';
import { authHeaders, CUSTOMERS, login, ME, orgIdOf, OWNER } from './lib/crm.mjs';
import { expectStatus, json, request } from './lib/http.mjs';
import { fixedLoadInWorker } from './lib/load.mjs';
import { cpuSecondsOf, postgresCpuSeconds } from './lib/proc.mjs';
import { envNumber, table, Verdicts } from './lib/report.mjs';
import { startBare } from './lib/servers.mjs';
import { fmtCounts, fmtMs, mergeEntries, summarize } from './lib/stats.mjs';
import { backendsFrom, onBackends, withCrm } from './lib/backends.mjs';

const CONCURRENCY = 50;
const PHASE_S = envNumber('API_PHASE_S', 5);
const ROUNDS = envNumber('API_ROUNDS', 2);
const WARMUP_S = 2;
/** Below this CPU use the bare server was not what limited its own req/s. */
const FLOOR_BOUND_PCT = 90;
const BUDGETS = {
  PGlite: { ratio: 0.15, p99Ms: 60 },
  PostgreSQL: { ratio: 0.5, p99Ms: 25 },
};
const ENDPOINTS = [
  { name: 'GET me', path: ME },
  { name: 'GET customers', path: CUSTOMERS },
  { name: 'GET customers, each request another search', path: CUSTOMERS, varied: true },
];
const SORTS = ['name', '-name', 'created_at', '-created_at', 'updated_at', '-updated_at'];
/**
 * Page sizes of the varied lists: every other size from 10 to 100 (46), so there are more lists (about
 * 72,000) than a quick server asks for in all its phases together; with 9 sizes (14,000 lists) PostgreSQL's
 * 5 s phase came round to lists it had already answered.
 */
const PAGE_SIZES = Array.from({ length: 46 }, (_, i) => 10 + 2 * i);
/** Answers captured at once, before the phases. */
const CAPTURE_CONCURRENCY = 8;

/**
 * D26 D34: every request of the varied endpoint asks for another list (a three-letter piece of a
 * customer's name, a sort, a page size); a phase asks for fewer lists than there are (checked, printed).
 * The bare server answers each with the bytes captured for that very query.
 */
async function variedPaths(url, headers) {
  const all = json(expectStatus(await request(`${url}${CUSTOMERS}?page_size=100`, { headers }), 200, 'GET customers'));
  const pieces = [
    ...new Set(
      all.results.flatMap((c) => {
        const w = c.name.toLowerCase().replace(/[^a-z]/g, '');
        return Array.from({ length: Math.max(0, w.length - 2) }, (_, k) => w.slice(k, k + 3));
      }),
    ),
  ];
  return pieces.flatMap((q) => SORTS.flatMap((sort) => PAGE_SIZES.map((size) => `${CUSTOMERS}?q=${q}&sort=${sort}&page_size=${size}`)));
}

/**
 * One load phase against `target` (requests to `paths` in turn, from `from` on); adds the target's CPU use
 * over the phase, and PostgreSQL's (every process of the server on `pgPort`) when there is one.
 */
async function phase(target, paths, headers, seconds, from = 0, pgPort = null) {
  const cpu0 = cpuSecondsOf(target.pid);
  const pg0 = pgPort === null ? NaN : postgresCpuSeconds(pgPort);
  const requests = [...paths.slice(from % paths.length), ...paths.slice(0, from % paths.length)].map((path) => ({ path, headers }));
  const r = await fixedLoadInWorker({ url: target.url, concurrency: CONCURRENCY, durationMs: seconds * 1000, requests });
  return { ...r, cpuS: cpuSecondsOf(target.pid) - cpu0, pgCpuS: pgPort === null ? NaN : postgresCpuSeconds(pgPort) - pg0 };
}

/** Microseconds of CPU per request, or '-'. */
const us = (v) => (Number.isFinite(v) ? `${v.toFixed(0)} µs` : '-');

/** Requests answered other than 200, or not at all. */
const notOk = (s) => Object.entries(s.statuses).reduce((n, [k, v]) => n + (k === '200' ? 0 : v), 0) + s.errors;

/** Sums phases: merged latencies over the summed elapsed time. */
function combine(phases) {
  const seconds = phases.reduce((s, p) => s + p.elapsedMs / 1000, 0);
  const entry = mergeEntries(phases.map((p) => p.labels.all).filter(Boolean));
  const cpuS = phases.reduce((s, p) => s + p.cpuS, 0);
  const pgCpuS = phases.reduce((s, p) => s + p.pgCpuS, 0);
  const busy = phases.reduce((s, p) => s + p.generatorBusy * (p.elapsedMs / 1000), 0);
  const n = entry?.latencies.length ?? 0;
  // CPU per request depends far less on what else the machine runs than req/s does.
  const perRequestUs = (s) => (n && Number.isFinite(s) ? (1e6 * s) / n : NaN);
  return {
    ...summarize(entry, seconds),
    cpuPct: (100 * cpuS) / seconds,
    generatorPct: (100 * busy) / seconds,
    cpuUs: perRequestUs(cpuS),
    pgCpuUs: perRequestUs(pgCpuS),
    generatorUs: perRequestUs(busy),
  };
}

async function measure(backend, server, verdicts, pgPort) {
  const budget = BUDGETS[backend];
  const { access } = await login(server.url, OWNER);
  const orgId = await orgIdOf(server.url, access);
  const headers = authHeaders(access, orgId);
  const answers = {};
  const varied = await variedPaths(server.url, headers);
  const pathsOf = (e) => (e.varied ? varied : [e.path]);
  for (const e of ENDPOINTS) {
    const paths = pathsOf(e);
    let next = 0;
    const capture = async () => {
      while (next < paths.length) {
        const p = paths[next++];
        answers[p] = expectStatus(await request(server.url + p, { headers }), 200, e.name);
      }
    };
    await Promise.all(Array.from({ length: CAPTURE_CONCURRENCY }, capture));
  }
  const bare = await startBare(answers);
  const rows = [];
  const lines = [];
  try {
    for (const p of Object.keys(answers)) {
      const copy = await request(bare.url + p, { headers });
      if (copy.status !== 200 || !copy.body.equals(answers[p].body)) throw new Error(`the bare server does not answer ${p} as the API does`);
    }
    for (const e of ENDPOINTS) {
      // The varied endpoint's phases go on through its list where the last stopped (the same for both targets).
      let next = 0;
      let most = 0;
      const run = async (seconds) => {
        if (e.varied) await login(server.url, OWNER); // a write: nothing kept from before
        const r = await phase(server, pathsOf(e), headers, seconds, next, pgPort);
        most = Math.max(most, r.labels.all?.latencies.length ?? 0);
        const f = await phase(bare, pathsOf(e), headers, seconds, next);
        next += r.labels.all?.latencies.length ?? 0;
        return [r, f];
      };
      await run(WARMUP_S);
      const real = [];
      const floor = [];
      for (let i = 0; i < ROUNDS; i++) {
        const [r, f] = await run(PHASE_S);
        real.push(r);
        floor.push(f);
      }
      const r = combine(real);
      const f = combine(floor);
      const sizes = pathsOf(e).map((p) => answers[p].body.length);
      const bytes = sizes.length === 1 ? `${sizes[0]}` : `${Math.min(...sizes)}–${Math.max(...sizes)}`;
      if (e.varied)
        lines.push(
          `${backend} ${e.name}: ${pathsOf(e).length} different lists, at most ${most} asked in one phase of the server${most > pathsOf(e).length ? ' (MORE: some were asked twice after a write, and may have been kept)' : ' (none twice)'}`,
        );
      const other = (s) =>
        `${fmtCounts(Object.fromEntries(Object.entries(s.statuses).filter(([k]) => k !== '200')))}${s.errors ? ` errors ${fmtCounts(s.errorKinds)}` : ''}`;
      const row = (name, label, s, pgCpu) => [
        name,
        label,
        s.rps.toFixed(0),
        fmtMs(s.p50),
        fmtMs(s.p99),
        fmtMs(s.max),
        `${s.cpuPct.toFixed(0)}%`,
        us(s.cpuUs),
        pgCpu,
        `${s.generatorPct.toFixed(0)}%`,
        other(s),
      ];
      rows.push(row(e.name, `${backend} server`, r, us(r.pgCpuUs)));
      rows.push(row('', 'bare node:http', f, ''));
      const ratio = r.rps / f.rps;
      const answered = r.errors === 0 && Object.keys(r.statuses).every((k) => k === '200');
      const at = `${backend} ${e.name} at ${CONCURRENCY} clients`;
      lines.push(
        `${backend} ${e.name} (${bytes} B body): ratio ${ratio.toFixed(3)}× (budget ≥ ${budget.ratio}×) ${verdicts.figure(`${at}: req/s of the bare handler's`, `${ratio.toFixed(3)}×`, `≥ ${budget.ratio}×`, ratio >= budget.ratio)}` +
          `; p99 ${fmtMs(r.p99)} (budget ≤ ${budget.p99Ms} ms) ${verdicts.figure(`${at}: p99`, fmtMs(r.p99), `≤ ${budget.p99Ms} ms`, r.p99 <= budget.p99Ms)}` +
          `; every answer 200 ${verdicts.figure(`${at}: answers other than 200`, String(notOk(r)), '0', answered)}`,
      );
      // The bare phases keep the load generator's one thread busy, so its req/s is about 1 / G (G: the
      // generator's time per request); the server's at most CPUS / (G + server + database per answer).
      const spent = r.cpuUs + (Number.isFinite(r.pgCpuUs) ? r.pgCpuUs : 0);
      if (Number.isFinite(spent) && Number.isFinite(f.generatorUs)) {
        const ceiling = (os.cpus().length * f.generatorUs) / (f.generatorUs + spent);
        lines.push(
          `  per answer: server ${us(r.cpuUs)}, database ${us(r.pgCpuUs)}; the load generator ${us(f.generatorUs)} a request: on ${os.cpus().length} CPUs the ratio can reach about ${ceiling.toFixed(2)}×`,
        );
      }
      if (f.cpuPct < FLOOR_BOUND_PCT) {
        lines.push(
          `  note: the bare server used ${f.cpuPct.toFixed(0)}% of a CPU, so the floor's req/s is bounded by the load generator or the machine, not by node:http; the ratio is then an upper bound`,
        );
      }
    }
  } finally {
    await bare.stop();
  }
  console.log('');
  console.log(`${backend}: ${CONCURRENCY} concurrent keep-alive clients, ${ROUNDS} × ${PHASE_S} s per target, alternating (after ${WARMUP_S} s warm-up each)`);
  table(['endpoint', 'target', 'req/s', 'p50', 'p99', 'max', 'target CPU', 'CPU/req', 'database CPU/req', 'generator busy', 'other answers'], rows);
  for (const l of lines) console.log(l);
}

await build();
console.log(`node ${process.version}, ${os.cpus().length} CPU(s), load average ${os.loadavg()[0].toFixed(1)}; the load generator is a worker thread of this process`);
console.log(
  "target CPU: the server process's CPU time over the phase (100% = one core), and per request; database CPU/req: PostgreSQL's processes' per request; generator busy: the load thread's event-loop utilization",
);
const verdicts = new Verdicts('api');

const portOf = (db) => (db.databaseUrl ? Number(new URL(db.databaseUrl).port) : null);
await onBackends(verdicts, (label, db) => withCrm(db, (server) => measure(label, server, verdicts, portOf(db))), backendsFrom(process.env.API_BACKENDS));
console.log(`\nload average at the end: ${os.loadavg()[0].toFixed(1)}`);
verdicts.finish();
