// D16: access tokens are HS256 JWTs (three dot-separated parts) with exp, sub and sid.
// Verification accepts exactly HS256: `alg: none` or any other algorithm is refused.
import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';

export interface AccessClaims {
  /** User id, as a string (RFC 7519 StringOrURI). */
  sub: string;
  /** Session id; the session must still be live for the token to count. */
  sid: number;
  iat: number;
  exp: number;
}

export type VerifyFailure = 'malformed' | 'bad_signature' | 'expired';
export type VerifyResult = { ok: true; claims: AccessClaims } | { ok: false; reason: VerifyFailure };

const MAX_TOKEN_CHARS = 4096;
/** users.id is a PostgreSQL integer. */
const MAX_USER_ID = 2_147_483_647;
const HEADER = { alg: 'HS256', typ: 'JWT' } as const;
const B64URL = /^[A-Za-z0-9_-]+$/;

const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
/** The header as we write it: a token carrying exactly this needs no decoding. */
const ENCODED_HEADER = encode(HEADER);
/** The secret imported as a key once, not on every request. */
let key: { secret: string; object: KeyObject } | null = null;
function keyOf(secret: string): KeyObject {
  if (key?.secret !== secret) key = { secret, object: createSecretKey(Buffer.from(secret)) };
  return key.object;
}
const sign = (input: string, secret: string) => createHmac('sha256', keyOf(secret)).update(input).digest();

export function signAccessToken(claims: AccessClaims, secret: string): string {
  const input = `${ENCODED_HEADER}.${encode(claims)}`;
  return `${input}.${sign(input, secret).toString('base64url')}`;
}

function decodeJson(part: string): unknown {
  try {
    return JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Tokens whose signature and claims were found good, with their claims: a client sends the same token
 * on every call until it refreshes, and checking it again would give the same answer. Only tokens that
 * passed are kept (nobody can add one without the key), the oldest out first; expiry is still checked
 * on every use, and the session's liveness by the caller's query, so logout stays immediate.
 */
const VERIFIED_MAX = 1024;
const verified = new Map<string, { secret: string; claims: AccessClaims }>();

/** Checks form, algorithm, signature and expiry. Never throws, whatever the input. */
export function verifyAccessToken(token: string, secret: string, nowS: number): VerifyResult {
  const known = verified.get(token);
  if (known && known.secret === secret) return nowS >= known.claims.exp ? { ok: false, reason: 'expired' } : { ok: true, claims: known.claims };
  const result = verifyAnew(token, secret, nowS);
  if (result.ok) {
    if (verified.size >= VERIFIED_MAX) verified.delete(verified.keys().next().value as string);
    verified.set(token, { secret, claims: result.claims });
  }
  return result;
}

function verifyAnew(token: string, secret: string, nowS: number): VerifyResult {
  if (token.length > MAX_TOKEN_CHARS) return { ok: false, reason: 'malformed' };
  const parts = token.split('.');
  if (parts.length !== 3 || !parts.every((p) => B64URL.test(p))) return { ok: false, reason: 'malformed' };
  const [h, p, s] = parts as [string, string, string];
  const header = h === ENCODED_HEADER ? HEADER : decodeJson(h);
  if (!isObject(header) || header.alg !== HEADER.alg || (header.typ !== undefined && header.typ !== HEADER.typ) || 'crit' in header) {
    return { ok: false, reason: 'malformed' };
  }
  // Compared as text, in constant time: decoded bytes would also accept other spellings of the signature
  // (the spare low bits of its last character), and a token counts only exactly as we wrote it.
  const expected = Buffer.from(sign(`${h}.${p}`, secret).toString('base64url'));
  const given = Buffer.from(s);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'bad_signature' };
  const payload = decodeJson(p);
  if (!isObject(payload)) return { ok: false, reason: 'malformed' };
  const { sub, sid, iat, exp } = payload;
  // Claims name database rows: out of their columns' ranges is as invalid as the wrong type (never a 500).
  if (typeof sub !== 'string' || !/^[1-9]\d{0,9}$/.test(sub) || Number(sub) > MAX_USER_ID) return { ok: false, reason: 'malformed' };
  if (typeof sid !== 'number' || !Number.isSafeInteger(sid) || sid < 1) return { ok: false, reason: 'malformed' };
  if (typeof exp !== 'number' || !Number.isFinite(exp) || typeof iat !== 'number' || !Number.isFinite(iat)) {
    return { ok: false, reason: 'malformed' };
  }
  if (nowS >= exp) return { ok: false, reason: 'expired' };
  return { ok: true, claims: { sub, sid, iat, exp } };
}
