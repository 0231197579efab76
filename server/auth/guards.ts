// D35: the in-memory limiters of one running server (one per kind of call) and the answers they give.
// Kept per Ctx, so every server in a process (the tests start many) has its own.
import type { IncomingMessage } from 'node:http';
import type { Ctx } from '../context';
import { clientAddress, HttpError } from '../http';
import { AddressLimiter, type LimitedCall } from './limiter';
import { verifyAccessToken } from './jwt';
import { HashingBusyError, MAX_SCRYPT_PER_ADDRESS } from './passwords';
import { MAX_SESSION_AGE_MS } from './sessions';
import { clientKey } from './throttle';

/**
 * D35: calls from one address worked on at once: [an address without failures, one with failures in the
 * window]. A login holds a password check, of which one address has at most MAX_SCRYPT_PER_ADDRESS;
 * refreshes and invitation look-ups are a query or two each, and an office's many tabs share an address.
 */
export const MAX_IN_FLIGHT: Record<LimitedCall, readonly [number, number]> = {
  login: [MAX_SCRYPT_PER_ADDRESS, MAX_SCRYPT_PER_ADDRESS],
  refresh: [32, 2],
  invitation: [8, 2],
};

const limiters = new WeakMap<Ctx, Record<LimitedCall, AddressLimiter>>();

/** This server's limiter for one kind of call; failures allowed per address as D18's per-client limit. */
export function limiterOf(ctx: Ctx, call: LimitedCall): AddressLimiter {
  let mine = limiters.get(ctx);
  if (!mine) {
    const make = (c: LimitedCall) =>
      new AddressLimiter({
        maxFailures: ctx.config.throttle.maxFailuresPerClient,
        windowMs: ctx.config.throttle.windowS * 1000,
        maxInFlight: MAX_IN_FLIGHT[c][0],
        maxInFlightAfterFailure: MAX_IN_FLIGHT[c][1],
      });
    mine = { login: make('login'), refresh: make('refresh'), invitation: make('invitation') };
    limiters.set(ctx, mine);
  }
  return mine[call];
}

/** SPEC §7 / D18: the login 429 (code too_many_attempts, Retry-After in seconds); the others say what they limit. */
export function tooMany(call: LimitedCall, retryAfterS: number, reason: 'throttled' | 'in_flight'): HttpError {
  const what = { login: 'logins', refresh: 'refreshes', invitation: 'invitation look-ups' }[call];
  const detail =
    reason === 'throttled'
      ? call === 'login'
        ? `Too many failed logins; try again in ${retryAfterS} s`
        : `Too many failed ${what}; try again in ${retryAfterS} s`
      : `Too many ${what} at once from this address; try again in ${retryAfterS} s`;
  return new HttpError(429, 'too_many_attempts', detail, { 'Retry-After': String(retryAfterS) });
}

export interface Admitted {
  /** The caller's address as throttling counts it (clientKey). */
  address: string;
  limiter: AddressLimiter;
}

/**
 * D35: runs fn when the address may make this call now, refusing with 429 before any database work
 * otherwise. `ignoreFailures`: D36, a known device is not held back by its address's failures.
 */
export async function admitted<T>(ctx: Ctx, req: IncomingMessage, call: LimitedCall, fn: (a: Admitted) => Promise<T>, ignoreFailures = false): Promise<T> {
  const address = clientKey(clientAddress(req, ctx.config.trustProxy));
  const limiter = limiterOf(ctx, call);
  const admission = limiter.admit(address, ctx.now(), ignoreFailures);
  if (admission.kind === 'refused') throw tooMany(call, admission.retryAfterS, admission.reason);
  try {
    return await fn({ address, limiter });
  } finally {
    admission.leave();
  }
}

/**
 * D35: the refusal admitted() will give, known before the body is read; null when it may admit or when
 * the answer depends on the body (`ignoreFailures` 'whatever': a login's device token is in its body).
 */
export function refusedEarly(ctx: Ctx, req: IncomingMessage, call: LimitedCall, ignoreFailures: boolean | 'whatever'): HttpError | null {
  const address = clientKey(clientAddress(req, ctx.config.trustProxy));
  const refusal = limiterOf(ctx, call).peek(address, ctx.now(), ignoreFailures);
  return refusal && tooMany(call, refusal.retryAfterS, refusal.reason);
}

/** D36: failed refreshes a known session may make within the window before its address's block holds it too. */
export const MAX_FAILURES_PER_KNOWN_SESSION = 5;

/**
 * D36 for refresh: the session a refresh's bearer token (the app sends its access token, expired or
 * not) proves the caller had, checked without the database; null for none or one we did not sign.
 * Such a caller is not held back by its address's failed refreshes (someone else's made-up tokens
 * from an office's shared address), only by its own.
 */
export function knownSession(ctx: Ctx, req: IncomingMessage): string | null {
  const bearer = /^Bearer ([^\s]+)$/.exec(req.headers.authorization ?? '')?.[1];
  if (!bearer) return null;
  const verified = verifyAccessToken(bearer, ctx.jwtSecret, 0); // signature and form; its age is checked below
  if (!verified.ok || verified.claims.iat * 1000 < ctx.now() - MAX_SESSION_AGE_MS) return null;
  const key = `session:${verified.claims.sid}`;
  return limiterOf(ctx, 'refresh').failuresOf(key, ctx.now()) < MAX_FAILURES_PER_KNOWN_SESSION ? key : null;
}

/** D35: a refused password check as an answer: the address's share is 429, a full or slow queue 503. */
export function hashingRefusal(err: unknown, call: LimitedCall): HttpError | null {
  if (!(err instanceof HashingBusyError)) return null;
  if (err.reason === 'address') return tooMany(call, 1, 'in_flight');
  return new HttpError(503, 'server_busy', 'The server is busy; try again shortly', { 'Retry-After': '1' });
}
