// Sustained mixed load (D2) on both databases, one after the other: 200 concurrent keep-alive clients
// for 60 s, each with its own session, 70% reads (me, the customers list, one customer), 20% writes
// (create, update with its version, add a note, delete and restore) and 10% refreshes. Meanwhile a health
// check on a NEW connection every 2 s, and the server's RSS at the middle and the end. Every figure is
// printed with its budget and PASS/MISS (the budgets and what counts as an error: lib/sustained-load.mjs).
// The resilience suite runs the same code for 15 s on each database (test/resilience/load.test.ts).
//   node bench/load.mjs [seconds] [--check]      (npm run bench:load)
//   LOAD_DURATION_S=60 LOAD_CLIENTS=200 LOAD_SESSIONS=<clients>   (fewer sessions: clients share them
//   as browser tabs do, one refresh at a time per session)
//   LOAD_BACKENDS=pglite,postgres   (both by default; PostgreSQL is a throwaway cluster, lib/postgres.mjs)
//   LOAD_SERVER_LOG=<dir>   keeps each server's output there (load-pglite.log, load-postgresql.log)
// With --check the exit code is 1 on any MISS.
import os from 'node:os';
import path from 'node:path';
import { build } from '../build.mjs';
import { envNumber, Verdicts } from './lib/report.mjs';
import { printSustainedLoad, runSustainedLoad } from './lib/sustained-load.mjs';
import { backendsFrom, onBackends } from './lib/backends.mjs';

const positional = process.argv.slice(2).find((a) => /^\d+(\.\d+)?$/.test(a));
const DURATION_S = positional ? Number(positional) : envNumber('LOAD_DURATION_S', 60);
const CLIENTS = envNumber('LOAD_CLIENTS', 200);
const SESSIONS = Math.min(CLIENTS, envNumber('LOAD_SESSIONS', CLIENTS));
const BACKENDS = backendsFrom(process.env.LOAD_BACKENDS);

await build();
const verdicts = new Verdicts('load');
console.log(
  `node ${process.version}, ${os.cpus().length} CPU(s), load average ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')} (1, 5, 15 min)`,
);
console.log(`SEED=demo; ${CLIENTS} clients, ${SESSIONS} sessions, ${DURATION_S} s per database`);
const log = (line) => console.log(line);
const keepLog = (backend) => (process.env.LOAD_SERVER_LOG ? path.join(process.env.LOAD_SERVER_LOG, `load-${backend.toLowerCase()}.log`) : null);

await onBackends(
  verdicts,
  async (backend, db) =>
    printSustainedLoad(await runSustainedLoad({ backend, ...db, durationS: DURATION_S, clients: CLIENTS, sessions: SESSIONS, log, keepLog: keepLog(backend) }), verdicts),
  BACKENDS,
);

console.log('');
console.log(
  `load average at the end: ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')} (1, 5, 15 min)`,
);
verdicts.finish();
