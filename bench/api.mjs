// API throughput against its floor, all figures from one run. For PGlite and then PostgreSQL: the built
// server with SEED=demo, logged in as owner@demo.test acting in "Acme Plumbing" (X-Organization-ID).
// GET /api/v1/auth/me/ and GET /api/v1/customers/ are each loaded by 50 concurrent keep-alive clients,
// in rounds alternating with a bare node:http server that answers the same captured bytes (status,
// headers, body), so the ratio compares like with like on the same machine at the same time. The load
// runs in a worker thread of this process; the servers are child processes.
//   node bench/api.mjs [--check]          (npm run bench:api)
//   API_PHASE_S=5 API_ROUNDS=2            seconds per phase, rounds of (server, bare) per endpoint
// Budget, each endpoint: PostgreSQL ≥ 0.35× the bare handler's req/s and p99 ≤ 25 ms;
// PGlite ≥ 0.15× and p99 ≤ 60 ms. With --check the exit code is 1 on any MISS.
import os from 'node:os';
import { build } from '../build.mjs';
import { authHeaders, CUSTOMERS, login, ME, orgIdOf, OWNER } from './lib/crm.mjs';
import { expectStatus, request } from './lib/http.mjs';
import { fixedLoadInWorker } from './lib/load.mjs';
import { cpuSecondsOf } from './lib/proc.mjs';
import { envNumber, table, Verdicts } from './lib/report.mjs';
import { startBare } from './lib/servers.mjs';
import { fmtCounts, fmtMs, mergeEntries, summarize } from './lib/stats.mjs';
import { onBackends, withCrm } from './lib/backends.mjs';

const CONCURRENCY = 50;
const PHASE_S = envNumber('API_PHASE_S', 5);
const ROUNDS = envNumber('API_ROUNDS', 2);
const WARMUP_S = 2;
/** Below this CPU use the bare server was not what limited its own req/s. */
const FLOOR_BOUND_PCT = 90;
const BUDGETS = {
  PGlite: { ratio: 0.15, p99Ms: 60 },
  PostgreSQL: { ratio: 0.35, p99Ms: 25 },
};
const ENDPOINTS = [
  { name: 'GET me', path: ME },
  { name: 'GET customers', path: CUSTOMERS },
];

/** One load phase against `target`; adds the target's CPU use over the phase. */
async function phase(target, path, headers, seconds) {
  const cpu0 = cpuSecondsOf(target.pid);
  const r = await fixedLoadInWorker({ url: target.url, concurrency: CONCURRENCY, durationMs: seconds * 1000, requests: [{ path, headers }] });
  return { ...r, cpuS: cpuSecondsOf(target.pid) - cpu0 };
}

/** Requests answered other than 200, or not at all. */
const notOk = (s) => Object.entries(s.statuses).reduce((n, [k, v]) => n + (k === '200' ? 0 : v), 0) + s.errors;

/** Sums phases: merged latencies over the summed elapsed time. */
function combine(phases) {
  const seconds = phases.reduce((s, p) => s + p.elapsedMs / 1000, 0);
  const entry = mergeEntries(phases.map((p) => p.labels.all).filter(Boolean));
  const cpuS = phases.reduce((s, p) => s + p.cpuS, 0);
  const busy = phases.reduce((s, p) => s + p.generatorBusy * (p.elapsedMs / 1000), 0);
  return { ...summarize(entry, seconds), cpuPct: (100 * cpuS) / seconds, generatorPct: (100 * busy) / seconds };
}

async function measure(backend, server, verdicts) {
  const budget = BUDGETS[backend];
  const { access } = await login(server.url, OWNER);
  const orgId = await orgIdOf(server.url, access);
  const headers = authHeaders(access, orgId);
  const answers = {};
  for (const e of ENDPOINTS) answers[e.path] = expectStatus(await request(server.url + e.path, { headers }), 200, e.name);
  const bare = await startBare(answers);
  const rows = [];
  const lines = [];
  try {
    for (const e of ENDPOINTS) {
      const copy = await request(bare.url + e.path, { headers });
      if (copy.status !== 200 || !copy.body.equals(answers[e.path].body)) throw new Error(`the bare server does not answer ${e.path} as the API does`);
    }
    for (const e of ENDPOINTS) {
      await phase(server, e.path, headers, WARMUP_S);
      await phase(bare, e.path, headers, WARMUP_S);
      const real = [];
      const floor = [];
      for (let i = 0; i < ROUNDS; i++) {
        real.push(await phase(server, e.path, headers, PHASE_S));
        floor.push(await phase(bare, e.path, headers, PHASE_S));
      }
      const r = combine(real);
      const f = combine(floor);
      const bytes = answers[e.path].body.length;
      const other = (s) =>
        `${fmtCounts(Object.fromEntries(Object.entries(s.statuses).filter(([k]) => k !== '200')))}${s.errors ? ` errors ${fmtCounts(s.errorKinds)}` : ''}`;
      rows.push([
        e.name,
        `${backend} server`,
        r.rps.toFixed(0),
        fmtMs(r.p50),
        fmtMs(r.p99),
        fmtMs(r.max),
        `${r.cpuPct.toFixed(0)}%`,
        `${r.generatorPct.toFixed(0)}%`,
        other(r),
      ]);
      rows.push(['', 'bare node:http', f.rps.toFixed(0), fmtMs(f.p50), fmtMs(f.p99), fmtMs(f.max), `${f.cpuPct.toFixed(0)}%`, `${f.generatorPct.toFixed(0)}%`, other(f)]);
      const ratio = r.rps / f.rps;
      const answered = r.errors === 0 && Object.keys(r.statuses).every((k) => k === '200');
      const at = `${backend} ${e.name} at ${CONCURRENCY} clients`;
      lines.push(
        `${backend} ${e.name} (${bytes} B body): ratio ${ratio.toFixed(3)}× (budget ≥ ${budget.ratio}×) ${verdicts.figure(`${at}: req/s of the bare handler's`, `${ratio.toFixed(3)}×`, `≥ ${budget.ratio}×`, ratio >= budget.ratio)}` +
          `; p99 ${fmtMs(r.p99)} (budget ≤ ${budget.p99Ms} ms) ${verdicts.figure(`${at}: p99`, fmtMs(r.p99), `≤ ${budget.p99Ms} ms`, r.p99 <= budget.p99Ms)}` +
          `; every answer 200 ${verdicts.figure(`${at}: answers other than 200`, String(notOk(r)), '0', answered)}`,
      );
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
  table(['endpoint', 'target', 'req/s', 'p50', 'p99', 'max', 'target CPU', 'generator busy', 'other answers'], rows);
  for (const l of lines) console.log(l);
}

await build();
console.log(`node ${process.version}, ${os.cpus().length} CPU(s), load average ${os.loadavg()[0].toFixed(1)}; the load generator is a worker thread of this process`);
console.log("target CPU: the server process's CPU time over the phase (100% = one core); generator busy: the load thread's event-loop utilization");
const verdicts = new Verdicts('api');

await onBackends(verdicts, (label, db) => withCrm(db, (server) => measure(label, server, verdicts)));
console.log(`\nload average at the end: ${os.loadavg()[0].toFixed(1)}`);
verdicts.finish();
