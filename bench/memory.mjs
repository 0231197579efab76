// Memory of the built server on PGlite, for the README: peak (VmHWM) and resident (VmRSS) memory of the
// server process at each step, read from /proc (Linux).
//   1. first start on a fresh data directory (initdb, migrations, SEED=demo with four OWASP-cost hashes):
//      peak when it is listening, then resident after it has sat idle for a few seconds
//   2. restart on the same directory: peak and resident when it is listening
//   3. the restarted server after 10 s idle
//   4. 8 simultaneous logins (each one scrypt of 128 MiB; two per demo account, so D18's per-email
//      count of logins in flight stays under its limit): peak during them (VmHWM is reset first when
//      the kernel allows, and RSS is sampled every 10 ms as well), resident right after and 10 s later
//   node bench/memory.mjs       (npm run bench:memory)
// Budget: none yet; these are the figures the README quotes.
import { rmSync } from 'node:fs';
import os from 'node:os';
import { build } from '../build.mjs';
import { DEMO_ACCOUNTS, LOGIN, DEMO_PASSWORD } from './lib/crm.mjs';
import { request } from './lib/http.mjs';
import { mb, memoryOf, resetPeak, sampleRss } from './lib/proc.mjs';
import { table, Verdicts } from './lib/report.mjs';
import { startCrm, tempDir } from './lib/servers.mjs';
import { fmtCounts, fmtMs } from './lib/stats.mjs';

const SETTLE_MS = 3000;
const IDLE_MS = 10_000;
const LOGINS = 8;

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

await build();
console.log(`node ${process.version}, ${os.cpus().length} CPU(s), load average ${os.loadavg()[0].toFixed(1)}; PGlite, SEED=demo`);
const rows = [];
const dataDir = tempDir('crm-bench-memory-');
try {
  // 1. First start: seeding.
  let server = await startCrm({ dataDir });
  try {
    const atListen = memoryOf(server.pid);
    await sleep(SETTLE_MS);
    const settled = memoryOf(server.pid);
    rows.push(['first start (initdb, migrations, seed)', fmtMs(server.startMs), mb(atListen?.hwm), mb(atListen?.rss), `${mb(settled?.rss)} after ${SETTLE_MS / 1000} s`]);
  } finally {
    await server.stop();
  }

  // 2. Restart on the same directory.
  server = await startCrm({ dataDir, env: { TRUST_PROXY: '1' } });
  try {
    const atListen = memoryOf(server.pid);
    rows.push(['restart (same data directory)', fmtMs(server.startMs), mb(atListen?.hwm), mb(atListen?.rss), '']);

    // 3. Idle.
    await sleep(IDLE_MS);
    const idle = memoryOf(server.pid);
    rows.push([`idle ${IDLE_MS / 1000} s after the restart`, '', mb(idle?.hwm), mb(idle?.rss), '']);

    // 4. Simultaneous logins.
    const reset = resetPeak(server.pid);
    const sampler = sampleRss(server.pid, 10);
    const t0 = performance.now();
    const emails = Array.from({ length: LOGINS }, (_, i) => DEMO_ACCOUNTS[i % DEMO_ACCOUNTS.length]?.email ?? '');
    // D35: one address has at most 2 logins in flight, so each comes from an address of its own
    // (X-Forwarded-For, believed with TRUST_PROXY=1), as eight people signing in at once would.
    const results = await Promise.all(
      emails.map((email, i) =>
        request(server.url + LOGIN, { method: 'POST', body: { email, password: DEMO_PASSWORD }, headers: { 'X-Forwarded-For': `198.51.100.${i + 1}` } }),
      ),
    );
    const loginsMs = performance.now() - t0;
    const sampledPeak = sampler.stop();
    const after = memoryOf(server.pid);
    await sleep(IDLE_MS);
    const later = memoryOf(server.pid);
    const statuses = {};
    for (const r of results) statuses[r.error ?? r.status] = (statuses[r.error ?? r.status] ?? 0) + 1;
    rows.push([
      `${LOGINS} simultaneous logins (${fmtCounts(statuses)})`,
      `${fmtMs(loginsMs)} for all`,
      reset ? mb(after?.hwm) : `${mb(sampledPeak)} (sampled)`,
      mb(after?.rss),
      `${mb(later?.rss)} after ${IDLE_MS / 1000} s; sampled peak ${mb(sampledPeak)}`,
    ]);
    if (!reset) console.log('note: VmHWM could not be reset; the logins row shows the highest RSS sampled every 10 ms');
  } finally {
    await server.stop();
  }
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
console.log('');
table(['step', 'time', 'peak (VmHWM)', 'resident (VmRSS)', 'resident later'], rows);
// No budget yet: the figures go to the summary of `npm run bench` as they are.
const verdicts = new Verdicts('memory');
for (const [step, , peak, resident] of rows) {
  verdicts.figure(`${step}: peak`, peak, 'none set', null);
  verdicts.figure(`${step}: resident`, resident, 'none set', null);
}
verdicts.finish();
