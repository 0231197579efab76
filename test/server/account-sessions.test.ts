// D52 the person's own sessions: the live ones listed (browser and system from the User-Agent, address,
// started, last active, the current first), one signed out, or every other; a signed-out session's next
// request is a 401 and its refresh fails. Last active is
// written at most once per session per minute: counted by the row's versions, not timed.
import { beforeAll, describe, expect, test } from 'vitest';
import type { SessionView } from '../../contract/account';
import { expectError } from './api-common';
import { ACCOUNT, as, auditAbout, FIREFOX_LINUX, REVOKE_OTHERS, SAFARI_IPHONE, SESSIONS, sessionPath, signInAgain } from './account-common';
import { forEachBackend, type Api } from './backends';
import { MINUTE, SECOND, type Clock, type TestServer } from './helpers';
import { people } from './people';

forEachBackend('API account sessions', (backend) => {
  let server: TestServer;
  let api: Api;
  let clock: Clock;
  beforeAll(() => {
    ({ server, api, clock } = backend());
  });
  const { newOrg, person } = people(backend, 'Sessions Org');
  const list = async (token: string) => {
    const r = await as(api, token, 'GET', SESSIONS);
    expect(r.status, r.text).toBe(200);
    return r.body.results as SessionView[];
  };
  /** The row's version: it changes with every write of the row, and only then. */
  const version = async (sessionId: number) => {
    const [row] = await server.db.query<{ v: string; last_active_at: Date | null }>('select xmin::text as v, last_active_at from sessions where id = $1', [sessionId]);
    return row!;
  };

  /** The session's row once a call wrote it anew (the call that used it does not wait for the write). */
  const rewritten = async (sessionId: number, call: () => Promise<unknown>) => {
    const before = (await version(sessionId)).v;
    await call();
    await expect.poll(async () => (await version(sessionId)).v).not.toBe(before);
    return version(sessionId);
  };

  describe('D52 listing the sessions', () => {
    test('D52 live sessions only, the current first, then by last active: browser, system, address, started, last active', async () => {
      const p = await person(await newOrg());
      const firefox = await signInAgain(api, p, FIREFOX_LINUX);
      const iphone = await signInAgain(api, p, SAFARI_IPHONE);
      const ended = await signInAgain(api, p, FIREFOX_LINUX);
      expect((await as(api, ended.access_token, 'DELETE', sessionPath(ended.session_id))).status).toBe(204);
      clock.advance(MINUTE); // past the minute the logins wrote (D52: at most one write a minute)
      await rewritten(iphone.session_id, () =>
        as(api, iphone.access_token, 'GET', ACCOUNT, undefined, { 'User-Agent': SAFARI_IPHONE, 'X-Forwarded-For': '203.0.113.9' }),
      );
      clock.advance(2 * SECOND);
      await rewritten(firefox.session_id, () =>
        as(api, firefox.access_token, 'GET', ACCOUNT, undefined, { 'User-Agent': FIREFOX_LINUX, 'X-Forwarded-For': '203.0.113.7' }),
      );
      clock.advance(2 * SECOND);
      const mine = await list(p.token);
      const ids = mine.map((s) => s.id);
      expect(ids.slice(1)).toEqual([firefox.session_id, iphone.session_id]);
      expect(ids).not.toContain(ended.session_id);
      const [current, ff, ios] = mine;
      expect(current).toMatchObject({ current: true });
      expect(Object.keys(ff!).sort()).toEqual(['address', 'browser', 'current', 'id', 'last_active_at', 'started_at', 'system']);
      expect(ff).toMatchObject({ browser: 'Firefox', system: 'Linux', address: '203.0.113.7', current: false });
      expect(ios).toMatchObject({ browser: 'Safari', system: 'iOS', address: '203.0.113.9', current: false });
      expect(Date.parse(ff!.last_active_at!) - Date.parse(ios!.last_active_at!)).toBe(2 * SECOND);
      expect(Date.parse(ff!.started_at)).toBeLessThanOrEqual(Date.parse(ff!.last_active_at!));
      // Seen from another session, that one is the current one.
      expect((await list(firefox.access_token)).map((s) => [s.id, s.current])[0]).toEqual([firefox.session_id, true]);
    });

    test('D63 a session names its browser, system and address from its login, before any other call; an expired one not listed', async () => {
      const p = await person(null);
      const other = await api.post(
        '/api/v1/auth/login/',
        { email: p.email, password: p.password, remember_me: false },
        { 'User-Agent': SAFARI_IPHONE, 'X-Forwarded-For': '203.0.113.21' },
      );
      const fresh = other.body.session_id as number;
      const found = (await list(p.token)).find((s) => s.id === fresh);
      expect(found).toMatchObject({ browser: 'Safari', system: 'iOS', address: '203.0.113.21', current: false });
      expect(found!.last_active_at).toBe(found!.started_at);
      await server.db.query('update sessions set expires_at = $2 where id = $1', [fresh, new Date(clock.now() - SECOND)]);
      expect((await list(p.token)).map((s) => s.id)).not.toContain(fresh);
    });

    test('D63 a session made by accepting an invitation names its browser at once', async () => {
      const org = await newOrg();
      const owner = await person(org, 'owner');
      const email = `d63-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.test`;
      const issued = await owner.call('POST', '/api/v1/team/invitations/', { email, role: 'member' });
      expect(issued.status, issued.text).toBe(201);
      const accepted = await api.post(
        `/api/v1/invitations/${issued.body.token as string}/accept/`,
        { first_name: 'Dee', password: 'a-long-enough-password' },
        { 'User-Agent': FIREFOX_LINUX, 'X-Forwarded-For': '203.0.113.22' },
      );
      expect(accepted.status, accepted.text).toBe(200);
      const [mine] = await list(accepted.body.access_token as string);
      expect(mine).toMatchObject({ browser: 'Firefox', system: 'Linux', address: '203.0.113.22', current: true });
    });
  });

  describe('D52 signing sessions out', () => {
    test('D52 D16 a signed-out session: its next request 401, its refresh fails; the others go on', async () => {
      const org = await newOrg();
      const p = await person(org);
      const other = await signInAgain(api, p);
      expect((await api.me(other.access_token)).status).toBe(200);
      const r = await as(api, p.token, 'DELETE', sessionPath(other.session_id));
      expect(r.status, r.text).toBe(204);
      expectError(await api.me(other.access_token), 401);
      expectError(await as(api, other.access_token, 'GET', SESSIONS), 401);
      expectError(await api.refresh(other.refresh_token), 401, 'session_revoked');
      expect((await api.me(p.token)).status).toBe(200);
      const [entry] = await auditAbout(server, 'account.session_revoked', p.id);
      expect([Number(entry?.org_id), entry?.changes]).toEqual([org.id, expect.objectContaining({ session_id: other.session_id, current: false })]);
      expect(JSON.stringify(entry)).not.toContain(other.refresh_token);
    });

    test('D52 another person’s session, an unknown one and an ended one are 404; nothing ends', async () => {
      const org = await newOrg();
      const [p, stranger] = [await person(org), await person(org)];
      const theirs = await signInAgain(api, stranger);
      expectError(await as(api, p.token, 'DELETE', sessionPath(theirs.session_id)), 404, 'not_found');
      expectError(await as(api, p.token, 'DELETE', sessionPath(2_000_000_000)), 404, 'not_found');
      expect((await api.me(theirs.access_token)).status).toBe(200);
      const mine = await signInAgain(api, p);
      expect((await as(api, p.token, 'DELETE', sessionPath(mine.session_id))).status).toBe(204);
      expectError(await as(api, p.token, 'DELETE', sessionPath(mine.session_id)), 404, 'not_found');
      expectError(await as(api, p.token, 'DELETE', sessionPath('abc')), 400);
    });

    test('D52 signing out the current session is signing out', async () => {
      const p = await person(null);
      const mine = await signInAgain(api, p);
      expect((await as(api, mine.access_token, 'DELETE', sessionPath(mine.session_id))).status).toBe(204);
      expectError(await as(api, mine.access_token, 'GET', ACCOUNT), 401);
      expectError(await api.refresh(mine.refresh_token), 401, 'session_revoked');
    });

    test('D52 revoke-others ends every other session and counts them; this one goes on; none left is 0', async () => {
      const org = await newOrg();
      const p = await person(org);
      const others = [await signInAgain(api, p), await signInAgain(api, p), await signInAgain(api, p)];
      const r = await as(api, p.token, 'POST', REVOKE_OTHERS);
      expect(r.status, r.text).toBe(200);
      expect(r.body).toEqual({ ended_sessions: 3 });
      for (const o of others) {
        expectError(await api.me(o.access_token), 401);
        expectError(await api.refresh(o.refresh_token), 401, 'session_revoked');
      }
      expect((await list(p.token)).map((s) => s.current)).toEqual([true]);
      expect((await as(api, p.token, 'POST', REVOKE_OTHERS)).body).toEqual({ ended_sessions: 0 });
      expect(await auditAbout(server, 'account.session_revoked', p.id)).toHaveLength(1); // ending none is no change
    });
  });

  describe('D52 last active', () => {
    test('D52 D63 at most one write per session per minute: the login writes, the calls within the minute write nothing', async () => {
      const p = await person(await newOrg());
      const s = await signInAgain(api, p);
      const first = await version(s.session_id);
      expect(first.last_active_at?.getTime()).toBe(clock.now()); // D63: written by the login itself
      const writtenAt = clock.now();
      for (let i = 0; i < 6; i++) {
        clock.advance(9 * SECOND); // 54 s in all: still within the minute
        await as(api, s.access_token, 'GET', i % 2 ? ACCOUNT : SESSIONS);
        await api.me(s.access_token);
      }
      await expect.poll(() => server.db.queueStats().queued).toBe(0); // nothing of theirs still waiting to be written
      expect(await version(s.session_id)).toEqual(first); // 12 calls, no write
      clock.advance(MINUTE);
      await api.me(s.access_token);
      await expect.poll(async () => (await version(s.session_id)).v).not.toBe(first.v);
      const next = await version(s.session_id);
      expect(next.last_active_at!.getTime() - writtenAt).toBe(54 * SECOND + MINUTE);
    });
  });
});
