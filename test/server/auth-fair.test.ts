// D35 refusing costs nothing (the per-address limiter before login, refresh and invitation calls; bounded
// password hashing; invitation tokens checked before hashing), D36 nobody locks out the real user (device
// tokens; invitation look-ups on their own budget), D37 secret paths redacted in the access log.
// Counts and order only: the password-hashing queue is held on purpose (./hashing.ts), never timed.
import { randomBytes } from 'node:crypto';
import { afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import { MAX_IN_FLIGHT } from '../../server/auth/guards';
import { hashingWait, MAX_CONCURRENT_SCRYPT, MAX_WAITING_SCRYPT, SCRYPT_WAIT_MS } from '../../server/auth/passwords';
import { expectError } from './api-common';
import { forEachBackend } from './backends';
import { client, createUser, newAddress, SECOND, tokens, type Clock, type Reply, type TestServer, type Tokens } from './helpers';
import { holdHashing } from './hashing';

const randomToken = () => randomBytes(32).toString('base64url');
const lookupPath = (token: string) => `/api/v1/invitations/${token}/`;
const acceptPath = (token: string) => `/api/v1/invitations/${token}/accept/`;
const statuses = (rs: Reply[]) => rs.map((r) => r.status).sort();

forEachBackend('API fair authentication', (backend) => {
  let server: TestServer;
  let clock: Clock;
  beforeAll(() => {
    ({ server, clock } = backend());
  });
  afterEach(() => {
    hashingWait.ms = SCRYPT_WAIT_MS;
  });

  /** Database calls made while fn runs (the server's own Db object, shared with its handlers). */
  const databaseCallsDuring = async <T>(fn: () => Promise<T>): Promise<{ result: T; calls: number }> => {
    const spies = [vi.spyOn(server.db, 'query'), vi.spyOn(server.db, 'transaction')];
    try {
      const result = await fn();
      return { result, calls: spies.reduce((n, s) => n + s.mock.calls.length, 0) };
    } finally {
      for (const s of spies) s.mockRestore();
    }
  };
  const attempts = async () => Number((await server.db.query<{ n: unknown }>('select count(*) as n from login_attempts'))[0]?.n);
  /** An address that has reached its failure limit (5 in these suites). */
  const throttledAddress = async () => {
    const from = client(server.url, newAddress());
    for (let i = 0; i < 5; i++) expectError(await from.login(`nobody${i}-${Date.now()}@test.example`, 'wrong'), 401);
    expectError(await from.login('solo@demo.test'), 429, 'too_many_attempts');
    return from;
  };

  describe('D35 refusals before the database', () => {
    test('D35 a throttled address is refused with 429 and Retry-After before any database call', async () => {
      const from = await throttledAddress();
      const before = await attempts();
      const { result: refused, calls } = await databaseCallsDuring(() => Promise.all(Array.from({ length: 30 }, () => from.login('solo@demo.test', 'wrong'))));
      expect(calls).toBe(0);
      for (const r of refused) {
        expectError(r, 429, 'too_many_attempts');
        expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
        expect(r.body.detail).toMatch(/^Too many failed logins; try again in \d+ s$/);
      }
      expect(await attempts()).toBe(before);
      expect((await client(server.url).login('solo@demo.test')).status).toBe(200); // another address is unaffected
    });

    test('D35 one address has at most 2 logins in flight: a third is refused before the first two are answered', async () => {
      const held = holdHashing(MAX_CONCURRENT_SCRYPT);
      const from = client(server.url, newAddress());
      const first = [from.login('solo@demo.test'), from.login('solo@demo.test')];
      let answered = 0;
      for (const p of first) void p.then(() => (answered += 1));
      // The first two wait for a hashing turn; the third cannot wait with them.
      const third = await from.login('solo@demo.test').finally(() => (answered === 0 ? undefined : held.release()));
      const answeredBefore = answered;
      held.release();
      expectError(third, 429, 'too_many_attempts');
      expect(third.headers.get('retry-after')).toBe('1');
      expect(answeredBefore).toBe(0);
      expect(statuses(await Promise.all(first))).toEqual([200, 200]);
      await held.settled;
    });

    test('D35 more than 32 waiting for password hashing: 503 server_busy with Retry-After, and the attempt is not counted', async () => {
      const user = await createUser(server.db);
      hashingWait.ms = 10 * 60_000; // held on purpose while the request is made
      const held = holdHashing(MAX_CONCURRENT_SCRYPT + MAX_WAITING_SCRYPT);
      const r = await client(server.url).login(user.email, user.password).finally(held.release);
      expectError(r, 503, 'server_busy');
      expect(r.headers.get('retry-after')).toBe('1');
      const rows = await server.db.query('select 1 from login_attempts where email_key = $1', [user.email]);
      expect(rows).toHaveLength(0);
      held.release();
      await held.settled;
      expect((await client(server.url).login(user.email, user.password)).status).toBe(200);
    });

    test('D35 refresh is throttled per address: after 5 unknown tokens, 429 even for a valid token; other addresses go on', async () => {
      const good = tokens(await client(server.url).login('solo@demo.test'));
      const from = client(server.url, newAddress());
      for (let i = 0; i < 5; i++) expectError(await from.refresh(randomToken()), 401, 'invalid_refresh_token');
      const refused = await from.refresh(good.refresh_token);
      expectError(refused, 429, 'too_many_attempts');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      const { result, calls } = await databaseCallsDuring(() => from.refresh(randomToken()));
      expectError(result, 429);
      expect(calls).toBe(0); // refused before the database
      expect((await client(server.url).refresh(good.refresh_token)).status).toBe(200);
    });

    test("D36 a refresh that proves its session (the app sends its access token) is not held back by its address's failed refreshes", async () => {
      const mine = tokens(await client(server.url).login('solo@demo.test'));
      const from = client(server.url, newAddress());
      for (let i = 0; i < 5; i++) expectError(await from.refresh(randomToken()), 401);
      expectError(await from.refresh(mine.refresh_token), 429, 'too_many_attempts'); // without proof: the address's block
      const forged = `${mine.access_token.slice(0, -4)}AAAA`;
      expectError(await from.post('/api/v1/auth/refresh/', { refresh_token: mine.refresh_token }, { Authorization: `Bearer ${forged}` }), 429);
      const proved = await from.post('/api/v1/auth/refresh/', { refresh_token: mine.refresh_token }, { Authorization: `Bearer ${mine.access_token}` });
      expect(proved.status).toBe(200);
      // Its own failures still count: five made-up refresh tokens under its name, then it waits too.
      for (let i = 0; i < 5; i++)
        expectError(await from.post('/api/v1/auth/refresh/', { refresh_token: randomToken() }, { Authorization: `Bearer ${mine.access_token}` }), 401);
      const next = tokens(proved);
      expectError(await from.post('/api/v1/auth/refresh/', { refresh_token: next.refresh_token }, { Authorization: `Bearer ${next.access_token}` }), 429);
    });

    test("D36 an office's tabs that prove their sessions refresh at once after one bad refresh from their address", async () => {
      const office = client(server.url, newAddress());
      const tabs: Tokens[] = [];
      for (let i = 0; i <= MAX_IN_FLIGHT.refresh[1]; i++) tabs.push(tokens(await office.login('solo@demo.test')));
      expectError(await office.refresh(randomToken()), 401); // the address has failed: unknown callers get the smaller cap
      // Every rotation waits at a gate, so all the tabs' refreshes are in flight at once (order, not time).
      let open = () => {};
      const gate = new Promise<void>((r) => (open = r));
      let entered = 0;
      let allIn = () => {};
      const inFlight = new Promise<void>((r) => (allIn = r));
      const transaction = server.db.transaction.bind(server.db);
      const spy = vi.spyOn(server.db, 'transaction').mockImplementation(async (fn, opts) => {
        if (++entered === tabs.length) allIn();
        await gate;
        return transaction(fn, opts);
      });
      try {
        const refreshing = tabs.map((t) => office.post('/api/v1/auth/refresh/', { refresh_token: t.refresh_token }, { Authorization: `Bearer ${t.access_token}` }));
        await Promise.race([inFlight, ...refreshing]); // a tab refused would answer before the gate opens
        const unproved = await office.refresh(tabs[0]!.refresh_token);
        const enteredBefore = entered;
        open();
        expect(statuses(await Promise.all(refreshing))).toEqual(tabs.map(() => 200));
        expect(enteredBefore).toBe(tabs.length);
        expectError(unproved, 429, 'too_many_attempts'); // without proof: the address's smaller cap
      } finally {
        open();
        spy.mockRestore();
      }
    });

    test('D35 refresh failures are recorded in the database, so other instances learn the block', async () => {
      const address = newAddress();
      for (let i = 0; i < 2; i++) await client(server.url, address).refresh(randomToken());
      const rows = await server.db.query('select 1 from login_attempts where client_key = $1 and not succeeded', [`refresh:${address}`]);
      expect(rows).toHaveLength(2);
    });

    test('D35 accepting an invitation checks its token before hashing a password: an unknown one is 404 while hashing is full', async () => {
      hashingWait.ms = 10 * 60_000;
      const held = holdHashing(MAX_CONCURRENT_SCRYPT + MAX_WAITING_SCRYPT);
      const r = await client(server.url).post(acceptPath(randomToken()), { first_name: 'Eve', password: 'a-long-enough-password' }).finally(held.release);
      await held.settled;
      expectError(r, 404, 'invitation_not_found');
    });
  });

  describe('D36 nobody locks out the real user', () => {
    test('D36 a successful login gives a device token; a login presenting it gets the same one back', async () => {
      const first = await client(server.url).login('solo@demo.test');
      const device = String(first.body.device_token);
      expect(device).toMatch(/^d1\.\d+\.[\w-]{22}\.[\w-]{43}$/);
      const again = await client(server.url).login('solo@demo.test', undefined, { device_token: device });
      expect(again.body.device_token).toBe(device);
      const other = await client(server.url).login('owner@demo.test', undefined, { device_token: device });
      expect(other.body.device_token).not.toBe(device); // another person's login gets a token of its own
    });

    test('D19 a device_token of the wrong type or too long is a 400 naming it; a made-up one is ignored', async () => {
      for (const device_token of [42, 'x'.repeat(129)]) {
        const r = await client(server.url).login('solo@demo.test', undefined, { device_token });
        expectError(r, 400);
        expect(r.body.field).toBe('device_token');
      }
      const made = await client(server.url).login('solo@demo.test', undefined, { device_token: 'd1.1.made-up.token' });
      expect(made.status).toBe(200);
      expect(made.body.device_token).not.toBe('d1.1.made-up.token');
    });

    test('D36 when an email is throttled for unknown clients, its device token still logs in on the right password', async () => {
      const user = await createUser(server.db);
      const device = String((await client(server.url).login(user.email, user.password)).body.device_token);
      clock.advance(SECOND); // failures count from the last success on
      for (let i = 0; i < 3; i++) expectError(await client(server.url).login(user.email, 'wrong'), 401);
      expectError(await client(server.url).login(user.email, user.password), 429, 'too_many_attempts');
      expect((await client(server.url).login(user.email, user.password, { device_token: device })).status).toBe(200);
      expectError(await client(server.url).login(user.email, user.password), 429, 'too_many_attempts'); // unknown clients still wait
    });

    test("D36 a known device is held to its own limit; a forged or another email's token counts as none", async () => {
      const user = await createUser(server.db);
      const device = String((await client(server.url).login(user.email, user.password)).body.device_token);
      clock.advance(SECOND);
      for (let i = 0; i < 3; i++) expectError(await client(server.url).login(user.email, 'wrong', { device_token: device }), 401);
      expectError(await client(server.url).login(user.email, user.password, { device_token: device }), 429, 'too_many_attempts');
      expect((await client(server.url).login(user.email, user.password)).status).toBe(200); // its guesses were not the email's
      const forged = `${device.slice(0, -4)}AAAA`;
      const solo = String((await client(server.url).login('solo@demo.test')).body.device_token);
      clock.advance(SECOND);
      for (let i = 0; i < 3; i++) await client(server.url).login(user.email, 'wrong', { device_token: i ? forged : solo });
      expectError(await client(server.url).login(user.email, user.password), 429); // counted per email, as unknown clients
    });

    test("D36 a known device is not held back by its address's failures", async () => {
      const user = await createUser(server.db);
      const device = String((await client(server.url).login(user.email, user.password)).body.device_token);
      const from = await throttledAddress();
      expectError(await from.login(user.email, user.password), 429);
      expect((await from.login(user.email, user.password, { device_token: device })).status).toBe(200);
    });

    test('D36 invitation look-ups have their own budget: made-up tokens never block the logins of that address', async () => {
      const from = client(server.url, newAddress());
      const looks = [];
      for (let i = 0; i < 8; i++) looks.push(await from.get(lookupPath(randomToken())));
      expect(looks.filter((r) => r.status === 404)).toHaveLength(5);
      for (const r of looks.slice(5)) expectError(r, 429, 'too_many_attempts');
      expect((await from.login('solo@demo.test')).status).toBe(200);
      // …and failed logins do not block its invitation look-ups either.
      const other = await throttledAddress();
      expectError(await other.get(lookupPath(randomToken())), 404, 'invitation_not_found');
    });
  });

  describe('D37 secret paths in the access log', () => {
    test('D37 /invite/{token} and /v1/invitations/{token}/ are logged as [redacted]', async () => {
      const token = randomToken();
      await client(server.url).get(`/invite/${token}`);
      await client(server.url).get(`/invite/${token}?x=1`);
      await client(server.url).get(lookupPath(token));
      await client(server.url).post(acceptPath(token), {});
      await client(server.url).get(`/reset/${token}`);
      expect(server.logs.filter((l) => l.includes(token))).toEqual([]);
      expect(server.logs.some((l) => / GET \/invite\/\[redacted\] \d{3} /.test(l))).toBe(true);
      expect(server.logs.some((l) => / GET \/api\/v1\/invitations\/\[redacted\]\/ 404 /.test(l))).toBe(true);
      expect(server.logs.some((l) => / POST \/api\/v1\/invitations\/\[redacted\]\/accept\/ \d{3} /.test(l))).toBe(true);
      expect(server.logs.some((l) => / GET \/reset\/\[redacted\] \d{3} /.test(l))).toBe(true);
    });
  });
});
