// The attacks of the fair-share bench (bench/fair.mjs): each is what one member, or one stranger, does
// to the server while the bystanders (fair-victim.mjs) work. Each returns { summary, checks }: a line
// about the attacker's side and its own budget checks ({ figure, value, budget, ok }, ok null = no budget).
// The requests themselves are built in fair-calls.mjs.
import { readFileSync } from 'node:fs';
import { ADDRESS, calls, customerCount, customersCsv, EXPORTER, FLOOD_EMAIL, FRAGMENTS, GOOD_LOGIN, latestWrites, send, signIn, widePreviewCsv } from './fair-calls.mjs';
import { json } from './http.mjs';
import { fmtCounts, fmtMs } from './stats.mjs';

/** Sizes of the full run and of --quick (same attacks, smaller: a smoke run, not the budget). */
export const SIZES = {
  full: {
    importRows: 10_000,
    previewBytes: 5 * 1024 * 1024,
    previewRows: 10_000,
    columns: 1_000_000,
    columnRows: 5_000,
    searchCustomers: 50_000,
    searches: 48,
    flood: 700,
    exportCustomers: 200_000,
    fieldCustomers: 200_000,
    bulkCustomers: 10_000,
  },
  quick: {
    importRows: 2_000,
    previewBytes: 1024 * 1024,
    previewRows: 2_000,
    columns: 200_000,
    columnRows: 1_000,
    searchCustomers: 10_000,
    searches: 12,
    flood: 150,
    exportCustomers: 20_000,
    fieldCustomers: 20_000,
    bulkCustomers: 2_000,
  },
};
/** Time limit of one heavy call (an import, a preview, one request of a flood); a run always ends. */
export const ATTACK_TIMEOUT_MS = 60_000;
export const BUDGET = { updateImportMs: { PGlite: 5000 }, goodLoginMs: 2000, bulkMs: { PGlite: 2000, PostgreSQL: 1000 } };

const secs = (ms) => `${(ms / 1000).toFixed(1)} s`;
const outcome = (r) => (r.error ? `no answer (${r.error})` : `HTTP ${r.status}`);
const took = (r) => `${r.error === 'timeout' ? '≥ ' : ''}${secs(r.ms)}`;
const countsOf = (results) =>
  fmtCounts(
    results.reduce((acc, r) => {
      const k = r.error ?? String(r.status);
      acc[k] = (acc[k] ?? 0) + 1;
      return acc;
    }, {}),
  );

/** One import from the attacker; { r, body }. */
async function importAs(ctx, csv, mode) {
  const r = await send(ctx.url, calls.importFile(ctx.attacker, csv, mode), { address: ctx.attacker.address, timeoutMs: ATTACK_TIMEOUT_MS });
  return { r, body: r.status === 200 ? json(r) : null };
}
const importLine = (what, { r, body }) =>
  `${what}: ${outcome(r)} in ${took(r)}${body ? ` (${body.created} created, ${body.updated} updated, ${body.skipped} skipped)` : ''}`;

/**
 * (1) A create import of N rows, the same people with another city and on_duplicate=update (the
 * budget's call), then that second file once more: it must change nothing.
 */
async function importScenario(ctx) {
  const { importRows } = ctx.size;
  const tag = `fair${Date.now().toString(36)}`;
  const created = await importAs(ctx, customersCsv(tag, importRows, 'Portland'), 'skip');
  const changed = customersCsv(tag, importRows, 'Salem');
  const updated = await importAs(ctx, changed, 'update');
  const before = await latestWrites(ctx.url, ctx.attacker);
  const again = await importAs(ctx, changed, 'update');
  const after = await latestWrites(ctx.url, ctx.attacker);
  const nothing = again.r.status === 200 && before === after;
  const budget = BUDGET.updateImportMs[ctx.backend];
  const rows = importRows.toLocaleString('en-US');
  return {
    summary: [importLine(`create import of ${rows} rows`, created), importLine('update import (city changed)', updated), importLine('the same file again', again)].join(
      '; ',
    ),
    checks: [
      { figure: `${rows}-row create import`, value: `${took(created.r)}, ${outcome(created.r)}`, budget: 'none set', ok: null },
      {
        figure: `${rows}-row update import`,
        value: `${took(updated.r)}, ${outcome(updated.r)}`,
        budget: budget ? `≤ ${secs(budget)}, 200` : 'none set',
        ok: budget ? updated.r.status === 200 && updated.r.ms <= budget : null,
      },
      {
        figure: 'the same update file again changes nothing (latest versions)',
        value: nothing ? 'nothing changed' : again.r.status === 200 ? `rows rewritten (${again.body?.updated ?? '?'} updated)` : outcome(again.r),
        budget: 'nothing changed',
        ok: nothing,
      },
    ],
  };
}

/** (2) The widest preview: one header of millions of empty columns, then many one-cell rows. */
function previewScenario(bytes, rows, label) {
  return async (ctx) => {
    const csv = widePreviewCsv(bytes(ctx.size), rows(ctx.size));
    const r = await send(ctx.url, calls.preview(ctx.attacker, csv), { address: ctx.attacker.address, timeoutMs: ATTACK_TIMEOUT_MS });
    const columns = (csv.indexOf('\n') - 'name'.length).toLocaleString('en-US');
    return {
      summary: `${label}: ${(Buffer.byteLength(csv) / 1024 / 1024).toFixed(1)} MB, ${columns} columns, ${rows(ctx.size).toLocaleString('en-US')} rows: ${outcome(r)} in ${took(r)}, answer ${(r.body.length / 1024 / 1024).toFixed(1)} MB`,
      checks: [{ figure: `${label} (attacker)`, value: `${took(r)}, ${outcome(r)}`, budget: 'none set', ok: null }],
    };
  };
}

/**
 * Makes sure the attacker's organization has `searchCustomers` customers, with create imports of
 * files of at most 10,000 rows (set-up: the bystanders are not running yet).
 */
export const fillForSearch = (ctx) => fill(ctx, ctx.size.searchCustomers);

async function fill(ctx, want) {
  const t0 = performance.now();
  let have = await customerCount(ctx.url, ctx.attacker);
  for (let k = 0; have < want && k < 40; k++) {
    const n = Math.min(10_000, want - have);
    const { r } = await importAs(ctx, customersCsv(`fill${Date.now().toString(36)}x${k}`, n), 'skip');
    if (r.status !== 200) throw new Error(`filling for the search: import of ${n} rows got ${outcome(r)}`);
    have = await customerCount(ctx.url, ctx.attacker);
  }
  return `${have.toLocaleString('en-US')} customers in ${ctx.attackerOrg} (filled in ${secs(performance.now() - t0)})`;
}

/**
 * (3) Concurrent deep searches by one member, no two alike: each fragment matches from about 1 in 24 to
 * 1 in 6 of the customers, asked for at page 10, 15, … of 100 (the total is counted either way).
 */
async function searchScenario(ctx) {
  const { searches } = ctx.size;
  const specs = Array.from({ length: searches }, (_, k) =>
    calls.list(ctx.attacker, `q=${FRAGMENTS[k % FRAGMENTS.length]}&page=${10 + 5 * Math.floor(k / FRAGMENTS.length)}&page_size=100`),
  );
  const t0 = performance.now();
  const results = await Promise.all(specs.map((s) => send(ctx.url, s, { address: ctx.attacker.address, timeoutMs: ATTACK_TIMEOUT_MS })));
  const ms = results.map((r) => r.ms).sort((a, b) => a - b);
  return {
    summary: `${searches} searches at once: ${countsOf(results)}; all answered in ${secs(performance.now() - t0)}, slowest ${fmtMs(ms[ms.length - 1])}`,
    checks: [{ figure: `${searches} deep searches at once (attacker)`, value: `${secs(performance.now() - t0)}, ${countsOf(results)}`, budget: 'none set', ok: null }],
  };
}

/** The server's resident memory now (the PGlite worker is a thread of it), in MB; null where /proc is not. */
function rssMb(pid) {
  try {
    const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) / 1024 : null;
  } catch {
    return null;
  }
}

/**
 * (6) D67: an owner downloads everything of an organization of 200,000 customers, while the bystanders
 * work; the server's memory is sampled every 50 ms (it must stay flat: the file is streamed).
 */
async function exportScenario(ctx) {
  const owner = await signIn(ctx.url, EXPORTER);
  const before = rssMb(ctx.pid);
  let peak = before ?? 0;
  const timer = setInterval(() => (peak = Math.max(peak, rssMb(ctx.pid) ?? 0)), 50);
  const r = await send(ctx.url, calls.exportAll(owner), { address: owner.address, timeoutMs: 4 * ATTACK_TIMEOUT_MS });
  clearInterval(timer);
  const mb = ((r.body?.length ?? 0) / 1024 / 1024).toFixed(1);
  const grew = before === null ? null : peak - before;
  return {
    summary: `everything of ${ctx.size.exportCustomers.toLocaleString('en-US')} customers: ${outcome(r)} in ${took(r)}, ${mb} MB; server memory ${before?.toFixed(0) ?? '?'} MB before, peak ${peak.toFixed(0)} MB`,
    checks: [
      { figure: 'export everything (attacker)', value: `${took(r)}, ${outcome(r)}`, budget: '200', ok: r.status === 200 },
      { figure: 'server memory growth during the export', value: grew === null ? 'not measured' : `${grew.toFixed(0)} MB`, budget: 'none set', ok: null },
    ],
  };
}

/**
 * (7) D56 D34 set-up: an owner's organization where `fieldCustomers` customers hold a value of one custom
 * field, made by imports of 10,000 (each its own tag in the emails) and a bulk change per import (D58).
 */
async function fillField(ctx) {
  const owner = await signIn(ctx.url, EXPORTER);
  const t0 = performance.now();
  const key = `tank_${Date.now().toString(36)}`;
  const made = await send(ctx.url, calls.field(owner, 'POST', '', { label: `Tank ${key}`, key, type: 'number' }), { address: owner.address });
  if (made.status !== 201) throw new Error(`making the field: ${outcome(made)}`);
  for (let k = 0; k * 10_000 < ctx.size.fieldCustomers; k++) {
    const tag = `cf${key.slice(5)}k${k}z`;
    const { r } = await importAs({ ...ctx, attacker: owner }, customersCsv(tag, 10_000), 'skip');
    if (r.status !== 200) throw new Error(`import ${k}: ${outcome(r)}`);
    const set = await send(ctx.url, calls.bulk(owner, { filter: `q=${tag}.`, count: 10_000, action: 'set_custom', custom: { [key]: k } }), {
      address: owner.address,
      timeoutMs: ATTACK_TIMEOUT_MS,
    });
    if (set.status !== 200) throw new Error(`bulk set ${k}: ${outcome(set)} ${set.body}`);
  }
  ctx.field = { owner, key, id: json(made).id };
  return `${ctx.size.fieldCustomers.toLocaleString('en-US')} customers holding ${key} (made in ${secs(performance.now() - t0)})`;
}

/** (7) D56 D34: the owner archives and deletes that field; the attack lasts until its key is free again (every value removed). */
async function fieldDeleteScenario(ctx) {
  const { owner, key, id } = ctx.field;
  await send(ctx.url, calls.field(owner, 'POST', `${id}/archive/`), { address: owner.address });
  const r = await send(ctx.url, calls.field(owner, 'DELETE', `${id}/`), { address: owner.address, timeoutMs: ATTACK_TIMEOUT_MS });
  const t0 = performance.now();
  let free = null;
  while (performance.now() - t0 < 4 * ATTACK_TIMEOUT_MS) {
    const again = await send(ctx.url, calls.field(owner, 'POST', '', { label: `Tank again ${key}`, key, type: 'number' }), { address: owner.address });
    if (again.status === 201) {
      free = performance.now() - t0;
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  const held = r.status === 200 ? json(r).records_with_value : null;
  return {
    summary: `delete of a field held by ${held?.toLocaleString('en-US') ?? '?'} customers: ${outcome(r)} in ${took(r)}; every value removed (its key free) ${free === null ? 'not within the time limit' : `after ${secs(free)}`}`,
    checks: [
      { figure: 'field delete answered (attacker)', value: `${took(r)}, ${outcome(r)}`, budget: '200', ok: r.status === 200 },
      { figure: 'every value removed after', value: free === null ? 'not within the limit' : secs(free), budget: 'none set', ok: free === null ? false : null },
    ],
  };
}

/** (8) D58 set-up: `bulkCustomers` customers of the owner's organization that one filter matches (an import, its own tag in the emails). */
async function fillBulk(ctx) {
  const owner = await signIn(ctx.url, EXPORTER);
  const tag = `bk${Date.now().toString(36)}z`;
  const { r } = await importAs({ ...ctx, attacker: owner }, customersCsv(tag, ctx.size.bulkCustomers), 'skip');
  if (r.status !== 200) throw new Error(`import: ${outcome(r)}`);
  ctx.bulk = { owner, filter: `q=${tag}.` };
  return `${ctx.size.bulkCustomers.toLocaleString('en-US')} customers matching ${ctx.bulk.filter}`;
}

/** (8) D58 D34: the owner tags every customer the filter matches (all N matching), then undoes it: each one call. */
async function bulkScenario(ctx) {
  const { owner, filter } = ctx.bulk;
  const n = ctx.size.bulkCustomers;
  const opts = { address: owner.address, timeoutMs: ATTACK_TIMEOUT_MS };
  const act = await send(ctx.url, calls.bulk(owner, { filter, count: n, action: 'add_tag', tag: 'bench-bulk' }), opts);
  const done = act.status === 200 ? json(act) : null;
  const undo = done ? await send(ctx.url, calls.bulkUndo(owner, done.bulk_id), opts) : null;
  const budget = BUDGET.bulkMs[ctx.backend];
  const restored = undo?.status === 200 ? json(undo).restored : null;
  return {
    summary: `tag ${n.toLocaleString('en-US')} matching customers: ${outcome(act)} in ${took(act)} (${done?.changed ?? '?'} changed); undo: ${undo ? `${outcome(undo)} in ${took(undo)} (${restored ?? '?'} restored)` : 'not run'}`,
    checks: [
      {
        figure: `bulk tag of ${n.toLocaleString('en-US')} (attacker)`,
        value: `${took(act)}, ${outcome(act)}`,
        budget: `≤ ${fmtMs(budget)}, 200`,
        ok: act.status === 200 && done?.changed === n && act.ms <= budget,
      },
      {
        figure: 'its undo (attacker)',
        value: undo ? `${took(undo)}, ${outcome(undo)}` : 'not run',
        budget: `≤ ${fmtMs(budget)}, 200`,
        ok: undo?.status === 200 && restored === n && undo.ms <= budget,
      },
    ],
  };
}

/** (4)(5) A flood from one address; a correct login from another address a moment after it starts. */
function floodScenario(label, spec) {
  return async (ctx) => {
    const n = ctx.size.flood;
    const t0 = performance.now();
    const flood = Promise.all(Array.from({ length: n }, () => send(ctx.url, spec(), { address: ADDRESS.flood, agent: false, timeoutMs: ATTACK_TIMEOUT_MS })));
    await new Promise((r) => setTimeout(r, 250));
    const good = await send(ctx.url, calls.login(GOOD_LOGIN.email), { address: GOOD_LOGIN.address, timeoutMs: ATTACK_TIMEOUT_MS });
    const results = await flood;
    const floodMs = performance.now() - t0;
    const ok = good.status === 200 && good.ms <= BUDGET.goodLoginMs;
    const refused = results.find((r) => r.status === 429);
    return {
      // The floor (fair.mjs): a bare node:http server answering this 429 to the same flood.
      floor: refused && {
        answers: { [spec().path]: refused },
        flood: (url) => Promise.all(Array.from({ length: n }, () => send(url, spec(), { address: ADDRESS.flood, agent: false, timeoutMs: ATTACK_TIMEOUT_MS }))),
      },
      summary: `${n} ${label} from one address: ${countsOf(results)} in ${secs(floodMs)}; a correct login from another address: ${outcome(good)} in ${fmtMs(good.ms)}`,
      checks: [
        { figure: `${n} ${label} (attacker)`, value: `${secs(floodMs)}, ${countsOf(results)}`, budget: 'none set', ok: null },
        { figure: 'a correct login from another address during it', value: `${fmtMs(good.ms)}, ${outcome(good)}`, budget: `≤ ${fmtMs(BUDGET.goodLoginMs)}, 200`, ok },
      ],
    };
  };
}

/** In the order they run; `group` is the name to choose them by on the command line. */
export const SCENARIOS = [
  { group: 'import', name: 'update import', run: importScenario },
  {
    group: 'preview',
    name: 'widest preview',
    run: previewScenario(
      (s) => s.previewBytes,
      (s) => s.previewRows,
      'preview, header of empty columns',
    ),
  },
  {
    group: 'preview',
    name: 'many-column preview',
    run: previewScenario(
      (s) => s.columns + 'name\n'.length + 2 * s.columnRows,
      (s) => s.columnRows,
      'preview, many columns, fewer rows',
    ),
  },
  { group: 'search', name: 'deep searches', setup: fillForSearch, run: searchScenario },
  { group: 'field', name: 'delete a custom field', setup: fillField, run: fieldDeleteScenario },
  { group: 'export', name: 'export everything', setup: (ctx) => fill(ctx, ctx.size.exportCustomers), run: exportScenario },
  { group: 'bulk', name: 'bulk tag and undo', setup: fillBulk, run: bulkScenario },
  { group: 'login', name: 'login flood', run: floodScenario('wrong-password logins', () => calls.login(FLOOD_EMAIL, 'wrong-password')) },
  { group: 'refresh', name: 'refresh flood', run: floodScenario('refreshes with random tokens', calls.randomRefresh) },
];
export const GROUPS = [...new Set(SCENARIOS.map((s) => s.group))];
