// The fair-share bench's bystanders, in a worker thread (so the attacker's 700 sockets and 5 MB bodies
// on the bench's main thread never delay them): a member of another organization sending a request every
// `everyMs` (me, dashboard and the customers list in turn, keep-alive, up to 6 connections as a browser),
// and a health check on a NEW connection every `healthEveryMs`. Open loop: each request leaves on time
// whether or not the last one was answered, so a stalled server shows as slow answers, not fewer
// requests. Runs until the main thread sets `stop[0]` to 1, or `maxMs` at most; then waits for the
// requests in flight (each has a time limit) and returns every latency and status.
import http from 'node:http';
import { calls, send } from './fair-calls.mjs';
import { runInWorker } from './load.mjs';

/** The victim's list requests cycle through these: what a person clicks (sorts, page sizes). */
const LIST_QUERIES = ['', 'sort=name', 'sort=-created_at', 'page_size=10', 'sort=-updated_at', 'page_size=50', 'sort=-name', 'q=a'];

/**
 * @param {{ url: string, session: { access: string, orgId: number, address: string }, healthAddress: string,
 *   everyMs: number, healthEveryMs: number, maxMs: number, timeoutMs: number, stop: SharedArrayBuffer }} data
 */
export async function bystanders({ url, session, healthAddress, everyMs, healthEveryMs, maxMs, timeoutMs, stop }) {
  const flag = new Int32Array(stop);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 6 });
  const victim = { ms: [], statuses: {} };
  const health = { ms: [], statuses: {} };
  const inFlight = new Set();
  const record = (into, r) => {
    into.ms.push(r.ms);
    const key = r.error ? r.error : String(r.status);
    into.statuses[key] = (into.statuses[key] ?? 0) + 1;
  };
  const fire = (into, promise) => {
    const p = promise.then((r) => record(into, r));
    inFlight.add(p);
    void p.finally(() => inFlight.delete(p));
  };
  const t0 = performance.now();
  let n = 0;
  let h = 0;
  while (Atomics.load(flag, 0) === 0 && performance.now() - t0 < maxMs) {
    const now = performance.now() - t0;
    if (now >= n * everyMs) {
      const spec = n % 3 === 0 ? calls.me(session) : n % 3 === 1 ? calls.dashboard(session) : calls.list(session, LIST_QUERIES[Math.floor(n / 3) % LIST_QUERIES.length]);
      fire(victim, send(url, spec, { address: session.address, agent, timeoutMs }));
      n++;
    }
    if (now >= h * healthEveryMs) {
      fire(health, send(url, calls.health(), { address: healthAddress, agent: false, timeoutMs }));
      h++;
    }
    await new Promise((r) => setTimeout(r, 5));
  }
  const elapsedMs = performance.now() - t0;
  await Promise.all([...inFlight]);
  agent.destroy();
  return { elapsedMs, victim, health };
}

/**
 * Starts the bystanders; `stop()` ends them and resolves with { elapsedMs, victim, health } (each
 * { ms: number[], statuses: { '200': n, timeout: n, ... } }).
 */
export function startBystanders({ url, session, healthAddress, everyMs = 100, healthEveryMs = 1000, maxMs, timeoutMs = 30_000 }) {
  const stop = new SharedArrayBuffer(4);
  const done = runInWorker(import.meta.url, 'bystanders', { url, session, healthAddress, everyMs, healthEveryMs, maxMs, timeoutMs, stop }, maxMs + timeoutMs);
  return {
    stop() {
      Atomics.store(new Int32Array(stop), 0, 1);
      return done;
    },
  };
}
