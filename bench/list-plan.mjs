// The customers list's statements as PostgreSQL runs them for the server: the same text and parameters
// (server/customer-list.ts, compiled on the fly), prepared and executed six times on one connection, as
// a pooled connection does (with its settings: no JIT), so the plan shown is the one the plan cache settled on (generic or custom),
// then EXPLAIN (ANALYZE, BUFFERS) of one more execution. A throwaway PostgreSQL with the demo data (the
// sizes bench/api.mjs measures at: Acme Plumbing's customers), or more with LIST_PLAN_CUSTOMERS.
//   node bench/list-plan.mjs                        every case below
//   node bench/list-plan.mjs browse search           some of them
//   LIST_PLAN_CUSTOMERS=200000 node bench/list-plan.mjs   tops Acme Plumbing up first (generated rows)
import * as esbuild from 'esbuild';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import postgres from 'postgres';
import { build } from '../build.mjs';
import { ORG_NAME } from './lib/crm.mjs';
import { startPostgres } from './lib/postgres.mjs';
import { envNumber } from './lib/report.mjs';
import { root, startCrm } from './lib/servers.mjs';

const CASES = {
  browse: { q: null, sort: 'name', page: 1, pageSize: 25 },
  'deep page': { q: null, sort: '-updated_at', page: 40, pageSize: 25 },
  search: { q: 'ack', sort: '-updated_at', page: 1, pageSize: 25 },
  'phone search': { q: '555-01', sort: 'name', page: 1, pageSize: 100 },
};
const RUNS_BEFORE = 6; // the plan cache decides between a generic and custom plans after five executions

const SOURCE = path.join(root, 'server/customer-list.ts');
const COMPILED = path.join(root, 'node_modules/.cache/crm-bench/customer-list.mjs');
await esbuild.build({ entryPoints: [SOURCE], outfile: COMPILED, bundle: true, platform: 'node', format: 'esm', packages: 'external', logLevel: 'warning' });
const { listCustomersJson } = await import(pathToFileURL(COMPILED).href);

/** The statement and parameters listCustomersJson sends for `f`. */
async function statementOf(orgId, f) {
  let sent = null;
  await listCustomersJson({ query: async (text, params) => ((sent = { text, params }), [{ body: '{}' }]) }, orgId, { status: null, tag: null, ...f });
  return sent;
}

const literal = (v) => (v === null ? 'null' : typeof v === 'number' ? String(v) : `'${String(v).replace(/'/g, "''")}'`);

await build();
const pg = await startPostgres();
if (!pg) throw new Error('no PostgreSQL binaries found');
const sql = postgres(pg.url, { max: 1, onnotice: () => {}, connection: { jit: 'off' } }); // as server/db-postgres.ts
try {
  const server = await startCrm({ databaseUrl: pg.url }); // migrations and the demo data
  await server.stop();
  const [{ id: orgId }] = await sql`select id from organizations where name = ${ORG_NAME}`;
  const wanted = envNumber('LIST_PLAN_CUSTOMERS', 0);
  if (wanted) {
    await sql`insert into customers (org_id, name, email, status)
              select ${orgId}, 'Generated ' || g, 'generated' || g || '@example.test', 'active'
                from generate_series(1, ${wanted}) g`;
    await sql`analyze`;
  }
  const [{ n }] = await sql`select count(*)::int as n from customers where org_id = ${orgId} and deleted_at is null`;
  console.log(`PostgreSQL, ${ORG_NAME}: ${n} live customers`);
  const names = process.argv.slice(2).length ? process.argv.slice(2) : Object.keys(CASES);
  for (const [i, name] of names.entries()) {
    const { text, params } = await statementOf(orgId, CASES[name]);
    const args = `(${params.map(literal).join(', ')})`;
    await sql.unsafe(`prepare list_${i} as ${text}`);
    for (let k = 0; k < RUNS_BEFORE; k++) await sql.unsafe(`execute list_${i}${args}`);
    const plan = await sql.unsafe(`explain (analyze, buffers) execute list_${i}${args}`);
    console.log(`\n${name}: ${JSON.stringify(CASES[name])}`);
    for (const row of plan) console.log(row['QUERY PLAN']);
  }
} finally {
  await sql.end({ timeout: 5 });
  await pg.stop();
}
