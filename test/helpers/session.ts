// Builds a session controller wired to a FakeApi and in-memory storage, for tests.
import { vi } from 'vitest';
import { PERMISSIONS } from '../../contract/permissions';
import { REMEMBER_ME_LIFETIME_MS } from '../../contract/session';
import { createStorage, KEYS } from '../../src/lib/storage';
import { createSession, type SessionDeps } from '../../src/session/controller';
import type { SessionState } from '../../src/session/types';
import { ACME, FakeApi, MemoryStorage, ORGS, USER } from './fake-api';

export interface SessionOptions extends Partial<SessionDeps> {
  api?: FakeApi;
  /** Storage; `new MemoryStorage({...})` for what an earlier visit left (read when the session is made). */
  kv?: MemoryStorage;
  /** The current path until the session navigates. */
  path?: string;
  /** Puts the store in this state with loading done, as a page sees a session that is up. */
  state?: Partial<SessionState>;
}

export function makeSession({ api = new FakeApi(), kv = new MemoryStorage(), path: startPath = '/dashboard', state, ...over }: SessionOptions = {}) {
  const storage = createStorage(kv);
  let path = startPath;
  const navigate = vi.fn((to: string) => {
    path = to;
  });
  const assign = vi.fn();
  const log = { warn: vi.fn(), error: vi.fn() };
  /** What the session fetches with: the FakeApi's fetch unless another is given; a mock either way. */
  const fetch = vi.fn<typeof globalThis.fetch>(over.fetch ?? (api.fetch as unknown as typeof globalThis.fetch));
  const session = createSession({
    storage,
    base: () => '/api',
    navigate,
    currentPath: () => path,
    assign,
    lock: (fn) => fn(false),
    online: () => true,
    log,
    ...over,
    fetch,
  });
  if (state) session.store.setState((s) => ({ ...s, loading: false, hydrationComplete: true, ...state }));
  /** Puts a signed-in session (valid tokens) into storage, as a previous visit would have. */
  const seed = (tokens = api.issue(), expiresInMs = REMEMBER_ME_LIFETIME_MS) => {
    storage.set(KEYS.accessToken, tokens.access_token);
    storage.set(KEYS.refreshToken, tokens.refresh_token);
    storage.set(KEYS.sessionId, String(tokens.session_id));
    storage.set(KEYS.refreshExpiresAt, String(Date.now() + expiresInMs));
    return tokens;
  };
  return { session, api, kv, storage, fetch, navigate, assign, log, seed, setPath: (p: string) => (path = p), path: () => path };
}

export type TestSession = ReturnType<typeof makeSession>;

/** A session for page and shell tests: its current path is the window's, which the router moves. */
export const pageSession = (options: SessionOptions = {}) => makeSession({ currentPath: () => window.location.pathname, ...options });

/** Session states for route and page tests: signed out; signed in without and with an organization. */
export const ALL_PERMISSIONS: string[] = [...PERMISSIONS];
export const SIGNED_OUT: Partial<SessionState> = { loading: false, hydrationComplete: true, isAuthenticated: false };
export const NO_ORG: Partial<SessionState> = { ...SIGNED_OUT, isAuthenticated: true, organizations: ORGS, user: USER, userId: 1 };
/** Acme chosen, as its owner, with every permission. */
export const WITH_ORG: Partial<SessionState> = { ...NO_ORG, currentOrg: ACME, permissions: ALL_PERMISSIONS, role: 'owner' };
