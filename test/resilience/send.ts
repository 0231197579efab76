// Raw HTTP for the resilience suites: node:http sends a path exactly as written (`..`, `//`, bad
// percent escapes), any method, any headers or none, and any bytes as the body, which fetch would not.
import { Agent, request } from 'node:http';
import { newAddress } from '../server/helpers';

export interface Hostile {
  /** What the case tries, for reports. */
  label: string;
  method: string;
  /** The request target as sent (path and query). */
  path: string;
  headers: Record<string, string>;
  body?: string | Buffer;
  /** Statuses the answer must have; any 4xx when absent. */
  expect?: readonly number[];
  /** Sent chunked (Transfer-Encoding), without Content-Length. */
  chunked?: boolean;
  /** The server may cut the connection (a body far past its limit), so no answer is no failure. */
  mayReset?: boolean;
}

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** Set when no answer came (the connection was reset or timed out). */
  error?: string;
}

const TIMEOUT_MS = 15_000;

/** One keep-alive agent per suite: requests reuse a few connections, as a browser would. */
export const makeAgent = () => new Agent({ keepAlive: true, maxSockets: 4 });

/** Sends one request to 127.0.0.1:port; never throws (no answer is an Answer with `error`). */
export function send(port: number, agent: Agent, h: Pick<Hostile, 'method' | 'path' | 'headers' | 'body' | 'chunked'>): Promise<Answer> {
  return new Promise((resolve) => {
    let settled = false;
    const done = (a: Answer) => {
      if (!settled) {
        settled = true;
        resolve(a);
      }
    };
    // Each request from its own address (TRUST_PROXY=1 in the suites), so login throttling stays per case.
    const headers: Record<string, string | number> = { 'X-Forwarded-For': newAddress(), ...h.headers };
    if (h.body !== undefined && !h.chunked && !Object.keys(headers).some((k) => k.toLowerCase() === 'content-length'))
      headers['Content-Length'] = Buffer.byteLength(h.body);
    // Named, not left to node:http, which frames a DELETE's body as nothing at all without it.
    if (h.body !== undefined && h.chunked) headers['Transfer-Encoding'] = 'chunked';
    let req: ReturnType<typeof request>;
    try {
      req = request({ host: '127.0.0.1', port, method: h.method, path: h.path, headers, agent, timeout: TIMEOUT_MS }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => done({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', (e) => done({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8'), error: e.message }));
      });
    } catch (e) {
      // Node refused to send it (a header it will not write): the case is wrong, not the server.
      return done({ status: 0, headers: {}, text: '', error: `not sent: ${e instanceof Error ? e.message : String(e)}` });
    }
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', (e) => done({ status: 0, headers: {}, text: '', error: e.message }));
    if (h.body !== undefined && h.chunked) {
      // Two writes without a length: node:http frames them as chunks.
      const body = Buffer.from(h.body);
      req.write(body.subarray(0, body.length >> 1));
      req.end(body.subarray(body.length >> 1));
    } else if (h.body !== undefined) req.end(h.body);
    else req.end();
  });
}

/** Runs `tasks` with at most `width` at a time, in order of start; results in the tasks' order. */
export async function pooled<T>(tasks: (() => Promise<T>)[], width: number): Promise<T[]> {
  const out: T[] = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const i = next++;
      out[i] = await tasks[i]!();
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, tasks.length) }, worker));
  return out;
}

/** D19: an error answer is JSON `{detail, code}` (both strings); null when it is, else what is wrong. */
export function errorShapeProblem(a: Answer, method: string): string | null {
  if (a.status < 400 || method === 'HEAD') return null;
  const type = String(a.headers['content-type'] ?? '');
  if (!/^application\/json/.test(type)) return `content-type ${type || 'none'}`;
  try {
    const body = JSON.parse(a.text) as unknown;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'not a JSON object';
    const { detail, code } = body as Record<string, unknown>;
    if (typeof detail !== 'string' || typeof code !== 'string') return `detail ${typeof detail}, code ${typeof code}`;
    return null;
  } catch {
    return 'not JSON';
  }
}
