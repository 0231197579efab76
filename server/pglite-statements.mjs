// D2: the PGlite worker's prepared statements (see pglite-worker.mjs): each application query text is
// parsed once as a named statement, later calls send only Bind + Execute + Sync. Plain JavaScript, like the worker.
import { parse, protocol } from '@electric-sql/pglite';

/** Statements kept prepared; the least recently used is closed beyond this (each holds parse trees and plans). */
const STATEMENT_CACHE_SIZE = 500;
/** Prefix of the cached statements' names, so they never clash with a name a SQL PREPARE would pick. */
const STATEMENT_PREFIX = 'pglw_';
/** PostgreSQL's answer when a prepared statement's columns changed under it (SQLSTATE 0A000). */
const STALE_RESULT_TYPE = /cached plan must not change result type/;

/**
 * Prepared statements of PGlite's one session, by query text, least recently used first. Every method
 * must run inside PGlite's query mutex (pg.runExclusive) and, outside a transaction, the worker's lock.
 */
export class StatementCache {
  /** @type {Map<string, { name: string, paramTypes: number[], rowDescription: object | null }>} */
  #statements = new Map();
  #counter = 0;
  #pg;

  constructor(pg) {
    this.#pg = pg;
  }

  /** Rows of one statement, as PGlite's query() would return them. */
  async query(text, params, inTransaction, retried = false) {
    let statement = this.#statements.get(text);
    if (statement) {
      this.#statements.delete(text); // re-inserted last: most recently used
      this.#statements.set(text, statement);
    } else {
      statement = await this.#prepare(text);
    }
    const values = this.#serialize(statement.paramTypes, params);
    let messages;
    try {
      messages = await this.#exec([protocol.serialize.bind({ statement: statement.name, values }), protocol.serialize.execute({}), protocol.serialize.sync()]);
    } catch (err) {
      if (retried || !(err?.code === '0A000' && STALE_RESULT_TYPE.test(err.message))) throw err;
      // The schema changed behind our back (DDL inside a function, say): prepare again. In a transaction
      // the error has already aborted it, so only the next statement can profit.
      await this.forgetAll();
      if (inTransaction) throw err;
      return this.query(text, params, inTransaction, true);
    }
    if (!inTransaction) await this.#pg.syncToFs(); // as query() does after every statement outside a transaction
    // Execute sends no row description (the Describe at Parse time did): parseResults needs it first.
    const described = statement.rowDescription ? [statement.rowDescription, ...messages] : messages;
    return parse.parseResults(described, this.#pg.parsers)[0]?.rows ?? [];
  }

  /** Closes every cached statement: after a schema change their row descriptions may be stale. */
  async forgetAll() {
    if (this.#statements.size === 0) return;
    const closes = [...this.#statements.values()].map((s) => protocol.serialize.close({ type: 'S', name: s.name }));
    this.#statements.clear();
    // Close is honoured even in an aborted transaction; whatever happens, nothing is cached any more.
    await this.#exec([...closes, protocol.serialize.sync()]).catch(() => {});
  }

  /** Parse + Describe as a named statement, closing the least recently used ones beyond the limit. */
  async #prepare(text) {
    const batch = [];
    for (const [oldText, old] of this.#statements) {
      if (this.#statements.size < STATEMENT_CACHE_SIZE) break;
      this.#statements.delete(oldText);
      batch.push(protocol.serialize.close({ type: 'S', name: old.name }));
    }
    const name = `${STATEMENT_PREFIX}${++this.#counter}`;
    batch.push(protocol.serialize.parse({ name, text }), protocol.serialize.describe({ type: 'S', name }), protocol.serialize.sync());
    const messages = await this.#exec(batch); // a bad text throws here and is never cached
    const statement = {
      name,
      paramTypes: messages.find((m) => m.name === 'parameterDescription')?.dataTypeIDs ?? [],
      rowDescription: messages.find((m) => m.name === 'rowDescription') ?? null, // null: no rows (NoData)
    };
    this.#statements.set(text, statement);
    return statement;
  }

  /** Parameters as text, by their described types, the way PGlite's query() serializes them. */
  #serialize(types, params) {
    return params.map((param, i) => {
      if (param === null || param === undefined) return null;
      const serialize = this.#pg.serializers[types[i]];
      return serialize ? serialize(param) : param.toString();
    });
  }

  /**
   * One round trip into PostgreSQL. Every batch ends with Sync, so after an error (which PostgreSQL
   * answers by skipping to the Sync) the session is ready again; the error is thrown after.
   */
  async #exec(messages) {
    let length = 0;
    for (const m of messages) length += m.length;
    const buffer = new Uint8Array(length);
    let offset = 0;
    for (const m of messages) {
      buffer.set(m, offset);
      offset += m.length;
    }
    return this.#pg.execProtocolStream(buffer, { syncToFs: false });
  }
}
