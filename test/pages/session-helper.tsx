// A real session controller with an injected fetch and in-memory storage, for page and shell tests.
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { vi } from 'vitest';
import { createStorage, type KV } from '../../src/lib/storage';
import { createSession, type Session } from '../../src/session/controller';
import type { Organization, SessionState } from '../../src/session/types';
import { SessionProvider } from '../../src/session/use-session';

export function memoryKV(): KV & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return {
    data,
    getItem: (k) => data.get(k) ?? null,
    setItem: (k, v) => void data.set(k, String(v)),
    removeItem: (k) => void data.delete(k),
  };
}

const b64 = (v: unknown) => btoa(JSON.stringify(v)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
/** A well-formed (unsigned) access token that expires in 15 minutes. */
export const jwt = (sub = '1') => `${b64({ alg: 'HS256' })}.${b64({ sub, exp: Math.floor(Date.now() / 1000) + 900 })}.c2ln`;

export const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

export const ACME: Organization = { id: 1, name: 'Acme Plumbing', logo_url: '/logos/acme.svg' };
export const BEACON: Organization = { id: 2, name: 'Beacon Electric', logo_url: null };

export const ALL_PERMISSIONS = [
  'dashboard:view', 'customers:view', 'customers:create', 'customers:update', 'customers:delete',
  'jobs:view', 'sms:view', 'email:view', 'calls:view', 'team:view', 'team:manage', 'permissions:view',
];

/** A signed-in state with Acme chosen and every permission. */
export const SIGNED_IN: Partial<SessionState> = {
  isAuthenticated: true,
  currentOrg: ACME,
  organizations: [ACME, BEACON],
  user: { email: 'owner@demo.test', first_name: 'Olivia', avatar_url: null },
  permissions: ALL_PERMISSIONS,
  role: 'owner',
};

export interface TestSession {
  session: Session;
  navigate: ReturnType<typeof vi.fn>;
  assign: ReturnType<typeof vi.fn>;
  fetch: ReturnType<typeof vi.fn>;
  kv: ReturnType<typeof memoryKV>;
}

export function makeSession({
  state = {},
  fetch,
  stored = {},
}: {
  state?: Partial<SessionState>;
  fetch?: typeof globalThis.fetch;
  /** Storage as an earlier visit left it (tokens, current_org_id), read when the session is made. */
  stored?: Record<string, string>;
} = {}): TestSession {
  const kv = memoryKV();
  for (const [k, v] of Object.entries(stored)) kv.setItem(k, v);
  const navigate = vi.fn();
  const assign = vi.fn();
  const f = vi.fn(fetch ?? (() => Promise.reject(new TypeError('no network in this test'))));
  const session = createSession({
    storage: createStorage(kv),
    fetch: f,
    navigate,
    assign,
    currentPath: () => window.location.pathname,
    lock: (fn) => fn(false),
    online: () => true,
    log: { warn: vi.fn(), error: vi.fn() },
  });
  session.store.setState((s) => ({ ...s, loading: false, hydrationComplete: true, ...state }));
  return { session, navigate, assign, fetch: f, kv };
}

export function renderWithSession(t: TestSession, ui: ReactNode) {
  return render(<SessionProvider session={t.session}>{ui}</SessionProvider>);
}
