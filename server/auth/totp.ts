// D54 time-based one-time codes (RFC 6238 over RFC 4226's HOTP): HMAC-SHA1, 30-second steps, 6 digits,
// one step of drift each way. Secrets are written in base32 (RFC 4648, no padding), as authenticator
// apps expect them. Pure functions: the store (mfa.ts) decides which step may still be used (replay).
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const TOTP_PERIOD_S = 30;
export const TOTP_DIGITS = 6;
/** D54: steps accepted either side of now (a phone's clock a little off). */
export const TOTP_DRIFT_STEPS = 1;
/** 160 bits, RFC 4226's recommended secret length. */
export const TOTP_SECRET_BYTES = 20;

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** RFC 4648 base32, upper case, without padding. */
export function base32Encode(bytes: Uint8Array): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
    value &= (1 << bits) - 1;
  }
  if (bits > 0) out += ALPHABET[(value << (5 - bits)) & 31];
  return out;
}

/** Base32 as people type it (any case, spaces, padding); null for anything else. */
export function base32Decode(text: string): Buffer | null {
  const clean = text.replace(/[\s=]/g, '').toUpperCase();
  const out: number[] = [];
  let bits = 0;
  let value = 0;
  for (const ch of clean) {
    const index = ALPHABET.indexOf(ch);
    if (index < 0) return null;
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
    value &= (1 << bits) - 1;
  }
  return Buffer.from(out);
}

/** A new random secret. */
export const newTotpSecret = (): Buffer => randomBytes(TOTP_SECRET_BYTES);

/** RFC 4226 HOTP: the code for one counter value, `digits` long with leading zeros. */
export function hotp(secret: Uint8Array, counter: number, digits = TOTP_DIGITS): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac('sha1', secret).update(message).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const binary = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 10 ** digits).padStart(digits, '0');
}

/** RFC 6238: the time step a moment falls in. */
export const totpStep = (nowMs: number): number => Math.floor(nowMs / 1000 / TOTP_PERIOD_S);

/** RFC 6238: the code at a moment. */
export const totpAt = (secret: Uint8Array, nowMs: number, digits = TOTP_DIGITS): string => hotp(secret, totpStep(nowMs), digits);

/** A code as people type it: digits only once spaces are gone; null when it cannot be one. */
export function normalizeCode(code: string): string | null {
  const digits = code.replace(/\s/g, '');
  return new RegExp(`^\\d{${TOTP_DIGITS}}$`).test(digits) ? digits : null;
}

/**
 * D54: the step whose code this is, within one step of now either way (now's first), or null. Compared in
 * constant time. Whether that step was used already is the caller's question (replay, mfa.ts).
 */
export function matchingStep(secret: Uint8Array, code: string, nowMs: number): number | null {
  const typed = normalizeCode(code);
  if (typed === null) return null;
  const now = totpStep(nowMs);
  let found: number | null = null;
  for (const delta of [0, -TOTP_DRIFT_STEPS, TOTP_DRIFT_STEPS]) {
    const expected = Buffer.from(hotp(secret, now + delta));
    if (timingSafeEqual(expected, Buffer.from(typed)) && found === null) found = now + delta;
  }
  return found;
}

/** The address an authenticator app reads from the QR code (Key Uri Format). */
export function otpauthUri(product: string, email: string, secretBase32: string): string {
  const label = `${encodeURIComponent(product)}:${encodeURIComponent(email)}`;
  return `otpauth://totp/${label}?secret=${secretBase32}&issuer=${encodeURIComponent(product)}&digits=${TOTP_DIGITS}&period=${TOTP_PERIOD_S}`;
}
