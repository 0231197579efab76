// Serving the built app: D1 runtime config in the page, D20 headers and caching, the SPA fallback, and
// the dev live-reload stream. One database, restarted with other settings where a test needs them: a
// database of its own in the run's PostgreSQL, which restarts in milliseconds where PGlite's start takes
// seconds (nothing here is about the database); PGlite when PostgreSQL is missing.
import { createHash } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { freshPostgresDatabase } from './backends';
import { ASSET_JS, client, freshDataDir, makeDist, rawRequest, removeDir, startTestServer, THEME_SCRIPT, type TestServer } from './helpers';

const SENTRY_DSN = 'https://0123456789abcdef@o42.ingest.sentry.io/4242';
const sha = (s: string) => `'sha256-${createHash('sha256').update(s).digest('base64')}'`;

function inlineScripts(html: string): string[] {
  return [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1] ?? '');
}

describe('serving the app', () => {
  let dataDir = '';
  let postgres: Awaited<ReturnType<typeof freshPostgresDatabase>> | null = null;
  let server: TestServer;
  let web: ReturnType<typeof client>;
  const restart = async (env: Record<string, string>, distDir?: string) => {
    await server?.close();
    const db = postgres ? { databaseUrl: postgres.url } : { dataDir };
    server = await startTestServer({ ...db, seed: 'none', env, ...(distDir ? { distDir } : {}) });
    web = client(server.url);
  };
  beforeAll(async () => {
    if (inject('postgresUrl')) postgres = await freshPostgresDatabase();
    else dataDir = await freshDataDir('static');
    await restart({});
  });
  afterAll(async () => {
    await server?.close();
    await postgres?.drop();
    if (dataDir) removeDir(dataDir);
  });

  test('D1 the runtime config is written into the page before any other script', async () => {
    const r = await web.get('/');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const scripts = inlineScripts(r.text);
    expect(scripts[0]).toBe('window.__APP_CONFIG__={"apiBase":"/api","sentryDsn":null}');
    expect(r.text.indexOf('__APP_CONFIG__')).toBeLessThan(r.text.indexOf(THEME_SCRIPT));
    expect(r.text.indexOf('__APP_CONFIG__')).toBeLessThan(r.text.indexOf(ASSET_JS));
  });

  test('D20 the page CSP allows scripts from self plus the sha256 of each inline script, and no framing', async () => {
    const r = await web.get('/');
    const csp = r.headers.get('content-security-policy') ?? '';
    const scriptSrc = csp.split('; ').find((d) => d.startsWith('script-src ')) ?? '';
    expect(scriptSrc.split(' ').sort()).toEqual(['script-src', "'self'", ...inlineScripts(r.text).map(sha)].sort());
    expect(scriptSrc).not.toContain('unsafe-inline');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("connect-src 'self';");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("base-uri 'none'");
  });

  test('D20 nosniff and Referrer-Policy on pages, files and API answers', async () => {
    for (const p of ['/', '/dashboard', ASSET_JS, '/favicon.svg', '/api/v1/auth/me/', '/api/nope/', '/missing.png']) {
      const r = await web.get(p);
      expect(r.headers.get('x-content-type-options'), p).toBe('nosniff');
      expect(r.headers.get('referrer-policy'), p).toBe('no-referrer');
    }
    expect((await web.get('/api/v1/auth/me/')).headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  });

  test('D20 every HTML document, the page or another .html file, is sent with Cross-Origin-Opener-Policy: same-origin', async () => {
    const extra = path.join(server.dist, 'other.html');
    writeFileSync(extra, '<!doctype html><html><body>other</body></html>');
    try {
      for (const p of ['/', '/customers/12', '/index.html', '/other.html']) {
        expect((await web.get(p)).headers.get('cross-origin-opener-policy'), p).toBe('same-origin');
      }
      for (const p of [ASSET_JS, '/favicon.svg']) expect((await web.get(p)).headers.get('cross-origin-opener-policy'), p).toBeNull();
    } finally {
      rmSync(extra);
    }
  });

  test('D20 hashed assets are cached immutably; index.html is never cached', async () => {
    const asset = await web.get(ASSET_JS);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    for (const p of ['/', '/index.html', '/customers/12']) expect((await web.get(p)).headers.get('cache-control'), p).toBe('no-store');
    expect((await web.get('/favicon.svg')).headers.get('cache-control')).toBe('no-cache');
  });

  test('SPA fallback: page paths get index.html; a missing asset or file is a 404', async () => {
    for (const p of ['/dashboard', '/customers/12/edit', '/org-picker', '/login?next=%2Fx']) {
      const r = await web.get(p);
      expect(r.status, p).toBe(200);
      expect(r.text, p).toContain('__APP_CONFIG__');
    }
    for (const p of ['/assets/main-GONE.js', '/assets/nothing', '/favicon.ico', '/logos/beacon.svg']) {
      const r = await web.get(p);
      expect(r.status, p).toBe(404);
      expect(r.body.code, p).toBe('not_found');
    }
    expect((await web.get('/logos/acme.svg')).headers.get('content-type')).toBe('image/svg+xml');
  });

  test('D1 D20 index.html under any spelling is the page with config and CSP, never the raw file', async () => {
    for (const p of ['/index.html', '/./index.html', '/assets/../index.html', '//index.html']) {
      const r = await web.request(p.replace(/^\/\//, '/%2F'), {});
      expect(r.text, p).toContain('__APP_CONFIG__');
      expect(r.headers.get('content-security-policy'), p).toContain('script-src');
    }
  });

  test('D20 index.html reached with a trailing slash is the page with its config and CSP, never the raw file', async () => {
    for (const p of ['/index.html/', '/index.html//', '/assets/..%2Findex.html/']) {
      const r = await web.get(p);
      expect(r.status, p).toBe(200);
      expect(r.text, p).toContain('__APP_CONFIG__');
      expect(r.headers.get('content-security-policy'), p).toContain("frame-ancestors 'none'");
      expect(r.headers.get('cache-control'), p).toBe('no-store');
    }
  });

  test('D20 only files under /assets/ are cached immutably, however the path is spelled', async () => {
    const cacheOf = async (target: string) =>
      /\r\ncache-control: ([^\r]*)/i.exec(await rawRequest(server.port, `GET ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`))?.[1];
    for (const p of ['/assets/%2e%2e/favicon.svg', '/assets/..%2Ffavicon.svg', '/assets/%2E%2E/logos/acme.svg']) {
      expect(await cacheOf(p), p).toBe('no-cache');
    }
    expect(await cacheOf(ASSET_JS)).toBe('public, max-age=31536000, immutable');
    expect(await cacheOf(`/logos/..%2F${ASSET_JS.slice(1)}`)).toBe('public, max-age=31536000, immutable');
  });

  test('build output, dotfiles and paths outside dist/ are never served', async () => {
    writeFileSync(path.join(server.dist, '.env'), 'SECRET=1');
    for (const p of [
      '/server/main.mjs',
      '/meta.json',
      '/.env',
      '/assets/../server/main.mjs',
      '/%2e%2e/%2e%2e/etc/passwd',
      '/..%2f..%2fetc%2fpasswd',
      '/assets/..%5c..%5cserver%5cmain.mjs',
    ]) {
      const r = await web.get(p);
      expect(r.text, p).not.toContain('server code');
      expect(r.text, p).not.toContain('SECRET');
      expect(r.text, p).not.toContain('root:');
      expect(r.status, p).toBeLessThan(500);
    }
  });

  test('D39 the metafile and source maps are not served under any spelling of their path', async () => {
    writeFileSync(path.join(server.dist, 'meta.json'), '{"metafile":"build graph"}');
    writeFileSync(path.join(server.dist, 'assets/app-ABC123.js.map'), '{"sources":["source map"]}');
    const spellings = [
      '/meta.json',
      '/meta.json/',
      '/meta.json//',
      '/meta.json%2f',
      '/meta.json%2F',
      '//meta.json',
      '/./meta.json',
      '/assets/../meta.json',
      '/assets/%2e%2e/meta.json',
      '/logos/..%2fmeta.json',
      '/assets/app-ABC123.js.map',
      '/assets/app-ABC123.js.map/',
      '/assets//app-ABC123.js.map',
      '/assets/app-ABC123.js.map%2f',
    ];
    for (const p of spellings) {
      const raw = await rawRequest(server.port, `GET ${p} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
      expect(raw, p).not.toContain('build graph');
      expect(raw, p).not.toContain('source map');
      expect(raw, p).not.toMatch(/^HTTP\/1\.1 5/);
    }
  });

  test('D19 a wrong method on a page is a 405 in JSON with Allow', async () => {
    const r = await web.request('/dashboard', { method: 'POST', body: 'x' });
    expect(r.status).toBe(405);
    expect(r.headers.get('allow')).toBe('GET, HEAD');
    expect(r.body.code).toBe('method_not_allowed');
  });

  test('HEAD, conditional GET and compression of files', async () => {
    const head = await web.request(ASSET_JS, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    const etag = (await web.get('/favicon.svg')).headers.get('etag') ?? '';
    expect((await web.get('/favicon.svg', { 'If-None-Match': etag })).status).toBe(304);
    const raw = await fetch(new URL(ASSET_JS, server.url), { headers: { 'Accept-Encoding': 'gzip' } });
    expect(raw.headers.get('content-encoding')).toBe('gzip');
    expect((await raw.text()).length).toBeGreaterThan(4000); // fetch decompresses it back
    const br = await fetch(new URL(ASSET_JS, server.url), { headers: { 'Accept-Encoding': 'br;q=1, gzip;q=0.5' } });
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('vary')).toBe('Accept-Encoding');
  });

  test('the page is served again when the build rewrites index.html', async () => {
    const file = path.join(server.dist, 'index.html');
    const original = (await web.get('/')).text;
    writeFileSync(file, '<!doctype html><html><head><script>console.log("v2")</script></head><body></body></html>');
    const r = await web.get('/');
    expect(r.text).toContain('v2');
    expect(r.headers.get('content-security-policy')).toContain(sha('console.log("v2")'));
    rmSync(file);
    const missing = await web.get('/');
    expect(missing.status).toBe(503);
    expect(missing.body.code).toBe('app_not_built');
    makeDist(server.dist);
    expect((await web.get('/')).text).toBe(original);
  });

  test('D20 connect-src adds the Sentry host when SENTRY_DSN is set, and D1 passes the DSN to the page', async () => {
    await restart({ SENTRY_DSN });
    const r = await web.get('/');
    const csp = r.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("connect-src 'self' https://o42.ingest.sentry.io;");
    expect(r.text).toContain(`"sentryDsn":"${SENTRY_DSN}"`);
    expect(csp.split('; ').find((d) => d.startsWith('script-src'))).toContain(sha(inlineScripts(r.text)[0] ?? ''));
    await restart({});
  });

  test('D1 API_BASE moves the API and is written into the page', async () => {
    await restart({ API_BASE: '/backend/' });
    expect((await web.get('/')).text).toContain('"apiBase":"/backend"');
    expect((await web.get('/backend/v1/auth/me/')).body.code).toBe('not_authenticated');
    expect((await web.get('/backend/health/')).body).toEqual({ status: 'ok' });
    expect((await web.get('/api/v1/auth/me/')).text).toContain('__APP_CONFIG__'); // now just a page path
    await restart({});
  });

  test('npm run dev: with DEV_RELOAD=1, GET /esbuild sends `change` when the app is rebuilt', async () => {
    await restart({ DEV_RELOAD: '1' });
    const controller = new AbortController();
    const res = await fetch(new URL('/esbuild', server.url), { signal: controller.signal });
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    let seen = '';
    const gotChange = (async () => {
      while (!seen.includes('event: change')) {
        const { value, done } = await reader.read();
        if (done) break;
        seen += new TextDecoder().decode(value);
      }
    })();
    await new Promise((r) => setTimeout(r, 100));
    writeFileSync(path.join(server.dist, 'meta.json'), JSON.stringify({ rebuilt: Date.now() }));
    await gotChange;
    expect(seen).toContain('event: change');
    controller.abort();
    await restart({});
    expect((await web.get('/esbuild')).text).toContain('__APP_CONFIG__'); // without DEV_RELOAD: just a page path
  });
});
