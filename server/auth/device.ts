// D36 device tokens (OWASP's "device cookies"): after a successful login the browser gets a token that
// names the user and a random id, signed (HMAC-SHA256) with a key derived from the JWT secret. It is not a
// session and opens nothing by itself; it only says "this browser signed in as this person before", so
// the failures someone else causes for that email do not lock this browser out (routes.ts).
// Form: d1.<user id>.<random id>.<signature>; the signature also covers the email the login used, so a
// token is valid only for that email (checked without the database) and stops working if it changes.
import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import { emailKey } from './throttle';

const VERSION = 'd1';
const KEY_INFO = 'crm device token v1';
const ID_BYTES = 16;
const FORM = /^d1\.([1-9]\d{0,15})\.([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/;
/** Longer than any token this server makes; the login route refuses longer values. */
export const MAX_DEVICE_TOKEN_CHARS = 128;

export interface Device {
  userId: number;
  /** The random id: failures of this browser are counted under it (D36). */
  id: string;
}

const keys = new Map<string, Buffer>();
/** A key of its own, derived from the JWT secret (HKDF), so a device token can never pass as a JWT. */
function deviceKey(secret: string): Buffer {
  let key = keys.get(secret);
  if (!key) keys.set(secret, (key = Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), KEY_INFO, 32))));
  return key;
}

const sign = (secret: string, userId: number, id: string, email: string) =>
  createHmac('sha256', deviceKey(secret))
    .update(`${VERSION}.${userId}.${id}.${emailKey(email)}`)
    .digest();

/** D36: a new device token for this user, who just signed in with this email. */
export function issueDeviceToken(secret: string, userId: number, email: string): string {
  const id = randomBytes(ID_BYTES).toString('base64url');
  return `${VERSION}.${userId}.${id}.${sign(secret, userId, id, email).toString('base64url')}`;
}

/** D36 D54: the token of a device already known (its random id), as issued to it: a login finished by its second step keeps it. */
export function deviceTokenFor(secret: string, userId: number, id: string, email: string): string {
  return `${VERSION}.${userId}.${id}.${sign(secret, userId, id, email).toString('base64url')}`;
}

/** The device a token names when it is genuine and was given for this email; null otherwise. */
export function verifyDeviceToken(secret: string, token: string | undefined, email: string): Device | null {
  const m = token === undefined ? null : FORM.exec(token);
  if (!m) return null;
  const userId = Number(m[1]);
  const id = m[2]!;
  const given = Buffer.from(m[3]!, 'base64url');
  const expected = sign(secret, userId, id, email);
  return given.length === expected.length && timingSafeEqual(given, expected) ? { userId, id } : null;
}
