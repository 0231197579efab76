// D17: scrypt from node:crypto at OWASP's parameters, compared in constant time; an unknown email
// costs one scrypt like a wrong password. Hashes are PHC strings: $scrypt$ln=17,r=8,p=1$<salt>$<hash>.
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

export interface ScryptCost {
  /** log2 of N, the CPU/memory cost. */
  log2N: number;
  r: number;
  p: number;
}

/** D17: OWASP Password Storage Cheat Sheet, scrypt N=2^17, r=8, p=1. */
export const OWASP_SCRYPT: ScryptCost = { log2N: 17, r: 8, p: 1 };

const KEY_BYTES = 32;
const SALT_BYTES = 16;
// scrypt needs 128·N·r bytes; node's default maxmem (32 MiB) is below the 128 MiB of N=2^17, r=8.
const MAXMEM_FACTOR = 2;
// Bounds for parameters read back from the database, so a damaged row cannot ask for terabytes.
const MAX_LOG2N = 22;
const MAX_R = 32;
const MAX_P = 16;

/**
 * At most this many scrypt derivations run at once; the rest wait their turn. Each one at OWASP's cost
 * holds 128 MiB, so eight logins at once would otherwise take a gigabyte (the memory bench measures it).
 */
export const MAX_CONCURRENT_SCRYPT = 2;
/** D35: at most this many wait for a turn; one more is refused at once. */
export const MAX_WAITING_SCRYPT = 32;
/** D35: a waiting derivation gives up after this long. */
export const SCRYPT_WAIT_MS = 5000;
/** D35: one client address has at most this many derivations running or waiting. */
export const MAX_SCRYPT_PER_ADDRESS = 2;
/** The wait a turn gives up after: SCRYPT_WAIT_MS; a test that holds turns on purpose may lengthen it. */
export const hashingWait = { ms: SCRYPT_WAIT_MS };

/** D35: the derivation was refused: the queue is full, the wait ran out, or its address has its share. */
export class HashingBusyError extends Error {
  override name = 'HashingBusyError';
  constructor(readonly reason: 'queue_full' | 'waited_too_long' | 'address') {
    super(`password hashing refused: ${reason}`);
  }
}

interface Waiter {
  go: () => void;
  timer: ReturnType<typeof setTimeout>;
}

let running = 0;
const waiting: Waiter[] = [];
const perAddress = new Map<string, number>();
const refused = { queue_full: 0, waited_too_long: 0, address: 0 };

function refuse(reason: HashingBusyError['reason']): never {
  refused[reason] += 1;
  throw new HashingBusyError(reason);
}

/** A turn: at once when fewer than MAX_CONCURRENT_SCRYPT run, else in line (bounded in length and time). */
function turn(): Promise<void> {
  if (running < MAX_CONCURRENT_SCRYPT) {
    running += 1;
    return Promise.resolve();
  }
  if (waiting.length >= MAX_WAITING_SCRYPT) refuse('queue_full');
  return new Promise<void>((resolve, reject) => {
    const waiter: Waiter = {
      go: () => {
        clearTimeout(waiter.timer);
        resolve();
      },
      timer: setTimeout(() => {
        waiting.splice(waiting.indexOf(waiter), 1);
        try {
          refuse('waited_too_long');
        } catch (err) {
          reject(err);
        }
      }, hashingWait.ms),
    };
    waiting.push(waiter);
  });
}

/**
 * Runs fn in a turn (D35 bounds above); `address` is the client it is done for (clientKey), if any.
 * Exported for the tests of the bounds, which hold turns with functions that wait.
 */
export async function boundedHashing<T>(fn: () => Promise<T>, address?: string): Promise<T> {
  if (address !== undefined) {
    const mine = perAddress.get(address) ?? 0;
    if (mine >= MAX_SCRYPT_PER_ADDRESS) refuse('address');
    perAddress.set(address, mine + 1);
  }
  try {
    await turn();
    try {
      return await fn();
    } finally {
      const next = waiting.shift();
      if (next)
        next.go(); // the slot passes straight to the next waiter
      else running -= 1;
    }
  } finally {
    if (address !== undefined) {
      const left = (perAddress.get(address) ?? 1) - 1;
      if (left > 0) perAddress.set(address, left);
      else perAddress.delete(address);
    }
  }
}

/** Derivations running and waiting now, and those refused so far (for tests). */
export const scryptLoad = () => ({ running, waiting: waiting.length, refused: { ...refused } });

const PHC = /^\$scrypt\$ln=(\d{1,2}),r=(\d{1,2}),p=(\d{1,2})\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/;

function derive(password: string, salt: Buffer, cost: ScryptCost, keyBytes = KEY_BYTES, address?: string): Promise<Buffer> {
  const N = 2 ** cost.log2N;
  return boundedHashing(
    () =>
      new Promise((resolve, reject) => {
        scrypt(password.normalize('NFKC'), salt, keyBytes, { N, r: cost.r, p: cost.p, maxmem: 128 * N * cost.r * MAXMEM_FACTOR }, (err, key) =>
          err ? reject(err) : resolve(key),
        );
      }),
    address,
  );
}

const b64 = (buf: Buffer) => buf.toString('base64').replace(/=+$/, '');

/** `address`: the client it is done for (D35: at most MAX_SCRYPT_PER_ADDRESS each); rejects with HashingBusyError. */
export async function hashPassword(password: string, cost: ScryptCost = OWASP_SCRYPT, address?: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, cost, KEY_BYTES, address);
  return `$scrypt$ln=${cost.log2N},r=${cost.r},p=${cost.p}$${b64(salt)}$${b64(key)}`;
}

interface Parsed {
  cost: ScryptCost;
  salt: Buffer;
  key: Buffer;
}

export function parseHash(stored: string): Parsed | null {
  const m = PHC.exec(stored);
  if (!m) return null;
  const cost = { log2N: Number(m[1]), r: Number(m[2]), p: Number(m[3]) };
  if (cost.log2N < 1 || cost.log2N > MAX_LOG2N || cost.r < 1 || cost.r > MAX_R || cost.p < 1 || cost.p > MAX_P) return null;
  return { cost, salt: Buffer.from(m[4] ?? '', 'base64'), key: Buffer.from(m[5] ?? '', 'base64') };
}

/** True when password matches the stored hash; constant-time comparison of the derived keys. */
export async function verifyPassword(password: string, stored: string, fallbackCost: ScryptCost = OWASP_SCRYPT, address?: string): Promise<boolean> {
  const parsed = parseHash(stored);
  if (!parsed || parsed.key.length === 0) {
    await burnPasswordTime(password, fallbackCost, address); // a damaged row must not answer faster
    return false;
  }
  const key = await derive(password, parsed.salt, parsed.cost, parsed.key.length, address);
  return timingSafeEqual(key, parsed.key);
}

/** D17: spends what one verification costs, for an email that has no account. Always false. */
export async function burnPasswordTime(password: string, cost: ScryptCost = OWASP_SCRYPT, address?: string): Promise<false> {
  const key = await derive(password, randomBytes(SALT_BYTES), cost, KEY_BYTES, address);
  timingSafeEqual(key, randomBytes(key.length));
  return false;
}

/** A hash weaker than today's parameters is upgraded at the next successful login (never downgraded). */
export function needsRehash(stored: string, cost: ScryptCost = OWASP_SCRYPT): boolean {
  const parsed = parseHash(stored);
  return !parsed || parsed.cost.log2N < cost.log2N || parsed.cost.r < cost.r || parsed.cost.p < cost.p;
}
