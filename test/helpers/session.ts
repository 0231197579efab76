// Builds a session controller wired to a FakeApi and in-memory storage, for tests.
import { vi } from 'vitest';
import { createStorage, KEYS } from '../../src/lib/storage';
import { createSession, type SessionDeps } from '../../src/session/controller';
import type { SessionState } from '../../src/session/types';
import { FakeApi, MemoryStorage, ORGS } from './fake-api';

export function makeSession(over: Partial<SessionDeps> & { api?: FakeApi; kv?: MemoryStorage; path?: string } = {}) {
  const api = over.api ?? new FakeApi();
  const kv = over.kv ?? new MemoryStorage();
  const storage = createStorage(kv);
  let path = over.path ?? '/dashboard';
  const navigate = vi.fn((to: string) => {
    path = to;
  });
  const assign = vi.fn();
  const log = { warn: vi.fn(), error: vi.fn() };
  const session = createSession({
    storage,
    fetch: api.fetch as unknown as typeof fetch,
    base: () => '/api',
    navigate,
    currentPath: () => path,
    assign,
    lock: (fn) => fn(false),
    online: () => true,
    log,
    ...over,
  });
  /** Puts a signed-in session (valid tokens) into storage, as a previous visit would have. */
  const seed = (tokens = api.issue(), expiresInMs = 30 * 86_400_000) => {
    storage.set(KEYS.accessToken, tokens.access_token);
    storage.set(KEYS.refreshToken, tokens.refresh_token);
    storage.set(KEYS.sessionId, String(tokens.session_id));
    storage.set(KEYS.refreshExpiresAt, String(Date.now() + expiresInMs));
    return tokens;
  };
  return { session, api, kv, storage, navigate, assign, log, seed, setPath: (p: string) => (path = p), path: () => path };
}

/** Session states for route tests: signed out; signed in without and with an organization. */
export const ALL_VIEW_PERMISSIONS = ['dashboard:view', 'customers:view', 'customers:create', 'customers:update', 'jobs:view', 'sms:view', 'email:view', 'calls:view', 'team:view', 'permissions:view'];
export const SIGNED_OUT: Partial<SessionState> = { loading: false, hydrationComplete: true, isAuthenticated: false };
export const NO_ORG: Partial<SessionState> = {
  ...SIGNED_OUT,
  isAuthenticated: true,
  organizations: ORGS,
  user: { email: 'owner@demo.test', first_name: 'Olive', avatar_url: null },
};
export const WITH_ORG: Partial<SessionState> = { ...NO_ORG, currentOrg: ORGS[0]!, permissions: ALL_VIEW_PERMISSIONS, role: 'owner' };
