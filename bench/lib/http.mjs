// One HTTP request over node:http that never rejects: it resolves with the status, headers and body,
// or with `error` (the transport error's code, or 'timeout') when no complete answer came. Every request
// has a time limit, so no benchmark loop can hang on a request.
import http from 'node:http';

const EMPTY = Buffer.alloc(0);

/**
 * @param {string} url
 * @param {{ method?: string, headers?: Record<string, string>, body?: unknown, agent?: http.Agent | false, timeoutMs?: number }} [opts]
 *   body: an object is sent as JSON; agent false opens a new connection for this request only.
 */
export function request(url, { method = 'GET', headers = {}, body = null, agent, timeoutMs = 30_000 } = {}) {
  return new Promise((resolve) => {
    const t0 = performance.now();
    let settled = false;
    let timer = null;
    const finish = (status, resHeaders, resBody, rawHeaders, error) => {
      if (settled) return;
      settled = true;
      if (timer) clearTimeout(timer);
      resolve({ status, headers: resHeaders, rawHeaders, body: resBody, error, ms: performance.now() - t0 });
    };
    const payload = body === null ? null : typeof body === 'string' ? body : JSON.stringify(body);
    const allHeaders = payload === null ? headers : { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(payload)), ...headers };
    let req;
    try {
      req = http.request(url, { method, headers: allHeaders, agent }, (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => finish(res.statusCode ?? 0, res.headers, chunks.length === 1 ? chunks[0] : Buffer.concat(chunks), res.rawHeaders, null));
        res.on('error', (err) => finish(0, {}, EMPTY, [], err.code ?? 'response_error'));
        res.on('aborted', () => finish(0, {}, EMPTY, [], 'aborted'));
      });
    } catch (err) {
      finish(0, {}, EMPTY, [], err.code ?? 'request_error');
      return;
    }
    timer = setTimeout(() => {
      finish(0, {}, EMPTY, [], 'timeout');
      req.destroy();
    }, timeoutMs);
    req.on('error', (err) => finish(0, {}, EMPTY, [], err.code ?? 'request_error'));
    req.end(payload ?? undefined);
  });
}

/** The body as JSON, or null. */
export function json(result) {
  try {
    return JSON.parse(result.body.toString('utf8'));
  } catch {
    return null;
  }
}

/** Throws unless the answer has the expected status; for set-up calls, whose failure ends the run. */
export function expectStatus(result, status, what) {
  if (result.status !== status) {
    const text = result.error ? `no answer (${result.error})` : `HTTP ${result.status}: ${result.body.toString('utf8').slice(0, 300)}`;
    throw new Error(`${what}: expected ${status}, got ${text}`);
  }
  return result;
}
