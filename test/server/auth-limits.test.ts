// D35 the pieces on their own: the in-memory address limiter and the bounds of password hashing. Time is
// moved by hand (fake timers, a clock argument); nothing here measures the machine.
import { afterEach, describe, expect, test, vi } from 'vitest';
import { AddressLimiter } from '../../server/auth/limiter';
import { MAX_CONCURRENT_SCRYPT, MAX_SCRYPT_PER_ADDRESS, MAX_WAITING_SCRYPT, SCRYPT_WAIT_MS, scryptLoad } from '../../server/auth/passwords';
import { issueDeviceToken, verifyDeviceToken } from '../../server/auth/device';
import { holdHashing } from './hashing';
import { loggablePath } from '../../server/app';
import { SECRET_PATH_PREFIXES, unredactedSecretPaths } from '../../contract/secret-paths';

describe('D35 the address limiter', () => {
  const limits = { maxFailures: 3, windowMs: 60_000, maxInFlight: 2, maxInFlightAfterFailure: 2 };

  test('D35 refuses an address once it has maxFailures within the window, until the oldest leaves it', () => {
    const l = new AddressLimiter(limits);
    for (const t of [0, 10_000, 20_000]) l.fail('a', t);
    expect(l.admit('a', 30_000)).toEqual({ kind: 'refused', reason: 'throttled', retryAfterS: 30 });
    expect(l.admit('b', 30_000).kind).toBe('admitted'); // another address is unaffected
    expect(l.admit('a', 60_001).kind).toBe('admitted');
  });

  test('D35 refuses a third call in flight from one address at once with Retry-After 1, and admits again after one leaves', () => {
    const l = new AddressLimiter(limits);
    const first = l.admit('a', 0);
    const second = l.admit('a', 0);
    expect(l.admit('a', 0)).toEqual({ kind: 'refused', reason: 'in_flight', retryAfterS: 1 });
    if (first.kind !== 'admitted' || second.kind !== 'admitted') throw new Error('not admitted');
    first.leave();
    first.leave(); // leaving twice frees one place only
    expect(l.admit('a', 0).kind).toBe('admitted');
    expect(l.admit('a', 0).kind).toBe('refused');
  });

  test('D35 an address that has failed gets fewer calls in flight', () => {
    const l = new AddressLimiter({ ...limits, maxInFlight: 3, maxInFlightAfterFailure: 1 });
    expect([l.admit('a', 0), l.admit('a', 0), l.admit('a', 0), l.admit('a', 0)].map((a) => a.kind)).toEqual(['admitted', 'admitted', 'admitted', 'refused']);
    l.fail('b', 0);
    expect([l.admit('b', 0), l.admit('b', 0)].map((a) => a.kind)).toEqual(['admitted', 'refused']);
  });

  test('D36 a caller that proves its session keeps the full cap in flight on an address that has failed', () => {
    const l = new AddressLimiter({ ...limits, maxInFlight: 3, maxInFlightAfterFailure: 1 });
    l.fail('a', 0);
    expect([l.admit('a', 0, true), l.admit('a', 0, true), l.admit('a', 0, true), l.admit('a', 0, true)].map((a) => a.kind)).toEqual([
      'admitted',
      'admitted',
      'admitted',
      'refused',
    ]);
    expect(l.admit('a', 0).kind).toBe('refused'); // an unknown caller is held to the smaller cap
    const b = new AddressLimiter({ ...limits, maxInFlight: 3, maxInFlightAfterFailure: 1 });
    b.fail('b', 0);
    b.admit('b', 0, true);
    expect(b.peek('b', 0, false)).toMatchObject({ reason: 'in_flight' });
    expect(b.peek('b', 0, true)).toBeNull();
    expect(b.peek('b', 0, 'whatever')).toBeNull(); // a refusal only when it holds for a known caller too
  });

  test('D35 learns a block from the database; D36 a known device is not held back by its address', () => {
    const l = new AddressLimiter(limits);
    l.block('a', 45_000);
    expect(l.admit('a', 0)).toMatchObject({ kind: 'refused', retryAfterS: 45 });
    expect(l.admit('a', 0, true).kind).toBe('admitted');
  });

  test('D35 peek tells the refusal admit would give without counting anything; a login whose device token is unknown yet only for too many in flight', () => {
    const l = new AddressLimiter(limits);
    expect(l.peek('a', 0, false)).toBeNull();
    expect(l.size).toBe(0); // an unknown address is not remembered by looking
    const first = l.admit('a', 0);
    expect(l.peek('a', 0, 'whatever')).toBeNull();
    const second = l.admit('a', 0);
    expect(l.peek('a', 0, 'whatever')).toEqual({ kind: 'refused', reason: 'in_flight', retryAfterS: 1 });
    expect(l.peek('a', 0, true)).toEqual(l.admit('a', 0, true));
    if (first.kind !== 'admitted' || second.kind !== 'admitted') throw new Error('not admitted');
    first.leave();
    second.leave();
    for (const t of [0, 10_000, 20_000]) l.fail('a', t);
    expect(l.peek('a', 30_000, false)).toEqual({ kind: 'refused', reason: 'throttled', retryAfterS: 30 });
    expect(l.peek('a', 30_000, 'whatever')).toBeNull(); // a device token in the body may pass (D36)
    expect(l.peek('a', 30_000, true)).toBeNull();
    expect(l.admit('a', 30_000, true).kind).toBe('admitted'); // peeking took no place
    expect(l.admit('a', 30_000, true).kind).toBe('admitted');
  });

  test('D35 remembers a bounded number of addresses, never dropping one with a call in flight', () => {
    const l = new AddressLimiter(limits, 100);
    const busy = l.admit('busy', 0);
    for (let i = 0; i < 1000; i++) l.fail(`x${i}`, 0);
    expect(l.size).toBeLessThanOrEqual(101);
    expect(busy.kind).toBe('admitted');
    expect(l.admit('busy', 0).kind).toBe('admitted');
    expect(l.admit('busy', 0)).toMatchObject({ reason: 'in_flight' });
  });
});

describe('D35 password hashing is bounded', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  test('D35 at most 2 run, at most 32 wait, and one more is refused at once (queue_full)', async () => {
    const before = scryptLoad().refused.queue_full;
    const held = holdHashing(MAX_CONCURRENT_SCRYPT + MAX_WAITING_SCRYPT + 3);
    expect(scryptLoad()).toMatchObject({ running: MAX_CONCURRENT_SCRYPT, waiting: MAX_WAITING_SCRYPT });
    held.release();
    const results = await held.settled;
    expect(results.filter((r) => r === 'ran')).toHaveLength(MAX_CONCURRENT_SCRYPT + MAX_WAITING_SCRYPT);
    expect(results.filter((r) => r === 'queue_full')).toHaveLength(3);
    expect(scryptLoad().refused.queue_full - before).toBe(3);
    expect(scryptLoad()).toMatchObject({ running: 0, waiting: 0 });
  });

  test('D35 a waiting one gives up after 5 s (waited_too_long); those running are not cut short', async () => {
    vi.useFakeTimers();
    const held = holdHashing(MAX_CONCURRENT_SCRYPT + 4);
    vi.advanceTimersByTime(SCRYPT_WAIT_MS - 1);
    expect(scryptLoad().waiting).toBe(4);
    vi.advanceTimersByTime(1);
    expect(scryptLoad().waiting).toBe(0);
    held.release();
    expect((await held.settled).sort()).toEqual([...Array<string>(MAX_CONCURRENT_SCRYPT).fill('ran'), ...Array<string>(4).fill('waited_too_long')].sort());
  });

  test('D35 one address has at most 2 running or waiting; other addresses still get their turn', async () => {
    const mine = holdHashing(MAX_SCRYPT_PER_ADDRESS + 2, 'a');
    const other = holdHashing(1, 'b');
    expect(scryptLoad().running + scryptLoad().waiting).toBe(MAX_SCRYPT_PER_ADDRESS + 1);
    mine.release();
    other.release();
    expect(await mine.settled).toEqual(['ran', 'ran', 'address', 'address']);
    expect(await other.settled).toEqual(['ran']);
  });
});

describe('D36 device tokens', () => {
  const secret = 'x'.repeat(40);

  test('D36 a device token names the user and a random id, and is valid only for its email and key', () => {
    const token = issueDeviceToken(secret, 7, 'Viewer@Demo.test');
    expect(verifyDeviceToken(secret, token, ' viewer@demo.TEST')).toEqual({ userId: 7, id: token.split('.')[2] });
    expect(verifyDeviceToken(secret, token, 'owner@demo.test')).toBeNull();
    expect(verifyDeviceToken('y'.repeat(40), token, 'viewer@demo.test')).toBeNull();
    expect(verifyDeviceToken(secret, token.replace('d1.7.', 'd1.8.'), 'viewer@demo.test')).toBeNull();
    expect(verifyDeviceToken(secret, `${token.slice(0, -2)}AA`, 'viewer@demo.test')).toBeNull();
    expect(verifyDeviceToken(secret, undefined, 'viewer@demo.test')).toBeNull();
    expect(issueDeviceToken(secret, 7, 'viewer@demo.test')).not.toBe(token); // a random id each time
    expect(token.split('.')).toHaveLength(4); // never three parts: it cannot pass for a JWT
  });
});

describe('D37 secret paths in the log', () => {
  const token = 'QTGJx9w2b6Yq0mZpL3vE7rT1kN8sH4dF5gJ2aC0vE7';

  test('D37 loggablePath writes every listed secret segment as [redacted], also one the length limit cuts', () => {
    expect(SECRET_PATH_PREFIXES).toEqual(['/invite/', '/v1/invitations/', '/reset/', '/v1/password-resets/']);
    expect(loggablePath(`/api/v1/password-resets/${token}/`)).toBe('/api/v1/password-resets/[redacted]/');
    expect(loggablePath(`/invite/${token}`)).toBe('/invite/[redacted]');
    expect(loggablePath(`/api/v1/invitations/${token}/accept/`)).toBe('/api/v1/invitations/[redacted]/accept/');
    expect(loggablePath(`/reset/${token}`)).toBe('/reset/[redacted]');
    expect(loggablePath(`/api/v1/password-resets/${token}/`)).toBe('/api/v1/password-resets/[redacted]/'); // D53
    expect(loggablePath('/api/v1/team/invitations/12/')).toBe('/api/v1/team/invitations/12/');
    for (let pad = 180; pad < 200; pad++) {
      const shown = loggablePath(`/${'a'.repeat(pad)}/invite/${token}`);
      expect(shown).not.toContain(token.slice(0, 4));
      expect(unredactedSecretPaths(shown)).toEqual([]);
    }
  });
});
