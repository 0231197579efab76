// The one in-memory stand-in for the API server in app tests: real Response objects, a call log,
// programmable failures. Sign-in, tokens and the profile are here; the rest of the API is in parts,
// each made on first use so a test programs only what its page calls: customers (the list), record
// (one customer's page, notes and timeline, the dashboard, the import), records (Add and Edit
// Customer) and team (members, invitations, permissions, the activity log).
import { vi } from 'vitest';
import type { Organization, User } from '../../src/session/types';
import { FakeAccount } from './fake-account';
import { FakeCustomers } from './fake-customers';
import { FakeRecord } from './fake-customer';
import { accessToken, json, type Call } from './fake-http';
import { FakeMfa } from './fake-mfa';
import { FakeRecords } from './fake-records';
import { FakeTeam } from './fake-team';

export { accessToken, json, jwt, type Call } from './fake-http';
export { demoCustomers, FakeCustomers, type FakeCustomer } from './fake-customers';

export const ACME: Organization = { id: 1, name: 'Acme Plumbing', logo_url: '/logos/acme.svg' };
export const BEACON: Organization = { id: 2, name: 'Beacon Electric', logo_url: null };
export const ORGS = [ACME, BEACON];
export const USER: User = { email: 'owner@demo.test', first_name: 'Olive', avatar_url: null };

export function profile(over: Record<string, unknown> = {}) {
  return {
    user: { ...USER },
    organizations: ORGS,
    permissions: ['dashboard:view', 'customers:view'],
    features: ['sms'],
    role: 'owner',
    prefs: {},
    favorite_org_id: null,
    ...over,
  };
}

export class FakeApi {
  calls: Call[] = [];
  validAccess = new Set<string>();
  validRefresh = new Set<string>();
  /** Answer for GET /v1/auth/me/ (given the X-Organization-ID sent). */
  me: (org: string | undefined) => Response = () => json(200, profile());
  /** Answer for POST /v1/auth/refresh/ before token checks; return undefined to proceed normally. */
  refreshOverride: (() => Response | Promise<Response> | undefined) | null = null;
  loginStatus = 200;
  /** D36: the device token a successful login answers with, when set. */
  deviceToken: string | null = null;
  /** Extra routes: path → handler. */
  routes = new Map<string, (call: Call) => Response>();
  private parts: { customers?: FakeCustomers; record?: FakeRecord; records?: FakeRecords; team?: FakeTeam; account?: FakeAccount; mfa?: FakeMfa } = {};
  /** Throw a network error for every request while true. */
  offline = false;
  /** Make the next N /things calls wait until released. */
  private gates: Array<() => void> = [];
  holdRequests = false;

  /** The customers list, search, export, tags and restore (fake-customers.ts). */
  get customers(): FakeCustomers {
    return (this.parts.customers ??= new FakeCustomers());
  }
  /** Jane Doe's page with her notes and timeline, the dashboard and the import (fake-customer.ts). */
  get record(): FakeRecord {
    return (this.parts.record ??= new FakeRecord(this));
  }
  /** Add and Edit Customer's endpoints on Ann and Ben (fake-records.ts). */
  get records(): FakeRecords {
    return (this.parts.records ??= new FakeRecords(this));
  }
  /** The team, permissions, audit and public invitation APIs, D28–D30 (fake-team.ts). */
  get team(): FakeTeam {
    return (this.parts.team ??= new FakeTeam(this));
  }
  /** The person's account, sessions, reset links and the organization's settings, D51–D54 (fake-account.ts). */
  get account(): FakeAccount {
    return (this.parts.account ??= new FakeAccount());
  }

  /** D54 two-step sign-in: the login's second step, the account's setup and a member's reset (fake-mfa.ts). */
  get mfa(): FakeMfa {
    return (this.parts.mfa ??= new FakeMfa(this));
  }

  issue(sub = '1') {
    const access = accessToken(900, sub);
    const refresh = 'r-' + Math.random().toString(36).slice(2);
    this.validAccess.add(access);
    this.validRefresh.add(refresh);
    return { access_token: access, refresh_token: refresh, session_id: 7 };
  }

  release() {
    const g = this.gates;
    this.gates = [];
    for (const open of g) open();
  }

  count(path: string, method?: string) {
    return this.calls.filter((c) => c.path === path && (!method || c.method === method)).length;
  }

  fetch = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(String(input), 'http://localhost');
    const headers = Object.fromEntries([...new Headers(init.headers).entries()].map(([k, v]) => [k.toLowerCase(), v]));
    const blob = init.body instanceof Blob ? init.body : null;
    const body: unknown = typeof init.body === 'string' ? JSON.parse(init.body) : blob ? await blob.text() : null;
    const call: Call = { method: init.method ?? 'GET', path: url.pathname, search: url.search, headers, body, blobType: blob?.type, credentials: init.credentials };
    this.calls.push(call);
    await Promise.resolve();
    if (this.offline) throw new TypeError('Failed to fetch');
    if (init.signal?.aborted) throw new DOMException('aborted', 'AbortError');
    const bearer = headers.authorization?.replace(/^Bearer /, '');
    const authed = bearer !== undefined && this.validAccess.has(bearer);
    const p = url.pathname.replace(/^\/api/, '');
    if (p === '/v1/auth/login/') {
      if (this.loginStatus !== 200) return json(this.loginStatus, { detail: 'no', code: 'x' });
      if (this.parts.mfa?.required) return this.parts.mfa.login();
      return json(200, { ...this.issue(), ...(this.deviceToken ? { device_token: this.deviceToken } : {}) });
    }
    if (p === '/v1/auth/refresh/') {
      const o = await this.refreshOverride?.();
      if (o) return o;
      const rt = (body as { refresh_token?: string } | null)?.refresh_token;
      if (!rt || !this.validRefresh.has(rt)) return json(401, { detail: 'bad refresh', code: 'invalid_refresh' });
      this.validRefresh.delete(rt);
      const t = this.issue();
      return json(200, { access_token: t.access_token, refresh_token: t.refresh_token });
    }
    if (p === '/v1/auth/logout/') return new Response(null, { status: 204 });
    if (p === '/v1/auth/me/') return authed ? this.me(headers['x-organization-id']) : json(401, { detail: 'expired', code: 'token_expired' });
    // D28: the public invitation calls answer without a session; a token, when sent, must be good.
    const { customers, team, account } = this.parts;
    const mfaAnswer = this.mfa.handle(call, p, authed);
    if (mfaAnswer) return mfaAnswer;
    if (team && p.startsWith('/v1/invitations/') && (bearer === undefined || authed)) return team.handle(call, p, url.searchParams, authed);
    // D53: the public reset calls likewise.
    if (account && p.startsWith('/v1/password-resets/') && (bearer === undefined || authed)) return account.handle(call, p);
    const route = this.routes.get(p);
    if (this.holdRequests) await new Promise<void>((r) => this.gates.push(r));
    if (!authed) return json(401, { detail: 'expired', code: 'token_expired' });
    if (route) return route(call);
    if (account && FakeAccount.owns(p)) return account.handle(call, p);
    if (customers && p.startsWith('/v1/customers/')) return customers.handle(call, p, url.searchParams);
    if (team && /^\/v1\/(team|permissions|audit)\//.test(p)) return team.handle(call, p, url.searchParams, true);
    return json(200, { ok: true, token: bearer });
  });
}

/** A Storage-shaped map; two sessions sharing one act like two tabs. */
export class MemoryStorage implements Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> {
  map: Map<string, string>;
  /** `entries`: what an earlier visit left in storage. */
  constructor(entries: Record<string, string> = {}) {
    this.map = new Map(Object.entries(entries));
  }
  getItem(k: string) {
    return this.map.get(k) ?? null;
  }
  setItem(k: string, v: string) {
    this.map.set(k, String(v));
  }
  removeItem(k: string) {
    this.map.delete(k);
  }
}
