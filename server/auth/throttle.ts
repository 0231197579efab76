// D18: login throttling per email (or per known device, D36) and per client address. Failures are rows in login_attempts, so every
// instance on one database sees the same counts. A sliding window: once `max` failures lie within the
// window, logins for that key wait until the max-th most recent failure leaves it.
import { isIPv6 } from 'node:net';
import { DAY_MS } from '../../contract/time';
import type { Db, Queryable } from '../db';
import { num } from '../db';

export interface ThrottleLimits {
  windowS: number;
  maxFailuresPerEmail: number;
  maxFailuresPerClient: number;
}

/** Failed attempts are kept at least this long (and at least one window) for the record. */
const ATTEMPT_RETENTION_MS = DAY_MS;
/** Advisory-lock namespaces (two-key form, apart from the schema lock's single key), one per kind of key. */
const EMAIL_LOCK_NAMESPACE = 72_410_101;
const CLIENT_LOCK_NAMESPACE = 72_410_102;

export const emailKey = (email: string) => email.trim().toLowerCase();

/** IPv6 clients are counted per /64, the block a single subscriber usually gets. */
export function clientKey(address: string): string {
  const plain = address.replace(/%.*$/, '').replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');
  if (!isIPv6(plain)) return plain;
  const [head = '', tail = ''] = plain.split('::');
  const left = head ? head.split(':') : [];
  const right = plain.includes('::') && tail ? tail.split(':') : [];
  const groups = plain.includes('::') ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right] : left;
  return `${groups
    .slice(0, 4)
    .map((g) => g.toLowerCase().replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

async function blockedUntil(db: Queryable, sql: string, key: string, max: number, nowMs: number, windowS: number): Promise<number | null> {
  const [row] = await db.query<{ attempted_at: Date }>(sql, [key, new Date(nowMs - windowS * 1000), max - 1]);
  return row ? row.attempted_at.getTime() + windowS * 1000 : null;
}

const EMAIL_SQL = `
  select attempted_at from login_attempts
   where email_key = $1 and not succeeded and attempted_at > $2
     and attempted_at > coalesce((select max(attempted_at) from login_attempts where email_key = $1 and succeeded), '-infinity'::timestamptz)
   order by attempted_at desc offset $3 limit 1`;
// A success does not reset the per-address count: one valid account must not unlock guessing at others.
const CLIENT_SQL = `
  select attempted_at from login_attempts
   where client_key = $1 and not succeeded and attempted_at > $2
   order by attempted_at desc offset $3 limit 1`;

export interface AttemptKeys {
  /** Counted against maxFailuresPerEmail and reset by a success: an email, or a known device (D36). */
  subject: string;
  /** The client address (clientKey), counted against maxFailuresPerClient; prefixed for a budget of its own (D36). */
  client: string;
  /** D36: false for a known device, which its address's failures do not hold back (its own still count there). */
  checkClient: boolean;
}

interface Wait {
  untilMs: number;
  /** When the address alone is blocked until (D35: the in-memory limiter learns it), or null. */
  clientUntilMs: number | null;
}

async function waitFor(db: Queryable, limits: ThrottleLimits, keys: AttemptKeys, nowMs: number): Promise<Wait> {
  const subject = (await blockedUntil(db, EMAIL_SQL, keys.subject, limits.maxFailuresPerEmail, nowMs, limits.windowS)) ?? 0;
  const client = keys.checkClient ? await blockedUntil(db, CLIENT_SQL, keys.client, limits.maxFailuresPerClient, nowMs, limits.windowS) : null;
  return { untilMs: Math.max(subject, client ?? 0), clientUntilMs: client !== null && client > nowMs ? client : null };
}

const waitSeconds = (untilMs: number, nowMs: number) => Math.max(1, Math.ceil((untilMs - nowMs) / 1000));

export type AttemptStart = { kind: 'started'; attemptId: number } | { kind: 'throttled'; retryAfterS: number; clientUntilMs: number | null };

/**
 * D18: checks both limits and, when neither is reached, records this attempt as a failure before any
 * password work, under per-subject and per-address locks. Guesses sent at once are therefore counted
 * against each other; checking first and recording after the password check let them all through.
 */
export function startAttempt(db: Db, limits: ThrottleLimits, keys: AttemptKeys, nowMs: number): Promise<AttemptStart> {
  return db.transaction(async (tx): Promise<AttemptStart> => {
    // Always the subject's lock first, then the address's: two logins never wait for each other in a cycle.
    await tx.query('select pg_advisory_xact_lock($1, hashtext($2))', [EMAIL_LOCK_NAMESPACE, keys.subject]);
    await tx.query('select pg_advisory_xact_lock($1, hashtext($2))', [CLIENT_LOCK_NAMESPACE, keys.client]);
    const wait = await waitFor(tx, limits, keys, nowMs);
    if (wait.untilMs > nowMs) return { kind: 'throttled', retryAfterS: waitSeconds(wait.untilMs, nowMs), clientUntilMs: wait.clientUntilMs };
    const [row] = await tx.query<{ id: unknown }>('insert into login_attempts (email_key, client_key, succeeded, attempted_at) values ($1, $2, false, $3) returning id', [
      keys.subject,
      keys.client,
      new Date(nowMs),
    ]);
    return { kind: 'started', attemptId: num(row?.id) };
  });
}

/**
 * D35: a failure found without an attempt started first (an unknown refresh token): recorded for the
 * address, and when the address is now blocked (this instance's failures or others'), until when.
 */
export async function recordClientFailure(db: Db, limits: ThrottleLimits, client: string, nowMs: number): Promise<number | null> {
  await db.query('insert into login_attempts (email_key, client_key, succeeded, attempted_at) values ($1, $1, false, $2)', [client, new Date(nowMs)]);
  const until = await blockedUntil(db, CLIENT_SQL, client, limits.maxFailuresPerClient, nowMs, limits.windowS);
  return until !== null && until > nowMs ? until : null;
}

/** D35: the attempt was refused before its password was checked (the server was busy): it counts for nothing. */
export async function cancelAttempt(db: Db, attemptId: number): Promise<void> {
  await db.query('delete from login_attempts where id = $1', [attemptId]);
}

/** The attempt turned out right: it stops counting as a failure (and resets its email's count). */
export async function markAttemptSucceeded(db: Db, attemptId: number): Promise<void> {
  await db.query('update login_attempts set succeeded = true where id = $1', [attemptId]);
}

export async function pruneAttempts(db: Db, windowS: number, nowMs: number): Promise<void> {
  await db.query('delete from login_attempts where attempted_at < $1', [new Date(nowMs - Math.max(windowS * 1000, ATTEMPT_RETENTION_MS))]);
}
