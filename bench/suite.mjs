// The test suites as a person waits for them: the app project's wall time (the budget a developer feels
// on every save), and the whole of `npm test` with two CPU-bound processes beside it (CI machines are
// shared: the suite must pass on a busy one, so no test may time the machine).
//   node bench/suite.mjs                    both (the loaded run takes 25–45 minutes)
//   SUITE_RUNS=5 node bench/suite.mjs       app suite runs (median; default 3)
//   SUITE_LOADED=0 node bench/suite.mjs     the app suite only
// It runs in this working tree with the Node it is started with; the closing figures of a change run it
// on a fresh clone after `npm ci`, on Node 20 and on Node 24 (docs/performance.md).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { median, Verdicts } from './lib/report.mjs';
import { root } from './lib/servers.mjs';

const RUNS = Number(process.env.SUITE_RUNS ?? 3);
const LOADED = process.env.SUITE_LOADED !== '0';
const APP_BUDGET_S = 20; // issue 35: on this 2-CPU machine, React and happy-dom as published
const BURNERS = 2;

/** CPU seconds of this process's finished children (Linux: /proc/self/stat's cutime + cstime), or null. */
function childCpuSeconds() {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // After the name: state is field 3, so cutime (16) and cstime (17) are at 13 and 14 here; 100 ticks a second.
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return null;
  }
}

/** Runs a command to its end; resolves with its exit code, wall seconds, CPU seconds and the last of its output. */
function run(cmd, args, env = {}) {
  return new Promise((resolve) => {
    const cpu0 = childCpuSeconds();
    const t0 = performance.now();
    const child = spawn(cmd, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let tail = '';
    const keep = (chunk) => {
      tail = (tail + chunk).slice(-20_000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('close', (code) => {
      const cpu1 = childCpuSeconds();
      resolve({ code, wallS: (performance.now() - t0) / 1000, cpuS: cpu0 === null || cpu1 === null ? null : cpu1 - cpu0, tail });
    });
  });
}

const plain = (text) => text.replace(/\x1b\[[0-9;]*m/g, '');
const testCount = (tail) => /Tests\s+(.*\(\d+\))/.exec(plain(tail))?.[1]?.trim() ?? '?';

const verdicts = new Verdicts('suite');
console.log(`${os.cpus().length} CPU(s), Node ${process.version}, load average ${os.loadavg()[0].toFixed(1)}`);

const app = [];
for (let i = 0; i < RUNS; i++) {
  const r = await run(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', '--project', 'app']);
  app.push(r);
  console.log(
    `app suite run ${i + 1}: ${r.code === 0 ? 'passed' : `FAILED (exit ${r.code})`}, ${testCount(r.tail)}, ${r.wallS.toFixed(1)} s wall, ${r.cpuS?.toFixed(1) ?? '?'} s CPU`,
  );
  // A failed run says which test failed (vitest's summary of failures ends its output).
  if (r.code !== 0) console.log(plain(r.tail).split('\n').slice(-40).join('\n'));
}
const passed = app.every((r) => r.code === 0);
const wall = median(app.map((r) => r.wallS));
verdicts.figure(
  `vitest run --project app: wall, median of ${RUNS}${passed ? '' : ' (a run failed)'}`,
  `${wall.toFixed(1)} s`,
  `≤ ${APP_BUDGET_S} s`,
  passed && wall <= APP_BUDGET_S,
);
if (app.every((r) => r.cpuS !== null)) verdicts.figure('vitest run --project app: CPU, median', `${median(app.map((r) => r.cpuS)).toFixed(1)} s`, 'none set', null);

if (LOADED) {
  // Busy-looping processes, one per CPU the machine would otherwise give the suite.
  const burners = Array.from({ length: BURNERS }, () => spawn(process.execPath, ['-e', 'for(;;){}'], { stdio: 'ignore' }));
  try {
    const r = await run('npm', ['test'], { CI: 'true' });
    console.log(plain(r.tail).split('\n').slice(-25).join('\n'));
    verdicts.figure(
      `npm test with ${BURNERS} CPU-bound processes beside it (${(r.wallS / 60).toFixed(0)} min)`,
      r.code === 0 ? 'passed' : `failed (exit ${r.code})`,
      'passes',
      r.code === 0,
    );
  } finally {
    for (const b of burners) b.kill();
  }
} else {
  verdicts.figure(`npm test with ${BURNERS} CPU-bound processes beside it`, 'not run (SUITE_LOADED=0)', 'passes', null);
}
verdicts.finish();
