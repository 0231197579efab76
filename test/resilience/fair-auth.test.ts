// Issue: strangers can no longer stall or lock out everybody through the sign-in doors (D35, D36, D37),
// on each database, with the product's own limits (5 failures per email, 50 per address, 15 minutes).
// Client addresses differ through X-Forwarded-For (TRUST_PROXY=1). Counts and order only, never durations:
// while each flood is in flight, a signed-in member of another organization keeps working and every one
// of their requests is answered 2xx; a correct login from another address succeeds. Then the secrets
// check: no token handed out, password or secret path left unredacted in the log, error bodies or audit.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { MAX_IN_FLIGHT } from '../../server/auth/guards';
import { MAX_CONCURRENT_SCRYPT, MAX_WAITING_SCRYPT, hashingWait, SCRYPT_WAIT_MS, scryptLoad } from '../../server/auth/passwords';
import { forEachBackend, type Backend } from '../server/backends';
import { client, DEMO_PASSWORD, newAddress, orgId, tokens, type Reply } from '../server/helpers';
import { holdHashing } from '../server/hashing';
import { assertNoSecrets, auditRows, jwtSecretOf, serverSecrets, type Secret } from './secrets';

const FLOOD = 700;
/** The product's default per-address limit (D18), which this suite runs with. */
const MAX_FAILURES_PER_ADDRESS = 50;
const ENV = { TRUST_PROXY: '1' };
const randomToken = () => randomBytes(32).toString('base64url');
const count = (rs: Reply[], status: number) => rs.filter((r) => r.status === status).length;

forEachBackend(
  'Fair authentication',
  (backend) => {
    let b: Backend;
    let member: { access: string; org: number };
    const secrets: Secret[] = [];
    const bodies: string[] = [];
    const keep = (rs: Reply[]) => {
      for (const r of rs) if (r.status >= 400) bodies.push(r.text);
      return rs;
    };

    beforeAll(async () => {
      b = backend();
      const t = tokens(await client(b.server.url).login('solo@demo.test'));
      secrets.push({ label: 'member access token', value: t.access_token }, { label: 'member refresh token', value: t.refresh_token });
      member = { access: t.access_token, org: await orgId(b.server.db, 'Acme Plumbing') };
    });

    /**
     * Runs the flood and, while it is in flight, the member's work (their profile and the customer list,
     * one after another from their own address): at least `least` requests, and on until the flood is answered.
     */
    async function whileFlooding(flood: () => Promise<Reply>[], least = 10): Promise<{ flood: Reply[]; work: Reply[] }> {
      const own = client(b.server.url, newAddress());
      let done = false;
      const flooded = Promise.all(flood()).finally(() => (done = true));
      const work: Reply[] = [];
      while (!done || work.length < least) {
        work.push(await own.me(member.access, member.org));
        work.push(await own.get(`/api/v1/customers/?page_size=5`, { Authorization: `Bearer ${member.access}`, 'X-Organization-ID': String(member.org) }));
      }
      return { flood: keep(await flooded), work: keep(work) };
    }

    const throttle = async (address: string) => {
      const from = client(b.server.url, address);
      for (let i = 0; i < MAX_FAILURES_PER_ADDRESS; i++) keep([await from.login(`stranger${i}@test.example`, 'wrong')]);
      expect((await from.login('solo@demo.test')).status).toBe(429);
      return from;
    };

    test('D35 700 concurrent wrong-password logins from a throttled address: all refused, the member works on, a correct login elsewhere succeeds', async () => {
      const attacker = await throttle(newAddress());
      const { flood, work } = await whileFlooding(() => Array.from({ length: FLOOD }, (_, i) => attacker.login(`victim${i % 7}@test.example`, 'wrong')));
      expect(count(flood, 429)).toBe(FLOOD);
      expect(work.filter((r) => r.status < 200 || r.status > 299).map((r) => `${r.status} ${r.text}`)).toEqual([]);
      expect((await client(b.server.url).login('viewer@demo.test')).status).toBe(200);
    });

    test('D35 700 concurrent refreshes with made-up tokens: at most the budget reaches the database, the member works on', async () => {
      const attacker = client(b.server.url, newAddress());
      const before = scryptLoad();
      const { flood, work } = await whileFlooding(() => Array.from({ length: FLOOD }, () => attacker.refresh(randomToken())));
      const failed = count(flood, 401);
      // D2: on a busy machine an admitted refresh may wait past the database queue's deadline and be refused
      // unrun (503 server_busy); it reached the gate, so it counts against the budget like a failure.
      const busy = flood.filter((r) => r.status === 503 && r.body.code === 'server_busy' && r.headers.get('retry-after') === '1').length;
      const tally: Record<number, number> = {};
      for (const r of flood) tally[r.status] = (tally[r.status] ?? 0) + 1;
      expect(
        Object.keys(tally).filter((s) => !['401', '429', '503'].includes(s)),
        JSON.stringify({ tally, sample: flood.find((r) => r.status >= 500)?.text }),
      ).toEqual([]);
      expect(busy).toBe(count(flood, 503));
      expect(failed + busy).toBeGreaterThan(0);
      expect(failed + busy).toBeLessThanOrEqual(MAX_FAILURES_PER_ADDRESS + MAX_IN_FLIGHT.refresh[0]);
      expect(count(flood, 429)).toBe(FLOOD - failed - busy);
      expect(work.filter((r) => r.status < 200 || r.status > 299).map((r) => `${r.status} ${r.text}`)).toEqual([]);
      expect(scryptLoad().refused).toEqual(before.refused);
      const other = tokens(await client(b.server.url).login('viewer@demo.test'));
      expect((await client(b.server.url).refresh(other.refresh_token)).status).toBe(200);
      // Once throttled, a second flood from that address reaches nothing at all.
      while ((await attacker.refresh(randomToken())).status !== 429);
      const again = keep(await Promise.all(Array.from({ length: FLOOD }, () => attacker.refresh(randomToken()))));
      expect(count(again, 429)).toBe(FLOOD);
    });

    test('D36 five wrong passwords for viewer@demo.test: a browser holding her device token still signs in, an unknown client waits', async () => {
      const browser = client(b.server.url, newAddress());
      const first = await browser.login('viewer@demo.test');
      const device = String(first.body.device_token);
      secrets.push({ label: 'viewer device token', value: device });
      b.clock.advance(1000); // the attack comes after her last sign-in
      const attacker = client(b.server.url, newAddress());
      for (let i = 0; i < 5; i++) expect((await attacker.login('viewer@demo.test', 'wrong')).status).toBe(401);
      const held = await browser.login('viewer@demo.test', DEMO_PASSWORD, { device_token: device });
      expect(held.status).toBe(200);
      const unknown = await client(b.server.url, newAddress()).login('viewer@demo.test');
      expect(unknown.status).toBe(429);
      expect(Number(unknown.headers.get('retry-after'))).toBeGreaterThan(0);
      keep([held, unknown]);
    });

    test('D36 a page of 55 made-up invitation links does not block the logins of that address', async () => {
      const office = client(b.server.url, newAddress());
      const looks = keep(await Promise.all(Array.from({ length: 55 }, () => office.get(`/api/v1/invitations/${randomToken()}/`))));
      expect(count(looks, 404) + count(looks, 429)).toBe(55);
      expect(count(looks, 404)).toBeLessThanOrEqual(MAX_FAILURES_PER_ADDRESS);
      expect((await office.login('solo@demo.test')).status).toBe(200);
    });

    test('D37 the access log shows /invite/[redacted], never the token', async () => {
      const token = randomToken();
      secrets.push({ label: 'invitation token in a page path', value: token });
      await client(b.server.url).get(`/invite/${token}`);
      await client(b.server.url).get(`/api/v1/invitations/${token}/`);
      expect(b.server.logs.some((l) => / GET \/invite\/\[redacted\] \d{3} /.test(l))).toBe(true);
      expect(b.server.logs.filter((l) => l.includes(token))).toEqual([]);
    });

    test('D35 more than 32 waiting for password hashing: each further login is 503 server_busy, counted; then logins work again', async () => {
      hashingWait.ms = 10 * 60_000; // held on purpose while the logins are made
      const before = scryptLoad().refused.queue_full;
      const held = holdHashing(MAX_CONCURRENT_SCRYPT + MAX_WAITING_SCRYPT);
      let refused: Reply[];
      try {
        refused = keep(await Promise.all(Array.from({ length: 10 }, () => client(b.server.url).login('solo@demo.test'))));
      } finally {
        held.release();
        hashingWait.ms = SCRYPT_WAIT_MS;
      }
      expect(await held.settled).toEqual(Array<string>(MAX_CONCURRENT_SCRYPT + MAX_WAITING_SCRYPT).fill('ran'));
      expect(refused.map((r) => `${r.status} ${String(r.body.code)} ${r.headers.get('retry-after')}`)).toEqual(Array<string>(10).fill('503 server_busy 1'));
      expect(scryptLoad().refused.queue_full - before).toBe(10);
      expect((await client(b.server.url).login('solo@demo.test')).status).toBe(200);
    });

    afterAll(async () => {
      if (!b) return;
      assertNoSecrets({
        logs: b.server.logs,
        bodies,
        auditRows: await auditRows(b.server.db),
        secrets: [...(await serverSecrets(b.server.db, await jwtSecretOf(b.server))), ...secrets],
      });
    });
  },
  { env: ENV },
);
