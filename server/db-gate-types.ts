// D2 D34: what the database gate (db-gate.ts) refuses with, is configured with and reports.

export class SaturatedError extends Error {
  override name = 'SaturatedError';
  constructor(
    readonly reason: 'queue_full' | 'queue_timeout' | 'closed',
    message: string,
  ) {
    super(message);
  }
}

/** D34: one key's own queue is full; the caller should wait (429 with Retry-After), the others are unaffected. */
export class FairShareError extends Error {
  override name = 'FairShareError';
  constructor(
    readonly key: string,
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
  /** Keys with operations waiting. */
  queues: number;
  /** Operations waiting, per key with any. */
  waiting: Record<string, number>;
  /** How long the oldest waiting operation has waited (0 when none waits). */
  oldestWaitMs: number;
  /** Operations refused with SaturatedError since the start. */
  refused: number;
  /** Operations refused with FairShareError (their key's queue was full) since the start. */
  limited: number;
}

export interface GateOptions {
  slots: number;
  queueLimit?: number;
  queueTimeoutMs?: number;
  /** D34: at most this many operations waiting per key. */
  keyQueueLimit?: number;
  /** D34: at most this many slots held by one key at once (all of them by default). */
  keySlots?: number;
}
