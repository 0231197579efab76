// D34: what the answer cache (answer-cache.ts) needs to know of a database's writes: which statements may
// write, and a number that changes whenever anything may have been written, both backends alike.

/**
 * D34 D52: the start of a statement (outside a transaction) that writes only columns no kept answer reads
 * (a session's last activity): it leaves the write generation, so the answer cache keeps what it holds.
 * On PostgreSQL, migration 14's trigger on sessions leaves these columns out for the same reason.
 */
export const UNREAD_BY_KEPT_ANSWERS = '/* unread by kept answers */ ';

/**
 * How many statement texts mayWrite() remembers before it starts over (the texts carry no values: a
 * bounded set of some hundreds), and the longest it remembers (a bulk insert's text grows with its rows).
 */
const KNOWN_TEXTS_MAX = 2_000;
const KNOWN_TEXT_CHARS = 16_384;
const known = new Map<string, boolean>();

/**
 * A statement that only reads (select, or with … select without a data-changing clause) cannot change an
 * answer. Asked on every statement, twice for a read kept by the answer cache: each text is scanned once
 * (a list's statement is 1–2 KB) and its verdict remembered.
 */
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
 * A write generation: bumped before and after every statement that may write and around every
 * transaction's end, so a reader that captured the number before its read can tell whether a write
 * could have overtaken it.
 */
export class WriteGeneration {
  value = 0;

  bump(): void {
    this.value += 1;
  }

  /** Runs one statement outside a transaction, bumping around it when it may write. */
  async around<T>(text: string, run: (writes: boolean) => Promise<T>): Promise<T> {
    const writes = mayWrite(text);
    const bumps = writes && !text.startsWith(UNREAD_BY_KEPT_ANSWERS);
    if (bumps) this.bump();
    try {
      return await run(writes);
    } finally {
      if (bumps) this.bump();
    }
  }
}
