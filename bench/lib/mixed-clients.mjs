// The mixed load of bench/load.mjs, run in a worker thread: `clients` keep-alive clients, each in a
// closed loop of GET me, GET customers (with searches) and POST refresh, drawn by weight, until the
// duration is over. Clients use the sessions they are given in turn (client i: session i mod n); with one
// session per client, each keeps and rotates its own refresh token as the browser app does. Clients
// sharing a session share its tokens and make one refresh at a time, as tabs under the app's lock do.
//   401 token_expired on me/list      → refresh, then go on
//   401 on refresh (reused, revoked, expired, unknown) or session_ended on me/list → the session is
//                                        counted as ended and its clients stop
//   503 with Retry-After               → an answer; the client waits that long (at most 5 s) and goes on
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

/**
 * @param {{ url: string, clients: number, durationMs: number, orgId: number,
 *   sessions: { access: string, refresh: string }[], weights: { me: number, list: number, refresh: number },
 *   listQueries: string[], slowMs: number }} data
 */
export async function mixedClients({ url, clients, durationMs, orgId, sessions: given, weights, listQueries, slowMs }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: clients });
  const rec = new Recorder(slowMs);
  const sessions = given.map((s, i) => ({ id: i, access: s.access, refresh: s.refresh, refreshing: null, ended: null }));
  const ended = {}; // code → sessions
  const busyWaits = { count: 0, ms: 0 };
  const t0 = performance.now();
  const deadline = t0 + durationMs;
  const total = weights.me + weights.list + weights.refresh;
  let listTurn = 0;

  const endSession = (s, why) => {
    if (s.ended) return;
    s.ended = why;
    ended[why] = (ended[why] ?? 0) + 1;
  };

  const backoff = async (result) => {
    const retryAfterS = Number(result.headers['retry-after']);
    const wait = Math.max(0, Math.min(Number.isFinite(retryAfterS) ? retryAfterS * 1000 : 1000, MAX_BACKOFF_MS, deadline - performance.now()));
    busyWaits.count++;
    busyWaits.ms += wait;
    await new Promise((r) => setTimeout(r, wait));
  };

  const doRefresh = async (s) => {
    const r = await request(url + REFRESH, { method: 'POST', body: { refresh_token: s.refresh }, agent, timeoutMs: REQUEST_TIMEOUT_MS });
    const code = rec.record('refresh', r);
    if (r.status === 200) {
      const b = json(r);
      s.access = b.access_token;
      s.refresh = b.refresh_token;
    } else if (r.status === 401) endSession(s, `refresh 401 ${code ?? '?'}`);
    else if (r.status === 503) await backoff(r);
  };
  // One refresh per session at a time; the others wait for it and use its tokens.
  const refresh = (s) => (s.refreshing ??= doRefresh(s).finally(() => (s.refreshing = null)));

  const client = async (i) => {
    const s = sessions[i % sessions.length];
    for (let n = 0; n < MAX_REQUESTS_PER_CLIENT && !s.ended && performance.now() < deadline; n++) {
      if (s.refreshing) await s.refreshing;
      const pick = Math.random() * total;
      if (pick < weights.refresh) {
        await refresh(s);
        continue;
      }
      const isMe = pick < weights.refresh + weights.me;
      const path = isMe ? ME : CUSTOMERS + listQueries[listTurn++ % listQueries.length];
      const headers = { Accept: 'application/json', Authorization: `Bearer ${s.access}`, 'X-Organization-ID': String(orgId) };
      const r = await request(url + path, { headers, agent, timeoutMs: REQUEST_TIMEOUT_MS });
      const code = rec.record(isMe ? 'me' : 'list', r);
      if (r.status === 401) {
        if (code === 'token_expired') await refresh(s);
        else endSession(s, `${isMe ? 'me' : 'list'} 401 ${code ?? '?'}`);
      } else if (r.status === 503) await backoff(r);
    }
  };

  const elu0 = performance.eventLoopUtilization();
  await Promise.all(Array.from({ length: clients }, (_, i) => client(i)));
  const elapsedMs = performance.now() - t0;
  agent.destroy();
  return {
    elapsedMs,
    generatorBusy: performance.eventLoopUtilization(elu0).utilization,
    labels: rec.toJSON(),
    sessionsEnded: ended,
    clientsStoppedEarly: Array.from({ length: clients }, (_, i) => sessions[i % sessions.length]).filter((s) => s?.ended).length,
    busyWaits,
  };
}
