// Printing: aligned tables, PASS/MISS verdicts, and the --check exit code.

export const CHECK = process.argv.includes('--check');

/** Collects verdicts; `finish()` prints the total and, with --check, exits non-zero on any MISS. */
export class Verdicts {
  constructor() {
    this.misses = [];
    this.count = 0;
  }

  /** 'PASS' or 'MISS' for `ok`; a MISS is remembered under `what`. */
  check(ok, what) {
    this.count++;
    if (!ok) this.misses.push(what);
    return ok ? 'PASS' : 'MISS';
  }

  finish() {
    console.log('');
    if (this.misses.length === 0) console.log(`all ${this.count} budget checks PASS`);
    else {
      console.log(`${this.misses.length} of ${this.count} budget checks MISS:`);
      for (const m of this.misses) console.log(`  - ${m}`);
    }
    if (CHECK && this.misses.length > 0) process.exitCode = 1;
  }
}

/** Prints rows (arrays of cells) with columns padded; numbers-looking cells right-aligned. */
export function table(header, rows, print = console.log) {
  const all = [header, ...rows].map((r) => r.map((c) => String(c)));
  const widths = header.map((_, i) => Math.max(...all.map((r) => (r[i] ?? '').length)));
  const right = (s) => /^[-+]?[\d.,]+(\s?(ms|MB|%|×|x|s))?$/.test(s);
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
