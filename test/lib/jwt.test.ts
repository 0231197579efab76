import { describe, expect, test } from 'vitest';
import { decodePayload, EXPIRY_LEEWAY_MS, expiresAt, isExpired, isWellFormed, subject } from '../../src/lib/jwt';
import { jwt } from '../helpers/fake-api';

describe('tokens', () => {
  test('SPEC §5 a token is well-formed only with three dot-separated parts', () => {
    expect(isWellFormed(jwt({ exp: 1 }))).toBe(true);
    for (const bad of [null, undefined, '', 'a.b', 'a.b.c.d', 'a..c', '.b.c', 'a b.c.d', 'not a token']) expect(isWellFormed(bad), String(bad)).toBe(false);
  });

  test('the expiry claim is read and garbage never throws', () => {
    const now = Date.now();
    expect(expiresAt(jwt({ exp: 2_000_000_000 }))).toBe(2_000_000_000_000);
    for (const g of ['a.b.c', 'x.!!!.y', 'a.' + btoa('{not json') + '.c', jwt({ exp: 'soon' }), jwt({}), 'a.' + btoa('[1]') + '.c', 'a.bnVsbA.c']) {
      expect(() => decodePayload(g)).not.toThrow();
      expect(expiresAt(g), g).toBeNull();
      expect(isExpired(g, now), g).toBe(true);
    }
  });

  test('D5 an access token less than 10 seconds from expiry counts as expired', () => {
    const now = 1_700_000_000_000;
    expect(EXPIRY_LEEWAY_MS).toBe(10_000);
    expect(isExpired(jwt({ exp: (now + 11_000) / 1000 }), now)).toBe(false);
    expect(isExpired(jwt({ exp: (now + 9_000) / 1000 }), now)).toBe(true);
    expect(isExpired(jwt({ exp: (now - 1_000) / 1000 }), now)).toBe(true);
  });

  test('the subject reads as a string whether sent as number or string', () => {
    expect(subject(jwt({ sub: 12 }))).toBe('12');
    expect(subject(jwt({ sub: 'u1' }))).toBe('u1');
    expect(subject('garbage')).toBeNull();
  });
});
