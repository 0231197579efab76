// D2: the PGlite worker prepares each application statement once and then only binds and executes it.
// Rows must come back exactly as PGlite's query() returns them, a schema change must never leave a stale
// statement behind, errors must leave the session usable, and the cache must stay bounded.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Db, Row } from '../../server/db';
import { openDb } from '../../server/db';
import { freshDataDir, removeDir } from './helpers';

/** More executions than PostgreSQL's five custom plans, so the generic plan's answers are compared too. */
const REPEATS = 8;
/** More distinct statements than the worker keeps prepared. */
const MANY_STATEMENTS = 700;

/** The session's prepared statements whose text is `text` (protocol-level ones included). */
async function prepared(db: Db, text: string): Promise<{ executions: number }[]> {
  return db.query('select (generic_plans + custom_plans)::int as executions from pg_prepared_statements where statement = $1', [text]);
}

describe('PGlite prepared statements in the worker', () => {
  let dataDir: string;
  let db: Db;

  beforeAll(async () => {
    dataDir = await freshDataDir('statements');
    db = await openDb({ databaseUrl: null, dataDir });
    await db.query(`create table things (
      id integer primary key, big bigint, name text, flag boolean, at timestamptz, doc jsonb, tags text[], note text)`);
    await db.query(`insert into things values
      (1, 9007199254740993, 'one', true, '2024-05-06T07:08:09.123Z', '{"a": [1, "x"], "b": null}', '{red,"with space"}', null),
      (2, 42, 'two', false, '2024-01-01T00:00:00Z', '[]', '{}', 'n')`);
  });
  afterAll(async () => {
    await db?.close();
    if (dataDir) removeDir(dataDir);
  });

  test('D2 the same query repeated returns identical rows and types, from one prepared statement', async () => {
    const text = 'select id, big, name, flag, at, doc, tags, note, count(*) over () as n from things where id >= $1 order by id';
    const answers: Row[][] = [];
    for (let i = 0; i < REPEATS; i++) answers.push(await db.query(text, [1]));
    const expected = [
      {
        id: 1,
        big: 9007199254740993n,
        name: 'one',
        flag: true,
        at: new Date('2024-05-06T07:08:09.123Z'),
        doc: { a: [1, 'x'], b: null },
        tags: ['red', 'with space'],
        note: null,
        n: 2,
      },
      { id: 2, big: 42, name: 'two', flag: false, at: new Date('2024-01-01T00:00:00Z'), doc: [], tags: [], note: 'n', n: 2 },
    ];
    for (const rows of answers) expect(rows).toEqual(expected);
    expect(answers[REPEATS - 1]?.[0]?.at).toBeInstanceOf(Date);
    expect(await prepared(db, text)).toEqual([{ executions: REPEATS }]);
  });

  test('D2 parameters of every type the server sends arrive intact, in and out of a transaction', async () => {
    const at = new Date('2023-12-31T23:59:59.999Z');
    const text = 'it\'s "quoted" \\ back–slash, ünïcödé 🎉 and $1 ; -- not a comment';
    const params = [text, 7, true, null, at, false];
    const sql = 'select $1::text as t, $2::int as i, $3::boolean as b, $4::text as n, $5::timestamptz as d, $6::boolean as f';
    const expected = [{ t: text, i: 7, b: true, n: null, d: at, f: false }];
    expect(await db.query(sql, params)).toEqual(expected);
    expect(await db.query(sql, params)).toEqual(expected);
    expect(await db.transaction((tx) => tx.query(sql, params))).toEqual(expected);
    // Parameter types inferred from the columns (no casts), as in the application's queries.
    await db.query('insert into things (id, name, flag, at, note) values ($1, $2, $3, $4, $5)', [3, text, false, at, null]);
    expect(await db.query('select name, flag, at, note from things where id = $1 and name = $2', [3, text])).toEqual([{ name: text, flag: false, at, note: null }]);
    expect(await db.query('select id from things where id = $1', ['3'])).toEqual([{ id: 3 }]); // a number as text, as before
    await db.query('delete from things where id = $1', [3]);
  });

  test('D2 a cached statement survives ALTER TABLE: the cache is emptied and the next call sees the new columns', async () => {
    await db.query('create table altered (id integer primary key, a text)');
    await db.query("insert into altered values (1, 'x')");
    const text = 'select * from altered where id = $1';
    expect(await db.query(text, [1])).toEqual([{ id: 1, a: 'x' }]);
    await db.query('alter table altered add column b integer default 5');
    expect(await db.query(text, [1])).toEqual([{ id: 1, a: 'x', b: 5 }]);
    await db.query('alter table altered drop column a');
    expect(await db.query(text, [1])).toEqual([{ id: 1, b: 5 }]);

    // A schema change rolled back: statements prepared inside the transaction are forgotten at its end.
    await expect(
      db.transaction(async (tx) => {
        await tx.query('alter table altered add column c text');
        expect(await tx.query(text, [1])).toEqual([{ id: 1, b: 5, c: null }]);
        throw new Error('undo');
      }),
    ).rejects.toThrow('undo');
    // Checked inside a transaction, where a stale statement could not simply be prepared again.
    expect(await db.transaction((tx) => tx.query(text, [1]))).toEqual([{ id: 1, b: 5 }]);

    // DDL the worker cannot see (inside a function) is caught by PostgreSQL; the statement is prepared again.
    await db.query("create function widen() returns void language plpgsql as $$ begin alter table altered add column d text default 'd'; end $$");
    expect(await db.query(text, [1])).toEqual([{ id: 1, b: 5 }]);
    await db.query('select widen()');
    expect(await db.query(text, [1])).toEqual([{ id: 1, b: 5, d: 'd' }]);
  });

  test('D2 an error in a cached statement outside a transaction leaves the session usable', async () => {
    await db.query('create table uniq (id integer primary key)');
    const insert = 'insert into uniq (id) values ($1)';
    await db.query(insert, [1]);
    const err = await db.query(insert, [1]).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: '23505', constraint: 'uniq_pkey' });
    await db.query(insert, [2]); // the same statement still works
    expect(await db.query('select id from uniq order by id')).toEqual([{ id: 1 }, { id: 2 }]);

    // A statement PostgreSQL refuses to parse is reported as before and never cached.
    const broken = 'select nope from uniq where id = $1';
    await expect(db.query(broken, [1])).rejects.toMatchObject({ code: '42703' });
    expect(await prepared(db, broken)).toEqual([]);
    // A parameter PGlite cannot serialize fails in JavaScript, between messages: nothing is left half-sent.
    await expect(db.query('select $1::boolean as b', ['maybe'])).rejects.toThrow(/boolean/);
    await expect(db.query('select id from uniq where id = $1 and $2::int > 0', [1, 'x'])).rejects.toMatchObject({ code: '22P02' });
    expect(await db.query('select count(*) as n from uniq where id > $1', [0])).toEqual([{ n: 2 }]);
    expect(await db.query('select 1 as ok')).toEqual([{ ok: 1 }]);
  });

  test('D2 an error in a cached statement inside a transaction rolls the transaction back', async () => {
    await db.query('create table ledger (id integer primary key, note text)');
    const insert = 'insert into ledger (id, note) values ($1, $2)';
    await db.query(insert, [1, 'before']);
    const err = await db
      .transaction(async (tx) => {
        await tx.query(insert, [2, 'lost']);
        await tx.query('update ledger set note = $2 where id = $1', [1, 'changed']);
        await tx.query(insert, [1, 'duplicate']);
      })
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ code: '23505' });
    // An error swallowed inside the transaction still aborts it: the next statement and the commit fail.
    const swallowed = await db
      .transaction(async (tx) => {
        await tx.query(insert, [3, 'lost too']);
        await tx.query(insert, [1, 'duplicate']).catch(() => {});
        return tx.query('select id from ledger where id = $1', [1]);
      })
      .catch((e: unknown) => e);
    expect(swallowed).toMatchObject({ code: '25P02' });
    expect(await db.query('select id, note from ledger order by id')).toEqual([{ id: 1, note: 'before' }]);
    // The same statements commit normally afterwards.
    await db.transaction(async (tx) => {
      await tx.query(insert, [2, 'kept']);
      await tx.query('update ledger set note = $2 where id = $1', [1, 'changed']);
    });
    expect(await db.query('select id, note from ledger order by id')).toEqual([
      { id: 1, note: 'changed' },
      { id: 2, note: 'kept' },
    ]);
  });

  test('D2 the cache is bounded: the least recently used statements are closed', async () => {
    const count = 'select count(*)::int as n from pg_prepared_statements';
    const hot = 'select id from things where id = $1 and 0 = 0';
    const first = 'select $1::int + 0 as v';
    for (let i = 0; i < MANY_STATEMENTS; i++) {
      expect(await db.query(`select $1::int + ${i} as v`, [1])).toEqual([{ v: 1 + i }]);
      if (i % 10 === 0) await db.query(hot, [1]); // used all along: never the least recently used
    }
    const [{ n: afterMany } = { n: 0 }] = await db.query<{ n: number }>(count);
    expect(afterMany).toBeLessThan(MANY_STATEMENTS);
    for (let i = 0; i < MANY_STATEMENTS / 2; i++) await db.query(`select $1::int - ${i} as v`, [1]);
    expect(await db.query(count)).toEqual([{ n: afterMany }]); // full: each new statement closes an old one
    expect(await prepared(db, first)).toEqual([]);
    expect((await prepared(db, hot)).length).toBe(1);
    expect(await db.query(first, [1])).toEqual([{ v: 1 }]); // a forgotten statement is simply prepared again
  });
});
