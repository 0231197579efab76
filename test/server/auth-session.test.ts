// A session after login: D8 D16 refresh rotation and expiry, D16 logout and access tokens, and the
// logs, which never hold a token or a password.
import { beforeAll, describe, expect, test } from 'vitest';
import { expectError, LOGIN, ME, REFRESH } from './api-common';
import { forEachBackend, type Api } from './backends';
import { client, createUser, DAY, decodeJwt, forgeJwt, MINUTE, SECOND, sha256, tokens, type Clock, type TestServer } from './helpers';

forEachBackend('API session', (backend) => {
  let server: TestServer;
  let clock: Clock;
  let api: Api;
  beforeAll(() => {
    ({ server, clock, api } = backend());
  });

  describe('D8 D16 refresh', () => {
    test('SPEC §7 refresh returns a new access_token and refresh_token (rotation)', async () => {
      const t = tokens(await api.login('solo@demo.test'));
      clock.advance(SECOND);
      const r = await api.refresh(t.refresh_token);
      expect(r.status).toBe(200);
      expect(Object.keys(r.body).sort()).toEqual(['access_token', 'refresh_expires_at', 'refresh_token']);
      const n = tokens(r);
      expect(n.refresh_token).not.toBe(t.refresh_token);
      expect(n.access_token).not.toBe(t.access_token);
      expect(decodeJwt(n.access_token).payload.sid).toBe(t.session_id);
      expect((await api.me(n.access_token)).status).toBe(200);
    });

    test('D16 refresh tokens are stored only as SHA-256 hashes', async () => {
      const t = tokens(await api.login('solo@demo.test'));
      const rows = await server.db.query<Record<string, unknown>>('select * from refresh_tokens where session_id = $1', [t.session_id]);
      expect(rows).toHaveLength(1);
      expect(rows[0]?.token_hash).toBe(sha256(t.refresh_token));
      expect(JSON.stringify(rows)).not.toContain(t.refresh_token);
    });

    test('D8 rotated-out refresh token within 10 s gets the same successor', async () => {
      const t = tokens(await api.login('solo@demo.test'));
      const first = tokens(await api.refresh(t.refresh_token));
      clock.advance(9 * SECOND);
      const again = tokens(await api.refresh(t.refresh_token));
      expect(again.refresh_token).toBe(first.refresh_token);
      expect(again.refresh_expires_at).toBe(first.refresh_expires_at);
      expect((await api.me(again.access_token)).status).toBe(200);
      // The successor itself still rotates normally, and the session stays live.
      const next = tokens(await api.refresh(first.refresh_token));
      expect(next.refresh_token).not.toBe(first.refresh_token);
    });

    test('D8 two tabs refreshing with the same token at once both get the same successor', async () => {
      const t = tokens(await api.login('solo@demo.test'));
      const [a, b] = await Promise.all([api.refresh(t.refresh_token), api.refresh(t.refresh_token)]);
      expect(tokens(a).refresh_token).toBe(tokens(b).refresh_token);
    });

    test('D8 rotated-out refresh token after 10 s counts as reuse and revokes the session', async () => {
      const t = tokens(await api.login('solo@demo.test'));
      const next = tokens(await api.refresh(t.refresh_token));
      clock.advance(11 * SECOND);
      expectError(await api.refresh(t.refresh_token), 401, 'refresh_token_reused');
      expectError(await api.refresh(next.refresh_token), 401, 'session_revoked');
      expectError(await api.me(next.access_token), 401);
      const [session] = await server.db.query<{ revoked_at: Date | null }>('select revoked_at from sessions where id = $1', [t.session_id]);
      expect(session?.revoked_at).toBeInstanceOf(Date);
    });

    test('D16 each refresh slides the expiry, never past 90 days from login', async () => {
      const login = clock.now();
      let t = tokens(await api.login('solo@demo.test', undefined, { remember_me: true }));
      expect(Date.parse(t.refresh_expires_at)).toBe(login + 30 * DAY);
      for (const step of [20, 20, 20, 20]) {
        clock.advance(step * DAY);
        t = { ...t, ...tokens(await api.refresh(t.refresh_token)) };
        expect(Date.parse(t.refresh_expires_at)).toBe(Math.min(clock.now() + 30 * DAY, login + 90 * DAY));
      }
      expect(Date.parse(t.refresh_expires_at)).toBe(login + 90 * DAY);
      clock.advance(login + 90 * DAY - clock.now());
      expectError(await api.refresh(t.refresh_token), 401, 'session_expired');
    });

    test('D16 a session without remember me ends after 1 day without a refresh', async () => {
      const t = tokens(await api.login('solo@demo.test', undefined, { remember_me: false }));
      clock.advance(DAY - SECOND);
      const n = tokens(await api.refresh(t.refresh_token));
      expect(Date.parse(n.refresh_expires_at)).toBe(clock.now() + DAY);
      clock.advance(DAY + SECOND);
      expectError(await api.refresh(n.refresh_token), 401, 'session_expired');
      expectError(await api.me(n.access_token), 401);
    });

    test('D19 refresh without a refresh_token is a 400 naming it; an unknown one is a 401', async () => {
      const missing = await api.post(REFRESH, {});
      expectError(missing, 400, 'missing_field');
      expect(missing.body.field).toBe('refresh_token');
      const wrongType = await api.post(REFRESH, { refresh_token: 12345 });
      expectError(wrongType, 400);
      expect(wrongType.body.field).toBe('refresh_token');
      expectError(await api.refresh('not-a-token-we-issued'), 401, 'invalid_refresh_token');
    });
  });

  describe('D16 logout', () => {
    test('D16 logout revokes the session: its access and refresh tokens are refused with 401', async () => {
      const t = tokens(await api.login('owner@demo.test'));
      expect((await api.me(t.access_token)).status).toBe(200);
      const out = await api.logout({ refresh_token: t.refresh_token, session_id: t.session_id }, t.access_token);
      expect(out.status).toBe(204);
      expectError(await api.me(t.access_token), 401, 'session_ended');
      expectError(await api.refresh(t.refresh_token), 401, 'session_revoked');
      // Idempotent: logging out again with the refresh token still succeeds.
      expect((await api.logout({ refresh_token: t.refresh_token })).status).toBe(204);
    });

    test('D16 logout with only the access token revokes its session', async () => {
      const t = tokens(await api.login('owner@demo.test'));
      expect((await api.logout({}, t.access_token)).status).toBe(204);
      expectError(await api.refresh(t.refresh_token), 401, 'session_revoked');
    });

    test('D16 logout needs proof: a bare session_id revokes nothing', async () => {
      const t = tokens(await api.login('owner@demo.test'));
      expectError(await api.logout({ session_id: t.session_id }), 401, 'not_authenticated');
      expectError(await api.logout({ session_id: 'one' }), 400);
      expect((await api.me(t.access_token)).status).toBe(200);
    });
  });

  describe('D16 access tokens', () => {
    test('D16 expired access token is refused with 401', async () => {
      const t = tokens(await api.login('solo@demo.test'));
      clock.advance(15 * MINUTE);
      const r = await api.me(t.access_token);
      expectError(r, 401, 'token_expired');
      expect(r.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect((await api.me(tokens(await api.refresh(t.refresh_token)).access_token)).status).toBe(200);
    });

    test('D16 tampered access token is refused with 401', async () => {
      const t = tokens(await api.login('solo@demo.test'));
      const [h, p, s] = t.access_token.split('.') as [string, string, string];
      const payload = JSON.parse(Buffer.from(p, 'base64url').toString()) as Record<string, unknown>;
      const other = Buffer.from(JSON.stringify({ ...payload, sub: '1' })).toString('base64url');
      expectError(await api.me(`${h}.${other}.${s}`), 401, 'invalid_token');
      const flipped = s.slice(0, -2) + (s.at(-2) === 'A' ? 'B' : 'A') + s.at(-1);
      expectError(await api.me(`${h}.${p}.${flipped}`), 401, 'invalid_token');
    });

    test('D16 tokens with alg none or signed with another key are refused with 401', async () => {
      const t = tokens(await api.login('solo@demo.test'));
      const { payload } = decodeJwt(t.access_token);
      expectError(await api.me(forgeJwt({ alg: 'none', typ: 'JWT' }, payload, null)), 401, 'invalid_token');
      expectError(await api.me(forgeJwt({ alg: 'none' }, payload, null).slice(0, -1)), 401);
      expectError(await api.me(forgeJwt({ alg: 'HS512', typ: 'JWT' }, payload, 'guess')), 401, 'invalid_token');
      expectError(await api.me(forgeJwt({ alg: 'HS256', typ: 'JWT' }, payload, 'a-secret-we-do-not-use-0123456789')), 401, 'invalid_token');
    });

    test('D16 a missing or malformed Authorization header is a 401', async () => {
      expectError(await api.get(ME), 401, 'not_authenticated');
      for (const value of ['Bearer', 'Basic dXNlcjpwYXNz', 'Bearer a.b', 'Bearer a.b.c', 'Bearer ....', `Bearer ${'x'.repeat(5000)}`]) {
        expectError(await api.get(ME, { Authorization: value }), 401);
      }
    });
  });

  test('D16 tokens and passwords never appear in the logs', async () => {
    const user = await createUser(server.db);
    const from = client(server.url);
    const t = tokens(await from.login(user.email, user.password));
    const n = tokens(await from.refresh(t.refresh_token));
    await from.me(n.access_token);
    await from.logout({ refresh_token: n.refresh_token }, n.access_token);
    await from.login(user.email, 'a-wrong-password-attempt');
    const all = server.logs.join('\n');
    expect(all).toContain(LOGIN); // requests are logged...
    for (const secret of [user.password, 'a-wrong-password-attempt', 'demo-password', t.access_token, t.refresh_token, n.access_token, n.refresh_token]) {
      expect(all).not.toContain(secret); // ...but never what they carried
    }
  });
});
