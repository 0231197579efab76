// D34 on PGlite (one connection): a long write transaction that opts in (an import's apply) lets waiting
// plain reads of OTHER callers run between its own statements, inside it, each in a savepoint, so they
// are answered before it commits instead of waiting for the whole of it. Safe because such a read cannot
// see the transaction's uncommitted rows:
// - a read of another organization (gate key `org:<X>`, X not the transaction's) is scoped by org_id,
//   and the transaction writes only its own organization's rows;
// - a read before the caller's organization is known (`user:<id>`: the caller look-up, `me`) is lent only
//   when its text names none of the tables the transaction writes (`writes`, triggers' tables included).
// Never lent: the transaction's own organization's calls, anon and system calls, other transactions,
// statements that may write (mayWrite) or that take locks or change settings. After each of the
// transaction's own statements, the reads that were already waiting when it ended run, one at a time;
// those arriving meanwhile wait for the next statement's end, so the transaction's next statement waits
// only for reads older than itself, and none after its last. Nothing of its own runs between a read's
// savepoint and its release. A read's error is rolled back to its savepoint and answered to that read
// alone; after an error of the transaction's own, nothing more is lent.
import { performance } from 'node:perf_hooks';
import type { DbGate } from './db-gate';
import type { Queryable, QueryOptions, Row, SqlParam } from './db';

export interface ShareReads {
  /** Every table the transaction writes, directly or through triggers. */
  writes: readonly string[];
}

/**
 * Selects that lock rows, take advisory locks, change settings or sequences, write index pages, or would
 * answer differently inside another's transaction (its start time, its transaction id).
 */
const NOT_PLAIN =
  /\bfor\s+(update|share|no\s+key\s+update|key\s+share)\b|pg_advisory|set_config|nextval|setval|gin_clean_pending_list|\bpg_notify\b|\bnow\s*\(|current_(timestamp|date|time)\b|localtime|transaction_timestamp|txid_|pg_current_xact_id/i;

/** Whether a waiting read of `key` may run inside a transaction of `own` that writes `writes`. */
export function mayShare(key: string, own: string, text: string, writes: readonly string[]): boolean {
  if (key === own || !own.startsWith('org:') || NOT_PLAIN.test(text)) return false;
  if (key.startsWith('org:')) return true;
  if (!key.startsWith('user:')) return false;
  return !writes.some((table) => new RegExp(`\\b${table}\\b`, 'i').test(text));
}

type Send = (text: string, params: readonly SqlParam[], opts?: QueryOptions) => Promise<Row[]>;

/** Statement texts mayWrite() remembers (some hundreds in the code), and the longest (a bulk insert's grows with its rows). */
const KNOWN_TEXTS_MAX = 2_000;
const KNOWN_TEXT_CHARS = 16_384;
const known = new Map<string, boolean>();

/** A statement that only reads (select, or with … select without a data-changing clause); each text scanned once. */
export function mayWrite(text: string): boolean {
  let writes = known.get(text);
  if (writes === undefined) {
    const t = text.trimStart().slice(0, 6).toLowerCase();
    writes = t !== 'select' && !(t.startsWith('with') && !/\b(insert|update|delete|merge)\b/i.test(text));
    if (text.length <= KNOWN_TEXT_CHARS) {
      if (known.size >= KNOWN_TEXTS_MAX) known.clear();
      known.set(text, writes);
    }
  }
  return writes;
}

/**
 * The transaction's statements as `fn` sees them, with waiting reads lent between them. `settled()` ends
 * the lending and resolves once no read is in its savepoint (to be awaited before COMMIT or ROLLBACK).
 */
export function sharingQueryable(gate: DbGate, send: Send, own: string, opts: ShareReads): { tx: Queryable; settled: () => Promise<void> } {
  let chain: Promise<unknown> = Promise.resolve();
  let failed = false;
  let ended = false; // fn is done: lend no more, so a stream of reads can never hold off the commit
  let savepoints = 0;

  const lendOne = async (arrivedBy: number): Promise<boolean> => {
    if (failed || ended) return false;
    const taken = gate.lend((key, read) => mayShare(key, own, read.text, opts.writes), arrivedBy);
    if (!taken) return false;
    const name = `shared_read_${++savepoints}`;
    // Any failure of the savepoint's own statements leaves the transaction in doubt: lend no more (its
    // own next statement reports what is wrong).
    const control = (text: string) =>
      send(text, []).catch((err: unknown) => {
        failed = true;
        throw err;
      });
    const outcome = (async () => {
      await control(`savepoint ${name}`);
      let rows: Row[];
      try {
        rows = await send(taken.read.text, taken.read.params as SqlParam[], { replan: taken.read.replan });
      } catch (err) {
        await control(`rollback to savepoint ${name}`);
        await control(`release savepoint ${name}`);
        throw err; // the read's error, answered to that read alone
      }
      await control(`release savepoint ${name}`);
      return rows;
    })();
    taken.settle(outcome);
    return outcome.then(
      () => !failed,
      () => !failed,
    );
  };
  /** The reads waiting when the transaction's last statement ended (those arriving meanwhile wait for the next). */
  const lend = async () => {
    const arrivedBy = performance.now();
    while (await lendOne(arrivedBy));
  };

  return {
    tx: {
      query: <R extends Row>(text: string, params: readonly SqlParam[] = [], opts?: QueryOptions) => {
        const mine = chain.then(() => send(text, params, opts));
        // Registered before the caller's own await: the waiting reads go before its next statement.
        chain = mine.then(lend, () => void (failed = true)).catch(() => void (failed = true)); // never rejects
        return mine as Promise<R[]>;
      },
    },
    settled: async () => {
      ended = true;
      await chain.catch(() => {});
    },
  };
}
