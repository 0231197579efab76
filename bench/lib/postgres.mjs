// A throwaway PostgreSQL server for the benchmarks, started by the same code the server suite uses
// (test/server/postgres-cluster.ts, compiled on the fly with esbuild so there is one copy of the logic):
// initdb into a temp dir, listen on a free loopback port; stop() stops it and deletes the directory.
// As root it runs PostgreSQL as the `postgres` OS user. PG_BIN overrides where the binaries are found.
import * as esbuild from 'esbuild';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { root } from './servers.mjs';

const SOURCE = path.join(root, 'test/server/postgres-cluster.ts');
// Under node_modules so that the compiled module resolves packages like the rest of the repository.
const COMPILED = path.join(root, 'node_modules/.cache/crm-bench/postgres-cluster.mjs');

/** { url, stop() }, or null when no PostgreSQL binaries are installed. */
export async function startPostgres() {
  await esbuild.build({ entryPoints: [SOURCE], outfile: COMPILED, bundle: true, platform: 'node', format: 'esm', packages: 'external', logLevel: 'warning' });
  const { findPostgresBin, startCluster } = await import(pathToFileURL(COMPILED).href);
  const bin = findPostgresBin();
  return bin ? startCluster(bin) : null;
}
