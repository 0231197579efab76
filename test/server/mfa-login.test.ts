// D54 signing in with two-step sign-in on: the login answers 202 with a challenge and no tokens (a
// device token of D36 never skips it), POST /v1/auth/mfa/ finishes it exactly as a login would; the
// challenge is single use and lives 5 minutes; a code is used once and within one step of drift; wrong
// codes are throttled like passwords; recovery codes work once each.
import { beforeAll, expect, test } from 'vitest';
import { expectError, ME } from './api-common';
import { forEachBackend, type Api } from './backends';
import type { Clock, TestServer } from './helpers';
import { challengeFor, enrol, SECOND_STEP, STEP_MS } from './mfa-common';
import { people } from './people';

const MINUTE = 60_000;

forEachBackend('API two-step sign-in: login', (backend) => {
  let server: TestServer;
  let api: Api;
  let clock: Clock;
  beforeAll(() => {
    ({ server, api, clock } = backend());
  });
  const { team } = people(backend, 'MFA Login Org');
  /** A new member with two-step sign-in on. */
  const enrolled = async () => {
    const {
      org,
      people: [p],
    } = await team('member');
    return { org, p: p!, ...(await enrol(backend(), p!)) };
  };
  const finish = (challenge: string, answer: Record<string, string>) => api.post(SECOND_STEP, { challenge, ...answer });

  test('D54 with it on, login answers 202 { mfa_required, challenge } and no token of any kind', async () => {
    const { p } = await enrolled();
    const r = await api.login(p.email, p.password);
    expect(r.status, r.text).toBe(202);
    expect(Object.keys(r.body).sort()).toEqual(['challenge', 'mfa_required']);
    expect(r.body.mfa_required).toBe(true);
    expect(r.body.challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // the challenge is kept only as a hash
    const stored = await server.db.query<{ token_hash: string }>('select token_hash from mfa_challenges where user_id = $1', [p.id]);
    expect(stored.map((s) => s.token_hash)).not.toContain(r.body.challenge);
    // a wrong password is still the SPEC's 401, unchanged
    expectError(await api.login(p.email, 'wrong-password-here'), 401, 'invalid_credentials');
  });

  test('D54 the code finishes the login exactly as a login would: tokens, session id, expiry, device token; me works', async () => {
    const { p, code } = await enrolled();
    const r = await finish(await challengeFor(backend(), p), { code: code() });
    expect(r.status, r.text).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(['access_token', 'device_token', 'refresh_expires_at', 'refresh_token', 'session_id']);
    const me = await api.me(r.body.access_token as string);
    expect(me.status).toBe(200);
    expect((me.body.user as { mfa_enabled: boolean }).mfa_enabled).toBe(true);
  });

  test('D54 D36 a device token never skips the second step, and the finished login keeps that device token', async () => {
    const {
      people: [p],
    } = await team('member');
    const first = await api.login(p!.email, p!.password);
    const device = first.body.device_token as string;
    const { code } = await enrol(backend(), p!);
    const r = await api.login(p!.email, p!.password, { device_token: device });
    expect(r.status, r.text).toBe(202);
    expect(r.body).not.toHaveProperty('device_token');
    const done = await finish(r.body.challenge as string, { code: code() });
    expect(done.status, done.text).toBe(200);
    expect(done.body.device_token).toBe(device);
  });

  test('D54 remember-me is carried through the challenge: off gives the short session', async () => {
    const { p, code } = await enrolled();
    const short = await finish(await challengeFor(backend(), p, { remember_me: false }), { code: code() });
    clock.advance(STEP_MS);
    const long = await finish(await challengeFor(backend(), p), { code: code() });
    const days = (r: typeof short) => (Date.parse(r.body.refresh_expires_at as string) - clock.now()) / (24 * 60 * MINUTE);
    expect(days(short)).toBeLessThanOrEqual(1.01);
    expect(days(long)).toBeGreaterThan(7);
  });

  test('D54 a challenge is single use: after it finished a login it is 410 challenge_expired, even with a new code', async () => {
    const { p, code } = await enrolled();
    const challenge = await challengeFor(backend(), p);
    expect((await finish(challenge, { code: code() })).status).toBe(200);
    clock.advance(STEP_MS);
    expectError(await finish(challenge, { code: code() }), 410, 'challenge_expired');
  });

  test('D54 a challenge lives 5 minutes (410 after, never a 401); an unknown one is 410 too', async () => {
    const { p, code } = await enrolled();
    const challenge = await challengeFor(backend(), p);
    clock.advance(5 * MINUTE + 1000);
    expectError(await finish(challenge, { code: code() }), 410, 'challenge_expired');
    expectError(await finish('x'.repeat(43), { code: code() }), 410, 'challenge_expired');
    const fresh = await challengeFor(backend(), p);
    clock.advance(4 * MINUTE);
    expect((await finish(fresh, { code: code() })).status).toBe(200);
  });

  test('D54 one step of drift either way is accepted, two steps either way are refused', async () => {
    const { p, code } = await enrolled();
    clock.advance(3 * STEP_MS); // the step before now was not used yet
    for (const steps of [-2, 2]) expectError(await finish(await challengeFor(backend(), p), { code: code(steps) }), 400, 'invalid_code');
    expect((await finish(await challengeFor(backend(), p), { code: code(-1) })).status).toBe(200);
    clock.advance(3 * STEP_MS); // past every step used so far
    expect((await finish(await challengeFor(backend(), p), { code: code(1) })).status).toBe(200);
  });

  test('D54 a code is used at most once: the same code again, or an earlier step after a later one, is refused', async () => {
    const { p, code } = await enrolled();
    const now = code();
    expect((await finish(await challengeFor(backend(), p), { code: now })).status).toBe(200);
    expectError(await finish(await challengeFor(backend(), p), { code: now }), 400, 'invalid_code');
    expectError(await finish(await challengeFor(backend(), p), { code: code(-1) }), 400, 'invalid_code');
  });

  test('D54 D18 wrong codes are throttled like passwords: after 3 (the suite limit) even the right code is 429 with Retry-After', async () => {
    const { p, code } = await enrolled();
    const challenge = await challengeFor(backend(), p);
    const wrong = code() === '000000' ? '111111' : '000000';
    for (let i = 0; i < 3; i += 1) expectError(await finish(challenge, { code: wrong }), 400, 'invalid_code');
    const refused = await finish(challenge, { code: code() });
    expectError(refused, 429, 'too_many_attempts');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // another challenge of the same person is held back too: the count is the person's
    expectError(await finish(await challengeFor(backend(), p), { code: code() }), 429, 'too_many_attempts');
    clock.advance(11 * MINUTE); // the suite's window is 10 minutes
    expect((await finish(await challengeFor(backend(), p), { code: code() })).status).toBe(200);
  });

  test('D54 a recovery code finishes a login once; used again it is refused; any case and spacing are read', async () => {
    const { p, recoveryCodes } = await enrolled();
    const [first, second] = recoveryCodes;
    expect((await finish(await challengeFor(backend(), p), { recovery_code: first! })).status).toBe(200);
    expectError(await finish(await challengeFor(backend(), p), { recovery_code: first! }), 400, 'invalid_code');
    const typed = ` ${second!.toUpperCase().replace('-', ' ')} `;
    expect((await finish(await challengeFor(backend(), p), { recovery_code: typed })).status).toBe(200);
    const left = await server.db.query('select 1 from mfa_recovery_codes where user_id = $1 and used_at is null', [p.id]);
    expect(left).toHaveLength(8);
  });

  test('D19 the second step refuses a body without a code, with both, or without a challenge: 400, never a 500', async () => {
    const { p, code } = await enrolled();
    const challenge = await challengeFor(backend(), p);
    expectError(await api.post(SECOND_STEP, { challenge }), 400);
    expectError(await api.post(SECOND_STEP, { challenge, code: code(), recovery_code: 'abcde-fghij' }), 400);
    expectError(await api.post(SECOND_STEP, { code: code() }), 400);
    expectError(await api.post(SECOND_STEP, { challenge: 5, code: code() }), 400);
    expect((await finish(challenge, { code: code() })).status).toBe(200); // none of those spent it
  });

  test('D54 a person without two-step sign-in signs in as before: 200 with tokens', async () => {
    const {
      people: [p],
    } = await team('member');
    const r = await api.login(p!.email, p!.password);
    expect(r.status).toBe(200);
    expect((await api.get(ME, { Authorization: `Bearer ${r.body.access_token as string}` })).status).toBe(200);
  });
});
