// D19: JSON errors { detail, code } with the right status; request bodies read with a size limit and
// parsed defensively, so nothing a client sends can crash the process or earn a 500.
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { isIP } from 'node:net';

/** Past the body limit we keep reading (and discarding) this much so the client sees the 413. */
const DRAIN_LIMIT_BYTES = 1024 * 1024;

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
    readonly headers: OutgoingHttpHeaders = {},
    readonly extra: Record<string, unknown> = {},
  ) {
    // An answer, not a fault: no stack is captured (D35: a flood's thousand refusals cost little).
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(detail);
    Error.stackTraceLimit = limit;
  }
}

/** D19: 400 naming the field. */
export const fieldError = (field: string, detail: string, code = 'invalid_field') => new HttpError(400, code, `${field}: ${detail}`, {}, { field });

/** D20: on every response. Pages add their CSP in static.ts. */
export const BASE_SECURITY_HEADERS: OutgoingHttpHeaders = {
  'X-Content-Type-Options': 'nosniff',
  // CRM URLs name customers; nothing of them should leave for other sites.
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
};

/** API answers are data, never a page: nothing may run or be framed, and nothing cached (tokens). */
const API_HEADERS: OutgoingHttpHeaders = {
  'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
  'Cache-Control': 'no-store',
};

/** Every API answer's headers, merged once. */
const NO_CONTENT_HEADERS: OutgoingHttpHeaders = { ...BASE_SECURITY_HEADERS, ...API_HEADERS };
const JSON_HEADERS: OutgoingHttpHeaders = { ...NO_CONTENT_HEADERS, 'Content-Type': 'application/json; charset=utf-8' };

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: OutgoingHttpHeaders = {}): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  if (status === 204) {
    res.writeHead(status, { ...NO_CONTENT_HEADERS, ...headers });
    res.end('');
    return;
  }
  const text = JSON.stringify(body);
  res.writeHead(status, { ...JSON_HEADERS, 'Content-Length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

export function sendError(res: ServerResponse, err: HttpError): void {
  sendJson(res, err.status, { detail: err.detail, code: err.code, ...err.extra }, err.headers);
}

type BodyRead = { kind: 'ok'; body: Buffer } | { kind: 'too_large'; drained: boolean } | { kind: 'aborted' };

/**
 * Reads the body up to `limit` bytes. Past it, keeps reading and discarding up to DRAIN_LIMIT_BYTES so
 * the client, still sending, can read our 413; beyond that the connection is closed after the answer.
 */
function readBody(req: IncomingMessage, limit: number): Promise<BodyRead> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (result: BodyRead) => {
      req.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
      else if (size > limit + DRAIN_LIMIT_BYTES) finish({ kind: 'too_large', drained: false });
    };
    const complete = (): BodyRead => (size > limit ? { kind: 'too_large', drained: true } : { kind: 'ok', body: Buffer.concat(chunks) });
    const onEnd = () => finish(complete());
    const onError = () => finish({ kind: 'aborted' });
    const onClose = () => finish(req.complete ? complete() : { kind: 'aborted' });
    if (req.readableEnded) return resolve(complete());
    req.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose);
  });
}

const tooLarge = (limit: number, drained: boolean) =>
  new HttpError(413, 'payload_too_large', `Request body is larger than ${limit} bytes`, drained ? {} : { Connection: 'close' });

const isUtf8 = (charset: string) => charset === 'utf-8' || charset === 'utf8';

/**
 * D19: the body's bytes: 415 unless its Content-Type passes `accepts` and any charset it declares passes
 * `charsetOk` (UTF-8 only unless told), 413 past `limit` bytes, 400 when it is cut short.
 */
export async function readBytes(
  req: IncomingMessage,
  limit: number,
  accepts: (mime: string) => boolean,
  expected: string,
  charsetOk: (charset: string) => boolean = isUtf8,
): Promise<Buffer> {
  const type = (req.headers['content-type'] ?? '').toLowerCase();
  const [mime = '', ...params] = type.split(';').map((s) => s.trim());
  const charset = params
    .find((p) => p.startsWith('charset='))
    ?.slice(8)
    .replace(/"/g, '');
  if (!accepts(mime) || (charset !== undefined && !charsetOk(charset))) {
    const read = await readBody(req, 0);
    const close = read.kind === 'too_large' && !read.drained ? { Connection: 'close' } : {};
    throw new HttpError(415, 'unsupported_media_type', `Request body must be ${expected}`, close);
  }
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (declared > limit + DRAIN_LIMIT_BYTES) throw tooLarge(limit, false);
  const read = await readBody(req, limit);
  if (read.kind === 'too_large') throw tooLarge(limit, read.drained);
  if (read.kind === 'aborted') throw new HttpError(400, 'bad_request', 'Request body was not received completely');
  return read.body;
}

/** D19: the body as UTF-8 text: readBytes, then 400 when it is not UTF-8. */
export async function readText(req: IncomingMessage, limit: number, accepts: (mime: string) => boolean, expected: string): Promise<string> {
  const body = await readBytes(req, limit, accepts, expected);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    const json = (req.headers['content-type'] ?? '').toLowerCase().includes('json');
    throw new HttpError(400, json ? 'invalid_json' : 'invalid_body', 'Request body is not valid UTF-8');
  }
}

/**
 * D19: throws 400 unexpected_body when the request carries a body, however it is framed: by
 * Content-Length, or chunked (Transfer-Encoding), which only reading can tell from an empty one.
 */
export async function refuseBody(req: IncomingMessage): Promise<void> {
  const refused = (headers: OutgoingHttpHeaders = {}) => new HttpError(400, 'unexpected_body', 'This request takes no body', headers);
  if (Number(req.headers['content-length'] ?? 0) > 0) throw refused();
  if (req.headers['transfer-encoding'] === undefined) return;
  const read = await readBody(req, 0);
  if (read.kind === 'too_large') throw refused(read.drained ? {} : { Connection: 'close' });
  if (read.kind === 'aborted') throw new HttpError(400, 'bad_request', 'Request body was not received completely');
}

const isJson = (mime: string) => /^application\/([\w.+-]+\+)?json$/.test(mime);

/** D19: 415 unless the body is declared JSON (UTF-8), 413 past `limit`, 400 unless a JSON object. */
export async function readJsonObject(req: IncomingMessage, limit: number): Promise<Record<string, unknown>> {
  const text = await readText(req, limit, isJson, 'JSON (Content-Type: application/json)');
  if (text.trim() === '') throw new HttpError(400, 'invalid_json', 'Request body is empty; expected a JSON object');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new HttpError(400, 'invalid_json', 'Request body is not valid JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new HttpError(400, 'invalid_json', 'Request body must be a JSON object');
  }
  return value as Record<string, unknown>;
}

/**
 * The client's address. X-Forwarded-For is believed only with TRUST_PROXY=n: the address n hops back,
 * i.e. the one our own n proxies appended; entries further left are whatever the client wrote.
 */
export function clientAddress(req: IncomingMessage, trustProxy: number): string {
  const socket = req.socket.remoteAddress ?? 'unknown';
  if (trustProxy <= 0) return socket;
  const header = req.headers['x-forwarded-for'];
  const list = (Array.isArray(header) ? header.join(',') : (header ?? ''))
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const candidate = list[Math.max(0, list.length - trustProxy)];
  return (candidate && forwardedAddress(candidate)) ?? socket;
}

/**
 * An X-Forwarded-For entry as a bare address, or null. Some proxies add the port (`203.0.113.7:5678`,
 * `[2001:db8::1]:443`); refusing those would put every client behind such a proxy in one D18 bucket.
 */
function forwardedAddress(entry: string): string | null {
  const m = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(entry) ?? /^(\d{1,3}(?:\.\d{1,3}){3}):\d{1,5}$/.exec(entry);
  const address = m?.[1] ?? entry;
  return isIP(address) ? address : null;
}

/** The path of a request target, percent-decoded; null when it cannot be decoded. */
export function requestPath(rawUrl: string | undefined): { raw: string; decoded: string } | null {
  // Absolute-form targets (`GET http://host/path`) are allowed by HTTP/1.1; keep the path.
  const target = (rawUrl ?? '/').replace(/^https?:\/\/[^/?#]*/i, '') || '/';
  const raw = target.split(/[?#]/, 1)[0] ?? '/';
  if (!raw.startsWith('/')) return null;
  try {
    return { raw, decoded: decodeURIComponent(raw) };
  } catch {
    return null;
  }
}
