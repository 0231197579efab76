// D34: the database gate serves keys (organizations, users, anon) in turn; a full queue of one key is a
// 429 that delays no other; one key holds at most its share of slots. Order and counts, never durations.
import { describe, expect, test } from 'vitest';
import { mayWrite } from '../../server/db-share';
import { DB_KEY_QUEUE_LIMIT, DbGate } from '../../server/db-gate';
import { FairShareError, SaturatedError } from '../../server/db-gate-types';
import { currentGateKey, setGateKey, withGateKey } from '../../server/gate-key';
import { untilReleased } from './until-released';

describe('D34 the fair gate', () => {
  test('D34 free slots go to the waiting keys in turn, not in arrival order', async () => {
    const gate = new DbGate({ slots: 1 });
    const hold = untilReleased();
    const first = gate.run(() => hold.done, 'org:1');
    const order: string[] = [];
    const ops = [
      ...Array.from({ length: 4 }, (_, i) => gate.run(async () => void order.push(`a${i}`), 'org:1')),
      ...Array.from({ length: 2 }, (_, i) => gate.run(async () => void order.push(`b${i}`), 'org:2')),
      gate.run(async () => void order.push('anon'), 'anon'),
    ];
    expect(gate.stats()).toMatchObject({ running: 1, queued: 7, queues: 3 });
    hold.release();
    await Promise.all([first, ...ops]);
    // org:1 had four waiting before org:2 and anon arrived; each key still gets the next turn.
    expect(order).toEqual(['a0', 'b0', 'anon', 'a1', 'b1', 'a2', 'a3']);
  });

  test('D34 a key whose own queue is full is refused at once (FairShareError), and another key is not', async () => {
    const gate = new DbGate({ slots: 1, keyQueueLimit: 3 });
    const hold = untilReleased();
    void gate.run(() => hold.done, 'org:1'); // holds the one slot
    const queued = Array.from({ length: 3 }, () => gate.run(async () => 'a', 'org:1'));
    const refused = await gate.run(async () => 'never', 'org:1').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(FairShareError);
    expect(refused).toMatchObject({ key: 'org:1' });
    const other = gate.run(async () => 'b', 'org:2'); // queued, not refused: org:1's queue is not its own
    expect(gate.stats()).toMatchObject({ queued: 4, limited: 1, refused: 0 });
    hold.release();
    expect(await Promise.all([...queued, other])).toEqual(['a', 'a', 'a', 'b']);
  });

  test('D2 all keys together past the global limit are refused with SaturatedError (503), as before', async () => {
    const gate = new DbGate({ slots: 1, queueLimit: 4, keyQueueLimit: 3 });
    const hold = untilReleased();
    const first = gate.run(() => hold.done, 'org:1');
    const queued = [gate.run(async () => 1, 'org:1'), gate.run(async () => 2, 'org:1'), gate.run(async () => 3, 'org:2'), gate.run(async () => 4, 'org:3')];
    expect(await gate.run(async () => 5, 'org:4').catch((e: unknown) => e)).toMatchObject({ reason: 'queue_full' });
    expect(await gate.run(async () => 5, 'org:4').catch((e: unknown) => e)).toBeInstanceOf(SaturatedError);
    hold.release();
    await Promise.all([first, ...queued]);
    expect(gate.stats()).toMatchObject({ refused: 2, limited: 0, queued: 0, queues: 0, running: 0 });
  });

  test('D34 one key holds at most its share of the slots; another key finds one free', async () => {
    const gate = new DbGate({ slots: 4, keySlots: 3 });
    const holds = Array.from({ length: 5 }, untilReleased);
    let running = 0;
    let most = 0;
    const heavy = holds.map((h) =>
      gate.run(async () => {
        most = Math.max(most, ++running);
        await h.done;
        running--;
      }, 'org:1'),
    );
    expect(gate.stats()).toMatchObject({ running: 3, queued: 2 }); // one slot stays free for others
    let otherRan = false;
    await gate.run(async () => void (otherRan = true), 'org:2'); // runs while org:1 is still held
    expect(otherRan).toBe(true);
    for (const h of holds) h.release();
    await Promise.all(heavy);
    expect(most).toBe(3);
  });

  test('D34 a waiter past its deadline leaves its key queue; the other keys are served', async () => {
    const gate = new DbGate({ slots: 1, queueTimeoutMs: 20 });
    const hold = untilReleased();
    const first = gate.run(() => hold.done, 'org:1');
    const late = gate.run(async () => 'late', 'org:2').catch((e: unknown) => e);
    expect(await late).toMatchObject({ reason: 'queue_timeout' });
    expect(gate.stats()).toMatchObject({ queued: 0, queues: 0 });
    hold.release();
    await first;
    expect(await gate.run(async () => 'next', 'org:2')).toBe('next');
  });

  test('D34 the key flows with the request: anon, then the user, then the organization; none outside a request', async () => {
    expect(currentGateKey()).toBe('system');
    const seen: string[] = [];
    await withGateKey(async () => {
      seen.push(currentGateKey());
      setGateKey('user:7');
      await Promise.resolve();
      seen.push(currentGateKey());
      setGateKey('org:3');
      await new Promise((resolve) => setTimeout(resolve, 1));
      seen.push(currentGateKey());
    });
    setGateKey('org:9'); // outside a request: nothing to name
    expect(seen).toEqual(['anon', 'user:7', 'org:3']);
    expect(currentGateKey()).toBe('system');
  });

  test('D34 the server default: 100 waiting per key', () => {
    expect(DB_KEY_QUEUE_LIMIT).toBe(200);
  });
});

describe('D34 which statements only read', () => {
  test('D34 only a statement that cannot write may share another transaction: select, or with … select without a changing clause (asked again, the same)', () => {
    const cases: [string, boolean][] = [
      ['select 1', false],
      ['  SELECT * from customers where org_id = $1', false],
      ['with page as (select id from customers) select json_agg(id) from page', false],
      ['WITH x AS (UPDATE sessions SET revoked_at = now() RETURNING id) SELECT * FROM x', true],
      ['with gone as (delete from customer_notes where id = $1 returning id) select count(*) from gone', true],
      ['with moved as (insert into audit_log (org_id) values ($1) returning id) select id from moved', true],
      ['with m as (select 1) merge into t using m on true when matched then do nothing', true],
      ['insert into customers (name) values ($1)', true],
      ['update customers set name = $1', true],
      ['delete from customers', true],
      ['select pg_advisory_xact_lock($1, $2)', false],
      // longer than mayWrite remembers (a bulk insert's text): scanned each time, the same verdicts
      [`with x as (select ${'a, '.repeat(6_000)}1) update t set a = 1`, true],
      [`with x as (select ${'a, '.repeat(6_000)}1) select * from x`, false],
    ];
    for (let round = 0; round < 2; round++) for (const [text, writes] of cases) expect(mayWrite(text), `${text} (round ${round})`).toBe(writes);
  });
});
