// Filling a benchmark's database with SQL while no server holds it: PGlite's data directory opened with
// @electric-sql/pglite (the server stopped: one process owns it), PostgreSQL through the `postgres`
// package. `fill(query)` gets one function running SQL on either driver, answering the rows.
import path from 'node:path';

/** Where the server keeps PGlite's files inside DATA_DIR. */
const PGLITE_SUBDIR = 'pgdata';

/** PGlite on the server's data directory, with the contrib extensions its schema uses (e.g. pg_trgm). */
export async function openPglite(dataDir) {
  const { PGlite } = await import('@electric-sql/pglite');
  const dir = path.join(dataDir, PGLITE_SUBDIR);
  const probe = await PGlite.create(dir);
  let names;
  try {
    names = (await probe.query("select extname from pg_extension where extname <> 'plpgsql'")).rows.map((r) => r.extname);
  } finally {
    await probe.close();
  }
  const extensions = {};
  for (const name of names) {
    const mod = await import(`@electric-sql/pglite/contrib/${name}`).catch(() => null);
    if (!mod?.[name]) throw new Error(`the schema uses the extension ${name}, which this script cannot load from @electric-sql/pglite/contrib`);
    extensions[name] = mod[name];
  }
  return PGlite.create(dir, { extensions });
}

/** Runs `fill(query)` on the backend's database (`{ dataDir }` or `{ databaseUrl }`, as bench/lib/backends.mjs gives it). */
export async function fillDatabase(db, fill) {
  if (db.dataDir) {
    const pg = await openPglite(db.dataDir);
    try {
      return await fill(async (text, params = []) => (await pg.query(text, params)).rows ?? []);
    } finally {
      await pg.close();
    }
  }
  const { default: postgres } = await import('postgres');
  const sql = postgres(db.databaseUrl, { max: 1, onnotice: () => {} });
  try {
    return await fill((text, params = []) => sql.unsafe(text, params));
  } finally {
    await sql.end({ timeout: 5 });
  }
}
