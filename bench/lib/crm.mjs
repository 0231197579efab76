// The API calls the benchmarks make to set up (log in, find the organization), and what they measure.
import { expectStatus, json, request } from './http.mjs';

export const API = '/api/v1';
export const ME = `${API}/auth/me/`;
export const CUSTOMERS = `${API}/customers/`;
export const LOGIN = `${API}/auth/login/`;
export const REFRESH = `${API}/auth/refresh/`;
export const HEALTH = '/api/health/';
export const DEMO_PASSWORD = 'demo-password';
export const OWNER = 'owner@demo.test';
/** The demo accounts (SEED=demo) and whether they belong to Acme Plumbing. */
export const DEMO_ACCOUNTS = [
  { email: 'owner@demo.test', acme: true },
  { email: 'solo@demo.test', acme: true },
  { email: 'viewer@demo.test', acme: false },
  { email: 'nobody@demo.test', acme: false },
];
export const ORG_NAME = 'Acme Plumbing';

/** POST login; { access, refresh, sessionId }. Throws unless 200. */
export async function login(url, email, password = DEMO_PASSWORD) {
  const r = expectStatus(await request(url + LOGIN, { method: 'POST', body: { email, password } }), 200, `login ${email}`);
  const b = json(r);
  return { access: b.access_token, refresh: b.refresh_token, sessionId: b.session_id };
}

export const authHeaders = (access, orgId = null) => ({
  Accept: 'application/json',
  Authorization: `Bearer ${access}`,
  ...(orgId === null ? {} : { 'X-Organization-ID': String(orgId) }),
});

/** The id of the organization named `name` among the user's (GET me `organizations`). */
export async function orgIdOf(url, access, name = ORG_NAME) {
  const r = expectStatus(await request(url + ME, { headers: authHeaders(access) }), 200, 'GET me');
  const org = json(r).organizations.find((o) => o.name === name);
  if (!org) throw new Error(`the user is not a member of ${name}`);
  return org.id;
}

/**
 * Logs in `count` sessions, `concurrency` at a time (a login is one OWASP-cost scrypt; D35: one address
 * has at most 2 logins in flight, and every login here comes from this one). Accounts are used in turn,
 * so no email has more than a few logins in flight: D18 counts a login as a failure until its password
 * proves right.
 */
export async function loginMany(url, count, emails, concurrency = 2) {
  const sessions = new Array(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      sessions[i] = await login(url, emails[i % emails.length]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  return sessions;
}
