// Latency bookkeeping for the benchmarks: a growable list of milliseconds, percentiles, and a recorder
// that keeps latencies, status codes, error codes of the JSON answers and transport errors per label.

/** Milliseconds, appended one by one; cheap to send between threads (a Float64Array). */
export class Latencies {
  constructor() {
    this.buf = new Float64Array(4096);
    this.n = 0;
  }

  push(ms) {
    if (this.n === this.buf.length) {
      const bigger = new Float64Array(this.buf.length * 2);
      bigger.set(this.buf);
      this.buf = bigger;
    }
    this.buf[this.n++] = ms;
  }

  values() {
    return this.buf.slice(0, this.n);
  }
}

/** Nearest-rank percentile of an ascending array; NaN when empty. */
export function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
}

/** Adds counts of `from` into `into` ({ key: n }). */
export function addCounts(into, from) {
  for (const [k, v] of Object.entries(from)) into[k] = (into[k] ?? 0) + v;
  return into;
}

/**
 * Per label: latencies of every request that got an answer, statuses, the `code` of JSON error answers,
 * transport errors (no answer at all), and answers slower than `slowMs`.
 */
export class Recorder {
  constructor(slowMs = 5000) {
    this.slowMs = slowMs;
    this.labels = new Map();
    this.t0 = performance.now();
  }

  entry(label) {
    let e = this.labels.get(label);
    if (!e) {
      // badFirst/badLast: seconds since the recorder started at which the first and last slow or failed request ended.
      e = { latencies: new Latencies(), statuses: {}, codes: {}, errors: {}, slow: 0, badFirst: NaN, badLast: NaN };
      this.labels.set(label, e);
    }
    return e;
  }

  /** `result` is what http.mjs request() resolves with. Returns the JSON error code of the answer, if any. */
  record(label, result) {
    const e = this.entry(label);
    if (result.error || result.ms > this.slowMs) {
      const at = (performance.now() - this.t0) / 1000;
      if (!(e.badFirst <= at)) e.badFirst = at;
      if (!(e.badLast >= at)) e.badLast = at;
    }
    if (result.error) {
      e.errors[result.error] = (e.errors[result.error] ?? 0) + 1;
      return null;
    }
    e.latencies.push(result.ms);
    if (result.ms > this.slowMs) e.slow++;
    e.statuses[result.status] = (e.statuses[result.status] ?? 0) + 1;
    const code = result.status >= 400 ? errorCode(result) : null;
    if (code) e.codes[`${result.status} ${code}`] = (e.codes[`${result.status} ${code}`] ?? 0) + 1;
    return code;
  }

  /** Plain data (structured-clone friendly) for postMessage. */
  toJSON() {
    const out = {};
    for (const [label, e] of this.labels) {
      out[label] = { latencies: e.latencies.values(), statuses: e.statuses, codes: e.codes, errors: e.errors, slow: e.slow, badFirst: e.badFirst, badLast: e.badLast };
    }
    return out;
  }
}

/** The `code` of a JSON error answer ({ detail, code }), or null. */
export function errorCode(result) {
  try {
    const body = JSON.parse(result.body.toString('utf8'));
    return typeof body?.code === 'string' ? body.code : null;
  } catch {
    return null;
  }
}

/** Merges recorded labels (from toJSON) into one entry. */
export function mergeEntries(entries) {
  const total = entries.reduce((n, e) => n + e.latencies.length, 0);
  const latencies = new Float64Array(total);
  let at = 0;
  const merged = { latencies, statuses: {}, codes: {}, errors: {}, slow: 0, badFirst: NaN, badLast: NaN };
  for (const e of entries) {
    if (e.badFirst < merged.badFirst || Number.isNaN(merged.badFirst)) merged.badFirst = e.badFirst;
    if (e.badLast > merged.badLast || Number.isNaN(merged.badLast)) merged.badLast = e.badLast;
    latencies.set(e.latencies, at);
    at += e.latencies.length;
    addCounts(merged.statuses, e.statuses);
    addCounts(merged.codes, e.codes);
    addCounts(merged.errors, e.errors);
    merged.slow += e.slow;
  }
  return merged;
}

/** count, req/s over `seconds`, p50, p99, max (ms), and the counts, of one recorded entry. */
export function summarize(entry, seconds) {
  const sorted = Float64Array.from(entry.latencies).sort();
  const errors = Object.values(entry.errors).reduce((n, v) => n + v, 0);
  return {
    count: sorted.length,
    errors,
    rps: sorted.length / seconds,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: sorted.length ? sorted[sorted.length - 1] : NaN,
    statuses: entry.statuses,
    codes: entry.codes,
    errorKinds: entry.errors,
    slow: entry.slow,
    badFirst: entry.badFirst,
    badLast: entry.badLast,
  };
}

export const fmtMs = (ms) => (Number.isFinite(ms) ? `${ms < 10 ? ms.toFixed(2) : ms < 100 ? ms.toFixed(1) : ms.toFixed(0)} ms` : '-');
export const fmtCounts = (counts) =>
  Object.entries(counts)
    .map(([k, v]) => `${k}×${v}`)
    .join(' ') || '-';
