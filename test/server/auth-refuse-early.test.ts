// D35 refusing costs nothing: a login or refresh the address limiter will refuse is answered from its
// headers, before its body is read or parsed. Order and answers only: a body that is still being sent,
// or one that is not JSON, gets the limiter's 429, not the wait for the body or the 400 it would earn.
import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { beforeAll, describe, expect, test } from 'vitest';
import { MAX_CONCURRENT_SCRYPT, scryptLoad } from '../../server/auth/passwords';
import { expectError } from './api-common';
import { forEachBackend } from './backends';
import { client, newAddress, type TestServer } from './helpers';
import { holdHashing } from './hashing';

const randomToken = () => randomBytes(32).toString('base64url');
const LOGIN = '/api/v1/auth/login/';
const REFRESH = '/api/v1/auth/refresh/';

/**
 * Sends the headers and the first part of a JSON body that declares more, and resolves with the answer
 * the server gives while the rest has not been sent; the request is then dropped.
 */
function answerBeforeBodyEnds(url: string, path: string, address: string) {
  return new Promise<{ status: number; retryAfter: string | undefined; body: Record<string, unknown> }>((resolve, reject) => {
    const req = request(new URL(path, url), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Content-Length': '1000', 'X-Forwarded-For': address },
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        resolve({
          status: res.statusCode ?? 0,
          retryAfter: res.headers['retry-after'],
          body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>,
        });
        req.destroy();
      });
    });
    req.on('error', reject);
    req.write('{"refresh_token": "'); // and never the rest
  });
}

forEachBackend('API refusals before the body', (backend) => {
  let server: TestServer;
  beforeAll(() => {
    ({ server } = backend());
  });

  describe('D35 refused before the body is read', () => {
    test('D35 a refresh from a throttled address is answered 429 while its body is still being sent, and a body that is not JSON changes nothing', async () => {
      const address = newAddress();
      const from = client(server.url, address);
      for (let i = 0; i < 5; i++) expectError(await from.refresh(randomToken()), 401, 'invalid_refresh_token');
      const unread = await answerBeforeBodyEnds(server.url, REFRESH, address);
      expect(unread.status).toBe(429);
      expect(unread.body.code).toBe('too_many_attempts');
      expect(unread.body.detail).toMatch(/^Too many failed refreshes; try again in \d+ s$/);
      expect(Number(unread.retryAfter)).toBeGreaterThan(0);
      const malformed = await from.post(REFRESH, '{"refresh_token": ');
      expectError(malformed, 429, 'too_many_attempts');
      expect(malformed.headers.get('retry-after')).toBe(unread.retryAfter);
      // Another address with the same malformed body is told what is wrong with it.
      expectError(await client(server.url).post(REFRESH, '{"refresh_token": '), 400, 'invalid_json');
    });

    test('D35 a third login in flight from one address is answered 429 before its body is read; a throttled address still reads it (D36 a device token may pass)', async () => {
      const held = holdHashing(MAX_CONCURRENT_SCRYPT);
      const address = newAddress();
      const from = client(server.url, address);
      const first = [from.login('solo@demo.test'), from.login('solo@demo.test')];
      let answered = 0;
      for (const p of first) void p.then(() => (answered += 1));
      try {
        // The first two wait for a hashing turn (in flight); the third is refused without its body.
        while (scryptLoad().waiting < first.length) await new Promise((r) => setTimeout(r, 10));
        const unread = await answerBeforeBodyEnds(server.url, LOGIN, address);
        const malformed = await from.post(LOGIN, '{"email": ');
        expect(answered).toBe(0);
        expect(unread).toMatchObject({ status: 429, retryAfter: '1', body: { code: 'too_many_attempts' } });
        expect(unread.body.detail).toBe('Too many logins at once from this address; try again in 1 s');
        expectError(malformed, 429, 'too_many_attempts');
      } finally {
        held.release();
      }
      expect((await Promise.all(first)).map((r) => r.status)).toEqual([200, 200]);
      await held.settled;

      // Throttled by failures (nothing in flight): whether the body holds a valid device token decides,
      // so the body is read, and one that is not JSON is a 400.
      const other = client(server.url, newAddress());
      for (let i = 0; i < 5; i++) expectError(await other.login(`nobody${i}-${Date.now()}@test.example`, 'wrong'), 401);
      expectError(await other.login('solo@demo.test', 'wrong'), 429, 'too_many_attempts');
      expectError(await other.post(LOGIN, '{"email": '), 400, 'invalid_json');
    });
  });
});
