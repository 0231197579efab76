// D2: the one scheduler in front of the database, for both backends. An operation (a query, or a whole
// transaction) takes a slot; the rest wait in FIFO order. A saturated server says so at once instead of
// letting requests wait many seconds: an operation that finds the queue full, or waits past its deadline,
// fails with SaturatedError and never runs. D8: a refresh-token rotation therefore runs promptly or not at
// all, never late after its client gave up. An operation that has started always runs to completion.
import { performance } from 'node:perf_hooks';

/** How long an operation may wait for a slot before it is refused. */
export const DB_QUEUE_TIMEOUT_MS = 2_000;
/** Operations waiting beyond this many are refused on arrival. */
export const DB_QUEUE_LIMIT = 500;

export class SaturatedError extends Error {
  override name = 'SaturatedError';
  constructor(
    readonly reason: 'queue_full' | 'queue_timeout' | 'closed',
    message: string,
  ) {
    super(message);
  }
}

/** The figures a health check or a load report needs. */
export interface GateStats {
  slots: number;
  running: number;
  queued: number;
  /** How long the oldest waiting operation has waited (0 when none waits). */
  oldestWaitMs: number;
  /** Operations refused since the start. */
  refused: number;
}

export interface GateOptions {
  slots: number;
  queueLimit?: number;
  queueTimeoutMs?: number;
}

interface Waiter {
  since: number;
  start: () => void;
  refuse: (err: SaturatedError) => void;
  timer: NodeJS.Timeout;
}

export class DbGate {
  readonly slots: number;
  readonly queueLimit: number;
  readonly queueTimeoutMs: number;
  #running = 0;
  #queue: Waiter[] = [];
  #refused = 0;
  #closed = false;

  constructor(opts: GateOptions) {
    this.slots = opts.slots;
    this.queueLimit = opts.queueLimit ?? DB_QUEUE_LIMIT;
    this.queueTimeoutMs = opts.queueTimeoutMs ?? DB_QUEUE_TIMEOUT_MS;
  }

  /** Runs op in a slot, now or after those queued before it; or refuses it without running it. */
  run<T>(op: () => Promise<T>): Promise<T> {
    if (this.#closed) return this.#refuse(new SaturatedError('closed', 'the database is closing'));
    if (this.#running < this.slots && this.#queue.length === 0) return this.#start(op);
    if (this.#queue.length >= this.queueLimit) return this.#refuse(new SaturatedError('queue_full', `more than ${this.queueLimit} operations wait for the database`));
    return new Promise<T>((resolve, reject) => {
      const waiter: Waiter = {
        since: performance.now(),
        start: () => void this.#start(op).then(resolve, reject),
        refuse: reject,
        timer: setTimeout(() => {
          const i = this.#queue.indexOf(waiter);
          if (i < 0) return;
          this.#queue.splice(i, 1);
          this.#refused += 1;
          reject(this.#timedOut());
        }, this.queueTimeoutMs),
      };
      this.#queue.push(waiter);
    });
  }

  stats(): GateStats {
    const oldest = this.#queue[0];
    return {
      slots: this.slots,
      running: this.#running,
      queued: this.#queue.length,
      oldestWaitMs: oldest ? Math.round(performance.now() - oldest.since) : 0,
      refused: this.#refused,
    };
  }

  /** Refuses everything queued and everything to come; running operations finish. */
  close(): void {
    this.#closed = true;
    for (const w of this.#queue.splice(0)) {
      clearTimeout(w.timer);
      w.refuse(new SaturatedError('closed', 'the database is closing'));
    }
  }

  #timedOut(): SaturatedError {
    return new SaturatedError('queue_timeout', `waited more than ${this.queueTimeoutMs} ms for the database`);
  }

  #refuse<T>(err: SaturatedError): Promise<T> {
    this.#refused += 1;
    return Promise.reject(err);
  }

  #start<T>(op: () => Promise<T>): Promise<T> {
    this.#running += 1;
    let result: Promise<T>;
    try {
      result = op();
    } catch (err) {
      result = Promise.reject(err);
    }
    return result.finally(() => {
      this.#running -= 1;
      this.#next();
    });
  }

  #next(): void {
    while (this.#running < this.slots && this.#queue.length > 0) {
      const w = this.#queue.shift() as Waiter;
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
