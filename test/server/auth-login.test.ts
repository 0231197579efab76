// SPEC §7 login and what its answers hold (D3 D16 D17 D19); D18 login throttling.
import { beforeAll, describe, expect, test } from 'vitest';
import { expectError, LOGIN } from './api-common';
import { forEachBackend, type Api } from './backends';
import { client, createUser, DAY, decodeJwt, newAddress, SECOND, tokens, type Clock, type TestServer } from './helpers';

forEachBackend('API login', (backend) => {
  let server: TestServer;
  let clock: Clock;
  let api: Api;
  beforeAll(() => {
    ({ server, clock, api } = backend());
  });

  describe('SPEC §7 login', () => {
    test('SPEC §7 login returns access_token, refresh_token, session_id and refresh_expires_at', async () => {
      const r = await api.login('owner@demo.test');
      expect(r.status).toBe(200);
      expect(Object.keys(r.body).sort()).toEqual(['access_token', 'device_token', 'refresh_expires_at', 'refresh_token', 'session_id']);
      const t = tokens(r);
      expect(t.access_token.split('.')).toHaveLength(3);
      expect(t.refresh_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(Number.isInteger(t.session_id)).toBe(true);
      expect(new Date(t.refresh_expires_at).toISOString()).toBe(t.refresh_expires_at);
    });

    test('D16 access token is an HS256 JWT with exp, sub and sid, valid 15 minutes', async () => {
      const t = tokens(await api.login('solo@demo.test'));
      const { header, payload } = decodeJwt(t.access_token);
      expect(header.alg).toBe('HS256');
      expect(payload.sid).toBe(t.session_id);
      expect(typeof payload.sub).toBe('string');
      expect(payload.exp).toBe(Math.floor(clock.now() / 1000) + 15 * 60);
    });

    test('D16 a session lives 30 days with remember_me, 1 day without; SPEC §9 remember_me defaults to on', async () => {
      const lifetime = async (extra: Record<string, unknown>) => Date.parse(tokens(await api.login('solo@demo.test', undefined, extra)).refresh_expires_at) - clock.now();
      expect(await lifetime({ remember_me: true })).toBe(30 * DAY);
      expect(await lifetime({ remember_me: false })).toBe(1 * DAY);
      expect(await lifetime({})).toBe(30 * DAY);
    });

    test('D17 a wrong password and an unknown email get the same 401', async () => {
      const user = await createUser(server.db);
      const wrong = await api.login(user.email, 'not-the-password');
      const unknown = await api.login(`nobody-${Date.now()}@test.example`, 'whatever');
      expectError(wrong, 401, 'invalid_credentials');
      expect(unknown.status).toBe(401);
      expect(unknown.body).toEqual(wrong.body);
    });

    test('D3 emails are matched case-insensitively', async () => {
      expect((await api.login('  Owner@Demo.TEST ')).status).toBe(200);
    });

    test('D19 login without email or password is a 400 naming the field', async () => {
      for (const [body, field] of [
        [{ password: 'x' }, 'email'],
        [{ email: '', password: 'x' }, 'email'],
        [{ email: 'a@b.example' }, 'password'],
        [{ email: 'a@b.example', password: '' }, 'password'],
      ] as const) {
        const r = await api.post(LOGIN, body);
        expectError(r, 400, 'missing_field');
        expect(r.body.field).toBe(field);
        expect(r.body.detail).toContain(field);
      }
    });

    test('D19 login fields of the wrong type are a 400 naming the field', async () => {
      for (const [body, field] of [
        [{ email: 42, password: 'x' }, 'email'],
        [{ email: ['a@b.example'], password: 'x' }, 'email'],
        [{ email: 'not-an-email', password: 'x' }, 'email'],
        [{ email: 'a@b.example', password: { p: 1 } }, 'password'],
        [{ email: 'a@b.example', password: 'x', remember_me: 'yes' }, 'remember_me'],
        [{ email: 'a@b.example', password: 'x'.repeat(2000) }, 'password'],
      ] as const) {
        const r = await api.post(LOGIN, body);
        expectError(r, 400);
        expect(r.body.field).toBe(field);
      }
    });
  });

  describe('D18 login throttling', () => {
    test('D18 repeated failures for one email get 429 with Retry-After, even with the right password', async () => {
      const user = await createUser(server.db);
      for (let i = 0; i < 3; i++) expectError(await client(server.url).login(user.email, 'wrong'), 401);
      const r = await client(server.url).login(user.email, user.password);
      expectError(r, 429, 'too_many_attempts');
      const wait = Number(r.headers.get('retry-after'));
      expect(wait).toBeGreaterThan(0);
      expect(wait).toBeLessThanOrEqual(600);
    });

    test('D18 repeated failures from one client address get 429 whatever the email', async () => {
      const from = client(server.url, newAddress());
      for (let i = 0; i < 5; i++) expectError(await from.login(`stranger${i}-${Date.now()}@test.example`, 'wrong'), 401);
      const r = await from.login('solo@demo.test');
      expectError(r, 429, 'too_many_attempts');
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await client(server.url).login('solo@demo.test')).status).toBe(200); // other addresses are unaffected
    });

    test('D18 the block lifts when the window has passed', async () => {
      const user = await createUser(server.db);
      for (let i = 0; i < 3; i++) await client(server.url).login(user.email, 'wrong');
      const blocked = await client(server.url).login(user.email, user.password);
      expect(blocked.status).toBe(429);
      clock.advance(Number(blocked.headers.get('retry-after')) * SECOND);
      expect((await client(server.url).login(user.email, user.password)).status).toBe(200);
    });

    test('D18 a successful login clears the failures of that email', async () => {
      const user = await createUser(server.db);
      for (let i = 0; i < 2; i++) await client(server.url).login(user.email, 'wrong');
      expect((await client(server.url).login(user.email, user.password)).status).toBe(200);
      for (let i = 0; i < 2; i++) await client(server.url).login(user.email, 'wrong');
      expect((await client(server.url).login(user.email, user.password)).status).toBe(200);
    });

    test('D18 guesses sent all at once are counted against each other: no more than the limit are checked, per email and per address', async () => {
      const user = await createUser(server.db);
      const perEmail = await Promise.all(Array.from({ length: 12 }, () => client(server.url).login(user.email, 'wrong')));
      expect(perEmail.map((r) => r.status).sort()).toEqual([...Array<number>(3).fill(401), ...Array<number>(9).fill(429)]);
      const from = client(server.url, newAddress());
      const perAddress = await Promise.all(Array.from({ length: 12 }, (_, i) => from.login(`burst${i}-${Date.now()}@test.example`, 'wrong')));
      // D35 refuses some at once (2 in flight per address); of those let through, no more than the limit are checked.
      const checked = perAddress.filter((r) => r.status === 401).length;
      expect(checked).toBeGreaterThan(0);
      expect(checked).toBeLessThanOrEqual(5);
      expect(perAddress.filter((r) => r.status === 429)).toHaveLength(12 - checked);
      // The right password, tried next, is throttled too.
      expect((await client(server.url).login(user.email, user.password)).status).toBe(429);
    });

    test('D18 throttling state lives in the database', async () => {
      const user = await createUser(server.db);
      for (let i = 0; i < 3; i++) await client(server.url).login(user.email, 'wrong');
      const rows = await server.db.query('select 1 from login_attempts where email_key = $1 and not succeeded', [user.email]);
      expect(rows).toHaveLength(3);
    });
  });
});
