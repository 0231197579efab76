// Keep-alive load generator over node:http: a fixed number of clients, each sending its next request as
// soon as the last one is answered (closed loop), until a duration or a request count is reached,
// whichever comes first. Every request has a time limit too, so a run always ends by itself.
// runInWorker() runs a load function in a worker thread, so the load is generated off the benchmark's
// main thread and in another process than the server being measured.
import http from 'node:http';
import { Worker } from 'node:worker_threads';
import { request } from './http.mjs';
import { Recorder } from './stats.mjs';

export const REQUEST_TIMEOUT_MS = 30_000;
/** A worker gets its own duration plus this long to finish its last requests before it is stopped. */
const WORKER_GRACE_MS = REQUEST_TIMEOUT_MS + 30_000;

/**
 * @param {{ url: string, concurrency: number, durationMs: number, maxRequests?: number,
 *   requests: { label?: string, method?: string, path: string, headers?: Record<string, string>, body?: unknown }[],
 *   slowMs?: number, timeoutMs?: number }} opts
 *   requests are sent in turn; latencies are recorded under each one's label ('all' by default).
 * @returns {Promise<{ elapsedMs: number, generatorBusy: number, labels: Record<string, any> }>}
 */
export async function fixedLoad({ url, concurrency, durationMs, maxRequests = Number.MAX_SAFE_INTEGER, requests, slowMs = 5000, timeoutMs = REQUEST_TIMEOUT_MS }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const rec = new Recorder(slowMs);
  let issued = 0;
  const elu0 = performance.eventLoopUtilization();
  const t0 = performance.now();
  const deadline = t0 + durationMs;
  const client = async () => {
    while (issued < maxRequests && performance.now() < deadline) {
      const spec = requests[issued++ % requests.length];
      const result = await request(url + spec.path, { method: spec.method, headers: spec.headers, body: spec.body ?? null, agent, timeoutMs });
      rec.record(spec.label ?? 'all', result);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, client));
  const elapsedMs = performance.now() - t0;
  agent.destroy();
  // How busy the generator's own thread was (1 = saturated: the figures then show its limit, not the server's).
  const generatorBusy = performance.eventLoopUtilization(elu0).utilization;
  return { elapsedMs, generatorBusy, labels: rec.toJSON() };
}

/**
 * Runs `moduleUrl`'s export `fn(data)` in a worker thread and resolves with what it returns. The worker
 * is stopped if it has not answered `budgetMs` + a grace period after it started.
 */
export function runInWorker(moduleUrl, fn, data, budgetMs) {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./worker.mjs', import.meta.url), { workerData: { module: moduleUrl, fn, data } });
    let done = false;
    const timer = setTimeout(() => {
      done = true;
      void worker.terminate();
      reject(new Error(`load worker ${fn} did not finish within ${budgetMs + WORKER_GRACE_MS} ms`));
    }, budgetMs + WORKER_GRACE_MS);
    worker.once('message', (result) => {
      done = true;
      clearTimeout(timer);
      void worker.terminate();
      resolve(result);
    });
    worker.once('error', (err) => {
      done = true;
      clearTimeout(timer);
      reject(err);
    });
    worker.once('exit', (code) => {
      clearTimeout(timer);
      if (!done) reject(new Error(`load worker ${fn} exited (${code}) without a result`));
    });
  });
}

/** fixedLoad() in a worker thread. */
export const fixedLoadInWorker = (opts) => runInWorker(import.meta.url, 'fixedLoad', opts, opts.durationMs);
