// Issue 36 at scale, for bench/list.mjs: (D56) custom fields on the bench's customers and the list's cases
// that filter and sort by them; (the list's own searches) a second organization of customers named
// 'Person <32 hex digits>', whose text shares little with a person's search, and the searches that found
// the planner walking the sort index while nothing matched. `g` is a customer's number (1…count).
import { createHash } from 'node:crypto';

const sqlList = (items) => `array[${items.map((s) => `'${s.replace(/'/g, "''")}'`).join(', ')}]`;
const enc = encodeURIComponent;
const pad = (n, width) => String(n).padStart(width, '0');

/** D56: the bench's fields (keys of its own, so they never meet the demo's). */
const FIELDS = [
  { key: 'bench_model', label: 'Heater model (bench)', type: 'text', options: [] },
  { key: 'bench_serviced', label: 'Last service (bench)', type: 'date', options: [] },
  { key: 'bench_amps', label: 'Amperage (bench)', type: 'number', options: [] },
  {
    key: 'bench_plan',
    label: 'Plan (bench)',
    type: 'choice',
    options: [
      { id: 'o1', label: 'Basic' },
      { id: 'o2', label: 'Plus' },
      { id: 'o3', label: 'Premium' },
    ],
  },
  { key: 'bench_gate', label: 'Gate code (bench)', type: 'text', options: [] },
  { key: 'bench_contract', label: 'Service contract (bench)', type: 'text', options: [] },
];
/** 40 models: 8 brands × 5 sizes. */
const MODELS = ['Rheem', 'Bradford White', 'A.O. Smith', 'State', 'Navien', 'Rinnai', 'Noritz', 'Bosch'].flatMap((b) =>
  ['30', '40', '50', '75', '80'].map((s) => `${b} ${s}G`),
);
const DAY0 = Date.UTC(2021, 0, 1);
const dayText = (d) => new Date(DAY0 + d * 86_400_000).toISOString().slice(0, 10);

/**
 * Customer g's custom values: a model on 3 in 4, a last service date on 2 in 3 (over five years), an
 * amperage 1–1000 on 1 in 2, a plan on 1 in 3, a gate code ('#01234') on 1 in 5, a service contract
 * ('SC-123') on 1 in 4,000 (the field a business adds for a few: 50 of 200,000).
 */
export const customSql = (g) => `jsonb_strip_nulls(jsonb_build_object(
    'bench_model', case when ${g} % 4 <> 0 then (${sqlList(MODELS)})[1 + (${g} / 4) % ${MODELS.length}] end,
    'bench_serviced', case when ${g} % 3 <> 0 then to_char(date '2021-01-01' + ((${g} * 7919) % 1826), 'YYYY-MM-DD') end,
    'bench_amps', case when ${g} % 2 = 0 then ((${g} * 31) % 1000) + 1 end,
    'bench_plan', case when ${g} % 3 = 0 then (array['o1', 'o2', 'o3'])[1 + (${g} / 3) % 3] end,
    'bench_gate', case when ${g} % 5 = 0 then '#' || lpad(((${g} * 4813) % 100000)::text, 5, '0') end,
    'bench_contract', case when ${g} % 4000 = 7 then 'SC-' || ${g} end))`;

/** The fields' definitions, before the customers (the API checks the list's keys against them). */
export async function insertFields(query, orgId) {
  for (const [i, f] of FIELDS.entries())
    await query(
      // The options inline (the bench's own constants): a JSON parameter reads differently on each driver.
      `insert into custom_fields (org_id, record_kind, key, label, type, options, position)
       values ($1, 'customer', $2, $3, $4, '${JSON.stringify(f.options)}'::jsonb, $5) on conflict do nothing`,
      [orgId, f.key, f.label, f.type, 1000 + i],
    );
}

/** D56: every request asks for something else (another value, range, page or direction). */
export const CUSTOM_CASES = [
  {
    name: 'D56 text equals ("cf.bench_model=Rheem 30G"), pages',
    query: (i) => `?cf.bench_model=${enc(MODELS[i % MODELS.length])}&page=${1 + Math.floor(i / MODELS.length)}`,
  },
  { name: 'D56 text contains (gate code digits "0123")', query: (i) => `?cf.bench_gate.contains=${pad((123 + i * 37) % 10_000, 4)}` },
  { name: 'D56 number range (from a to a + 20)', query: (i) => `?cf.bench_amps.from=${1 + ((i * 7) % 980)}&cf.bench_amps.to=${21 + ((i * 7) % 980)}` },
  { name: 'D56 date range (30 days)', query: (i) => `?cf.bench_serviced.from=${dayText((i * 9) % 1790)}&cf.bench_serviced.to=${dayText(((i * 9) % 1790) + 30)}` },
  { name: 'D56 is empty, pages 1, 2, …', query: (i) => `?cf.bench_model.empty=true&page=${1 + i}` },
  {
    name: 'D56 choice equals with a status, pages',
    query: (i) => `?cf.bench_plan=o${1 + (i % 3)}&status=${['active', 'lead', 'inactive'][i % 3]}&page=${1 + Math.floor(i / 3)}`,
  },
  { name: 'D56 sort by a date, either way, pages 1, 2, …', query: (i) => `?sort=${i % 2 ? '-' : ''}cf.bench_serviced&page=${1 + Math.floor(i / 2)}` },
  { name: 'D56 sort by text, pages 1, 2, …', query: (i) => `?sort=${i % 2 ? '-' : ''}cf.bench_model&page=${1 + Math.floor(i / 2)}` },
  // Most customers have no value: past the first page the list is those without, by id.
  { name: 'D56 sort by a field few hold (50), pages 1, 2, …', query: (i) => `?sort=${i % 2 ? '-' : ''}cf.bench_contract&page=${1 + Math.floor(i / 2)}` },
  {
    name: 'D56 sort by a number with a choice, pages',
    query: (i) => `?sort=${i % 2 ? '-' : ''}cf.bench_amps&cf.bench_plan=o${1 + (i % 3)}&page=${1 + Math.floor(i / 6)}`,
  },
  { name: 'D56 sort by a date with a tag, pages', query: (i) => `?sort=-cf.bench_serviced&tag=${['Boiler', 'vip', 'North'][i % 3]}&page=${1 + Math.floor(i / 3)}` },
];

/** The 'Person' organization: the demo's other one, which the bench's owner also belongs to. */
export const PERSONS_ORG = 'Beacon Electric';
const hex = (s) => createHash('md5').update(s).digest('hex');
/** Person g's email (10 hex digits at example.net) and phone digits ('503' and 7 more), as the SQL writes them. */
const personEmail = (g) => `${hex(`e${g}`).slice(0, 10)}@example.net`;
const personLine = (g) => pad((g * 7919) % 10_000_000, 7);

/** Persons: 'Person <md5>', an email of hex digits, a phone '503-xxxxxxx'. $1 = organization, $2 = count. */
export const INSERT_PERSONS_SQL = `
  insert into customers (org_id, name, email, phone, created_at)
  select $1::integer, 'Person ' || md5('p' || g), left(md5('e' || g), 10) || '@example.net',
         '503-' || lpad(((g * 7919) % 10000000)::text, 7, '0'), now() - make_interval(secs => g * 97)
    from generate_series(1, $2::integer) as g`;

/** The searches of issue 36 over the persons: a typo matching nothing, an email fragment, phone digits, deep pages. */
export const personCases = (count) => {
  const who = (i) => 1 + ((i * 7919) % count);
  return [
    { org: PERSONS_ORG, name: 'Persons: a typo matching nothing ("zzzzq0", …)', query: (i) => `?q=zzzzq${i}` },
    { org: PERSONS_ORG, name: 'Persons: an email fragment (6 hex digits)', query: (i) => `?q=${personEmail(who(i)).slice(2, 8)}` },
    { org: PERSONS_ORG, name: 'Persons: phone digits (7)', query: (i) => `?q=${personLine(who(i))}` },
    { org: PERSONS_ORG, name: 'Persons: pages 4000, 4001, …', query: (i) => `?page=${4000 + i}&page_size=25` },
    { org: PERSONS_ORG, name: 'Persons: a name fragment ("Person 3fa", …)', query: (i) => `?q=${enc(`person ${hex(`p${who(i)}`).slice(0, 3)}`)}` },
  ];
};
