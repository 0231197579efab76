// D35: refusing costs nothing. An in-memory limiter per client address (clientKey) in front of login,
// refresh and invitation look-ups: a request it refuses never reaches the database. It holds what this
// instance knows (failures it saw, blocks the database reported, requests in flight); D18's database
// throttle stays the shared truth across instances, and this limiter only ever refuses earlier.

/** One kind of call, with its own budget (D36: invitation look-ups never spend the login budget). */
export type LimitedCall = 'login' | 'refresh' | 'invitation';

export interface CallLimits {
  /** Failures from one address within the window after which its calls are refused. */
  maxFailures: number;
  windowMs: number;
  /** Calls from one address being worked on at once; more are refused at once (Retry-After: 1). */
  maxInFlight: number;
  /**
   * The same once the address has failed within the window: a flood of made-up tokens reaches the
   * database this many at a time, while a clean address (an office's many tabs) keeps maxInFlight.
   */
  maxInFlightAfterFailure: number;
}

/** D35: at most this many addresses are remembered per kind of call; the least recently seen idle one goes first. */
export const MAX_REMEMBERED_ADDRESSES = 10_000;

interface Entry {
  /** Times of the failures within the window, oldest first (at most maxFailures). */
  failures: number[];
  blockedUntil: number;
  inFlight: number;
}

export type Admission = { kind: 'admitted'; leave: () => void } | { kind: 'refused'; reason: 'throttled' | 'in_flight'; retryAfterS: number };

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

export class AddressLimiter {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly limits: CallLimits,
    private readonly maxAddresses = MAX_REMEMBERED_ADDRESSES,
  ) {}

  private entry(key: string): Entry {
    let e = this.entries.get(key);
    if (e)
      this.entries.delete(key); // re-inserted last: Map order is recency
    else e = { failures: [], blockedUntil: 0, inFlight: 0 };
    this.entries.set(key, e);
    if (this.entries.size > this.maxAddresses) this.forgetOne(key);
    return e;
  }

  /** Drops the least recently seen address that has nothing in flight (never the one being served). */
  private forgetOne(keep: string): void {
    for (const [key, e] of this.entries) {
      if (key !== keep && e.inFlight === 0) {
        this.entries.delete(key);
        return;
      }
    }
  }

  /** Milliseconds until this address may call again, 0 when it may now. */
  private waitMs(e: Entry, nowMs: number): number {
    const { maxFailures, windowMs } = this.limits;
    while (e.failures.length > 0 && e.failures[0]! <= nowMs - windowMs) e.failures.shift();
    const byFailures = e.failures.length >= maxFailures ? e.failures[e.failures.length - maxFailures]! + windowMs : 0;
    return Math.max(byFailures, e.blockedUntil) - nowMs;
  }

  /**
   * Calls in flight allowed now. D36: a caller that proves its session or device is not the flood of
   * made-up tokens the smaller cap slows, so the address's failures do not shrink its cap either.
   */
  private cap(e: Entry, ignoreFailures: boolean): number {
    return e.failures.length > 0 && !ignoreFailures ? this.limits.maxInFlightAfterFailure : this.limits.maxInFlight;
  }

  /**
   * Admits a call from `address` or refuses it, synchronously (before any await, so concurrent calls
   * are counted against each other). `ignoreFailures`: D36, a known device is judged on its password,
   * not on the address's failures; it still counts in flight. An admitted call must `leave()` once.
   */
  admit(address: string, nowMs: number, ignoreFailures = false): Admission {
    const e = this.entry(address);
    const wait = ignoreFailures ? 0 : this.waitMs(e, nowMs);
    if (wait > 0) return { kind: 'refused', reason: 'throttled', retryAfterS: seconds(wait) };
    if (e.inFlight >= this.cap(e, ignoreFailures)) return { kind: 'refused', reason: 'in_flight', retryAfterS: 1 };
    e.inFlight += 1;
    let left = false;
    return {
      kind: 'admitted',
      leave: () => {
        if (left) return;
        left = true;
        e.inFlight -= 1;
      },
    };
  }

  /**
   * D35: what admit() would answer now, without counting anything: the refusal, or null when it would
   * admit. `whatever`: the caller's ignoreFailures is not known yet (a login's device token is in its
   * body): only a refusal that holds either way (too many in flight, no wait for failures) is given.
   */
  peek(address: string, nowMs: number, ignoreFailures: boolean | 'whatever'): Extract<Admission, { kind: 'refused' }> | null {
    const e = this.entries.get(address);
    if (!e) return null;
    const wait = ignoreFailures === true ? 0 : this.waitMs(e, nowMs);
    if (wait > 0) return ignoreFailures === 'whatever' ? null : { kind: 'refused', reason: 'throttled', retryAfterS: seconds(wait) };
    return e.inFlight >= this.cap(e, ignoreFailures !== false) ? { kind: 'refused', reason: 'in_flight', retryAfterS: 1 } : null;
  }

  /** A failure from this address (a wrong password, an unknown token). */
  fail(address: string, nowMs: number): void {
    const e = this.entry(address);
    this.waitMs(e, nowMs); // drops failures that left the window
    e.failures.push(nowMs);
    if (e.failures.length > this.limits.maxFailures) e.failures.shift();
  }

  /** Failures of this key within the window (D36: a known session's own failed refreshes). */
  failuresOf(key: string, nowMs: number): number {
    const e = this.entries.get(key);
    return e ? (this.waitMs(e, nowMs), e.failures.length) : 0;
  }

  /** The database says this address is throttled until then (another instance may have counted). */
  block(address: string, untilMs: number): void {
    const e = this.entry(address);
    e.blockedUntil = Math.max(e.blockedUntil, untilMs);
  }

  /** For tests: addresses remembered now. */
  get size(): number {
    return this.entries.size;
  }
}
