// D10 D29: the default matrix has one definition, contract/permissions.ts. Migrations wrote it into the
// database (migration 2's frozen copy, then migration 4's additions), where a new organization copies it
// from; this checks that history still adds up to the contract's matrix, on both databases. A change to
// the contract's defaults fails here until a migration brings the database along.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEFAULT_ROLE_PERMISSIONS, ROLES } from '../../contract/permissions';
import { openDb, type Db, type OpenOptions } from '../../server/db';
import { migrate, MIGRATIONS } from '../../server/migrations';
import { seedDemo } from '../../server/seed';
import { describePostgres } from './backends';
import { freshDataDir, migratedDataDir, removeDir } from './helpers';

const byRole = (rows: { role: string; permission: string }[]) =>
  Object.fromEntries(
    ROLES.map((role) => [
      role,
      rows
        .filter((r) => r.role === role)
        .map((r) => r.permission)
        .sort(),
    ]),
  );
const CONTRACT = Object.fromEntries(ROLES.map((role) => [role, [...DEFAULT_ROLE_PERMISSIONS[role]].sort()]));

function defaultsAddUp(db: () => Db) {
  test("D10 the migrations leave the contract's default matrix, role by role, and its roles", async () => {
    const roles = await db().query<{ name: string }>('select name from roles order by name');
    expect(roles.map((r) => r.name)).toEqual([...ROLES].sort());
    expect(byRole(await db().query('select role, permission from default_role_permissions'))).toEqual(CONTRACT);
  });

  test("D29 a new organization starts with exactly the contract's default matrix", async () => {
    const [org] = await db().query<{ id: number }>("insert into organizations (name) values ('Fresh Org') returning id");
    const rows = await db().query<{ role: string; permission: string }>('select role, permission from role_permissions where org_id = $1', [org!.id]);
    expect(byRole(rows)).toEqual(CONTRACT);
  });

  test('migration 17: no write triggers and no notify function are left (no kept answers to end)', async () => {
    expect(await db().query("select tgname from pg_trigger where tgname like '%notify_writes'")).toEqual([]);
    expect(await db().query("select proname from pg_proc where proname = 'notify_writes'")).toEqual([]);
  });
}

/** A PGlite database in the data directory `dataDirOf` makes, opened by the returned function, closed and removed after the describe. */
function pgliteDb(dataDirOf: () => Promise<string>): () => Promise<Db> {
  let dataDir = '';
  let db: Db | null = null;
  afterAll(async () => {
    await db?.close();
    if (dataDir) removeDir(dataDir);
  });
  return async () => {
    dataDir = await dataDirOf();
    return (db = await openDb({ databaseUrl: null, dataDir }));
  };
}

/** The describe's PostgreSQL database, opened by the returned function, closed after the describe. */
function postgresDb(databaseUrl: () => string, options: Pick<OpenOptions, 'statementTimeoutMs'> = {}): () => Promise<Db> {
  let db: Db | null = null;
  afterAll(async () => {
    await db?.close();
  });
  return async () => (db = await openDb({ databaseUrl: databaseUrl(), dataDir: '', ...options }));
}

/** Migrates `db` up to just before migration `version`: the database as that migration finds it. */
const migrateBefore = (db: Db, version: number) =>
  migrate(
    db,
    MIGRATIONS.filter((m) => m.version < version),
  );

/** Migrates `db` up to migration `version`, expecting it to be the one migration left to run. */
async function expectOnlyMigration(db: Db, version: number) {
  expect(
    await migrate(
      db,
      MIGRATIONS.filter((m) => m.version <= version),
    ),
  ).toEqual([version]);
}

describe('migrations (PGlite)', () => {
  const open = pgliteDb(() => migratedDataDir('pglite-migrations'));
  let db: Db | null = null;
  beforeAll(async () => {
    db = await open();
  });
  defaultsAddUp(() => db!);
});

describePostgres('migrations (PostgreSQL)', (databaseUrl) => {
  const open = postgresDb(databaseUrl);
  let db: Db | null = null;
  beforeAll(async () => {
    db = await open();
    await migrate(db);
  });
  defaultsAddUp(() => db!);
});

test('one file per migration, named by its version, in order', () => {
  const files = readdirSync(path.join(import.meta.dirname, '../../server/migrations'))
    .filter((f) => /^\d{3}-/.test(f))
    .sort();
  expect(files.map((f) => Number(f.slice(0, 3)))).toEqual(MIGRATIONS.map((m) => m.version));
});

describePostgres('migration 9 on a database with organizations (PostgreSQL)', (databaseUrl) => {
  const open = postgresDb(databaseUrl);
  test("D55 customers:merge joins every existing organization's owner and admin rows, however changed; no other role's", async () => {
    const db = await open();
    await migrateBefore(db, 9);
    await db.query("insert into organizations (name) values ('Before Nine')");
    await db.query("delete from role_permissions where role = 'admin' and permission = 'customers:export'"); // a changed matrix
    await expectOnlyMigration(db, 9);
    const rows = await db.query<{ role: string; permission: string }>(
      "select p.role, p.permission from role_permissions p join organizations o on o.id = p.org_id where o.name = 'Before Nine' and p.permission = 'customers:merge'",
    );
    expect(rows.map((r) => r.role).sort()).toEqual(['admin', 'owner']);
  });
});

describePostgres('migration 15 on a database with locations and contacts (PostgreSQL)', (databaseUrl) => {
  const open = postgresDb(databaseUrl);
  test("D46 D47 a customer's parts_key takes in the search text of the locations and contacts it already has, a line each", async () => {
    const db = await open();
    await migrateBefore(db, 15);
    const [org] = await db.query<{ id: number }>("insert into organizations (name) values ('Before Fifteen') returning id");
    const [withParts, without] = await db.query<{ id: number }>(
      "insert into customers (org_id, name, city) values ($1, 'Ann Lee', 'Portland'), ($1, 'Bo Fay', null) returning id",
      [org!.id],
    );
    await db.query("insert into customer_locations (org_id, customer_id, label, city) values ($1, $2, 'Rental', 'Tigård')", [org!.id, withParts!.id]);
    await db.query("insert into customer_contacts (org_id, customer_id, name, email) values ($1, $2, 'Pat Manager', 'PM@x.test')", [org!.id, withParts!.id]);
    await expectOnlyMigration(db, 15);
    const keys = await db.query<{ id: number; parts_key: string | null }>('select id, parts_key from customers where org_id = $1 order by id', [org!.id]);
    expect(keys.map((k) => k.parts_key?.split('\n').map((line) => line.replace(/ +/g, ' ').trim()) ?? null)).toEqual([['rental tigard', 'pat manager pm@x.test'], null]);
    expect(keys[1]!.id).toBe(without!.id);
  });
});

/**
 * D45 migration 18 on a database whose stored text has curly quotes and dashes (an import of a Windows-1252
 * file, a pasted name): afterwards its search text, parts text, tag keys and lead-source index fold them as
 * typed, and nothing else moved (no version, no updated_at).
 */
async function refoldsStoredText(db: Db) {
  await migrateBefore(db, 18);
  const [org] = await db.query<{ id: number }>("insert into organizations (name) values ('Before Eighteen') returning id");
  const [marked, plain] = await db.query<{ id: number }>(
    `insert into customers (org_id, name, company, tags, lead_source) values
       ($1, 'Renée “Ree” O’Brien', 'Smith – Sons', array['O’Brien job'], 'Word—of—mouth'), ($1, 'Bo Fay', null, array['o''brien job'], null) returning id`,
    [org!.id],
  );
  await db.query("insert into customer_locations (org_id, customer_id, label, city) values ($1, $2, 'Rental ‘Oak’', 'Tigard')", [org!.id, marked!.id]);
  await db.query("insert into customer_contacts (org_id, customer_id, name) values ($1, $2, 'Pat Oʼ Neil')", [org!.id, plain!.id]);
  const before = await db.query<{ version: number; updated_at: Date }>('select version, updated_at from customers where org_id = $1 order by id', [org!.id]);
  await expectOnlyMigration(db, 18);
  const rows = await db.query<{ search_key: string; parts_key: string | null; tag_keys: string[]; version: number; updated_at: Date }>(
    'select search_key, parts_key, tag_keys, version, updated_at from customers where org_id = $1 order by id',
    [org!.id],
  );
  expect(rows.map((r) => r.search_key.replace(/ +/g, ' ').trim())).toEqual(['renee "ree" o\'brien smith - sons', 'bo fay']);
  expect(rows.map((r) => r.parts_key?.replace(/ +/g, ' ').trim() ?? null)).toEqual(["rental 'oak' tigard", "pat o' neil"]);
  expect(rows.map((r) => r.tag_keys)).toEqual([["o'brien job"], ["o'brien job"]]);
  expect(rows.map((r) => [r.version, r.updated_at])).toEqual(before.map((r) => [r.version, r.updated_at]));
  // One tag key for the tag however its apostrophe was written, counting both customers.
  expect(await db.query('select tag_key, n::int as n from customer_tags where org_id = $1', [org!.id])).toEqual([{ tag_key: "o'brien job", n: 2 }]);
  const [source] = await db.query<{ n: number }>(
    "select count(*)::int as n from customers where org_id = $1 and deleted_at is null and lead_source is not null and crm_fold(lead_source) = 'word-of-mouth'",
    [org!.id],
  );
  expect(source!.n).toBe(1);
}

describe('migration 18 on a database with curly quotes and dashes (PGlite)', () => {
  const open = pgliteDb(() => freshDataDir('pglite-migration-18'));
  test('D45 stored text is folded anew: ’ “ ” – — as \' " -, in search text, parts, tag keys and the lead-source index', async () => {
    await refoldsStoredText(await open());
  });
});

describePostgres('migration 18 on a database with curly quotes and dashes (PostgreSQL)', (databaseUrl) => {
  const open = postgresDb(databaseUrl);
  test('D45 stored text is folded anew: ’ “ ” – — as \' " -, in search text, parts, tag keys and the lead-source index', async () => {
    await refoldsStoredText(await open());
  });
});

describePostgres('D34 start-up bulk work under a short statement timeout (PostgreSQL)', (databaseUrl) => {
  // An ordinary statement may take 1.5 s here; a new organization whose name begins with 'Acme' takes 2 s
  // (a busy machine may slow any statement, so the margins are seconds, not milliseconds).
  const LIMIT_MS = 1_500;
  const openSetup = postgresDb(databaseUrl);
  const open = postgresDb(databaseUrl, { statementTimeoutMs: LIMIT_MS });
  let db: Db | null = null;
  beforeAll(async () => {
    const setup = await openSetup();
    await migrate(setup);
    await setup.query(`create function slow_row() returns trigger language plpgsql as $$ begin perform pg_sleep(2); return new; end $$`);
    await setup.query(`create trigger slow_row before insert on organizations for each row when (new.name like 'Acme%') execute function slow_row()`);
    db = await open();
  });

  test('D34 the ordinary limit holds: a 2 s statement is cancelled', async () => {
    await expect(db!.transaction((tx) => tx.query(`insert into organizations (name) values ('Acme, too slow')`))).rejects.toThrow(/statement timeout/);
  });

  test('D34 the demo seed is start-up bulk work, as a migration: a statement slower than the ordinary limit does not fail a start', async () => {
    expect(await seedDemo(db!, { log2N: 4, r: 1, p: 1 }, Date.now())).toBe(true);
    const [row] = await db!.query<{ n: number }>('select count(*)::int as n from organizations');
    expect(row?.n).toBe(2);
  });
});
