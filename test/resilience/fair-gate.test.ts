// D34 fair share at the database gate, on both databases: one member's heaviest reads (48 concurrent
// uncached searches, every one different, plus a 50-request burst) leave another organization's member
// answered (every request 2xx, none 429; a 503 only when one flood operation outlasted the 2 s deadline
// on a starved machine, asked again as the app does) and the health check answered; and a member naming
// another organization in X-Organization-ID waits in their own queue, so that organization's members
// never get its 429. Counts and order, never durations.
import { Agent } from 'node:http';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { currentGateKey, orgKey, userKey, withGateKey } from '../../server/gate-key';
import { DB_KEY_QUEUE_LIMIT, DbGate } from '../../server/db-gate';
import { forEachBackend, type Backend } from '../server/backends';
import { createUser, orgId, tokens } from '../server/helpers';
import { send, type Answer } from './send';
import { untilReleased } from '../server/until-released';

const FLOOD_ORG = 'Fair Gate Flood Co';
const FLOOD_CUSTOMERS = 20_000;
const SEARCHERS = 48;
const BURST = 50;
/** The other organization's member works one request at a time, as a person does. */
const VICTIM_REQUESTS = 12;
const HEALTH_CHECKS = 4;
const FRAGMENTS = ['ann', 'mar', 'son', 'ter', 'ell', 'kim', 'ray', 'lee', 'tom', 'ali', 'sam', 'eve'];

forEachBackend('D34 fair gate', (backend, label) => {
  let b: Backend;
  let agent: Agent;
  let flood: { token: string; org: number; userId: number };
  let victim: { token: string; org: number; userId: number };

  const call = (who: { token: string }, org: number, path: string, a = agent): Promise<Answer> =>
    send(b.server.port, a, { method: 'GET', path: `/api${path}`, headers: { Authorization: `Bearer ${who.token}`, 'X-Organization-ID': String(org) } });
  const health = () => send(b.server.port, new Agent({ keepAlive: false }), { method: 'GET', path: '/api/health/', headers: {} });

  beforeAll(async () => {
    b = backend();
    agent = new Agent({ keepAlive: true, maxSockets: 400 });
    const db = b.server.db;
    const [org] = await db.query<{ id: unknown }>('insert into organizations (name) values ($1) returning id', [FLOOD_ORG]);
    const floodOrg = Number(org?.id);
    // Set-up, bulk work: without the ordinary statement timeout, which a starved machine can pass (D34).
    await db.transaction(
      (tx) =>
        tx.query(
          `insert into customers (org_id, name, email)
       select $1::integer, (array['Anna', 'Mark', 'Sonja', 'Terry', 'Ellen', 'Kim', 'Ray', 'Lee', 'Tom', 'Alice', 'Sam', 'Eve'])[1 + g % 12] || ' ' ||
              (array['Johnson', 'Martinez', 'Hanson', 'Porter', 'Bell', 'Kimura', 'Murray', 'Leeds', 'Thomas', 'Ali', 'Samuels', 'Evans'])[1 + (g / 12) % 12] || ' ' || g,
              'c' || g || '@flood.example'
         from generate_series(1, $2::integer) as g`,
          [floodOrg, FLOOD_CUSTOMERS],
        ),
      { statementTimeoutMs: 0 },
    );
    await db.query('analyze customers');
    const member = await createUser(db, { memberships: [[FLOOD_ORG, 'member']] });
    flood = { token: tokens(await b.api.login(member.email, member.password)).access_token, org: floodOrg, userId: member.id };
    const [viewer] = await db.query<{ id: unknown }>("select id from users where email = 'viewer@demo.test'");
    victim = { token: tokens(await b.api.login('viewer@demo.test')).access_token, org: await orgId(db, 'Beacon Electric'), userId: Number(viewer?.id) };
  });
  afterAll(() => agent?.destroy());

  /**
   * Counts, at the gate itself, the flood's operations that start while one of the victim's waits for a
   * slot: the order the gate chose, whatever the machine's speed (an answer count would also hold the
   * flood's refusals, and its work on other connections while a slow victim request runs).
   */
  function countOvertakes(): { overtakes: () => number; restore: () => void } {
    const own = new Set([orgKey(victim.org), userKey(victim.userId)]);
    const flooding = new Set([orgKey(flood.org), userKey(flood.userId)]);
    const run = DbGate.prototype.run;
    let victimWaiting = 0;
    let overtakes = 0;
    const spy = vi.spyOn(DbGate.prototype, 'run').mockImplementation(function (this: DbGate, op, key = currentGateKey(), read) {
      if (flooding.has(key)) return run.call(this, () => ((overtakes += victimWaiting > 0 ? 1 : 0), op()), key, read);
      if (!own.has(key)) return run.call(this, op, key, read);
      victimWaiting += 1;
      let waiting = true;
      const stop = () => void (waiting && ((waiting = false), (victimWaiting -= 1)));
      const p = run.call(this, () => (stop(), op()), key, read);
      p.then(stop, stop); // answered without starting (a shared read, a refusal)
      return p;
    });
    return { overtakes: () => overtakes, restore: () => spy.mockRestore() };
  }

  test("D34 one member's 48 concurrent uncached searches and a 50-request burst: another organization's member gets every request answered 2xx, health answers", async () => {
    let searches = 0;
    let floodDone = false;
    const floodAnswers: Answer[] = [];
    const searcher = async (i: number) => {
      do {
        const n = searches++;
        const q = FRAGMENTS[(i + n) % FRAGMENTS.length];
        const a = await call(flood, flood.org, `/v1/customers/?q=${q}&page=${1 + n}&page_size=25&sort=-name`);
        floodAnswers.push(a);
      } while (!floodDone);
    };
    const burst = Array.from({ length: BURST }, (_, i) =>
      call(flood, flood.org, `/v1/customers/?page=${2 + i}&page_size=100`).then((a) => {
        floodAnswers.push(a);
      }),
    );
    const searching = Array.from({ length: SEARCHERS }, (_, i) => searcher(i));
    await expect.poll(() => b.server.db.queueStats().queued, { timeout: 20_000 }).toBeGreaterThan(SEARCHERS / 2);

    const victimAnswers: Answer[] = [];
    const overlap: number[] = [];
    const healthAnswers: Answer[] = [];
    const gate = countOvertakes();
    let victimBusy = 0;
    const victimPaths = ['/v1/customers/', '/v1/customers/?q=wir', '/v1/customers/?sort=-updated_at', '/v1/auth/me/', '/v1/dashboard/', '/v1/customers/?status=lead'];
    try {
      for (let i = 0; i < VICTIM_REQUESTS; i++) {
        const before = gate.overtakes();
        let answer = await call(victim, victim.org, victimPaths[i % victimPaths.length]!);
        // D2: on a starved machine one flood search can outlast the 2 s deadline while the victim's operation
        // is next in turn; it is refused unrun (503 server_busy, Retry-After) and the app asks again, as here.
        while (answer.status === 503 && answer.headers['retry-after'] === '1') {
          victimBusy += 1;
          answer = await call(victim, victim.org, victimPaths[i % victimPaths.length]!);
        }
        victimAnswers.push(answer);
        overlap.push(gate.overtakes() - before);
        if (i % (VICTIM_REQUESTS / HEALTH_CHECKS) === 0) healthAnswers.push(await health());
      }
    } finally {
      gate.restore();
    }
    const answeredWhileVictimWorked = floodAnswers.length;
    floodDone = true;
    await Promise.all([...searching, ...burst]);

    const statuses = (list: Answer[]) => list.reduce<Record<string, number>>((m, a) => ((m[a.status] = (m[a.status] ?? 0) + 1), m), {});
    console.log(
      `[fair gate ${label}] victim ${JSON.stringify(statuses(victimAnswers))} (${victimBusy} asked again after 503), flood operations started while each victim request waited ${overlap.join(' ')}, ` +
        `flood ${floodAnswers.length} answers ${JSON.stringify(statuses(floodAnswers))}, health ${JSON.stringify(statuses(healthAnswers))}, gate ${JSON.stringify(b.server.db.queueStats())}`,
    );
    expect(victimAnswers.map((a) => a.status).filter((s) => s < 200 || s > 299)).toEqual([]);
    expect(healthAnswers.map((a) => a.status)).toEqual(Array(HEALTH_CHECKS).fill(200));
    // The flood was still running when the victim was done: its searchers were answered after the victim's last.
    expect(floodAnswers.length).toBeGreaterThan(answeredWhileVictimWorked);
    expect(floodAnswers.length).toBeGreaterThanOrEqual(SEARCHERS + BURST);
    // In turn, not in line: a few of the flood's operations go before each of the victim's (PGlite: one
    // slot; PostgreSQL: the flood holds at most 6 of 10 connections); in one line each victim request
    // would wait for every searcher's waiting search (measured in one line: 48 to 58 of them).
    expect(Math.max(...overlap)).toBeLessThan(SEARCHERS / 2);
    // The flood's refusals are answers: 429 or 503 with Retry-After, never an error.
    for (const a of floodAnswers) {
      expect([200, 429, 503], a.text).toContain(a.status);
      if (a.status !== 200) expect(a.headers['retry-after']).toBeDefined();
    }
  }, 120_000);

  test("D34 a member naming another organization in X-Organization-ID waits in their own queue: that organization's members get no 429", async () => {
    const slots = b.server.db.queueStats().slots;
    const { done: released, release } = untilReleased();
    // Every slot held (each from a key of its own): everything below waits at the gate.
    const holds = Array.from({ length: slots }, (_, i) => withGateKey(() => b.server.db.transaction(() => released), `hold:${i}`));
    await expect.poll(() => b.server.db.queueStats().running).toBe(slots);
    const extra = 40;
    const limitedBefore = b.server.db.queueStats().limited;
    const attempts = Array.from({ length: DB_KEY_QUEUE_LIMIT + extra }, () => call(flood, victim.org, '/v1/customers/'));
    await expect.poll(() => b.server.db.queueStats().limited - limitedBefore, { timeout: 20_000 }).toBe(extra);
    const waiting = b.server.db.queueStats().waiting;
    expect(waiting[`user:${flood.userId}`]).toBe(DB_KEY_QUEUE_LIMIT);
    expect(waiting[`org:${victim.org}`]).toBeUndefined();
    const victims = Array.from({ length: 10 }, () => call(victim, victim.org, '/v1/customers/'));
    await expect.poll(() => b.server.db.queueStats().queued).toBeGreaterThan(DB_KEY_QUEUE_LIMIT);
    release();
    await Promise.all(holds);
    const attempted = await Promise.all(attempts);
    const victimAnswers = await Promise.all(victims);
    expect(victimAnswers.map((a) => a.status)).toEqual(Array(10).fill(200));
    const count = (s: number) => attempted.filter((a) => a.status === s).length;
    expect(count(429)).toBe(extra); // the attacker's own queue was full
    expect(count(403) + count(503)).toBe(DB_KEY_QUEUE_LIMIT); // not a member (or busy once they waited 2 s)
  }, 120_000);
});
