// Serves the built app from dist/: files with D20 caching, and index.html for every other page path
// (SPA fallback) with the D1 runtime config written in and a D20 Content-Security-Policy that allows
// exactly the page's inline scripts by hash.
import { createHash } from 'node:crypto';
import type { Stats } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib';
import { BASE_SECURITY_HEADERS, HttpError } from './http';
import type { AppConfig } from '../contract/config';

const IMMUTABLE = 'public, max-age=31536000, immutable'; // D20: hashed names under /assets/
const REVALIDATE = 'no-cache'; // other files: may be kept, but asked about each time (ETag)
const PAGE_CACHE = 'no-store'; // D20: index.html is never cached, so a deploy is seen at once
const COMPRESS_MIN_BYTES = 1024;
const BROTLI_QUALITY = 9;

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
};
const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.css', '.json', '.map', '.svg', '.txt', '.webmanifest']);

/** D1: what the page learns at run time (contract/config.ts). */
export type { AppConfig };

/** JSON that is safe inside an inline <script>: no `</script>`, `<!--`, or line separators. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** D1: the config script goes first in <head>, before any other script reads it. */
export function injectConfig(html: string, config: AppConfig): string {
  const tag = `<script>window.__APP_CONFIG__=${scriptJson(config)}</script>`;
  const head = /<head\b[^>]*>/i.exec(html);
  if (!head) return tag + html;
  const afterHead = head.index + head[0].length;
  const firstScript = html.slice(afterHead).search(/<script\b/i);
  const headEnd = html.slice(afterHead).search(/<\/head>/i);
  const at = afterHead + (firstScript >= 0 && (headEnd < 0 || firstScript < headEnd) ? firstScript : Math.max(headEnd, 0));
  return `${html.slice(0, at)}${tag}\n${html.slice(at)}`;
}

/** D20: 'sha256-…' sources for every inline script of the page, exactly as served. */
export function inlineScriptHashes(html: string): string[] {
  const hashes: string[] = [];
  for (const m of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi)) {
    if (/\bsrc\s*=/i.test(m[1] ?? '')) continue;
    hashes.push(
      `'sha256-${createHash('sha256')
        .update(m[2] ?? '', 'utf8')
        .digest('base64')}'`,
    );
  }
  return [...new Set(hashes)];
}

/** D20: scripts only from our origin (plus the page's own inline scripts); connections to us and Sentry. */
export function contentSecurityPolicy(scriptHashes: string[], sentryOrigin: string | null): string {
  return [
    "default-src 'self'",
    ['script-src', "'self'", ...scriptHashes].join(' '),
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    ['connect-src', "'self'", ...(sentryOrigin ? [sentryOrigin] : [])].join(' '),
    // Sentry's session replay compresses in a worker it creates from a blob.
    ...(sentryOrigin ? ["worker-src 'self' blob:"] : []),
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

interface FileEntry {
  key: string;
  body: Buffer;
  /** Compressed copies, made on first request. */
  encoded: Map<string, Promise<Buffer>>;
}

interface Page extends FileEntry {
  csp: string;
}

const compressors = {
  br: (b: Buffer) => promisify(brotliCompress)(b, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY } }),
  gzip: (b: Buffer) => promisify(gzip)(b, { level: 9 }),
};

function preferredEncoding(req: IncomingMessage): 'br' | 'gzip' | null {
  const accepted = new Set(
    String(req.headers['accept-encoding'] ?? '')
      .split(',')
      .map((part) => part.trim().toLowerCase())
      .filter((part) => !/;\s*q=0(\.0*)?$/.test(part))
      .map((part) => part.split(';')[0]),
  );
  return accepted.has('br') ? 'br' : accepted.has('gzip') ? 'gzip' : null;
}

export interface StaticOptions {
  distDir: string;
  appConfig: AppConfig;
  sentryOrigin: string | null;
}

export function createStatic({ distDir, appConfig, sentryOrigin }: StaticOptions) {
  const root = path.resolve(distDir);
  const indexFile = path.join(root, 'index.html');
  const assetsDir = path.join(root, 'assets') + path.sep; // hashed names only (build.mjs)
  let page: Page | null = null;
  const files = new Map<string, FileEntry>();

  const versionKey = (s: Stats) => `${s.size}-${Math.trunc(s.mtimeMs)}`;

  // Re-read when dist/index.html changes (npm run dev rewrites it on every app rebuild).
  async function loadPage(): Promise<Page> {
    const s = await stat(indexFile).catch(() => null);
    if (!s?.isFile()) throw new HttpError(503, 'app_not_built', 'The app is not built yet (node build.mjs writes dist/)');
    const key = versionKey(s);
    if (page?.key === key) return page;
    const html = injectConfig(await readFile(indexFile, 'utf8'), appConfig);
    page = { key, body: Buffer.from(html), encoded: new Map(), csp: contentSecurityPolicy(inlineScriptHashes(html), sentryOrigin) };
    return page;
  }

  async function send(req: IncomingMessage, res: ServerResponse, entry: FileEntry, ext: string, headers: OutgoingHttpHeaders) {
    const body = entry.body;
    const encoding = COMPRESSIBLE.has(ext) && body.length >= COMPRESS_MIN_BYTES ? preferredEncoding(req) : null;
    let payload = body;
    if (encoding) {
      let compressed = entry.encoded.get(encoding);
      if (!compressed) entry.encoded.set(encoding, (compressed = compressors[encoding](body)));
      payload = await compressed;
    }
    res.writeHead(200, {
      ...BASE_SECURITY_HEADERS,
      'Content-Type': TYPES[ext] ?? 'application/octet-stream',
      'Content-Length': payload.length,
      ...(COMPRESSIBLE.has(ext) ? { Vary: 'Accept-Encoding' } : {}),
      ...(encoding ? { 'Content-Encoding': encoding } : {}),
      // D20: every HTML document is a page of ours and opens no window to another origin's.
      ...(ext === '.html' ? { 'Cross-Origin-Opener-Policy': 'same-origin' } : {}),
      ...headers,
    });
    res.end(req.method === 'HEAD' ? undefined : payload);
  }

  async function servePage(req: IncomingMessage, res: ServerResponse) {
    const p = await loadPage();
    await send(req, res, p, '.html', {
      'Content-Security-Policy': p.csp,
      'Cache-Control': PAGE_CACHE,
    });
  }

  /** The file under dist/ for a request path, or null: no escaping dist/, no dotfiles, no server code. */
  function resolveFile(decodedPath: string): string | null {
    if (decodedPath.includes('\0') || decodedPath.includes('\\')) return null;
    const normal = path.posix.normalize(decodedPath);
    const segments = normal.split('/').filter(Boolean);
    if (segments.some((s) => s.startsWith('.'))) return null;
    if (segments[0]?.toLowerCase() === 'server') return null; // build output, not for browsers
    const file = path.join(root, ...segments);
    // D39: the metafile and source maps, judged by the file the path names however it was spelled
    // (`/meta.json/`, `/meta.json//`, `/meta.json%2f`, `/assets/x.js.map`).
    const lower = file.toLowerCase();
    if (lower === path.join(root, 'meta.json').toLowerCase() || lower.endsWith('.map')) return null;
    return file.startsWith(root + path.sep) ? file : null;
  }

  /** GET/HEAD of any path outside the API. */
  return async function serveStatic(req: IncomingMessage, res: ServerResponse, decodedPath: string): Promise<void> {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      throw new HttpError(405, 'method_not_allowed', `Method ${req.method ?? ''} not allowed`, { Allow: 'GET, HEAD' });
    }
    if (path.posix.normalize(decodedPath).replace(/^\/+/, '/') === '/index.html' || decodedPath === '/') return servePage(req, res);
    const file = resolveFile(decodedPath);
    // D1 D20: index.html however spelled (`/index.html/`, …) is the page with its config and CSP, never the raw file.
    if (file === indexFile) return servePage(req, res);
    const s = file ? await stat(file).catch(() => null) : null;
    if (file && s?.isFile()) {
      const key = versionKey(s);
      let entry = files.get(file);
      if (entry?.key !== key) {
        entry = { key, body: await readFile(file), encoded: new Map() };
        files.set(file, entry);
      }
      const etag = `W/"${key}"`; // weak: the same for the plain and the compressed copy
      // D20: judged by where the file is, not how the path was spelled (`/assets/../favicon.svg` is not hashed).
      const immutable = file.startsWith(assetsDir);
      const headers = { ETag: etag, 'Cache-Control': immutable ? IMMUTABLE : REVALIDATE };
      if (req.headers['if-none-match'] === etag) {
        res.writeHead(304, { ...BASE_SECURITY_HEADERS, ...headers });
        res.end();
        return;
      }
      return send(req, res, entry, path.extname(file).toLowerCase(), headers);
    }
    // SPA fallback for page paths; a missing asset or file is a real 404, not a page.
    const last = decodedPath.split('/').pop() ?? '';
    if (decodedPath.startsWith('/assets/') || last.includes('.')) throw new HttpError(404, 'not_found', 'Not found');
    return servePage(req, res);
  };
}
