// Printing: aligned tables, PASS/MISS verdicts, the --check exit code, and the figures every script
// hands to `npm run bench` (bench/all.mjs) for its summary table.
import { appendFileSync } from 'node:fs';

export const CHECK = process.argv.includes('--check');
/** bench/all.mjs sets this: each script appends its figures here, one JSON object a line. */
const SUMMARY_FILE = process.env.BENCH_SUMMARY_FILE ?? '';

/** The median of numbers (the lower middle one for an even count). */
export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];

/**
 * Collects verdicts; `finish()` prints the script's figures and total and, with --check, exits non-zero
 * on any MISS. `bench` names the script in the summary of `npm run bench`.
 */
export class Verdicts {
  constructor(bench = 'bench') {
    this.bench = bench;
    this.misses = [];
    this.count = 0;
    /** @type {{ bench: string, figure: string, value: string, budget: string, verdict: string }[]} */
    this.figures = [];
  }

  /** 'PASS' or 'MISS' for `ok`; a MISS is remembered under `what`. */
  check(ok, what) {
    this.count++;
    if (!ok) this.misses.push(what);
    return ok ? 'PASS' : 'MISS';
  }

  /**
   * A figure as the summary shows it: what, the value measured, its budget, and `ok` (true, false, or
   * null for a figure with no budget of its own, e.g. the two medians a ratio is made of).
   */
  figure(figure, value, budget, ok) {
    const verdict = ok === null ? '' : this.check(ok, `${figure}: ${value} (budget ${budget})`);
    this.figures.push({ bench: this.bench, figure, value: String(value), budget: String(budget), verdict });
    return verdict;
  }

  finish() {
    console.log('');
    if (this.figures.length > 0) {
      figureTable(this.figures);
      console.log('');
    }
    if (this.count === 0) console.log('no budgets here: figures only');
    else if (this.misses.length === 0) console.log(`all ${this.count} budget checks PASS`);
    else {
      console.log(`${this.misses.length} of ${this.count} budget checks MISS:`);
      for (const m of this.misses) console.log(`  - ${m}`);
    }
    if (SUMMARY_FILE) for (const f of this.figures) appendFileSync(SUMMARY_FILE, JSON.stringify(f) + '\n');
    if (CHECK && this.misses.length > 0) process.exitCode = 1;
  }
}

/** Figures as one table: script, figure, measured, budget, verdict. */
export function figureTable(figures) {
  table(
    ['bench', 'figure', 'measured', 'budget', 'verdict'],
    figures.map((f) => [f.bench, f.figure, f.value, f.budget, f.verdict]),
  );
}

/** Prints rows (arrays of cells) with columns padded; numbers-looking cells right-aligned. */
export function table(header, rows, print = console.log) {
  const all = [header, ...rows].map((r) => r.map((c) => String(c)));
  const widths = header.map((_, i) => Math.max(...all.map((r) => (r[i] ?? '').length)));
  const right = (s) => /^[-+]?[\d.,]+(\s?(ms|µs|MB|%|×|x|s|B))?$/.test(s);
  const line = (r) =>
    r
      .map((c, i) => (right(c) ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  print(line(all[0] ?? []));
  print(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of all.slice(1)) print(line(r));
}

/** Reads a positive number from an environment variable, or the fallback. */
export function envNumber(name, fallback) {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const n = Number(raw);
  if (!(n > 0)) throw new Error(`${name} must be a positive number, got "${raw}"`);
  return n;
}
