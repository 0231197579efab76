// Server benchmark, all figures from one run: start-up of the built server on an empty data directory
// (initdb, migrations, demo seed with OWASP-cost scrypt) and on an existing one, and the time of a
// login (one scrypt) next to an authenticated call that does no password work; and D34's durations
// that the tests do not time: while one member floods the database gate (140 uncached searches at
// once), another organization's member's requests and health on new connections, and how soon the
// flood's refusals come.
//   node bench/server.mjs [runs]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import http from 'node:http';
import { build } from '../build.mjs';
import { CUSTOMERS, HEALTH, authHeaders, login as signIn, orgIdOf } from './lib/crm.mjs';
import { request } from './lib/http.mjs';
import { Verdicts } from './lib/report.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RUNS = Number(process.argv[2] ?? 3);
const LOGINS = 5;
const START_TIMEOUT_MS = 60_000;
/** D34: one member's requests at once, past the gate's 200 per key. */
const FLOOD = 240;
const VICTIM_REQUESTS = 10;
/** D34's budgets (PGlite): another organization's requests p99 ≤ 1 s, health ≤ 500 ms. */
const VICTIM_BUDGET_MS = 1000;
const HEALTH_BUDGET_MS = 500;

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (x) => `${x.toFixed(0)} ms`;

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** Starts the built server; resolves when it says it is listening, with the time that took. */
async function start(dataDir) {
  const port = await freePort();
  const t0 = performance.now();
  const child = spawn(process.execPath, [path.join(root, 'dist/server/main.mjs')], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, DATABASE_URL: '', SEED: 'demo' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const elapsed = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start within ${START_TIMEOUT_MS} ms:\n${output}`)), START_TIMEOUT_MS);
    const onData = (chunk) => {
      output += chunk;
      if (/listening on http/.test(output)) {
        clearTimeout(timer);
        resolve(performance.now() - t0);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`server exited (${code}):\n${output}`)));
  });
  return {
    elapsed,
    url: `http://127.0.0.1:${port}`,
    stop: () =>
      new Promise((resolve) => {
        child.removeAllListeners('exit');
        child.once('exit', resolve);
        child.kill('SIGTERM');
      }),
  };
}

async function timed(fn) {
  const t = performance.now();
  const res = await fn();
  if (!res.ok) throw new Error(`HTTP ${res.status}: ${await res.text()}`);
  const body = res.status === 204 ? null : await res.json();
  return { time: performance.now() - t, body };
}

/** D34: solo@ (Acme) floods; viewer@ (Beacon) works one request at a time, health on new connections meanwhile. */
async function flood(url) {
  const solo = await signIn(url, 'solo@demo.test');
  const viewer = await signIn(url, 'viewer@demo.test');
  const acme = await orgIdOf(url, solo.access, 'Acme Plumbing');
  const beacon = await orgIdOf(url, viewer.access, 'Beacon Electric');
  // A write first (PGlite keeps answers until then), so every request of the flood needs the database.
  await request(url + CUSTOMERS, { method: 'POST', body: { name: 'Flood Bench' }, headers: authHeaders(solo.access, acme) });
  const agent = new http.Agent({ keepAlive: true, maxSockets: FLOOD });
  const flooding = Array.from({ length: FLOOD }, (_, i) => request(`${url}${CUSTOMERS}?q=flood${i}&page=${i + 1}`, { agent, headers: authHeaders(solo.access, acme) }));
  const victim = [];
  const health = [];
  for (let i = 0; i < VICTIM_REQUESTS; i++) {
    victim.push(await request(`${url}${CUSTOMERS}?page=${i + 1}&page_size=25`, { headers: authHeaders(viewer.access, beacon) }));
    health.push(await request(url + HEALTH, { agent: false, headers: { Connection: 'close' } }));
  }
  const answers = await Promise.all(flooding);
  agent.destroy();
  const byStatus = (list) =>
    Object.entries(list.reduce((m, a) => ((m[a.status] = (m[a.status] ?? 0) + 1), m), {}))
      .map(([k, v]) => `${k} ×${v}`)
      .join(', ');
  const limited = answers.filter((a) => a.status === 429).map((a) => a.ms);
  return {
    floodStatuses: byStatus(answers),
    limitedMedian: limited.length ? median(limited) : NaN,
    victimStatuses: byStatus(victim),
    victimOk: victim.every((a) => a.status === 200),
    victimMax: Math.max(...victim.map((a) => a.ms)),
    healthOk: health.every((a) => a.status === 200),
    healthMax: Math.max(...health.map((a) => a.ms)),
  };
}

await build();
const dirs = [];
const tmp = () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'crm-bench-'));
  dirs.push(dir);
  return dir;
};

try {
  const cold = [];
  const warm = [];
  let existing = '';
  for (let i = 0; i < RUNS; i++) {
    existing = tmp();
    const s = await start(existing);
    cold.push(s.elapsed);
    await s.stop();
  }
  for (let i = 0; i < RUNS; i++) {
    const s = await start(existing);
    warm.push(s.elapsed);
    await s.stop();
  }

  const s = await start(existing);
  const logins = [];
  const calls = [];
  let fair = null;
  try {
    const login = () =>
      fetch(`${s.url}/api/v1/auth/login/`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ email: 'owner@demo.test', password: 'demo-password' }),
      });
    await timed(login); // warm-up
    for (let i = 0; i < LOGINS; i++) {
      const { time, body } = await timed(login);
      logins.push(time);
      calls.push((await timed(() => fetch(`${s.url}/api/v1/auth/me/`, { headers: { Authorization: `Bearer ${body.access_token}` } }))).time);
    }
    fair = await flood(s.url);
  } finally {
    await s.stop();
  }

  const [c, w, l, m] = [median(cold), median(warm), median(logins), median(calls)];
  console.log(`server start, empty data dir (initdb + migrations + seed), median of ${RUNS}: ${ms(c)}`);
  console.log(`server start, existing data dir, median of ${RUNS}:                     ${ms(w)}   (empty/existing ${(c / w).toFixed(1)}x)`);
  console.log(`login (scrypt N=2^17, r=8, p=1), median of ${LOGINS}:                       ${ms(l)}`);
  console.log(`GET /api/v1/auth/me/ (token + session check), median of ${LOGINS}:         ${m.toFixed(1)} ms   (login/me ${(l / m).toFixed(0)}x)`);
  console.log(`node ${process.version}, ${os.cpus().length} CPU(s)`);
  // No budgets yet: the figures go to the summary of `npm run bench` as they are.
  const verdicts = new Verdicts('server');
  verdicts.figure('server start, empty data directory', ms(c), 'none set', null);
  verdicts.figure('server start, existing data directory', ms(w), 'none set', null);
  verdicts.figure('login (one OWASP-cost scrypt)', ms(l), 'none set', null);
  verdicts.figure('GET me', `${m.toFixed(1)} ms`, 'none set', null);
  console.log(`D34 flood of ${FLOOD} by one member: ${fair.floodStatuses}; 429s answered in ${ms(fair.limitedMedian)} (median)`);
  console.log(`D34 another organization meanwhile: ${fair.victimStatuses}, slowest ${ms(fair.victimMax)}; health on new connections slowest ${ms(fair.healthMax)}`);
  verdicts.figure(`D34 flood by one member: answers`, fair.floodStatuses, 'none set', null);
  verdicts.figure(`D34 flood: 429 answered (median)`, ms(fair.limitedMedian), 'none set', null);
  verdicts.figure(
    `D34 another organization during the flood: slowest of ${VICTIM_REQUESTS}, all 200`,
    ms(fair.victimMax),
    `≤ ${VICTIM_BUDGET_MS} ms`,
    fair.victimOk && fair.victimMax <= VICTIM_BUDGET_MS,
  );
  verdicts.figure(
    'D34 health on a new connection during the flood: slowest, all 200',
    ms(fair.healthMax),
    `≤ ${HEALTH_BUDGET_MS} ms`,
    fair.healthOk && fair.healthMax <= HEALTH_BUDGET_MS,
  );
  verdicts.finish();
} finally {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
}
