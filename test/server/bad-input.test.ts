// D19 bad input never earns a 500: oversized, mistyped or malformed requests get JSON errors, and the
// server keeps serving.
import { connect } from 'node:net';
import { beforeAll, describe, expect, test } from 'vitest';
import { expectError, LOGIN, LOGOUT, ME, REFRESH } from './api-common';
import { forEachBackend, type Api } from './backends';
import { orgId, rawRequest, tokens, type TestServer } from './helpers';

forEachBackend('API bad input', (backend) => {
  let server: TestServer;
  let api: Api;
  beforeAll(() => {
    ({ server, api } = backend());
  });

  describe('D19 bad input never earns a 500', () => {
    test('D19 a body over the limit is a 413', async () => {
      const big = JSON.stringify({ email: 'a@b.example', password: 'x'.repeat(100_000) });
      expectError(await api.post(LOGIN, big), 413, 'payload_too_large');
      // Without Content-Length (chunked), the limit holds while reading.
      const stream = new ReadableStream<Uint8Array>({
        start(c) {
          for (let i = 0; i < 10; i++) c.enqueue(new TextEncoder().encode(' '.repeat(5000)));
          c.close();
        },
      });
      const r = await api.request(LOGIN, { method: 'POST', body: stream, headers: { 'Content-Type': 'application/json' }, duplex: 'half' } as RequestInit);
      expectError(r, 413, 'payload_too_large');
    });

    test('D19 a body that is not declared JSON is a 415', async () => {
      for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/json; charset=latin1']) {
        expectError(await api.post(LOGIN, '{"email":"a@b.example","password":"x"}', { 'Content-Type': type }), 415, 'unsupported_media_type');
      }
      const none = await api.request(LOGIN, { method: 'POST', body: new Uint8Array([123, 125]) });
      expectError(none, 415);
    });

    test('D19 malformed JSON, a non-object, or bad UTF-8 is a 400', async () => {
      for (const body of ['{"email":', '', 'null', '[1,2]', '"text"', '42', '{"email":"a@b.example",}']) {
        expectError(await api.post(LOGIN, body), 400, 'invalid_json');
      }
      const badUtf8 = await api.request(LOGIN, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
      });
      expectError(badUtf8, 400, 'invalid_json');
    });

    test('D19 unknown API paths are a 404 in JSON', async () => {
      for (const p of ['/api/', '/api/v1/', '/api/v1/auth/nope/', '/api/v2/auth/login/', '/api/v1/auth/login/extra']) {
        expectError(await api.get(p), 404, 'not_found');
      }
      const noSlash = await api.post('/api/v1/auth/login', { email: 'a@b.example', password: 'x' });
      expectError(noSlash, 404, 'not_found');
      expect(noSlash.body.detail).toContain('/api/v1/auth/login/');
    });

    test('health check answers GET and HEAD for load balancers', async () => {
      expect((await api.get('/api/health/')).body).toEqual({ status: 'ok' });
      const head = await api.request('/api/health/', { method: 'HEAD' });
      expect([head.status, head.text]).toEqual([200, '']);
    });

    test('D19 a wrong method is a 405 in JSON with Allow', async () => {
      for (const [method, p, allow] of [
        ['GET', LOGIN, 'POST'],
        ['PUT', REFRESH, 'POST'],
        ['DELETE', LOGOUT, 'POST'],
        ['POST', ME, 'GET'],
        ['PATCH', ME, 'GET'],
      ] as const) {
        const r = await api.request(p, { method });
        expectError(r, 405, 'method_not_allowed');
        expect(r.headers.get('allow')).toContain(allow);
      }
    });

    test('D19 huge headers are refused in JSON and the server keeps serving', async () => {
      const raw = await rawRequest(server.port, `GET ${ME} HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(64 * 1024)}\r\n\r\n`);
      expect(raw).toMatch(/^HTTP\/1\.1 431 /);
      expect(raw).toContain('"code":"headers_too_large"');
      expect((await api.login('solo@demo.test')).status).toBe(200);
    });

    test('D19 malformed requests and paths are a 400, never a crash', async () => {
      expect(await rawRequest(server.port, 'NONSENSE\r\n\r\n')).toMatch(/^HTTP\/1\.1 400 /);
      expect(await rawRequest(server.port, 'GET /%E0%A4%A HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')).toMatch(/^HTTP\/1\.1 400 [^]*"code":"bad_request"/);
      expect(await rawRequest(server.port, 'POST /api/v1/auth/login/ HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n')).toMatch(/^HTTP\/1\.1 400 /);
      expect((await api.login('solo@demo.test')).status).toBe(200);
    });

    test('D19 a body sent to a call that takes none is a 400 however it is framed, and the call does not run', async () => {
      const t = tokens(await api.login('owner@demo.test'));
      const acme = await orgId(server.db, 'Acme Plumbing');
      const reset = (framing: string, body: string) =>
        rawRequest(
          server.port,
          `POST /api/v1/permissions/reset/ HTTP/1.1\r\nHost: x\r\nConnection: close\r\nAuthorization: Bearer ${t.access_token}\r\n` +
            `X-Organization-ID: ${acme}\r\nContent-Type: application/json\r\n${framing}\r\n${body}`,
        );
      expect(await reset('Content-Length: 2\r\n', '{}')).toMatch(/^HTTP\/1\.1 400 [^]*"code":"unexpected_body"/);
      expect(await reset('Transfer-Encoding: chunked\r\n', '2\r\n{}\r\n0\r\n\r\n')).toMatch(/^HTTP\/1\.1 400 [^]*"code":"unexpected_body"/);
      // An empty body, chunked or not, is no body: the call runs (the matrix is D10's already, so nothing changes).
      expect(await reset('Transfer-Encoding: chunked\r\n', '0\r\n\r\n')).toMatch(/^HTTP\/1\.1 200 /);
      expect(await reset('Content-Length: 0\r\n', '')).toMatch(/^HTTP\/1\.1 200 /);
    });

    test('D19 an email with a NUL or another control character is a 400 naming the field, never a 500', async () => {
      for (const email of ['a\u0000@b.example', 'a@b.example\u0000', 'a\u0007b@c.example', 'a@b\u007f.example', '\u001b[31ma@b.example']) {
        const r = await api.post(LOGIN, { email, password: 'x' });
        expectError(r, 400, 'invalid_field');
        expect(r.body.field, JSON.stringify(email)).toBe('email');
      }
      expect((await api.login('solo@demo.test')).status).toBe(200);
    });

    test('D19 requests Node would refuse by itself (no Host, an unknown Expect, CONNECT) get JSON errors with the security headers', async () => {
      const noHost = await rawRequest(server.port, `GET ${ME} HTTP/1.1\r\nConnection: close\r\n\r\n`);
      expect(noHost).toMatch(/^HTTP\/1\.1 400 [^]*\r\n\r\n\{"detail":"Host header is required","code":"bad_request"\}$/);
      expect(await rawRequest(server.port, 'GET /api/health/ HTTP/1.0\r\n\r\n')).toMatch(/^HTTP\/1\.1 200 [^]*\{"status":"ok"\}$/); // 1.0 needs no Host
      const teapot = await rawRequest(
        server.port,
        `POST ${LOGIN} HTTP/1.1\r\nHost: x\r\nExpect: teapot\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`,
      );
      expect(teapot).toMatch(/^HTTP\/1\.1 417 [^]*"code":"expectation_failed"/);
      const tunnel = await rawRequest(server.port, 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
      expect(tunnel).toMatch(/^HTTP\/1\.1 405 [^]*\r\nAllow: GET, HEAD, POST, OPTIONS\r\n[^]*"code":"method_not_allowed"/);
      const overflow = await rawRequest(server.port, `GET ${ME} HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(64 * 1024)}\r\n\r\n`);
      for (const raw of [noHost, teapot, tunnel, overflow]) {
        expect(raw).toMatch(/\r\nContent-Type: application\/json; charset=utf-8\r\n/i);
        expect(raw).toMatch(/\r\nX-Content-Type-Options: nosniff\r\n/i);
        expect(raw).toMatch(/\r\nReferrer-Policy: no-referrer\r\n/i);
        expect(raw).toMatch(/\r\nX-Frame-Options: DENY\r\n/i);
      }
      // A CONNECT whose client vanishes at once does not take the server down.
      await new Promise<void>((resolve) => {
        const socket = connect(server.port, '127.0.0.1', () => {
          socket.write('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n', () => socket.resetAndDestroy());
        });
        socket.on('error', () => {});
        socket.on('close', () => resolve());
      });
      await new Promise((r) => setTimeout(r, 50));
      expect((await api.get('/api/health/')).status).toBe(200);
    });

    test('D19 hostile bodies and headers on every endpoint never get a 500', async () => {
      const t = tokens(await api.login('solo@demo.test'));
      const bodies: unknown[] = [
        {},
        { email: null, password: null },
        { email: {}, password: [] },
        { refresh_token: null },
        { refresh_token: ['a'] },
        { refresh_token: 'x'.repeat(600) },
        { session_id: -1 },
        { session_id: 1.5 },
        { session_id: '1' },
        { remember_me: 1 },
        { email: 'a@b.example', password: '\u0000\uffff' },
        { __proto__: { admin: true } },
        { constructor: { prototype: {} } },
        { email: `${'a'.repeat(300)}@b.example`, password: 'x' },
        { email: 'é@ü.example', password: '🔑' },
      ];
      for (const p of [LOGIN, REFRESH, LOGOUT]) {
        for (const body of bodies) {
          const r = await api.post(p, JSON.stringify(body), { Authorization: `Bearer ${t.access_token}` });
          expect(r.status, `${p} ${JSON.stringify(body)}`).toBeLessThan(500);
          expect(typeof r.body.code === 'string' || r.status === 200 || r.status === 204).toBe(true);
        }
      }
      const hostileHeaders: Record<string, string>[] = [
        { 'X-Organization-ID': '\u00e9' },
        { Authorization: 'Bearer \u00ff.\u00ff.\u00ff' },
        { 'Content-Type': 'application/json' },
      ];
      for (const headers of hostileHeaders) {
        const r = await api.request(ME, { headers });
        expect(r.status).toBeLessThan(500);
      }
    });
  });
});
