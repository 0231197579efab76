// D54 one-time codes of our own (RFC 6238 over RFC 4226, node:crypto only): RFC 6238's published
// vectors, base32 both ways, one step of drift each way and no more, and secrets sealed for one user.
import { describe, expect, test } from 'vitest';
import { ConfigError, loadConfig } from '../../server/config';
import { mfaKey, newRecoveryCodes, normalizeRecoveryCode, openSecret, sealSecret } from '../../server/auth/mfa-crypto';
import { base32Decode, base32Encode, hotp, matchingStep, otpauthUri, totpAt, totpStep } from '../../server/auth/totp';

/** RFC 6238 Appendix B: the SHA-1 rows (seed "12345678901234567890", 8 digits). */
const RFC6238_SHA1: [number, string][] = [
  [59, '94287082'],
  [1111111109, '07081804'],
  [1111111111, '14050471'],
  [1234567890, '89005924'],
  [2000000000, '69279037'],
  [20000000000, '65353130'],
];
const SEED = Buffer.from('12345678901234567890', 'ascii');

describe('D54 TOTP', () => {
  test.each(RFC6238_SHA1)('D54 RFC 6238 Appendix B, SHA-1, T = %i s → %s (8 digits)', (seconds, code) => {
    expect(totpAt(SEED, seconds * 1000, 8)).toBe(code);
  });

  test('D54 in use: 6 digits, the last six of the 8-digit code (RFC 4226 truncation), steps of 30 s', () => {
    for (const [seconds, code] of RFC6238_SHA1) expect(totpAt(SEED, seconds * 1000)).toBe(code.slice(2));
    expect(totpStep(59_000)).toBe(1);
    expect(totpStep(60_000)).toBe(2);
  });

  test('D54 RFC 4226 Appendix D: HOTP values for counters 0 to 9', () => {
    const expected = ['755224', '287082', '359152', '969429', '338314', '254676', '287922', '162583', '399871', '520489'];
    expect(expected.map((_, i) => hotp(SEED, i))).toEqual(expected);
  });

  test('D54 base32 (RFC 4648 vectors), read back as people type it', () => {
    const vectors: [string, string][] = [
      ['', ''],
      ['f', 'MY'],
      ['fo', 'MZXQ'],
      ['foo', 'MZXW6'],
      ['foob', 'MZXW6YQ'],
      ['fooba', 'MZXW6YTB'],
      ['foobar', 'MZXW6YTBOI'],
    ];
    for (const [plain, encoded] of vectors) {
      expect(base32Encode(Buffer.from(plain))).toBe(encoded);
      expect(base32Decode(encoded)?.toString()).toBe(plain);
    }
    expect(base32Decode('mzxw 6ytb oi======')?.toString()).toBe('foobar');
    expect(base32Decode('MZXW1')).toBeNull();
    expect(base32Encode(SEED)).toBe('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ');
  });

  test('D54 one step of drift each way is accepted (the step is named), two steps are refused', () => {
    const now = 1_700_000_000_000;
    const step = totpStep(now);
    const at = (delta: number) => totpAt(SEED, now + delta * 30_000);
    expect(matchingStep(SEED, at(0), now)).toBe(step);
    expect(matchingStep(SEED, at(-1), now)).toBe(step - 1);
    expect(matchingStep(SEED, at(1), now)).toBe(step + 1);
    expect(matchingStep(SEED, at(-2), now)).toBeNull();
    expect(matchingStep(SEED, at(2), now)).toBeNull();
    expect(matchingStep(SEED, ` ${at(0).slice(0, 3)} ${at(0).slice(3)} `, now)).toBe(step);
    for (const typed of ['', '12345', '1234567', 'abcdef', '１２３４５６']) expect(matchingStep(SEED, typed, now)).toBeNull();
  });

  test('D54 the otpauth address authenticator apps read', () => {
    expect(otpauthUri('CRM', 'a+b@example.com', 'ABC')).toBe('otpauth://totp/CRM:a%2Bb%40example.com?secret=ABC&issuer=CRM&digits=6&period=30');
  });
});

describe('D54 secrets at rest', () => {
  const key = mfaKey('j'.repeat(40), null);

  test('D54 a sealed secret opens for its user only, and not under another key', () => {
    const sealed = sealSecret(key, 7, SEED);
    expect(sealed).not.toContain(base32Encode(SEED));
    expect(openSecret(key, 7, sealed)).toEqual(SEED);
    expect(openSecret(key, 8, sealed)).toBeNull();
    expect(openSecret(mfaKey('j'.repeat(40), 'k'.repeat(40)), 7, sealed)).toBeNull();
    expect(openSecret(mfaKey('x'.repeat(40), null), 7, sealed)).toBeNull();
    expect(openSecret(key, 7, 'm1.AAAA')).toBeNull();
  });

  test('D54 ten recovery codes, all different, read back in any case and with or without the dash', () => {
    const codes = newRecoveryCodes();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const c of codes) expect(c).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    const first = codes[0]!;
    expect(normalizeRecoveryCode(` ${first.toUpperCase().replace('-', ' ')} `)).toBe(first.replace('-', ''));
    expect(normalizeRecoveryCode('abc')).toBeNull();
  });
});

describe('D54 the sealing key', () => {
  test('D54 MFA_KEY is read when set (at least 32 characters), else the key comes from the JWT secret', () => {
    expect(loadConfig({}).mfaKey).toBeNull();
    expect(loadConfig({ MFA_KEY: 'm'.repeat(32) }).mfaKey).toBe('m'.repeat(32));
    expect(() => loadConfig({ MFA_KEY: 'too-short' })).toThrow(ConfigError);
    expect(mfaKey('j'.repeat(40), null).equals(mfaKey('j'.repeat(40), 'm'.repeat(32)))).toBe(false);
    expect(mfaKey('j'.repeat(40), 'm'.repeat(32)).equals(mfaKey('x'.repeat(40), 'm'.repeat(32)))).toBe(true);
  });
});
