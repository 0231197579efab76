// Crash safety, on PGlite and on PostgreSQL: the BUILT server (dist/server/main.mjs) runs as a child
// process while signed-in clients create, update and delete customers, add notes and refresh their
// tokens; it is killed with SIGKILL at seeded random moments and started again on the same data
// directory or database, several times. After every restart, and at the end:
//   - every acknowledged write (a 2xx answer received) is there, in its latest acknowledged state; the
//     one write per client whose answer the kill cut off may or may not be there (both are fine);
//   - nothing is half there: each customer has its creation entry in the audit log, as many update
//     entries as its version says, a delete entry exactly when deleted; each note its customer and its
//     entry; no entry names a customer or note that does not exist; customer_counts (kept by
//     statement-level triggers) equals the real counts; every live session has exactly one unused
//     refresh token;
//   - sessions survive: each client's last acknowledged access token still works and its last
//     acknowledged refresh token still refreshes, by D8's rules when the kill cut off a refresh;
//   - the database opens cleanly: health answers, migrations ran once, the server logs no error.
// At the end the server is stopped cleanly, and no secret (secrets.ts: the tokens and passwords the
// clients used, the invitation token, every password hash, the JWT secret the server was given) is in
// its logs of every run, in an error answer the clients received, or in an audit entry.
//
// CRASH_SEED=<n> replays a run's choices (kill moments, operations); CRASH_KILLS=<n> changes the kills
// per backend (default 5). The figures are printed at the end of each backend's run.
import { describe, expect, inject, test } from 'vitest';
import { freshPostgresDatabase } from '../server/backends';
import { freshDataDir, removeDir } from '../server/helpers';
import { crashScenario } from './crash-harness';
import { ensureBuild } from './crash-server';

// Generous timeouts: a slow, shared machine makes the run longer (fewer kills past the budget), never a failure.
describe('crash safety: SIGKILL under load, restart, nothing acknowledged lost, nothing half written', () => {
  ensureBuild();

  test('PGlite (data directory)', { timeout: 600_000 }, async () => {
    const dataDir = await freshDataDir('crash-data'); // a copy of an initdb'd template: no server has opened it
    try {
      await crashScenario('PGlite', { dataDir });
    } finally {
      removeDir(dataDir);
    }
  });

  const postgresUrl = inject('postgresUrl');
  if (!postgresUrl) {
    const missing = inject('postgresMissing') || 'the resilience project was run without its global setup';
    if (process.env.CI === 'true') test('PostgreSQL is installed', () => expect.fail(missing));
    else test.skip(`PostgreSQL half skipped: ${missing}`, () => {});
    return;
  }
  test('PostgreSQL (a database of its own)', { timeout: 600_000 }, async () => {
    const database = await freshPostgresDatabase();
    try {
      await crashScenario('PostgreSQL', { databaseUrl: database.url });
    } finally {
      await database.drop();
    }
  });
});
