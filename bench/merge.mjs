// D49: what merging two customers costs (issue 19: ≤ 200 ms for two customers with 200 notes each), on
// PGlite and then PostgreSQL (the built server, SEED=demo, owner@demo.test in Acme Plumbing). MERGE_PAIRS
// pairs of customers, each with 200 notes, 2 locations and 2 contacts, are inserted with SQL while no
// server runs (bench/lib/fill.mjs), then analyzed; each pair is merged with POST /api/v1/customers/merge/
// (one field chosen), one at a time, then each merge undone, one at a time. p50 and p99 of each; the
// first pair is the example (a cold server), not measured.
//   node bench/merge.mjs [--check]      (npm run bench:merge)      MERGE_PAIRS=61 MERGE_NOTES=200 MERGE_TIMES=1
// Budget: the merge's p99 ≤ 200 ms on each database; every answer a 200. The undo's figures have no budget.
import { build } from '../build.mjs';
import { API, authHeaders, login, orgIdOf, ORG_NAME, OWNER } from './lib/crm.mjs';
import { fillDatabase } from './lib/fill.mjs';
import { json, request } from './lib/http.mjs';
import { envNumber, table, Verdicts } from './lib/report.mjs';
import { fmtMs, percentile } from './lib/stats.mjs';
import { onBackends, withCrm } from './lib/backends.mjs';

const PAIRS = envNumber('MERGE_PAIRS', 61);
const NOTES = envNumber('MERGE_NOTES', 200);
const BUDGET_MS = 200;

/** $1 organization, $2 pairs, $3 notes each: customers 'Merge Bench {n} A' and '… B', ids answered in pair order. */
const INSERT_SQL = `
  insert into customers (org_id, name, email, phone, city, tags)
  select $1::integer, 'Merge Bench ' || g || ' ' || s, 'merge.bench.' || g || lower(s) || '@example.test', '(503) 555-' || lpad((g % 10000)::text, 4, '0'),
         (array['Portland', 'Tigard', 'Salem'])[1 + g % 3], array['bench', 'pair' || s]
    from generate_series(1, $2::integer) g, unnest(array['A', 'B']) s
  returning id, name`;

async function fill(query, pairs, notes) {
  const [org] = await query('select id from organizations where name = $1', [ORG_NAME]);
  if (!org) throw new Error(`no organization ${ORG_NAME}`);
  const rows = await query(INSERT_SQL, [org.id, pairs]);
  const id = (name) => Number(rows.find((r) => r.name === name)?.id);
  const ids = Array.from({ length: pairs }, (_, g) => [id(`Merge Bench ${g + 1} A`), id(`Merge Bench ${g + 1} B`)]);
  const all = `string_to_array($2, ',')::int[]`;
  await query(
    `insert into customer_notes (org_id, customer_id, body, created_at, updated_at)
     select $1::integer, c, 'Bench note ' || n || ': checked the water heater and the shut-off valve.', now() - make_interval(hours => n), now() - make_interval(hours => n)
       from unnest(${all}) c, generate_series(1, $3::integer) n`,
    [org.id, ids.flat().join(','), notes],
  );
  await query(
    `insert into customer_locations (org_id, customer_id, label, city, is_primary) select $1::integer, c, 'Site ' || n, 'Bend', n = 1 from unnest(${all}) c, generate_series(1, 2) n`,
    [org.id, ids.flat().join(',')],
  );
  await query(
    `insert into customer_contacts (org_id, customer_id, name, role) select $1::integer, c, 'Contact ' || n, 'tenant' from unnest(${all}) c, generate_series(1, 2) n`,
    [org.id, ids.flat().join(',')],
  );
  for (const t of ['customers', 'customer_notes', 'customer_locations', 'customer_contacts']) await query(`vacuum analyze ${t}`);
  return ids;
}

async function timed(fn) {
  const t0 = performance.now();
  const r = await fn();
  return { r, ms: performance.now() - t0 };
}

async function measure(label, server, ids, verdicts) {
  const { access } = await login(server.url, OWNER);
  const headers = { ...authHeaders(access, await orgIdOf(server.url, access)), 'Content-Type': 'application/json' };
  const post = (path, body) => request(server.url + API + path, { method: 'POST', headers, body: body === undefined ? null : JSON.stringify(body), timeoutMs: 60_000 });
  // The first merge and its undo are the example, not measured (as list.mjs's first request): they meet
  // a cold server (its statements not yet prepared, the tables not yet in memory).
  const [first, ...measured] = ids;
  const example = await post('/customers/merge/', { survivor_id: first[0], merged_id: first[1], fields: { city: 'merged' } });
  const undone = await post(`/customers/merges/${json(example)?.merge_id}/undo/`);
  console.log(`\n${label}: the example merge ${example.status}, its undo ${undone.status}: ${example.body.toString('utf8').slice(0, 100)}…`);
  const merges = [];
  const mergeIds = [];
  let bad = 0;
  for (const [survivor, merged] of measured) {
    const { r, ms } = await timed(() => post('/customers/merge/', { survivor_id: survivor, merged_id: merged, fields: { city: 'merged' } }));
    if (r.status !== 200) bad++;
    else mergeIds.push(json(r).merge_id);
    merges.push(ms);
  }
  if (process.env.MERGE_TIMES) console.log(merges.map((ms) => ms.toFixed(0)).join(' '));
  const undos = [];
  for (const id of mergeIds) {
    const { r, ms } = await timed(() => post(`/customers/merges/${id}/undo/`));
    if (r.status !== 200) bad++;
    undos.push(ms);
  }
  const stats = (xs) => {
    const s = [...xs].sort((a, b) => a - b);
    return { p50: percentile(s, 50), p99: percentile(s, 99), max: s[s.length - 1] };
  };
  const [m, u] = [stats(merges), stats(undos)];
  const ok = bad === 0;
  const verdict = verdicts.figure(
    `${label} merge (${NOTES} notes each): p99${ok ? '' : ` (${bad} not 200)`}`,
    fmtMs(m.p99),
    `≤ ${BUDGET_MS} ms`,
    ok && m.p99 <= BUDGET_MS,
  );
  verdicts.figure(`${label} merge: p50`, fmtMs(m.p50), '', null);
  verdicts.figure(`${label} undo: p50 / p99`, `${fmtMs(u.p50)} / ${fmtMs(u.p99)}`, '', null);
  console.log('');
  table(
    ['', 'n', 'p50', 'p99', 'max', 'budget'],
    [
      [`${label} POST /customers/merge/`, merges.length, fmtMs(m.p50), fmtMs(m.p99), fmtMs(m.max), verdict],
      [`${label} POST /customers/merges/{id}/undo/`, undos.length, fmtMs(u.p50), fmtMs(u.p99), fmtMs(u.max), ''],
    ],
  );
}

await build();
const verdicts = new Verdicts('merge');
await onBackends(verdicts, async (label, db) => {
  await withCrm(db, async () => {}); // the schema and the demo data, then the server stops (PGlite: one owner)
  const t0 = performance.now();
  const ids = await fillDatabase(db, (query) => fill(query, PAIRS, NOTES));
  console.log(`\n${label}: ${PAIRS} pairs of customers with ${NOTES} notes each inserted and analyzed in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  await withCrm(db, (server) => measure(label, server, ids, verdicts));
});
verdicts.finish();
