// Every request the fair-share bench (bench/fair.mjs) makes, built in one place: when the API changes
// (an import staged in steps, a preview whose versions the commit sends back, device tokens at login),
// this is the file to adapt. Each call is a spec { method, path, headers, body, label }; send() adds the
// client address and sends it with a time limit (http.mjs request(), which never rejects).
//
// Client addresses: the bench starts the server with TRUST_PROXY=1, so the server takes each request's
// address from its X-Forwarded-For (server/http.ts clientAddress), as behind one reverse proxy. Every
// actor below has its own address from the documentation ranges (RFC 5737); the bench itself only ever
// connects to 127.0.0.1.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { API, CUSTOMERS, DEMO_PASSWORD, HEALTH, LOGIN, ME, REFRESH } from './crm.mjs';
import { expectStatus, json, request } from './http.mjs';

export const ADDRESS = {
  attacker: '203.0.113.10',
  victim: '203.0.113.20',
  health: '203.0.113.30',
  /** The one address every request of a login or refresh flood comes from. */
  flood: '198.51.100.66',
  /** The correct login sent during a flood. */
  goodLogin: '203.0.113.40',
};
export const IMPORT = `${CUSTOMERS}import/`;
export const PREVIEW = `${CUSTOMERS}import/preview/`;
export const DASHBOARD = `${API}/dashboard/`;
/** The attacker: a default member of Acme Plumbing (customers:create and customers:update). */
export const ATTACKER = { email: 'solo@demo.test', org: 'Acme Plumbing', address: ADDRESS.attacker };
/** The victim: a viewer in Beacon Electric, working normally. */
export const VICTIM = { email: 'viewer@demo.test', org: 'Beacon Electric', address: ADDRESS.victim };
/** Signs in during a flood, from its own address. */
export const GOOD_LOGIN = { email: 'owner@demo.test', address: ADDRESS.goodLogin };
/** The wrong-password flood's account: a real one nobody else in the bench uses. */
export const FLOOD_EMAIL = 'nobody@demo.test';

/** Sends a spec to the server at `url` from `address`; resolves with request()'s result. */
export function send(url, spec, { address, timeoutMs = 30_000, agent } = {}) {
  const headers = { ...spec.headers, ...(address ? { 'X-Forwarded-For': address } : {}) };
  return request(url + spec.path, { method: spec.method ?? 'GET', headers, body: spec.body ?? null, agent, timeoutMs });
}

const bearer = (session) => ({ Accept: 'application/json', Authorization: `Bearer ${session.access}`, 'X-Organization-ID': String(session.orgId) });
const csvBody = (session, csv) => ({ headers: { ...bearer(session), 'Content-Type': 'text/csv', 'Content-Length': String(Buffer.byteLength(csv)) }, body: csv });

export const calls = {
  login: (email, password = DEMO_PASSWORD) => ({ method: 'POST', path: LOGIN, body: { email, password }, label: 'login' }),
  /** A refresh token nobody was given: 32 random bytes, base64url, as the server's own look. */
  randomRefresh: () => ({ method: 'POST', path: REFRESH, body: { refresh_token: randomBytes(32).toString('base64url') }, label: 'refresh' }),
  health: () => ({ path: HEALTH, headers: { Accept: 'application/json' }, label: 'health' }),
  me: (session) => ({ path: ME, headers: { Accept: 'application/json', Authorization: `Bearer ${session.access}` }, label: 'me' }),
  dashboard: (session) => ({ path: DASHBOARD, headers: bearer(session), label: 'dashboard' }),
  /** `query` without the '?', e.g. 'q=ann&page=12'. */
  list: (session, query = '') => ({ path: `${CUSTOMERS}${query ? `?${query}` : ''}`, headers: bearer(session), label: 'list' }),
  importFile: (session, csv, onDuplicate = 'skip') => ({ method: 'POST', path: `${IMPORT}?on_duplicate=${onDuplicate}`, ...csvBody(session, csv), label: 'import' }),
  preview: (session, csv) => ({ method: 'POST', path: PREVIEW, ...csvBody(session, csv), label: 'preview' }),
  /** D56: the custom field calls an owner makes (definitions) and a bulk change (D58). */
  field: (session, method, path = '', body) => ({ method, path: `/api/v1/custom-fields/${path}`, headers: bearer(session), ...(body ? { body } : {}), label: 'field' }),
  bulk: (session, body) => ({ method: 'POST', path: '/api/v1/customers/bulk/', headers: bearer(session), body, label: 'bulk' }),
  bulkUndo: (session, id) => ({ method: 'POST', path: `/api/v1/customers/bulk/${id}/undo/`, headers: bearer(session), label: 'bulk undo' }),
  /** D67: everything of the session's organization as one ZIP (an owner). */
  exportAll: (session) => ({ method: 'POST', path: '/api/v1/organization/export/', headers: { ...bearer(session), Accept: 'application/zip' }, label: 'export' }),
};
/** D67: the owner who exports everything of the attacker's organization. */
export const EXPORTER = { email: 'owner@demo.test', org: 'Acme Plumbing', address: ADDRESS.attacker };

/** Logs `who` in from its address and picks its organization: { access, orgId, email, address }. */
export async function signIn(url, who) {
  const r = expectStatus(await send(url, calls.login(who.email), { address: who.address }), 200, `login ${who.email}`);
  const access = json(r).access_token;
  const me = json(expectStatus(await send(url, calls.me({ access }), { address: who.address }), 200, `GET me as ${who.email}`));
  const org = me.organizations.find((o) => o.name === who.org);
  if (!org) throw new Error(`${who.email} is not a member of ${who.org}`);
  return { access, orgId: org.id, email: who.email, address: who.address };
}

/** How many live customers the session's organization has. */
export async function customerCount(url, session) {
  const r = expectStatus(await send(url, calls.list(session, 'page_size=1'), { address: session.address }), 200, 'count customers');
  return json(r).count;
}

/**
 * The 100 most recently updated customers, as "id:version:updated_at" lines: a row rewritten by an
 * import moves to the top with a new version and time, so two equal snapshots mean nothing was written.
 */
export async function latestWrites(url, session) {
  const r = expectStatus(await send(url, calls.list(session, 'sort=-updated_at&page_size=100'), { address: session.address }), 200, 'latest customers');
  return json(r)
    .results.map((c) => `${c.id}:${c.version}:${c.updated_at}`)
    .join('\n');
}

// ── The files ─────────────────────────────────────────────────────────────────────────────────────────
/** D1 D3: the demo's names (server/demo-names.json, which the seed reads too). */
const NAMES = JSON.parse(readFileSync(new URL('../../server/demo-names.json', import.meta.url), 'utf8'));
const FIRST = NAMES.first.slice(0, 24);
const LAST = NAMES.last.slice(0, 24);
/** Three-letter pieces of those names, most common first: each a search matching many imported customers. */
export const FRAGMENTS = (() => {
  const seen = new Map();
  for (const name of [...FIRST, ...LAST]) {
    const w = name.toLowerCase();
    for (let k = 0; k + 3 <= w.length; k++) seen.set(w.slice(k, k + 3), (seen.get(w.slice(k, k + 3)) ?? 0) + 1);
  }
  return [...seen]
    .sort((a, b) => b[1] - a[1])
    .map(([f]) => f)
    .slice(0, 24);
})();

/**
 * A customers CSV of `rows` people with unique emails under `tag` (name, email, phone, city): the same
 * tag gives the same people, so a second file with another `city` updates every one of them.
 */
export function customersCsv(tag, rows, city = 'Portland') {
  const lines = ['name,email,phone,city'];
  for (let i = 0; i < rows; i++) {
    const first = FIRST[i % FIRST.length];
    const last = LAST[Math.floor(i / FIRST.length) % LAST.length];
    lines.push(`${first} ${last},${tag}.${i}@import.example,503-555-${String(i % 10_000).padStart(4, '0')},${city}`);
  }
  return lines.join('\n') + '\n';
}

/**
 * The widest preview: a header of `name` and then empty column names (commas) up to `bytes` in all,
 * then `rows` rows of `a`. The server parses every header column for every row today (D34).
 */
export function widePreviewCsv(bytes, rows) {
  const body = 'a\n'.repeat(rows);
  const commas = Math.max(0, bytes - Buffer.byteLength(body) - 'name\n'.length);
  return `name${','.repeat(commas)}\n${body}`;
}
