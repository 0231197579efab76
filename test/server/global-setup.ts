// The server suite's one PostgreSQL: a throwaway cluster started once for the whole run and shared by
// every test file through provide/inject; each file then makes a database of its own in it (backends.ts).
import type { TestProject } from 'vitest/node';
import { findPostgresBin, startCluster } from './postgres-cluster';

const POSTGRES_MISSING = 'PostgreSQL server binaries (initdb, pg_ctl, postgres) not found: install PostgreSQL (e.g. apt-get install -y postgresql) or set PG_BIN';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The cluster's admin URL (database `postgres`); empty when PostgreSQL is not installed. */
    postgresUrl: string;
    /** Empty when the PostgreSQL half can run; otherwise why it cannot. */
    postgresMissing: string;
  }
}

export default async function setup(project: TestProject) {
  const bin = findPostgresBin();
  if (!bin) {
    // Each file's PostgreSQL half then skips (locally) or fails (CI=true): see backends.ts.
    const notice = `\n*** SERVER SUITE: POSTGRESQL HALF NOT RUN: ${POSTGRES_MISSING} ***\n`;
    console.warn(notice);
    project.provide('postgresUrl', '');
    project.provide('postgresMissing', POSTGRES_MISSING);
    return () => console.warn(notice); // said again after the run, where it cannot scroll out of sight
  }
  const cluster = await startCluster(bin);
  project.provide('postgresUrl', cluster.url);
  project.provide('postgresMissing', '');
  return () => cluster.stop();
}
