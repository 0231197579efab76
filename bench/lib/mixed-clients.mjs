// The mixed load of the sustained-load run (sustained-load.mjs), run in a worker thread: `clients`
// keep-alive clients, each in a closed loop of calls drawn by weight until the duration is over:
//   reads    me, list (searches, pages, sorts), customer (one record: its own, or a shared one)
//   writes   create, update (PATCH with the version it holds), note, delete / restore (soft delete, D25)
//   refresh  POST refresh (the session's refresh token is rotated, D8)
// Each client writes mostly to records of its own (created during the run), so it always holds their
// current version; a few of its updates go to one of a handful of shared records, read just before, so
// clients race on them and a 409 conflict is a correct answer (counted apart). Only sessions whose role
// has customers:delete delete and restore; the others update instead.
// Clients use the sessions they are given in turn (client i: session i mod n); with one session per
// client, each keeps and rotates its own refresh token as the browser app does. Clients sharing a session
// share its tokens and make one refresh at a time, as tabs under the app's lock do.
//   401 token_expired                → refresh, then go on
//   401 on refresh (reused, revoked, expired, unknown) or any other 401 → the session is counted as ended
//                                      and its clients stop
//   503 server_busy or 429 too_many_requests (D34: one organization's or user's queue is full) with
//   Retry-After                      → an answer, nothing written; the client waits that long (at most
//                                      5 s) and goes on
// Every answer is classified: ok (the call's success status), busy (503 server_busy or 429
// too_many_requests, with Retry-After),
// conflict (409 conflict on a shared record), expired (401 token_expired), or error: any other answer
// (another 5xx, a 503 without Retry-After, any 4xx the call does not expect) and any request without an
// answer (network error, time limit). The bodies of answers with status ≥ 400 are kept, at most
// ERROR_BODIES_PER_KIND per call, status and code, for the resilience suite's secrets check. After the
// clock, every record a client created is read back and compared with what the acknowledged writes say
// it holds (version, city, live or deleted, notes).
import http from 'node:http';
import { CUSTOMERS, ME, REFRESH } from './crm.mjs';
import { json, request } from './http.mjs';
import { REQUEST_TIMEOUT_MS } from './load.mjs';
import { Recorder } from './stats.mjs';

const MAX_BACKOFF_MS = 5000;
/** A safety cap on top of the duration. */
const MAX_REQUESTS_PER_CLIENT = 1_000_000;
/** Refresh answers that mean the session was revoked (D8 reuse, or logged out meanwhile). */
export const REVOKED_CODES = ['refresh_token_reused', 'session_revoked'];
export const READS = ['me', 'list', 'customer'];
export const WRITES = ['create', 'update', 'note', 'delete', 'restore'];
/** The success status of each call. */
const OK_STATUS = { me: 200, list: 200, customer: 200, create: 201, update: 200, note: 201, delete: 204, restore: 200, refresh: 200 };
/** Share of updates that go to a shared record (read first, then PATCHed with the version read). */
const SHARED_UPDATE_SHARE = 0.15;
const VERIFY_CONCURRENCY = 8;
const ERROR_SAMPLES = 20;
const ERROR_BODIES_PER_KIND = 20;
const STATUSES = ['lead', 'active', 'inactive'];

/**
 * @param {{ url: string, clients: number, durationMs: number, orgId: number, runId: string,
 *   sessions: { access: string, refresh: string, canDelete: boolean }[], weights: Record<string, number>,
 *   listQueries: string[], sharedIds: number[], slowMs: number }} data
 */
export async function mixedClients({ url, clients, durationMs, orgId, runId, sessions: given, weights, listQueries, sharedIds, slowMs }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: clients });
  const rec = new Recorder(slowMs);
  const sessions = given.map((s, i) => ({ id: i, access: s.access, refresh: s.refresh, canDelete: s.canDelete, refreshing: null, ended: null }));
  const ended = {}; // why → sessions
  const busyWaits = { count: 0, ms: 0 };
  /** label → { ok, busy, conflict, expired, error } */
  const outcomes = {};
  const errorSamples = [];
  /** `${label} ${status} ${code}` → bodies of those answers (status ≥ 400), a bounded sample. */
  const errorBodies = {};
  /** Every token the server handed out, for the log check. */
  const tokens = given.flatMap((s) => [s.access, s.refresh]);
  /** Records created during the run: id → what the acknowledged writes say it holds. */
  const records = new Map();
  const t0 = performance.now();
  const deadline = t0 + durationMs;
  // Past the duration, clients go on until every kind of call has succeeded once (on a starved machine a
  // restore needs a create, a delete and a restore to get through), for at most as long again.
  const hardDeadline = deadline + durationMs;
  const canRestore = given.some((s) => s.canDelete);
  const missingKind = () => kinds.some(([k]) => !(outcomes[k]?.ok > 0) && (k !== 'restore' || canRestore));
  const goOn = () => performance.now() < deadline || (missingKind() && performance.now() < hardDeadline);
  const kinds = Object.entries(weights).filter(([, w]) => w > 0);
  const total = kinds.reduce((n, [, w]) => n + w, 0);
  let listTurn = 0;

  const headersOf = (s) => ({ Accept: 'application/json', Authorization: `Bearer ${s.access}`, 'X-Organization-ID': String(orgId) });

  const endSession = (s, why) => {
    if (s.ended) return;
    s.ended = why;
    ended[why] = (ended[why] ?? 0) + 1;
  };

  /** Records the answer under `label` and classifies it; returns { r, outcome, code }. */
  const classify = (label, r, { conflictOk = false } = {}) => {
    const code = rec.record(label, r);
    const o = (outcomes[label] ??= { ok: 0, busy: 0, conflict: 0, expired: 0, error: 0 });
    let outcome;
    if (r.error) outcome = 'error';
    else if (r.status === OK_STATUS[label]) outcome = 'ok';
    else if (((r.status === 503 && code === 'server_busy') || (r.status === 429 && code === 'too_many_requests')) && r.headers['retry-after'] !== undefined)
      outcome = 'busy';
    else if (r.status === 409 && code === 'conflict' && conflictOk) outcome = 'conflict';
    else if (r.status === 401 && code === 'token_expired' && label !== 'refresh') outcome = 'expired';
    else outcome = 'error';
    o[outcome]++;
    if (r.status >= 400) {
      const kept = (errorBodies[`${label} ${r.status} ${code ?? ''}`] ??= []);
      if (kept.length < ERROR_BODIES_PER_KIND) kept.push(r.body.toString('utf8'));
    }
    if (outcome === 'error' && errorSamples.length < ERROR_SAMPLES) {
      errorSamples.push({ label, at: Number(((performance.now() - t0) / 1000).toFixed(1)), status: r.status, code, error: r.error, ms: Math.round(r.ms) });
    }
    return { r, outcome, code };
  };

  const backoff = async (r) => {
    const retryAfterS = Number(r.headers['retry-after']);
    const wait = Math.max(
      0,
      Math.min(Number.isFinite(retryAfterS) ? retryAfterS * 1000 : 1000, MAX_BACKOFF_MS, (missingKind() ? hardDeadline : deadline) - performance.now()),
    );
    busyWaits.count++;
    busyWaits.ms += wait;
    await new Promise((res) => setTimeout(res, wait));
  };

  const doRefresh = async (s) => {
    const r = await request(url + REFRESH, { method: 'POST', body: { refresh_token: s.refresh }, agent, timeoutMs: REQUEST_TIMEOUT_MS });
    const { outcome, code } = classify('refresh', r);
    if (outcome === 'ok') {
      const b = json(r);
      s.access = b.access_token;
      s.refresh = b.refresh_token;
      tokens.push(s.access, s.refresh);
    } else if (r.status === 401) endSession(s, `refresh 401 ${code ?? '?'}`);
    else if (outcome === 'busy') await backoff(r);
  };
  // One refresh per session at a time; the others wait for it and use its tokens.
  const refresh = (s) => (s.refreshing ??= doRefresh(s).finally(() => (s.refreshing = null)));

  /** One call of session `s`; after the answer: refresh on token_expired, end the session on another 401, wait on busy. */
  const call = async (s, label, method, path, body = null, opts = {}) => {
    const r = await request(url + path, { method, headers: headersOf(s), body, agent, timeoutMs: REQUEST_TIMEOUT_MS });
    const res = classify(label, r, opts);
    if (r.status === 401) {
      if (res.code === 'token_expired') await refresh(s);
      else endSession(s, `${label} 401 ${res.code ?? '?'}`);
    } else if (res.outcome === 'busy') await backoff(r);
    return res;
  };

  /** After a write that got no clear answer, what the record holds is unknown: it is not compared at the end. */
  const unsure = (rec, res) => {
    if (res.outcome === 'error' && rec) rec.unsure = true;
  };

  const client = async (i) => {
    const s = sessions[i % sessions.length];
    /** This client's records, live and deleted. */
    const own = [];
    let made = 0;
    let edits = 0;
    const live = () => own.filter((r) => !r.deleted && !r.unsure);
    const pickOf = (arr) => arr[Math.floor(Math.random() * arr.length)];

    const create = async () => {
      made++;
      const name = `Load ${runId} c${i} n${made}`;
      const body = { name, email: `load-${runId}-${i}-${made}@example.org`, city: 'Start', status: 'lead', tags: ['load'] };
      const res = await call(s, 'create', 'POST', CUSTOMERS, body);
      if (res.outcome === 'ok') {
        const c = json(res.r);
        const record = { id: c.id, version: c.version, city: c.city, deleted: false, notes: 0, unsure: false, client: i };
        records.set(c.id, record);
        own.push(record);
      }
    };
    const updateOwn = async (record) => {
      edits++;
      const patch = { version: record.version, city: `City ${i}-${edits}`, status: STATUSES[edits % STATUSES.length] };
      const res = await call(s, 'update', 'PATCH', `${CUSTOMERS}${record.id}/`, patch);
      if (res.outcome === 'ok') {
        const c = json(res.r);
        record.version = c.version;
        record.city = c.city;
      }
      unsure(record, res);
    };
    const updateShared = async () => {
      const id = pickOf(sharedIds);
      const read = await call(s, 'customer', 'GET', `${CUSTOMERS}${id}/`);
      if (read.outcome !== 'ok') return;
      edits++;
      const version = json(read.r).version;
      await call(s, 'update', 'PATCH', `${CUSTOMERS}${id}/`, { version, region: `Region ${i}-${edits}` }, { conflictOk: true });
    };

    const step = {
      me: () => call(s, 'me', 'GET', ME),
      list: () => call(s, 'list', 'GET', CUSTOMERS + listQueries[listTurn++ % listQueries.length]),
      customer: () => {
        const mine = live();
        return call(s, 'customer', 'GET', `${CUSTOMERS}${mine.length && Math.random() < 0.5 ? pickOf(mine).id : pickOf(sharedIds)}/`);
      },
      create,
      update: () => {
        const mine = live();
        if (mine.length === 0) return create();
        return Math.random() < SHARED_UPDATE_SHARE ? updateShared() : updateOwn(pickOf(mine));
      },
      note: async () => {
        const mine = live();
        if (mine.length === 0) return create();
        const record = pickOf(mine);
        const res = await call(s, 'note', 'POST', `${CUSTOMERS}${record.id}/notes/`, { body: `Called back (${runId} c${i}).\nAll fine.` });
        if (res.outcome === 'ok') record.notes++;
        unsure(record, res);
      },
      delete: async () => {
        const mine = live();
        if (mine.length === 0) return create();
        if (!s.canDelete) return updateOwn(pickOf(mine));
        const record = pickOf(mine);
        const res = await call(s, 'delete', 'DELETE', `${CUSTOMERS}${record.id}/`);
        if (res.outcome === 'ok') record.deleted = true;
        unsure(record, res);
      },
      restore: async () => {
        const gone = own.filter((r) => r.deleted && !r.unsure);
        if (!s.canDelete || gone.length === 0) return step.delete();
        const record = pickOf(gone);
        const res = await call(s, 'restore', 'POST', `${CUSTOMERS}${record.id}/restore/`);
        if (res.outcome === 'ok') {
          record.deleted = false;
          record.version = json(res.r).version;
        }
        unsure(record, res);
      },
      refresh: () => refresh(s),
    };

    for (let n = 0; n < MAX_REQUESTS_PER_CLIENT && !s.ended && goOn(); n++) {
      if (s.refreshing) await s.refreshing;
      let pick = Math.random() * total;
      let kind = kinds[kinds.length - 1][0];
      for (const [k, w] of kinds) {
        if (pick < w) {
          kind = k;
          break;
        }
        pick -= w;
      }
      await step[kind]();
    }
  };

  const elu0 = performance.eventLoopUtilization();
  await Promise.all(Array.from({ length: clients }, (_, i) => client(i)));
  const elapsedMs = performance.now() - t0;
  const generatorBusy = performance.eventLoopUtilization(elu0).utilization;
  const verified = await verify(url, agent, headersOf(sessions.find((s) => !s.ended) ?? sessions[0]), [...records.values()]);
  agent.destroy();
  return {
    elapsedMs,
    generatorBusy,
    labels: rec.toJSON(),
    outcomes,
    errorSamples,
    sessionsEnded: ended,
    clientsStoppedEarly: Array.from({ length: clients }, (_, i) => sessions[i % sessions.length]).filter((s) => s?.ended).length,
    busyWaits,
    verified,
    tokens,
    errorBodies: Object.values(errorBodies).flat(),
  };
}

/**
 * Reads back every record created during the run (outside the clock) and compares it with what the
 * acknowledged writes say: a live record has the version and city of its last acknowledged update and
 * as many notes as were acknowledged; a deleted one is a 404. Records a write left unsure are skipped.
 */
async function verify(url, agent, headers, records) {
  const out = { records: records.length, checked: 0, unsure: 0, mismatches: 0, samples: [] };
  const mismatch = (record, what) => {
    out.mismatches++;
    if (out.samples.length < ERROR_SAMPLES) out.samples.push(`customer ${record.id}: ${what}`);
  };
  let next = 0;
  const worker = async () => {
    while (next < records.length) {
      const record = records[next++];
      if (record.unsure) {
        out.unsure++;
        continue;
      }
      out.checked++;
      const r = await request(`${url}${CUSTOMERS}${record.id}/`, { headers, agent, timeoutMs: REQUEST_TIMEOUT_MS });
      if (record.deleted) {
        if (r.status !== 404) mismatch(record, `deleted, but GET answered ${r.status || r.error}`);
        continue;
      }
      if (r.status !== 200) {
        mismatch(record, `live, but GET answered ${r.status || r.error}`);
        continue;
      }
      const c = json(r);
      if (c.version !== record.version || c.city !== record.city) mismatch(record, `version ${c.version} city ${c.city}, acknowledged ${record.version} ${record.city}`);
      const n = await request(`${url}${CUSTOMERS}${record.id}/notes/?page_size=1`, { headers, agent, timeoutMs: REQUEST_TIMEOUT_MS });
      const count = json(n)?.count;
      if (n.status !== 200 || count !== record.notes) mismatch(record, `notes ${n.status === 200 ? count : n.status || n.error}, acknowledged ${record.notes}`);
    }
  };
  await Promise.all(Array.from({ length: VERIFY_CONCURRENCY }, worker));
  return out;
}
