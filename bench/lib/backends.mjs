// Every benchmark measures PGlite (a fresh data directory) and then PostgreSQL (a throwaway cluster)
// the same way: this runs one measurement on each and cleans up after it, however it ends.
import { rmSync } from 'node:fs';
import { startPostgres } from './postgres.mjs';
import { startCrm, tempDir } from './servers.mjs';

/** The backends named in an environment variable's value ('pglite,postgres' when unset). */
export const backendsFrom = (raw) => (raw ?? 'pglite,postgres').split(',').map((b) => b.trim().toLowerCase());

/**
 * Runs `run(label, db)` with `db` = `{ dataDir }` for PGlite, then `{ databaseUrl }` for PostgreSQL.
 * Without PostgreSQL binaries that half is a MISS in `verdicts` ("not measured"), not a silent skip.
 */
export async function onBackends(verdicts, run, which = ['pglite', 'postgres']) {
  if (which.includes('pglite')) {
    const dataDir = tempDir('crm-bench-');
    try {
      await run('PGlite', { dataDir });
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  if (!which.includes('postgres')) return;
  const pg = await startPostgres();
  if (!pg) {
    console.log('\nPostgreSQL: no binaries found (PG_BIN, PATH, the Debian layout): not measured');
    verdicts.figure('PostgreSQL', 'not measured: no binaries found', 'measured', false);
    return;
  }
  try {
    await run('PostgreSQL', { databaseUrl: pg.url });
  } finally {
    await pg.stop();
  }
}

/** Starts the built server on `db` (with `options` such as `env`), runs `fn(server)`, then stops it. */
export async function withCrm(db, fn, options = {}) {
  const server = await startCrm({ ...db, ...options });
  try {
    return await fn(server);
  } finally {
    await server.stop();
  }
}
