// Sustained mixed load on PGlite: 200 concurrent keep-alive clients for 60 s (15 s in CI), each with
// its own session, in a closed loop of GET me, GET customers (with searches and pages) and POST refresh
// (each client keeps and rotates its own refresh token). Sessions are logged in before the clock starts
// (a login is one OWASP-cost scrypt). Meanwhile, every 2 s, GET /api/health/ on a NEW connection, and the
// server's RSS is read at the middle and at the end of the run. The load runs in a worker thread of this
// process; the health probe and the RSS readings run on its main thread; the server is a child process.
//   node bench/load.mjs [seconds] [--check]      (npm run bench:load; CI: node bench/load.mjs 15 --check)
//   LOAD_DURATION_S=60 LOAD_CLIENTS=200 LOAD_SESSIONS=<clients>   (fewer sessions: clients share them
//   as browser tabs do, one refresh at a time per session)
// Budget: 0 requests unanswered after 5 s (answered slower, or no answer at all); every health check
// answered 200 within 500 ms; 0 sessions revoked (a refresh answered 401 refresh_token_reused or
// session_revoked, or a call answered session_ended); RSS at the end at most 10% above the middle.
// A 503 server_busy with Retry-After is an answer: counted and reported apart, not a miss.
// With --check the exit code is 1 on any MISS.
import { rmSync } from 'node:fs';
import os from 'node:os';
import { build } from '../build.mjs';
import { DEMO_ACCOUNTS, HEALTH, loginMany, orgIdOf } from './lib/crm.mjs';
import { request } from './lib/http.mjs';
import { runInWorker } from './lib/load.mjs';
import { REVOKED_CODES } from './lib/mixed-clients.mjs';
import { cpuSecondsOf, mb, memoryOf } from './lib/proc.mjs';
import { envNumber, table, Verdicts } from './lib/report.mjs';
import { startCrm, tempDir } from './lib/servers.mjs';
import { fmtCounts, fmtMs, mergeEntries, summarize } from './lib/stats.mjs';

const positional = process.argv.slice(2).find((a) => /^\d+(\.\d+)?$/.test(a));
const DURATION_S = positional ? Number(positional) : envNumber('LOAD_DURATION_S', 60);
const CLIENTS = envNumber('LOAD_CLIENTS', 200);
const SESSIONS = Math.min(CLIENTS, envNumber('LOAD_SESSIONS', CLIENTS));
const UNANSWERED_AFTER_MS = 5000;
const HEALTH_EVERY_MS = 2000;
const HEALTH_BUDGET_MS = 500;
const HEALTH_TIMEOUT_MS = 5000;
const RSS_GROWTH_BUDGET = 0.1;
const WEIGHTS = { me: 45, list: 45, refresh: 10 };
/** Query strings for GET customers, in turn: no search, name and email fragments, phone digits, pages. */
const LIST_QUERIES = ['', '?q=an', '?q=5550110', '?q=(503)%20555-01', '?q=example.net', '?page=2&page_size=10', '?q=olivia', '?page=1&page_size=50'];

/** GET health on a new connection every 2 s from now until `untilMs`; resolves with every probe. */
function probeHealth(url, untilMs) {
  const probes = [];
  const pending = [];
  return new Promise((resolve) => {
    const t0 = performance.now();
    const probe = () => {
      const at = performance.now() - t0;
      pending.push(
        request(url + HEALTH, { agent: false, headers: { Connection: 'close' }, timeoutMs: HEALTH_TIMEOUT_MS }).then((r) =>
          probes.push({ at, ms: r.ms, status: r.status, error: r.error }),
        ),
      );
    };
    probe();
    const timer = setInterval(() => {
      if (performance.now() >= untilMs) {
        clearInterval(timer);
        void Promise.all(pending).then(() => resolve(probes.sort((a, b) => a.at - b.at)));
        return;
      }
      probe();
    }, HEALTH_EVERY_MS);
  });
}

await build();
const verdicts = new Verdicts('load');
console.log(`node ${process.version}, ${os.cpus().length} CPU(s), load average ${os.loadavg()[0].toFixed(1)}`);
console.log(`PGlite, SEED=demo; ${CLIENTS} clients, ${SESSIONS} sessions, ${DURATION_S} s; weights me ${WEIGHTS.me} / list ${WEIGHTS.list} / refresh ${WEIGHTS.refresh}`);
const dataDir = tempDir('crm-bench-load-');
try {
  const server = await startCrm({ dataDir });
  try {
    const emails = DEMO_ACCOUNTS.filter((a) => a.acme).map((a) => a.email);
    const tLogin = performance.now();
    const sessions = await loginMany(server.url, SESSIONS, emails);
    console.log(`logged in ${SESSIONS} sessions (${emails.join(', ')}) in ${((performance.now() - tLogin) / 1000).toFixed(1)} s, before the clock`);
    const orgId = await orgIdOf(server.url, sessions[0].access);

    const durationMs = DURATION_S * 1000;
    const rss = { start: memoryOf(server.pid), middle: null, end: null };
    const cpu0 = cpuSecondsOf(server.pid);
    const t0 = performance.now();
    const middle = setTimeout(() => (rss.middle = memoryOf(server.pid)), durationMs / 2);
    const end = setTimeout(() => (rss.end = memoryOf(server.pid)), durationMs);
    const [result, probes] = await Promise.all([
      runInWorker(
        new URL('./lib/mixed-clients.mjs', import.meta.url).href,
        'mixedClients',
        { url: server.url, clients: CLIENTS, durationMs, orgId, sessions, weights: WEIGHTS, listQueries: LIST_QUERIES, slowMs: UNANSWERED_AFTER_MS },
        durationMs,
      ),
      probeHealth(server.url, t0 + durationMs),
    ]);
    clearTimeout(middle);
    clearTimeout(end);
    const cpuPct = (100 * (cpuSecondsOf(server.pid) - cpu0)) / (result.elapsedMs / 1000);
    const after = memoryOf(server.pid);
    const serverAlive = server.exited() === null;

    // Requests
    const seconds = result.elapsedMs / 1000;
    const labels = Object.keys(result.labels).sort();
    const all = summarize(mergeEntries(labels.map((l) => result.labels[l])), seconds);
    const rows = [...labels.map((l) => [l, summarize(result.labels[l], seconds)]), ['all', all]].map(([l, s]) => [
      l,
      s.count,
      s.rps.toFixed(0),
      fmtMs(s.p50),
      fmtMs(s.p99),
      fmtMs(s.max),
      s.slow,
      s.errors,
      fmtCounts(s.statuses),
      fmtCounts(s.codes),
    ]);
    console.log('');
    console.log(`requests over ${seconds.toFixed(1)} s (server CPU ${cpuPct.toFixed(0)}% of one core, load generator busy ${(100 * result.generatorBusy).toFixed(0)}%)`);
    table(['call', 'answered', 'req/s', 'p50', 'p99', 'max', `>${UNANSWERED_AFTER_MS / 1000} s`, 'no answer', 'statuses', 'error codes'], rows);
    const busy = Object.entries(all.codes).filter(([k]) => k === '503 server_busy').reduce((n, [, v]) => n + v, 0);
    const otherErrors = Object.entries(all.codes).filter(([k]) => k !== '503 server_busy');

    // Health
    const healthBad = probes.filter((p) => p.status !== 200 || p.ms > HEALTH_BUDGET_MS);
    const healthAnswered = probes.filter((p) => !p.error);
    const healthSorted = healthAnswered.map((p) => p.ms).sort((a, b) => a - b);

    // Sessions
    const revoked = Object.entries(result.sessionsEnded)
      .filter(([why]) => REVOKED_CODES.some((c) => why.endsWith(c)) || why.endsWith('session_ended'))
      .reduce((n, [, v]) => n + v, 0);
    const endedOther = Object.entries(result.sessionsEnded).filter(([why]) => !(REVOKED_CODES.some((c) => why.endsWith(c)) || why.endsWith('session_ended')));

    // Memory
    const growth = rss.middle && rss.end ? rss.end.rss / rss.middle.rss - 1 : NaN;

    console.log('');
    const unanswered = all.slow + all.errors;
    console.log(
      `unanswered after ${UNANSWERED_AFTER_MS / 1000} s: ${unanswered} (${all.slow} answered later, ${all.errors} never: ${fmtCounts(all.errorKinds)}` +
        `${unanswered ? `; ended between t=${all.badFirst.toFixed(1)} s and t=${all.badLast.toFixed(1)} s` : ''}) ` +
        `(budget 0) ${verdicts.figure(`${CLIENTS} clients ${DURATION_S} s: requests unanswered after ${UNANSWERED_AFTER_MS / 1000} s`, String(unanswered), '0', unanswered === 0)}`,
    );
    console.log(`503 server_busy (answers, with Retry-After): ${busy}; client waits ${result.busyWaits.count} totalling ${(result.busyWaits.ms / 1000).toFixed(1)} s`);
    if (otherErrors.length) console.log(`other error answers: ${fmtCounts(Object.fromEntries(otherErrors))}`);
    console.log(
      `health checks (new connection every ${HEALTH_EVERY_MS / 1000} s): ${probes.length}, ${healthBad.length} not 200 within ${HEALTH_BUDGET_MS} ms; ` +
        `${probes.length - healthAnswered.length} unanswered within ${HEALTH_TIMEOUT_MS / 1000} s; answered: p50 ${fmtMs(healthSorted[Math.floor(healthSorted.length / 2)] ?? NaN)}, max ${fmtMs(healthSorted.at(-1) ?? NaN)} ` +
        `(budget: every one) ${verdicts.figure(`health checks not answered 200 within ${HEALTH_BUDGET_MS} ms`, `${healthBad.length} of ${probes.length}`, '0', probes.length > 0 && healthBad.length === 0)}`,
    );
    if (healthBad.length) {
      console.log(`  late or failed: ${healthBad.slice(0, 10).map((p) => `t=${(p.at / 1000).toFixed(0)}s ${p.error ?? p.status} ${fmtMs(p.ms)}`).join(', ')}${healthBad.length > 10 ? ', …' : ''}`);
    }
    console.log(
      `sessions revoked: ${revoked} of ${SESSIONS} ${fmtCounts(result.sessionsEnded)} (budget 0) ${verdicts.figure('sessions revoked', `${revoked} of ${SESSIONS}`, '0', revoked === 0)}` +
        `${endedOther.length ? `; other ends: ${fmtCounts(Object.fromEntries(endedOther))}` : ''}; clients stopped early: ${result.clientsStoppedEarly}`,
    );
    console.log(
      `server RSS: start ${mb(rss.start?.rss)}, middle ${mb(rss.middle?.rss)}, end ${mb(rss.end?.rss)} (${Number.isFinite(growth) ? `${growth >= 0 ? '+' : ''}${(100 * growth).toFixed(1)}%` : '-'}), ` +
        `after ${mb(after?.rss)}, peak ${mb(after?.hwm)} (budget: end ≤ middle + ${100 * RSS_GROWTH_BUDGET}%) ` +
        `${verdicts.figure('server RSS at the end against the middle', Number.isFinite(growth) ? `${growth >= 0 ? '+' : ''}${(100 * growth).toFixed(1)}%` : '-', `≤ +${100 * RSS_GROWTH_BUDGET}%`, growth <= RSS_GROWTH_BUDGET)}`,
    );
    console.log(`server still running after the load: ${serverAlive ? 'yes' : 'NO'} ${verdicts.figure('server still running after the load', serverAlive ? 'yes' : 'no', 'yes', serverAlive)}`);
  } finally {
    await server.stop();
  }
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
console.log(`load average at the end: ${os.loadavg()[0].toFixed(1)}`);
verdicts.finish();
