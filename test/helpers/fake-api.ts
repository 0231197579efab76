// An in-memory stand-in for the API server: real Response objects, call log, programmable failures.
import { vi } from 'vitest';
import { DEFAULT_PAGE_SIZE, phoneDigits, type CustomerListItem, type PersonRef } from '../../contract/customers';
import type { Organization, User } from '../../src/session/types';
import type { FakeTeam } from './fake-team';

const b64url = (s: string) => btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

/** An unsigned JWT with the given payload (the client never checks signatures). */
export function jwt(payload: Record<string, unknown>): string {
  return `${b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }))}.${b64url(JSON.stringify(payload))}.sig`;
}

let serial = 0;
/** An access token for `sub` that expires `inSec` seconds from now. */
export function accessToken(inSec = 900, sub = '1'): string {
  return jwt({ sub, sid: 1, exp: Math.floor(Date.now() / 1000) + inSec, n: ++serial });
}

export interface Call {
  method: string;
  path: string;
  /** The query string, e.g. '?q=ann&page=2' ('' when none). */
  search: string;
  headers: Record<string, string>;
  /** JSON bodies parsed; a Blob's text as it is (see `blobType`). */
  body: unknown;
  /** The type of a Blob body: fetch sends it as the Content-Type. */
  blobType?: string;
  credentials: RequestCredentials | undefined;
}

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

export const json = (status: number, body: unknown) =>
  new Response(body === null ? null : JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

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
  /** The customers API (GET/POST under /v1/customers/), when a test sets one. */
  customers: FakeCustomers | null = null;
  /** The team, permissions, audit and public invitation APIs (D28–D30), when a test sets one (fake-team.ts). */
  team: FakeTeam | null = null;
  /** Throw a network error for every request while true. */
  offline = false;
  /** Make the next N /things calls wait until released. */
  private gates: Array<() => void> = [];
  holdRequests = false;

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
    if (this.team && p.startsWith('/v1/invitations/') && (bearer === undefined || authed)) return this.team.handle(call, p, url.searchParams, authed);
    const route = this.routes.get(p);
    if (this.holdRequests) await new Promise<void>((r) => this.gates.push(r));
    if (!authed) return json(401, { detail: 'expired', code: 'token_expired' });
    if (route) return route(call);
    if (this.customers && p.startsWith('/v1/customers/')) return this.customers.handle(call, p, url.searchParams);
    if (this.team && /^\/v1\/(team|permissions|audit)\//.test(p)) return this.team.handle(call, p, url.searchParams, true);
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

/** A customer row as the fake keeps it: a list item plus what the list may show or filter on. */
export interface FakeCustomer extends CustomerListItem {
  created_at: string;
}

const FIRST = ['Ava', 'Ben', 'Chloe', 'Diego', 'Emma', 'Fatima', 'Grace', 'Hannah', 'Isaac', 'Kenji'];
const LAST = ['Patel', 'Okafor', 'Nguyen'];
const STATUSES = ['active', 'lead', 'inactive'] as const;
const day = (n: number) => new Date(Date.UTC(2024, 0, 1 + n)).toISOString();

/** 30 customers: names A–K × three surnames; the 3rd of each first name a lead, tags on some; created one a day. */
export function demoCustomers(): FakeCustomer[] {
  return FIRST.flatMap((first, i) =>
    LAST.map((last, j): FakeCustomer => {
      const n = i * 3 + j;
      return {
        id: 100 + n,
        name: `${first} ${last}`,
        company: j === 1 ? `${last} Holdings` : null,
        email: `${first}.${last}@example.com`.toLowerCase(),
        phone: `(503) 555-01${String(n).padStart(2, '0')}`,
        city: 'Portland',
        status: STATUSES[j]!,
        tags: n % 4 === 0 ? ['vip'] : n % 5 === 0 ? ['boiler', 'north'] : [],
        created_at: day(n),
        updated_at: day(60 - n),
      };
    }),
  );
}

const byText = (a: string, b: string) => a.localeCompare(b, 'en', { sensitivity: 'base' });

/**
 * GET /v1/customers/ (D26 search, filters, sorts, paging; D25 deleted=true), POST …/{id}/restore/ and
 * GET …/export.csv, the way the server answers them. `permissions` are the caller's (403 without).
 */
export class FakeCustomers {
  rows: FakeCustomer[];
  permissions = new Set(['customers:view', 'customers:create', 'customers:update', 'customers:delete', 'customers:export']);
  /** Answers to give before the normal ones, in order ('network' fails like fetch does offline). */
  failures: (number | 'network')[] = [];
  /** The list calls made, as their query strings. */
  listQueries: string[] = [];
  /** D45: the q of each tag suggestions call. */
  tagQueries: string[] = [];
  private gate: Promise<void> | null = null;
  private open: () => void = () => undefined;

  constructor(rows: FakeCustomer[] = demoCustomers()) {
    this.rows = rows;
  }

  /** Holds every answer until release(). */
  hold(): void {
    this.gate = new Promise((r) => (this.open = r));
  }
  release(): void {
    this.gate = null;
    this.open();
  }

  /** Soft-deletes a customer as of `at`, by `by`. */
  remove(id: number, at: string, by: PersonRef | null = { id: 1, name: 'Olive' }): void {
    const row = this.rows.find((r) => r.id === id)!;
    row.deleted_at = at;
    row.deleted_by = by;
  }

  private live = () => this.rows.filter((r) => !r.deleted_at);

  filtered(params: URLSearchParams): FakeCustomer[] {
    const q = (params.get('q') ?? '').toLowerCase();
    const digits = phoneDigits(q);
    const status = params.get('status');
    const tag = params.get('tag')?.toLowerCase();
    const sort = params.get('sort') ?? 'name';
    const field = sort.replace(/^-/, '') as 'name' | 'created_at' | 'updated_at';
    const rows = this.live().filter(
      (c) =>
        (!q || [c.name, c.company, c.email, c.phone].some((v) => v?.toLowerCase().includes(q)) || (digits.length > 2 && phoneDigits(c.phone ?? '').includes(digits))) &&
        (!status || c.status === status) &&
        (!tag || c.tags.some((t) => t.toLowerCase() === tag)),
    );
    rows.sort((a, b) => byText(a[field], b[field]) || a.id - b.id);
    return sort.startsWith('-') ? rows.reverse() : rows;
  }

  async handle(call: Call, path: string, params: URLSearchParams): Promise<Response> {
    if (this.gate) await this.gate;
    const failure = this.failures.shift();
    if (failure === 'network') throw new TypeError('Failed to fetch');
    if (failure) return json(failure, { detail: 'Something went wrong.', code: 'error' });
    const denied = (p: string) => json(403, { detail: `You need ${p}.`, code: 'permission_denied' });
    if (path === '/v1/customers/' && call.method === 'GET') {
      this.listQueries.push(call.search);
      const page = Number(params.get('page') ?? 1);
      const size = Number(params.get('page_size') ?? DEFAULT_PAGE_SIZE);
      let rows: CustomerListItem[];
      if (params.get('deleted') === 'true') {
        if (!this.permissions.has('customers:delete')) return denied('customers:delete');
        rows = this.rows.filter((r) => r.deleted_at).sort((a, b) => byText(b.deleted_at!, a.deleted_at!));
      } else rows = this.filtered(params);
      return json(200, { count: rows.length, results: rows.slice((page - 1) * size, page * size) });
    }
    if (path === '/v1/customers/tags/' && call.method === 'GET') {
      // D45: the organization's tags containing q, ignoring case.
      const q = (params.get('q') ?? '').toLowerCase();
      this.tagQueries.push(q);
      const tags = [...new Set(this.live().flatMap((c) => c.tags))].filter((t) => t.toLowerCase().includes(q)).sort();
      return json(200, { results: tags });
    }
    if (path === '/v1/customers/export.csv') {
      if (!this.permissions.has('customers:export')) return denied('customers:export');
      const lines = ['name,email', ...this.filtered(params).map((c) => `${c.name},${c.email ?? ''}`)];
      return new Response(`\uFEFF${lines.join('\r\n')}\r\n`, { headers: { 'Content-Type': 'text/csv; charset=utf-8' } });
    }
    const restore = /^\/v1\/customers\/(\d+)\/restore\/$/.exec(path);
    if (restore && call.method === 'POST') {
      if (!this.permissions.has('customers:delete')) return denied('customers:delete');
      const row = this.rows.find((r) => r.id === Number(restore[1]) && r.deleted_at);
      if (!row) return json(404, { detail: 'Not found.', code: 'not_found' });
      const holder = this.live().find((r) => row.email && r.email === row.email);
      if (holder) {
        return json(409, { detail: 'Another customer has this email.', code: 'duplicate_email', field: 'email', existing: { id: holder.id, name: holder.name } });
      }
      delete row.deleted_at;
      delete row.deleted_by;
      return json(200, { ...row, version: 2 });
    }
    return json(404, { detail: 'No such endpoint', code: 'not_found' });
  }
}
