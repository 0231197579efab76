// `npm run bench`: every benchmark in turn, each as its own process (as it runs alone), then one table
// of every figure with its budget and PASS/MISS. A script that fails counts as a MISS of its own.
//   node bench/all.mjs [--check] [name ...]     e.g. node bench/all.mjs bundle browser
// With --check the exit code is 1 on any MISS (a script's own --check is not passed on: every script
// runs to the end either way).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CHECK, figureTable } from './lib/report.mjs';
import { root, tempDir } from './lib/servers.mjs';

/** In the order they run: the cheap and the browser ones first, the long load runs last. */
const SCRIPTS = ['bundle', 'browser', 'server', 'api', 'list', 'import', 'merge', 'auth', 'fair', 'load', 'memory', 'suite'];

const asked = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const unknown = asked.filter((a) => !SCRIPTS.includes(a));
if (unknown.length) throw new Error(`unknown benchmark(s) ${unknown.join(', ')}; known: ${SCRIPTS.join(', ')}`);
const scripts = asked.length ? SCRIPTS.filter((s) => asked.includes(s)) : SCRIPTS;

const dir = tempDir('crm-bench-all-');
const summary = path.join(dir, 'figures.jsonl');
const loadBefore = os.loadavg()[0];
const t0 = performance.now();
const failed = [];
try {
  for (const name of scripts) {
    console.log(`\n===== bench/${name}.mjs =====`);
    const r = spawnSync(process.execPath, [path.join(root, 'bench', `${name}.mjs`)], {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, BENCH_SUMMARY_FILE: summary },
    });
    // bundle.mjs exits 1 over budget on its own: its figures say so; only a script with no figures failed.
    if (r.status !== 0 && !(existsSync(summary) && readFileSync(summary, 'utf8').includes(`"bench":"${name}"`))) failed.push(name);
  }
  const figures = existsSync(summary)
    ? readFileSync(summary, 'utf8')
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l))
    : [];
  for (const name of failed) figures.push({ bench: name, figure: `bench/${name}.mjs ran to the end`, value: 'no (see its output)', budget: 'yes', verdict: 'MISS' });
  const misses = figures.filter((f) => f.verdict === 'MISS');
  const checked = figures.filter((f) => f.verdict !== '');
  console.log(`\n===== summary: ${scripts.join(', ')} =====`);
  console.log(
    `${os.cpus().length} CPU(s); load average ${loadBefore.toFixed(1)} at the start, ${os.loadavg()[0].toFixed(1)} at the end; ${((performance.now() - t0) / 60_000).toFixed(1)} min`,
  );
  figureTable(figures);
  console.log('');
  console.log(misses.length === 0 ? `all ${checked.length} budget checks PASS` : `${misses.length} of ${checked.length} budget checks MISS`);
  if (CHECK && misses.length > 0) process.exitCode = 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
