// Floods at the sign-in doors (D35, D36) against the built server, on each database: from one address,
// 700 concurrent wrong-password logins (the address already throttled), 700 refreshes with made-up
// tokens, and 700 look-ups of made-up invitation links. Meanwhile a member of another organization
// works normally (a request every 100 ms, their profile and the customer list), a health check runs on
// a new connection every second, and a correct login comes from another address as the flood starts.
// Budgets (D34, D35): every member request 2xx, their p99 ≤ 1 s on PGlite and ≤ 300 ms on PostgreSQL,
// health ≤ 500 ms, the correct login ≤ 2 s. The resilience suite checks the same floods by counts
// (test/resilience/fair-auth.test.ts); the times are only here.
//   node bench/auth.mjs [--check]      AUTH_BACKENDS=pglite,postgres (both by default)
// Setting: LOGIN_MAX_FAILURES_PER_CLIENT=5, so throttling the attacker's address takes 5 OWASP-cost
// logins rather than 50; TRUST_PROXY=1, so addresses differ by X-Forwarded-For.
import { randomBytes } from 'node:crypto';
import { Agent } from 'node:http';
import os from 'node:os';
import { build } from '../build.mjs';
import { authHeaders, CUSTOMERS, HEALTH, LOGIN, ME, orgIdOf, REFRESH, DEMO_PASSWORD } from './lib/crm.mjs';
import { expectStatus, json, request } from './lib/http.mjs';
import { table, Verdicts } from './lib/report.mjs';
import { startCrm } from './lib/servers.mjs';
import { fmtCounts, fmtMs, percentile } from './lib/stats.mjs';
import { backendsFrom, onBackends } from './lib/backends.mjs';

const FLOOD = 700;
const MEMBER_EVERY_MS = 100;
const HEALTH_EVERY_MS = 1000;
const BUDGET = { memberP99: { PGlite: 1000, PostgreSQL: 300 }, healthMs: 500, loginMs: 2000 };
const BACKENDS = backendsFrom(process.env.AUTH_BACKENDS);
const ENV = { TRUST_PROXY: '1', LOGIN_MAX_FAILURES_PER_CLIENT: '5' };

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const from = (address, headers = {}) => ({ 'X-Forwarded-For': address, ...headers });
const token = () => randomBytes(32).toString('base64url');
const counts = (rs) => rs.reduce((c, r) => ((c[r.error ?? r.status] = (c[r.error ?? r.status] ?? 0) + 1), c), {});

const FLOODS = {
  'login (throttled address)': (url, address) =>
    request(url + LOGIN, { method: 'POST', body: { email: 'victim@test.example', password: 'wrong' }, headers: from(address) }),
  'refresh (made-up tokens)': (url, address) => request(url + REFRESH, { method: 'POST', body: { refresh_token: token() }, headers: from(address) }),
  'invitation look-up (made-up links)': (url, address) => request(`${url}/api/v1/invitations/${token()}/`, { headers: from(address) }),
};

/** One flood with the member working beside it; the figures of what the member and the others saw. */
async function flood(url, kind, send, member) {
  const attacker = `203.0.113.${Object.keys(FLOODS).indexOf(kind) + 10}`;
  if (kind.startsWith('login')) {
    for (let i = 0; i < 6; i++) await request(url + LOGIN, { method: 'POST', body: { email: `stranger${i}@test.example`, password: 'wrong' }, headers: from(attacker) });
  }
  let done = false;
  const work = [];
  const health = [];
  const worker = (async () => {
    for (let i = 0; !done || work.length < 10; i++) {
      const path = i % 2 ? `${CUSTOMERS}?page_size=5` : ME;
      work.push(await request(url + path, { headers: from(member.address, authHeaders(member.access, member.orgId)) }));
      await sleep(MEMBER_EVERY_MS);
    }
  })();
  const prober = (async () => {
    while (!done) {
      health.push(await request(url + HEALTH, { agent: new Agent({ keepAlive: false }) }));
      await sleep(HEALTH_EVERY_MS);
    }
  })();
  const sent = Promise.all(Array.from({ length: FLOOD }, () => send(url, attacker)));
  const login = await request(url + LOGIN, { method: 'POST', body: { email: 'viewer@demo.test', password: DEMO_PASSWORD }, headers: from('198.51.100.77') });
  const answers = await sent;
  done = true;
  await Promise.all([worker, prober]);
  const ms = work.map((r) => r.ms).sort((a, b) => a - b);
  return { kind, answers, work, health, login, p99: percentile(ms, 99), max: ms[ms.length - 1] };
}

async function run(backend, db, verdicts) {
  const server = await startCrm({ ...db, env: ENV });
  try {
    const address = '198.51.100.5';
    const b = json(
      expectStatus(
        await request(server.url + LOGIN, { method: 'POST', body: { email: 'solo@demo.test', password: DEMO_PASSWORD }, headers: from(address) }),
        200,
        'login solo',
      ),
    );
    const member = { address, access: b.access_token, orgId: await orgIdOf(server.url, b.access_token) };
    const rows = [];
    for (const [kind, send] of Object.entries(FLOODS)) {
      const f = await flood(server.url, kind, send, member);
      const bad = f.work.filter((r) => r.status < 200 || r.status > 299).length;
      const healthMax = Math.max(...f.health.map((h) => (h.status === 200 ? h.ms : Infinity)));
      rows.push([
        `${backend}: ${kind}`,
        fmtCounts(counts(f.answers)),
        `${f.work.length} (${bad} not 2xx)`,
        fmtMs(f.p99),
        fmtMs(healthMax),
        `${f.login.status} in ${fmtMs(f.login.ms)}`,
      ]);
      const p99Budget = BUDGET.memberP99[backend];
      verdicts.figure(`${backend} ${kind}: member requests not 2xx`, bad, 0, bad === 0);
      verdicts.figure(`${backend} ${kind}: member p99`, fmtMs(f.p99), `≤ ${p99Budget} ms`, f.p99 <= p99Budget);
      verdicts.figure(`${backend} ${kind}: health max`, fmtMs(healthMax), `≤ ${BUDGET.healthMs} ms`, healthMax <= BUDGET.healthMs);
      verdicts.figure(
        `${backend} ${kind}: correct login elsewhere`,
        `${f.login.status} in ${fmtMs(f.login.ms)}`,
        `200 ≤ ${BUDGET.loginMs} ms`,
        f.login.status === 200 && f.login.ms <= BUDGET.loginMs,
      );
    }
    table(['flood', 'flood answers', 'member requests', 'member p99', 'health max', 'login elsewhere'], rows);
  } finally {
    await server.stop();
  }
}

await build();
console.log(`node ${process.version}, ${os.cpus().length} CPU(s), load average ${os.loadavg()[0].toFixed(1)}; ${FLOOD} requests per flood`);
const verdicts = new Verdicts('auth');
await onBackends(verdicts, (label, db) => run(label, db, verdicts), BACKENDS);
verdicts.finish();
