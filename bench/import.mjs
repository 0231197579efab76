// D34 D44: what one member's import costs, on PGlite and then PostgreSQL (the built server, SEED=demo,
// solo@demo.test in Acme Plumbing): a 10,000-row create import, the same file with one column changed
// and on_duplicate=update, that file once more (nothing may change), the widest allowed preview
// (IMPORT_MAX_COLUMNS columns filling 5 MB) and a 5 MB header of commas (refused). Meanwhile a second
// client asks /api/health/ on a new connection every 100 ms; its slowest answer is printed per step.
//   node bench/import.mjs [--check]      budget: the update import ≤ 5 s; the second send changes nothing
import { build } from '../build.mjs';
import { API, authHeaders, HEALTH, login, orgIdOf } from './lib/crm.mjs';
import { json, request } from './lib/http.mjs';
import { Verdicts } from './lib/report.mjs';
import { onBackends, withCrm } from './lib/backends.mjs';

const ROWS = 10_000;
const MAX_COLUMNS = 200;
const BUDGET_UPDATE_MS = 5_000;
const MEMBER = 'solo@demo.test';

const file = (city) => `name,email,city\r\n${Array.from({ length: ROWS }, (_, i) => `Bench ${i},bench${i}@import.test,${city}`).join('\r\n')}\r\n`;
function widest() {
  const header = `name,${Array.from({ length: MAX_COLUMNS - 1 }, (_, i) => `c${i}`).join(',')}\r\n`;
  const row = `a${','.repeat(MAX_COLUMNS - 1)}\r\n`;
  return header + row.repeat(Math.min(ROWS, Math.floor((5 * 1024 * 1024 - header.length) / row.length)));
}

/** Runs `fn` while health is asked every 100 ms on a new connection; the step's time and health's slowest. */
async function step(url, fn) {
  let stop = false;
  let slowest = 0;
  let failed = 0;
  const poller = (async () => {
    while (!stop) {
      const r = await request(url + HEALTH, { agent: false, timeoutMs: 60_000 });
      if (r.status !== 200) failed++;
      slowest = Math.max(slowest, r.ms);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  const t0 = performance.now();
  const r = await fn();
  const ms = performance.now() - t0;
  stop = true;
  await poller;
  return { r, ms, slowest, failed };
}

async function measure(label, server, verdicts) {
  const { access } = await login(server.url, MEMBER);
  const headers = { ...authHeaders(access, await orgIdOf(server.url, access)), 'Content-Type': 'text/csv' };
  const post = (path, body) => request(server.url + API + path, { method: 'POST', headers, body, timeoutMs: 300_000 });
  const line = (name, s) =>
    console.log(
      `${label.padEnd(10)} ${name.padEnd(34)} ${String(s.r.status).padEnd(4)} ${`${s.ms.toFixed(0)} ms`.padStart(9)}   health max ${s.slowest.toFixed(0)} ms, ${s.failed} not 200   ${s.r.body.toString('utf8').slice(0, 90)}`,
    );
  const create = await step(server.url, () => post('/customers/import/', file('Bend')));
  line('create 10,000', create);
  const update = await step(server.url, () => post('/customers/import/?on_duplicate=update', file('Salem')));
  line('update 10,000 (one column)', update);
  const again = await step(server.url, () => post('/customers/import/?on_duplicate=update', file('Salem')));
  line('the same file again', again);
  line('widest preview (200 columns, 5 MB)', await step(server.url, () => post('/customers/import/preview/', widest())));
  line('5 MB header of commas (refused)', await step(server.url, () => post('/customers/import/preview/', `name${','.repeat(5 * 1024 * 1024 - 100)}\r\n`)));
  verdicts.figure(`${label} update import`, `${update.ms.toFixed(0)} ms`, `≤ ${BUDGET_UPDATE_MS} ms`, update.r.status === 200 && update.ms <= BUDGET_UPDATE_MS);
  const second = json(again.r);
  verdicts.figure(`${label} same file twice`, JSON.stringify(second), 'updated 0', again.r.status === 200 && second?.updated === 0 && second?.created === 0);
}

await build();
const verdicts = new Verdicts('import');
await onBackends(verdicts, (label, db) => withCrm(db, (server) => measure(label, server, verdicts)));
verdicts.finish();
