// An in-memory stand-in for the API server: real Response objects, call log, programmable failures.
import { vi } from 'vitest';
import type { Organization, User } from '../../src/session/types';

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
  /** Extra routes: path → handler. */
  routes = new Map<string, (call: Call) => Response>();
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
      return this.loginStatus === 200 ? json(200, this.issue()) : json(this.loginStatus, { detail: 'no', code: 'x' });
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
    const route = this.routes.get(p);
    if (this.holdRequests) await new Promise<void>((r) => this.gates.push(r));
    if (!authed) return json(401, { detail: 'expired', code: 'token_expired' });
    return route ? route(call) : json(200, { ok: true, token: bearer });
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
