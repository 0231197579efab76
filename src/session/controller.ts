// The session: hydration, logout, refresh, organization choice and permission checks (SPEC §4, §5,
// §8; D4–D9, D21); the login itself is in login.ts. React-free; React reads `store` through use-session.tsx.
import { createClient, type Client } from '../http/client';
import { isHttpError, isTransient } from '../http/errors';
import { emit, SESSION_CLEARED_EVENT, SESSION_EXPIRED_EVENT, TOKENS_REFRESHED_EVENT } from '../lib/events';
import { isExpired, isWellFormed, subject } from '../lib/jwt';
import { createStore, patch } from '../lib/store';
import { clearSessionStorage, createStorage, KEYS, storeRedirect, type AppStorage } from '../lib/storage';
import type { Permission } from '../../contract/permissions';
import type { WithLock } from './lock';
import { destination, LOGIN_PATH, logIn } from './login';
import { reloadOncePerBurst } from './permission-sync';
import { singleLoad } from './single-load';
import { LOGGED_OUT, type LoginPayload, type SessionState, type TokenResponse } from './types';

/** A load that failed for lack of network is tried again after this long (or when back online). */
export const LOAD_RETRY_MS = 5_000;
/** SPEC §8 message. */
export const MSG_SESSION_NOT_LOADED = 'Session could not be loaded. Please log in again.';
export const PATHS = { login: LOGIN_PATH, refresh: '/v1/auth/refresh/', logout: '/v1/auth/logout/', me: '/v1/auth/me/' } as const;

export interface SessionDeps {
  storage?: AppStorage;
  fetch?: typeof fetch;
  /** D1: API base, read at call time so the runtime config wins. */
  base?: () => string;
  navigate: (to: string, opts?: { replace?: boolean }) => void;
  currentPath: () => string;
  /** Full page load at a path (organization switch from the user menu). */
  assign: (to: string) => void;
  lock?: WithLock;
  online?: () => boolean;
  win?: Window;
  log?: Pick<Console, 'warn' | 'error'>;
}

const initialState = (): SessionState => ({ ...LOGGED_OUT, loading: true, hydrationComplete: false, hydrationError: null });

export function createSession(deps: SessionDeps) {
  const storage = deps.storage ?? createStorage();
  const win = deps.win ?? window;
  const online = deps.online ?? (() => win.navigator.onLine !== false);
  // The profile checks, the rotation and the cross-tab lock load on first use (deferred.ts).
  const later = () => import('./deferred');
  const lock: WithLock = deps.lock ?? (async (fn) => (await later()).defaultLock()(fn));
  const store = createStore<SessionState>(initialState());
  // D21: the organization this tab shows; another tab changing the stored one reloads this tab.
  let tabOrgId = storage.getInt(KEYS.currentOrgId);

  const client: Client = createClient({
    base: deps.base ?? (() => '/api'),
    accessToken: () => storage.get(KEYS.accessToken),
    orgId: () => tabOrgId,
    refresh: () => doRefresh(),
    onRefreshFailed: () => expire(),
    // SPEC §5: a non-auth request without a token is cancelled; flag it and remember the path.
    onMissingToken: () => {
      storage.set(KEYS.hydrationFailed, 'true');
      storeRedirect(storage, deps.currentPath(), null);
    },
    fetch: deps.fetch,
    log: deps.log,
    onPermissionDenied: reloadOncePerBurst(() => load()), // D29: reload the profile so permissions catch up
  });

  const set = (partial: Partial<SessionState>) => patch(store, partial);

  function clearSession(logout = false): void {
    clearSessionStorage(storage, undefined, logout); // D41: logout removes this tab's drafts, an expiry keeps them
    emit(SESSION_CLEARED_EVENT, win); // cached data of this session must not outlive it
  }

  function setLoggedOut(extra: Partial<SessionState> = {}): void {
    set({ ...LOGGED_OUT, loading: false, hydrationComplete: true, hydrationError: null, ...extra });
  }

  /** SPEC §8: 401 and the refresh fails → session cleared, hydration_failed set, sessionExpired fires. */
  function expire(): void {
    storeRedirect(storage, deps.currentPath(), subject(storage.get(KEYS.accessToken)));
    clearSession();
    storage.set(KEYS.hydrationFailed, 'true');
    set({ expired: true });
    emit(SESSION_EXPIRED_EVENT, win);
  }

  /** D8: rotates the tokens under the cross-tab lock (see lock.ts). */
  const rotateTokens = async () => {
    const seen = storage.get(KEYS.refreshToken); // before the code loads: another tab may rotate meanwhile
    await (await later()).rotateTokens(storage, lock, (refresh_token) => client.post<TokenResponse>(PATHS.refresh, { refresh_token }), seen);
  };

  /** SPEC §4: the current user, and the organization this tab shows (D4); the checks load beside the call. */
  async function loadProfile(): Promise<void> {
    const code = later();
    code.catch(() => undefined); // a failed load is reported where it is awaited
    const me = () => client.get(PATHS.me).then(async (data) => (await code).parseProfile(data));
    const p = await me().catch((error: unknown) => {
      // D4: a stored organization the user no longer belongs to is answered 403; forget it and ask again.
      if (!isHttpError(error, 403) || tabOrgId === null) throw error;
      tabOrgId = null;
      storage.remove(KEYS.currentOrgId);
      return me();
    });
    const org = (await code).chooseOrg(p.organizations, tabOrgId, p.favorite_org_id);
    if (org && org.id !== tabOrgId) {
      tabOrgId = org.id;
      storage.set(KEYS.currentOrgId, String(org.id));
    }
    set({
      isAuthenticated: true,
      expired: false,
      currentOrg: org,
      user: p.user,
      organizations: p.organizations,
      permissions: org ? p.permissions : [],
      features: org ? p.features : [],
      role: org ? p.role : null,
      prefs: p.prefs,
      favoriteOrgId: p.favorite_org_id,
      hydrationError: null,
    });
  }

  /** SPEC §4 Refresh: new tokens, extended expiry, reloaded profile, idle queries refetched once. */
  async function doRefresh(): Promise<void> {
    await rotateTokens();
    await loadProfile();
    emit(TOKENS_REFRESHED_EVENT, win);
  }

  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  /** D7: run the load again once the browser is back online (or after LOAD_RETRY_MS). */
  function loadWhenOnline(): void {
    if (retryTimer !== undefined) return;
    const again = () => {
      clearTimeout(retryTimer);
      retryTimer = undefined;
      win.removeEventListener('online', again);
      void load();
    };
    win.addEventListener('online', again);
    retryTimer = setTimeout(again, LOAD_RETRY_MS);
  }

  async function hydrate(): Promise<void> {
    tabOrgId ??= storage.getInt(KEYS.currentOrgId);
    const access = storage.get(KEYS.accessToken);
    const refreshToken = storage.get(KEYS.refreshToken);
    if (!isWellFormed(access) && !refreshToken) {
      clearSession(); // SPEC §4: no valid token
      return setLoggedOut();
    }
    if (!online()) return loadWhenOnline(); // D7: no call, keep the stored session
    const refreshExpiry = storage.getInt(KEYS.refreshExpiresAt);
    if (refreshToken && refreshExpiry !== null && refreshExpiry <= Date.now()) {
      // SPEC §4: the refresh lifetime has passed.
      storeRedirect(storage, deps.currentPath(), subject(access));
      clearSession();
      setLoggedOut();
      return deps.navigate('/login', { replace: true });
    }
    try {
      if (!isWellFormed(access) || isExpired(access)) {
        if (!refreshToken) {
          clearSession();
          return setLoggedOut();
        }
        await rotateTokens();
      }
      await loadProfile();
      set({ loading: false, hydrationComplete: true });
    } catch (error) {
      if (isTransient(error)) return loadWhenOnline(); // D7, D2: keep the session and try again
      // SPEC §4 / D4: the current-user call (or its refresh) failed, or the profile is unusable.
      clearSession();
      storage.set(KEYS.toastReason, MSG_SESSION_NOT_LOADED);
      setLoggedOut({ hydrationError: MSG_SESSION_NOT_LOADED });
      deps.navigate('/login', { replace: true });
    }
  }

  /**
   * SPEC §4 Session load, single-flight (single-load.ts). `loading` means the first restore of the stored
   * session only: later loads (after login, an organization choice, back online) keep the current screen.
   */
  const load = singleLoad(hydrate, (message) => deps.log?.warn(message));

  /** SPEC §2/§3 (login.ts): sign in, load the session, go on. */
  const login = (payload: LoginPayload, signal?: AbortSignal) =>
    logIn({ client, storage, store, load, clearSession, navigate: deps.navigate }, payload, signal);

  /** SPEC §4 Logout: tell the server (failure ignored), clear, remember the path, go to /login. */
  async function logout(): Promise<void> {
    const access = storage.get(KEYS.accessToken);
    const refreshToken = storage.get(KEYS.refreshToken);
    const sessionId = storage.getInt(KEYS.sessionId);
    const path = deps.currentPath();
    try {
      if (refreshToken) await client.post(PATHS.logout, { refresh_token: refreshToken, session_id: sessionId });
    } catch {
      /* SPEC §4: failure ignored */
    }
    clearSession(true);
    storeRedirect(storage, path, subject(access));
    setLoggedOut();
    deps.navigate('/login', { replace: true });
  }

  /** SPEC §4: selecting an organization stores its id and re-runs the load; then on to the dashboard. */
  async function selectOrg(id: number): Promise<void> {
    tabOrgId = id;
    storage.set(KEYS.currentOrgId, String(id));
    await load();
    if (store.getState().currentOrg?.id === id) deps.navigate(destination({ store, storage }), { replace: true });
  }

  /** SPEC §2 user menu: set the organization and reload the app at /dashboard. */
  function switchOrg(id: number): void {
    storage.set(KEYS.currentOrgId, String(id));
    tabOrgId = id;
    deps.assign('/dashboard');
  }

  // D9: the checks really check.
  const can = (permission: Permission) => store.getState().permissions.includes(permission);

  return {
    store,
    client,
    storage,
    load,
    login,
    logout,
    /** Refreshes through the client's single flight; a failed refresh expires the session (SPEC §8). */
    refresh: () => client.refresh(),
    selectOrg,
    switchOrg,
    can,
    /** D21: the organization this tab sends as X-Organization-ID. */
    tabOrgId: () => tabOrgId,
  };
}

export type Session = ReturnType<typeof createSession>;
