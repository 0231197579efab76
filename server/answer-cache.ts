// D34: answers to reads, kept beside the database gate so a repeated read costs the database nothing.
// An answer is kept until anything may have been written (Db.writeGeneration): on PGlite by this process
// (one process owns its data); on PostgreSQL by any instance sharing it, whose commits PostgreSQL
// notifies to every other (migration 14), so logout and revocation reach every instance's kept answers
// as the commit does. While an instance cannot hear those notifications it keeps nothing.
// The cache is bounded in bytes (ANSWER_CACHE_BYTES, least recently used out), each answer's size
// estimated from its JSON. It is applied in one place: the router reads through rememberedReads() for
// the caller look-up and for the GET routes that ask for it (`remember`); a statement's key is its text
// and parameters, which the repos normalize (a search is folded), so case variants of one search share
// an answer and cannot be used to fill it. The text is a short number in the key (statementKey): a key
// of the whole text (1–2 KB) was built, flattened and hashed on every read, about 10 µs of the 70–110
// µs a kept `me` or list answer costs the server.
import { mayWrite, type Db, type Queryable } from './db';

/** D34: the most the remembered answers of one database may weigh, by estimate. */
export const ANSWER_CACHE_BYTES = 32 * 1024 * 1024;
/** An answer larger than this share of the budget is not kept (it would push out many small ones). */
const LARGEST_SHARE = 1 / 16;
/** Per entry: the map's slot, the entry object, the key string's header; a JS object weighs about this much more than its JSON. */
const ENTRY_OVERHEAD_BYTES = 200;
const OBJECT_FACTOR = 3;

/** The estimated heap weight of a key and its answer: UTF-16 bytes of the key, and of the answer's JSON times OBJECT_FACTOR. */
export function estimateBytes(key: string, value: unknown): number {
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch {
    json = undefined;
  }
  return ENTRY_OVERHEAD_BYTES + 2 * key.length + OBJECT_FACTOR * 2 * (json?.length ?? 0);
}

/** How many statement texts one cache keeps numbered before it starts over (the code has some hundreds). */
export const STATEMENT_TEXTS_MAX = 2_000;

type Entry = { value: unknown; bytes: number; seq: number };

/** A byte-bounded map, least recently used first; every entry belongs to one write generation. */
export class AnswerCache {
  #entries = new Map<string, Entry>();
  /** The order of the last answer kept or moved last: an entry's `seq` tells how far back it is. */
  #seq = 0;
  /** Where letting the oldest answers go has got to (set()). */
  #sweep: MapIterator<[string, Entry]> | undefined;
  /** Answers moved last since the walk was last dropped (get()). */
  #moves = 0;
  #bytes = 0;
  #generation: number | null = null;
  /** Each statement text read through the cache, numbered (its texts carry no values: a bounded set). */
  #texts = new Map<string, number>();
  #nextText = 0;

  /**
   * The key of a statement with these parameters: the text's number and the parameters' JSON. A text is
   * hashed once per string (a constant's hash is kept by the engine), not as part of a new key each time.
   * A number is never given twice, so a key can only ever name one text, even one made before the
   * numbering started over (past STATEMENT_TEXTS_MAX texts) for a read still under way: its answers are
   * then never asked for again and age out.
   */
  statementKey(text: string, params: readonly unknown[]): string {
    let id = this.#texts.get(text);
    if (id === undefined) {
      if (this.#texts.size >= STATEMENT_TEXTS_MAX) this.#texts.clear();
      id = this.#nextText++;
      this.#texts.set(text, id);
    }
    return `${id}\u0000${JSON.stringify(params)}`;
  }

  constructor(readonly maxBytes = ANSWER_CACHE_BYTES) {}

  get bytes(): number {
    return this.#bytes;
  }

  get size(): number {
    return this.#entries.size;
  }

  /**
   * The answer under `key`, when it was kept in this generation. A used answer goes last (the least
   * recently used go first) once it is in the older half of the cache's order: moving the same hot
   * answer (a caller's look-up) on every read made the engine rebuild the whole map every few thousand
   * reads, about 25 µs a read with 9,000 answers kept. An answer in the newer half (by count) is not the
   * next to go, unless one large answer pushes out more than half of the others at once.
   */
  get(key: string, generation: number): { value: unknown } | undefined {
    if (generation !== this.#generation) return undefined;
    const hit = this.#entries.get(key);
    if (!hit) return undefined;
    if (hit.seq < this.#seq - this.#entries.size / 2) {
      this.#entries.delete(key);
      hit.seq = ++this.#seq;
      this.#entries.set(key, hit);
      // Moves make the engine rebuild the map, and a kept walk holds every old copy alive until it
      // moves on; after as many moves as there are answers the map has been rebuilt (its empty slots
      // gone), so a new walk costs nothing and the old one is let go.
      if (++this.#moves > this.#entries.size) {
        this.#sweep = undefined;
        this.#moves = 0;
      }
    }
    return hit;
  }

  /** Keeps an answer read in `generation`; answers of an older generation can never be used again and go. */
  set(key: string, generation: number, value: unknown): void {
    if (this.#generation === null || generation > this.#generation) this.clear(generation);
    else if (generation < this.#generation) return; // read before a write that was seen since: already stale
    const bytes = estimateBytes(key, value);
    if (bytes > this.maxBytes * LARGEST_SHARE) return;
    const old = this.#entries.get(key);
    if (old) {
      this.#bytes -= old.bytes;
      this.#entries.delete(key);
    }
    this.#entries.set(key, { value, bytes, seq: ++this.#seq });
    this.#bytes += bytes;
    while (this.#bytes > this.maxBytes) {
      // One walk from the oldest, kept between calls: a new walk would step again over every entry
      // let go before it (the engine leaves their slots until it rebuilds the map), about 6 µs a call
      // when full. A Map's walk sees what is added or moved after it started, and goes on past it.
      let oldest = this.#sweep?.next();
      if (!oldest || oldest.done) oldest = (this.#sweep = this.#entries.entries()).next();
      if (oldest.done) break;
      const [k, e] = oldest.value;
      this.#entries.delete(k);
      this.#bytes -= e.bytes;
    }
  }

  clear(generation: number | null = null): void {
    this.#sweep = undefined;
    this.#entries.clear();
    this.#bytes = 0;
    this.#generation = generation;
  }
}

const caches = new WeakMap<Db, AnswerCache>();

/** The cache of one database (tests look at its figures). */
export function answerCacheOf(db: Db): AnswerCache {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new AnswerCache()));
  return cache;
}

/**
 * The answer to a read, kept until the database may have been written to. The key must
 * name everything the answer depends on, normalized: inputs that give the same answer, one key.
 */
export async function remembered<T>(db: Db, key: string, load: () => Promise<T>): Promise<T> {
  const generation = db.writeGeneration();
  if (generation === null) return load();
  const cache = answerCacheOf(db);
  const hit = cache.get(key, generation);
  if (hit) return hit.value as T;
  const value = await load();
  cache.set(key, generation, value); // under the generation from before the read: a write meanwhile makes it stale
  return value;
}

/**
 * D34: the database as the router's reads see it: a statement that only reads is answered from the
 * cache, keyed on its text and parameters, until anything may have been written; a statement that may
 * write, and every statement while nothing can be kept, goes to the database.
 */
export function rememberedReads(db: Db): Queryable {
  return {
    query: (text, params = []) =>
      db.writeGeneration() === null || mayWrite(text)
        ? db.query(text, params) // nothing can be kept now: no key to build
        : remembered(db, answerCacheOf(db).statementKey(text, params), () => db.query(text, params)),
  };
}
