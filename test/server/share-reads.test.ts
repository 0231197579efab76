// D34: a long write transaction that shares reads (an import's apply) lets waiting plain reads of other
// organizations, and caller look-ups naming none of its tables, run inside it between its own statements
// (db-share.ts), each in a savepoint. PGlite only; on PostgreSQL (a pool) nothing changes and such a read
// never waited. Order and counts, never durations: the transaction is held open by the test.
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import type { Db } from '../../server/db';
import { openDb } from '../../server/db';
import { mayShare } from '../../server/db-share';
import { withGateKey } from '../../server/gate-key';
import { freshPostgresDatabase } from './backends';
import { migratedDataDir, removeDir } from './helpers';
import { untilReleased } from './until-released';

const IMPORTER = 'org:1';
const WRITES = ['shared_rows'];
const count = (org: number) => `select count(*)::int as n from shared_rows where org_id = ${org}`;

/**
 * Runs a sharing transaction of IMPORTER writing three rows, held after its first (`ready`) until
 * `release()`; calls issued meanwhile wait for the gate (PGlite) until one of its statements ends.
 */
async function holdImport(db: Db, events: string[], shareReads = true) {
  const { done: released, release } = untilReleased();
  const { done: first, release: ready } = untilReleased();
  const done = withGateKey(
    () =>
      db.transaction(
        async (tx) => {
          await tx.query('insert into shared_rows (org_id) values (1)');
          ready();
          await released; // the others' calls queue here
          await tx.query('insert into shared_rows (org_id) values (1)');
          events.push('second statement');
          await tx.query('insert into shared_rows (org_id) values (1)');
          events.push('last statement');
        },
        shareReads ? { shareReads: { writes: WRITES } } : {},
      ),
    IMPORTER,
  ).then(() => void events.push('committed'));
  await first;
  return { release, done };
}

/** A call under `key` that records its end (`label` or `label failed`) and answers its rows or error. */
function call(db: Db, events: string[], key: string, label: string, text: string) {
  return withGateKey(() => db.query(text), key).then(
    (rows) => (events.push(label), rows),
    (err: Error) => (events.push(`${label} failed`), err),
  );
}

function suite(label: 'PGlite' | 'PostgreSQL', open: () => Promise<{ db: Db; cleanup: () => Promise<void> }>) {
  describe(`D34 reads shared inside an import's transaction (${label})`, () => {
    let db: Db;
    let cleanup: () => Promise<void>;
    beforeAll(async () => {
      ({ db, cleanup } = await open());
      await db.query('create table if not exists shared_rows (id serial primary key, org_id integer not null)');
    });
    afterAll(async () => {
      await db.close();
      await cleanup();
    });
    const queued = async (n: number) => {
      if (label === 'PGlite') await expect.poll(() => db.queueStats().queued).toBe(n);
    };

    test("D34 another organization's read issued while the import's transaction is open is answered before it commits; the importer's own read after", async () => {
      const events: string[] = [];
      const before = (await db.query<{ n: number }>(count(1)))[0]!.n;
      const held = await holdImport(db, events);
      const other = call(db, events, 'org:2', 'other read', count(2));
      const own = call(db, events, IMPORTER, 'own read', count(1));
      await queued(2);
      if (label === 'PostgreSQL') await other; // its own connection: answered while the import is held
      held.release();
      await held.done;
      const ownRows = await own;
      await other;
      expect(events.indexOf('other read')).toBeLessThan(events.indexOf('last statement'));
      if (label === 'PGlite') {
        expect(events.slice(-2)).toEqual(['committed', 'own read']);
        expect(ownRows).toEqual([{ n: before + 3 }]); // all of the import, never part of it
      }
    });

    test('D34 a read that fails inside its savepoint fails alone: the import commits every row', async () => {
      const events: string[] = [];
      const before = (await db.query<{ n: number }>(count(1)))[0]!.n;
      const held = await holdImport(db, events);
      const bad = call(db, events, 'org:2', 'bad read', 'select 1 / (select count(*)::int * 0 from shared_rows) as x');
      const good = call(db, events, 'org:3', 'good read', count(3));
      await queued(2);
      if (label === 'PostgreSQL') await Promise.all([bad, good]); // their own connections: answered while the import is held
      held.release();
      await held.done;
      expect(String(await bad)).toMatch(/division by zero/);
      expect(await good).toEqual([{ n: 0 }]);
      expect(events.indexOf('good read')).toBeLessThan(events.indexOf('committed'));
      expect((await db.query<{ n: number }>(count(1)))[0]!.n).toBe(before + 3);
    });

    if (label !== 'PGlite') return;

    test("D34 an import's transaction that waited its turn behind another organization's call still shares with that organization", async () => {
      const events: string[] = [];
      const { done: unblocked, release: unblock } = untilReleased();
      const { done: blocking, release: started } = untilReleased();
      const blocker = withGateKey(() => db.transaction(() => (started(), unblocked)), 'org:2');
      await blocking;
      const pending = holdImport(db, events); // queued: it starts when org:2's transaction ends
      await queued(1);
      unblock();
      await blocker;
      const held = await pending;
      const other = call(db, events, 'org:2', 'other read', count(2));
      await queued(1);
      held.release();
      await Promise.all([held.done, other]);
      expect(events.indexOf('other read')).toBeLessThan(events.indexOf('last statement'));
    });

    test("D34 never shared: another organization's write, a caller look-up naming the import's table, anon and system calls, and any read of a transaction that does not share", async () => {
      const events: string[] = [];
      const held = await holdImport(db, events);
      const writes = call(db, events, 'org:2', 'other write', 'insert into shared_rows (org_id) values (2)');
      const userNaming = call(db, events, 'user:7', 'user read naming the table', count(7));
      const userOther = call(db, events, 'user:8', 'user read of another table', 'select 1 as one');
      const anon = call(db, events, 'anon', 'anon read', 'select 1 as one');
      const system = call(db, events, 'system', 'system read', 'select 1 as one');
      const locking = call(db, events, 'org:4', 'locking read', `${count(4)} for update`.replace('count(*)::int as n', 'id'));
      await queued(6);
      held.release();
      await Promise.all([held.done, writes, userNaming, userOther, anon, system, locking]);
      const committed = events.indexOf('committed');
      expect(events.indexOf('user read of another table')).toBeLessThan(committed);
      for (const late of ['other write', 'user read naming the table', 'anon read', 'system read', 'locking read']) {
        expect(events.indexOf(late), late).toBeGreaterThan(committed);
      }
      const plain: string[] = [];
      const notSharing = await holdImport(db, plain, false);
      const other = call(db, plain, 'org:2', 'other read', count(2));
      await queued(1);
      notSharing.release();
      await Promise.all([notSharing.done, other]);
      expect(plain).toEqual(['second statement', 'last statement', 'committed', 'other read']);
    });

    test("D34 the reads waiting when one of the import's statements ends run before its next; those arriving meanwhile after it; none after its last", async () => {
      const events: string[] = [];
      const held = await holdImport(db, events);
      const reads = [2, 3, 4].map((org) => call(db, events, `org:${org}`, `read ${org}`, count(org)));
      await queued(3);
      held.release();
      await Promise.all([held.done, ...reads]);
      expect(events).toEqual(['second statement', 'read 2', 'read 3', 'read 4', 'last statement', 'committed']);
      // A read issued between two statements runs after the next one; one issued after its last, after the commit.
      const later: string[] = [];
      const { done: issued, release: issue } = untilReleased();
      let late: Promise<unknown> = Promise.resolve();
      let after: Promise<unknown> = Promise.resolve();
      const second = withGateKey(
        () =>
          db.transaction(
            async (tx) => {
              await tx.query('insert into shared_rows (org_id) values (1)');
              late = call(db, later, 'org:2', 'read waiting before the second statement', count(2));
              await issued;
              await tx.query('insert into shared_rows (org_id) values (1)');
              later.push('second statement');
              after = call(db, later, 'org:3', 'read after the last statement', count(3));
            },
            { shareReads: { writes: WRITES } },
          ),
        IMPORTER,
      ).then(() => void later.push('committed'));
      await queued(1);
      issue();
      await second;
      await Promise.all([late, after]);
      expect(later).toEqual(['second statement', 'read waiting before the second statement', 'committed', 'read after the last statement']);
    });
  });
}

describe('D34 which waiting reads may share a transaction', () => {
  test("D34 mayShare: other organizations, and user look-ups naming none of its tables; never its own, anon, system, locks, settings or the transaction's time", () => {
    expect(mayShare('org:2', IMPORTER, 'select 1', WRITES)).toBe(true);
    expect(mayShare(IMPORTER, IMPORTER, 'select 1', WRITES)).toBe(false);
    expect(mayShare('user:3', IMPORTER, 'select * from sessions', WRITES)).toBe(true);
    expect(mayShare('user:3', IMPORTER, 'select * from Shared_Rows', WRITES)).toBe(false);
    expect(mayShare('anon', IMPORTER, 'select 1', WRITES)).toBe(false);
    expect(mayShare('system', IMPORTER, 'select 1', WRITES)).toBe(false);
    expect(mayShare('org:2', 'user:1', 'select 1', WRITES)).toBe(false); // only a transaction of an organization lends
    for (const text of [
      'select id from t for update',
      'select id from t for no key update',
      'select pg_advisory_xact_lock(1)',
      "select set_config('x', '1', true)",
      "select nextval('s')",
      'select now()',
      'select 1 where current_timestamp > $1',
    ]) {
      expect(mayShare('org:2', IMPORTER, text, WRITES), text).toBe(false);
    }
  });
});

suite('PGlite', async () => {
  const dir = await migratedDataDir('share-reads');
  return { db: await openDb({ databaseUrl: null, dataDir: dir }), cleanup: async () => removeDir(dir) };
});
if (inject('postgresUrl')) {
  suite('PostgreSQL', async () => {
    const database = await freshPostgresDatabase();
    return { db: await openDb({ databaseUrl: database.url, dataDir: '' }), cleanup: database.drop };
  });
}
