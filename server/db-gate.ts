// D2 D34: the one scheduler in front of the database, for both backends. An operation (a query, or a
// whole transaction) takes a slot; the rest wait in a queue of their own key (gate-key.ts: the
// organization the call acts in, the user before that, or `anon`), and free slots go to the queues in
// turn (round robin), so one organization's backlog never stands in front of another's request.
// A saturated server says so at once instead of letting requests wait many seconds: an operation that
// finds every queue together full, or waits past its deadline, fails with SaturatedError (503) and never
// runs; one that finds its own key's queue full fails with FairShareError (429) and delays nobody else.
// D8: a refresh-token rotation therefore runs promptly or not at all, never late after its client gave
// up. An operation that has started always runs to completion.
import { performance } from 'node:perf_hooks';
import { FairShareError, type GateOptions, type GateStats, SaturatedError } from './db-gate-types';
import { currentGateKey } from './gate-key';

/** How long an operation may wait for a slot before it is refused. */
export const DB_QUEUE_TIMEOUT_MS = 2_000;
/** Operations waiting beyond this many, all keys together, are refused on arrival (503). */
export const DB_QUEUE_LIMIT = 500;
/** D34: operations of one key (organization, user or anon) waiting beyond this many are refused on arrival (429). */
export const DB_KEY_QUEUE_LIMIT = 200;

/** D34: a plain read's statement, so a transaction that shares reads (db-share.ts) may run it inside itself. */
export interface ReadStatement {
  text: string;
  params: readonly unknown[];
  replan?: boolean;
}

interface Waiter {
  key: string;
  read: ReadStatement | undefined;
  /** Answers the waiter with the outcome of its statement run elsewhere (lend()). */
  settle: (outcome: Promise<unknown>) => void;
  since: number;
  start: () => void;
  refuse: (err: Error) => void;
  timer: NodeJS.Timeout;
}

export class DbGate {
  readonly slots: number;
  readonly queueLimit: number;
  readonly queueTimeoutMs: number;
  readonly keyQueueLimit: number;
  readonly keySlots: number;
  #running = 0;
  #queued = 0;
  /** Waiting operations per key, in arrival order. */
  #queues = new Map<string, Waiter[]>();
  /** Keys with waiting operations, in the order they are served next (round robin). */
  #ring: string[] = [];
  /** Slots held per key. */
  #held = new Map<string, number>();
  #refused = 0;
  #limited = 0;
  #closed = false;

  constructor(opts: GateOptions) {
    this.slots = opts.slots;
    this.queueLimit = opts.queueLimit ?? DB_QUEUE_LIMIT;
    this.queueTimeoutMs = opts.queueTimeoutMs ?? DB_QUEUE_TIMEOUT_MS;
    this.keyQueueLimit = opts.keyQueueLimit ?? DB_KEY_QUEUE_LIMIT;
    this.keySlots = Math.max(1, Math.min(opts.keySlots ?? opts.slots, opts.slots));
  }

  /** Runs op in a slot, now or in its key's turn; or refuses it without running it. `key` defaults to the request's (gate-key.ts). */
  run<T>(op: () => Promise<T>, key: string = currentGateKey(), read?: ReadStatement): Promise<T> {
    if (this.#closed) return this.#refuse(new SaturatedError('closed', 'the database is closing'));
    const queue = this.#queues.get(key);
    // Every key still waiting is at its own limit of slots when one is free, so this one may go first.
    if (this.#running < this.slots && !queue && this.#heldBy(key) < this.keySlots) return this.#start(op, key);
    if (this.#queued >= this.queueLimit) return this.#refuse(new SaturatedError('queue_full', `more than ${this.queueLimit} operations wait for the database`));
    if ((queue?.length ?? 0) >= this.keyQueueLimit) {
      this.#limited += 1;
      return Promise.reject(new FairShareError(key, `more than ${this.keyQueueLimit} operations of one caller wait for the database`));
    }
    return new Promise<T>((resolve, reject) => {
      const waiter: Waiter = {
        key,
        since: performance.now(),
        read,
        settle: (outcome) => void (outcome as Promise<T>).then(resolve, reject),
        start: () => void this.#start(op, key).then(resolve, reject),
        refuse: reject,
        timer: setTimeout(() => {
          if (!this.#remove(waiter)) return;
          this.#refused += 1;
          reject(this.#timedOut());
        }, this.queueTimeoutMs),
      };
      if (queue) queue.push(waiter);
      else {
        this.#queues.set(key, [waiter]);
        this.#ring.push(key);
      }
      this.#queued += 1;
    });
  }

  /**
   * D34: takes out of its queue the first waiting plain read (the head of a key's queue, keys in turn)
   * that arrived by `arrivedBy` (performance.now()) and that `admit` allows, within its deadline, for a
   * running transaction to run inside itself; the caller must settle it. Undefined when none may.
   */
  lend(admit: (key: string, read: ReadStatement) => boolean, arrivedBy: number): { read: ReadStatement; settle: (outcome: Promise<unknown>) => void } | undefined {
    for (const key of this.#ring) {
      const w = this.#queues.get(key)?.[0];
      if (!w?.read || w.since > arrivedBy || !admit(key, w.read) || performance.now() - w.since >= this.queueTimeoutMs) continue;
      this.#remove(w);
      clearTimeout(w.timer);
      const at = this.#ring.indexOf(key);
      if (at >= 0) this.#ring.push(...this.#ring.splice(at, 1)); // its next one after the other keys'
      return { read: w.read, settle: w.settle };
    }
    return undefined;
  }

  stats(): GateStats {
    let oldest = Infinity;
    const waiting: Record<string, number> = {};
    for (const [key, q] of this.#queues) {
      oldest = Math.min(oldest, q[0]?.since ?? Infinity);
      waiting[key] = q.length;
    }
    return {
      slots: this.slots,
      running: this.#running,
      queued: this.#queued,
      queues: this.#queues.size,
      waiting,
      oldestWaitMs: oldest === Infinity ? 0 : Math.round(performance.now() - oldest),
      refused: this.#refused,
      limited: this.#limited,
    };
  }

  /** Refuses everything queued and everything to come; running operations finish. */
  close(): void {
    this.#closed = true;
    for (const queue of this.#queues.values()) {
      for (const w of queue) {
        clearTimeout(w.timer);
        w.refuse(new SaturatedError('closed', 'the database is closing'));
      }
    }
    this.#queues.clear();
    this.#ring = [];
    this.#queued = 0;
  }

  #heldBy(key: string): number {
    return this.#held.get(key) ?? 0;
  }

  /** Takes a waiter out of its queue (its deadline passed); false when it had already left. */
  #remove(w: Waiter): boolean {
    const queue = this.#queues.get(w.key);
    const i = queue ? queue.indexOf(w) : -1;
    if (!queue || i < 0) return false;
    queue.splice(i, 1);
    this.#queued -= 1;
    if (queue.length === 0) this.#dropKey(w.key);
    return true;
  }

  #dropKey(key: string): void {
    this.#queues.delete(key);
    const at = this.#ring.indexOf(key);
    if (at >= 0) this.#ring.splice(at, 1);
  }

  #timedOut(): SaturatedError {
    return new SaturatedError('queue_timeout', `waited more than ${this.queueTimeoutMs} ms for the database`);
  }

  #refuse<T>(err: SaturatedError): Promise<T> {
    this.#refused += 1;
    return Promise.reject(err);
  }

  #start<T>(op: () => Promise<T>, key: string): Promise<T> {
    this.#running += 1;
    this.#held.set(key, this.#heldBy(key) + 1);
    let result: Promise<T>;
    try {
      result = op();
    } catch (err) {
      result = Promise.reject(err);
    }
    return result.finally(() => {
      this.#running -= 1;
      const held = this.#heldBy(key) - 1;
      if (held > 0) this.#held.set(key, held);
      else this.#held.delete(key);
      this.#next();
    });
  }

  /** D34: each free slot goes to the next key in turn that is below its own limit of slots. */
  #next(): void {
    while (this.#running < this.slots) {
      const at = this.#ring.findIndex((key) => this.#heldBy(key) < this.keySlots);
      if (at < 0) return;
      const key = this.#ring[at] as string;
      const queue = this.#queues.get(key) as Waiter[];
      const w = queue.shift() as Waiter;
      this.#queued -= 1;
      this.#ring.splice(at, 1);
      if (queue.length > 0)
        this.#ring.push(key); // its next one waits for every other key's turn
      else this.#queues.delete(key);
      clearTimeout(w.timer);
      // A blocked event loop can delay the timer: the deadline is checked again before running (D8).
      if (performance.now() - w.since >= this.queueTimeoutMs) {
        this.#refused += 1;
        w.refuse(this.#timedOut());
        continue;
      }
      w.start();
    }
  }
}
