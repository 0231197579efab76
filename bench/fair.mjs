// Fair share (D34, D35): while one member of Acme Plumbing (solo@demo.test) or one stranger runs the
// heaviest calls the API allows, a viewer of Beacon Electric works normally (a request every 100 ms:
// me, dashboard, the customers list) and health is asked on a new connection every second. Scenarios
// (lib/fair-scenarios.mjs): import (10,000-row create, update, the same file again), preview (a 5 MB
// header of empty columns; 1,000,000 columns × 5,000 rows), search (48 deep searches at once with
// 50,000 customers), field (an owner deletes a custom field held by 200,000 customers, D56), export (an owner downloads everything of 200,000 customers, D67; the server's memory
// sampled), login (700 wrong-password logins from one address), refresh (700 refreshes with random
// tokens from one address). The built server runs with TRUST_PROXY=1 (each actor has its own
// X-Forwarded-For address, lib/fair-calls.mjs) and EVENT_LOOP_REPORT=1 (server/event-loop-report.ts: on
// SIGUSR2 it prints its event-loop delay since the last signal), on PGlite and on a throwaway PostgreSQL.
//   node bench/fair.mjs [--db pglite|postgres] [--quick] [--check] [import|preview|search|field|export|bulk|login|refresh ...]
//   (npm run bench:fair)
// Budgets: every bystander request 2xx; victim p99 ≤ 1 s on PGlite, ≤ 300 ms on PostgreSQL; health
// ≤ 500 ms; event-loop delay max ≤ 100 ms; the update import ≤ 5 s on PGlite; the same file again
// changes nothing; a correct login during a flood ≤ 2 s. --quick: smaller attacks (a smoke run).
import os from 'node:os';
import { build } from '../build.mjs';
import { ATTACKER, calls, send, signIn, VICTIM, ADDRESS } from './lib/fair-calls.mjs';
import { startBystanders } from './lib/fair-victim.mjs';
import { ATTACK_TIMEOUT_MS, GROUPS, SCENARIOS, SIZES } from './lib/fair-scenarios.mjs';
import { table, Verdicts } from './lib/report.mjs';
import { startBare, startCrm } from './lib/servers.mjs';
import { fmtCounts, fmtMs, percentile } from './lib/stats.mjs';
import { onBackends } from './lib/backends.mjs';

const args = process.argv.slice(2);
const dbArg = args.includes('--db') ? args[args.indexOf('--db') + 1] : null;
const QUICK = args.includes('--quick');
const asked = args.filter((a, i) => !a.startsWith('--') && args[i - 1] !== '--db');
const unknown = asked.filter((a) => !GROUPS.includes(a));
if (unknown.length || (dbArg && !['pglite', 'postgres'].includes(dbArg))) {
  throw new Error(`usage: node bench/fair.mjs [--db pglite|postgres] [--quick] [--check] [${GROUPS.join('|')} ...]`);
}
const scenarios = SCENARIOS.filter((s) => asked.length === 0 || asked.includes(s.group));
const size = QUICK ? SIZES.quick : SIZES.full;
const BUDGET = { victimP99Ms: { PGlite: 1000, PostgreSQL: 300 }, healthMs: 500, eventLoopMs: 100 };
/** Bystanders start this long before the attack and go on this long after it. */
const LEAD_MS = 1000;
/**
 * Before each scenario the server must answer health within 1 s again. One that does not within this
 * long (an event loop still held by a call the bench gave up on) is restarted on the same database, so
 * the run stays bounded; the event-loop report is waited for as long.
 */
const RECOVER_MS = 30_000;

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Signals the server and waits for its next event-loop line: the delay since the previous signal, in
 * ms ({ max, p99, mean, samples }), or null when none came within RECOVER_MS (the loop is still held).
 */
async function eventLoopReport(server) {
  const lines = () =>
    server
      .output()
      .split('\n')
      .filter((l) => l.startsWith('{"event_loop_delay_ms"'));
  const seen = lines().length;
  process.kill(server.pid, 'SIGUSR2');
  const t0 = performance.now();
  while (lines().length <= seen) {
    if (performance.now() - t0 > RECOVER_MS || server.exited()) return null;
    await sleep(20);
  }
  return JSON.parse(lines()[seen]).event_loop_delay_ms;
}

/**
 * D35's floor for a flood: the event-loop delay max of a bare node:http server (bench/lib/bare-server.mjs)
 * answering the same flood with the 429 our server gave, alone on the machine's side of the bench.
 */
async function floodFloor({ answers, flood }) {
  const bare = await startBare(answers, SERVER_ENV);
  try {
    await eventLoopReport(bare); // starts the count over
    await flood(bare.url);
    await sleep(LEAD_MS);
    return await eventLoopReport(bare);
  } finally {
    await bare.stop();
  }
}

/** Waits until health answers 200 within 1 s on a new connection; false if it never did in RECOVER_MS. */
async function recovered(server) {
  const t0 = performance.now();
  while (performance.now() - t0 < RECOVER_MS) {
    const r = await send(server.url, calls.health(), { address: ADDRESS.health, agent: false, timeoutMs: 5000 });
    if (r.status === 200 && r.ms < 1000) {
      await sleep(100); // a late event-loop line of the last scenario is printed by now
      return true;
    }
    await sleep(500);
  }
  return false;
}

function stats(side) {
  const sorted = Float64Array.from(side.ms).sort();
  const bad = Object.entries(side.statuses)
    .filter(([k]) => !/^2\d\d$/.test(k))
    .reduce((n, [, v]) => n + v, 0);
  return { n: sorted.length, bad, p99: percentile(sorted, 99), max: sorted.length ? sorted[sorted.length - 1] : NaN, statuses: fmtCounts(side.statuses) };
}

/** Runs every chosen scenario against servers from `start()` (one, unless one has to be restarted). */
async function runBackend(backend, start, verdicts) {
  let server = await start();
  const signInBoth = async () => [
    { backend, url: server.url, pid: server.pid, size, attackerOrg: ATTACKER.org, attacker: await signIn(server.url, ATTACKER) },
    await signIn(server.url, VICTIM),
  ];
  let [ctx, victim] = await signInBoth();
  const rows = [];
  const budgetP99 = BUDGET.victimP99Ms[backend];
  try {
    for (const s of scenarios) {
      await scenario(s);
      if (server.exited()) console.log(`${backend} ${s.name}: the server exited; its last output:\n${server.output().slice(-3000)}`);
    }
  } finally {
    await server.stop();
  }
  console.log('');
  console.log(`${backend}${QUICK ? ' (quick)' : ''}: victim p99 budget ≤ ${budgetP99} ms, health ≤ ${BUDGET.healthMs} ms, event-loop delay ≤ ${BUDGET.eventLoopMs} ms`);
  table(['scenario', 'attack', 'victim n', 'not 2xx', 'p99', 'max', 'health n', 'not 200', 'health max', 'loop max'], rows);
  console.log('');

  async function scenario(s) {
    const label = `${backend}${QUICK ? ' quick' : ''} ${s.name}`;
    try {
      if (server.exited() || !(await recovered(server))) {
        console.log(
          `${label}: the server ${server.exited() ? 'had exited' : `still did not answer health within 1 s after ${RECOVER_MS / 1000} s`}: restarted on the same database`,
        );
        await server.stop();
        server = await start();
        [ctx, victim] = await signInBoth();
      }
      if (s.setup) console.log(`${label}: set-up: ${await s.setup(ctx)}`);
      await eventLoopReport(server); // starts the count over
      const bystanders = startBystanders({ url: server.url, session: victim, healthAddress: ADDRESS.health, maxMs: 4 * ATTACK_TIMEOUT_MS });
      await sleep(LEAD_MS);
      const t0 = performance.now();
      const attack = await s.run(ctx);
      const attackMs = performance.now() - t0;
      await sleep(LEAD_MS);
      const seen = await bystanders.stop();
      const loop = await eventLoopReport(server);
      const v = stats(seen.victim);
      const h = stats(seen.health);
      console.log(`${label}: ${attack.summary}`);
      console.log(
        `${label}: victim ${v.n} requests (${v.statuses}), p99 ${fmtMs(v.p99)}, max ${fmtMs(v.max)}; health ${h.n} (${h.statuses}), max ${fmtMs(h.max)}; event-loop delay max ${loop ? fmtMs(loop.max) : `none within ${RECOVER_MS / 1000} s`}`,
      );
      rows.push([s.name, (attackMs / 1000).toFixed(1) + ' s', v.n, v.bad, fmtMs(v.p99), fmtMs(v.max), h.n, h.bad, fmtMs(h.max), loop ? fmtMs(loop.max) : '-']);
      verdicts.figure(`${label}: victim answers not 2xx`, `${v.bad} of ${v.n}`, '0', v.n > 0 && v.bad === 0);
      verdicts.figure(`${label}: victim p99 (max ${fmtMs(v.max)})`, fmtMs(v.p99), `≤ ${budgetP99} ms`, v.p99 <= budgetP99);
      verdicts.figure(
        `${label}: health max (${h.bad} of ${h.n} not 200)`,
        fmtMs(h.max),
        `≤ ${BUDGET.healthMs} ms, all 200`,
        h.n > 0 && h.bad === 0 && h.max <= BUDGET.healthMs,
      );
      verdicts.figure(
        `${label}: event-loop delay max`,
        loop ? fmtMs(loop.max) : `none within ${RECOVER_MS / 1000} s`,
        `≤ ${BUDGET.eventLoopMs} ms`,
        loop !== null && loop.max <= BUDGET.eventLoopMs,
      );
      for (const c of attack.checks) verdicts.figure(`${label}: ${c.figure}`, c.value, c.budget, c.ok);
      if (attack.floor) {
        const floor = await floodFloor(attack.floor);
        console.log(`${label}: floor, a bare node:http server answering the same 429 to the same flood: event-loop delay max ${floor ? fmtMs(floor.max) : '-'}`);
        verdicts.figure(`${label}: floor (bare node:http, the same 429): event-loop delay max`, floor ? fmtMs(floor.max) : '-', 'none set', null);
      }
    } catch (err) {
      console.log(
        `${label}: did not run to the end: ${err instanceof Error ? err.message : String(err)}; the server's last lines:\n${server.output().split('\n').slice(-8).join('\n')}`,
      );
      verdicts.figure(`${label}: ran to the end`, 'no (see its output)', 'yes', false);
      rows.push([s.name, 'failed', '', '', '', '', '', '', '', '']);
    }
  }
}

const SERVER_ENV = { TRUST_PROXY: '1', EVENT_LOOP_REPORT: '1' };

await build();
console.log(
  `node ${process.version}, ${os.cpus().length} CPU(s), load average ${os.loadavg()[0].toFixed(1)}; ${QUICK ? 'QUICK (smaller attacks, not the budget)' : 'full size'}; scenarios: ${scenarios.map((s) => s.name).join(', ')}`,
);
const verdicts = new Verdicts('fair');
const t0 = performance.now();

await onBackends(verdicts, (label, db) => runBackend(label, () => startCrm({ ...db, env: SERVER_ENV }), verdicts), dbArg ? [dbArg] : undefined);
console.log(`${((performance.now() - t0) / 60_000).toFixed(1)} min; load average at the end ${os.loadavg()[0].toFixed(1)}`);
verdicts.finish();
