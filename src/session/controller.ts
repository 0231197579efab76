// The session (SPEC §4, §5, §8; D4–D9, D21), React-free, wired from its parts: the core (state.ts: store,
// storage, this tab's organization), the load (load.ts), the refresh (refresh.ts), login and token answers
// (login.ts), the timers and cross-tab listeners (watchers.ts). React reads `store` through use-session.tsx.
// Only the session reads or writes the session's keys in browser storage (SPEC §3).
import { createClient, type Client } from '../http/client';
import { KEYS, readRedirect } from '../lib/storage';
import type { Permission } from '../../contract/permissions';
import { createLoader } from './load';
import { adoptTokens, returnAfterLogin, takeToastReason } from './login';
import { completeMfa, markMfa, requireMfa } from './mfa-sign-in';
import { recheckAtMost, reloadOncePerBurst } from './permission-sync';
import { expire, refreshSession, tokenMissing, tokenRotation } from './refresh';
import { logIn, selectOrg } from './sign-in';
import { logOut } from './sign-out';
import { createCore, type SessionDeps } from './state';
import type { LoginPayload, MfaCode, MfaPending, TokenResponse, User } from './types';

export type { SessionDeps } from './state';

export function createSession(deps: SessionDeps) {
  const core = createCore(deps);
  const { storage, store } = core;

  const client: Client = createClient({
    base: deps.base ?? (() => '/api'),
    accessToken: () => storage.get(KEYS.accessToken),
    orgId: core.tabOrgId,
    refresh: () => refreshSession(core, rotate, loadProfile),
    onRefreshFailed: () => expire(core),
    onMissingToken: () => tokenMissing(core),
    fetch: deps.fetch,
    log: deps.log,
    onPermissionDenied: reloadOncePerBurst(() => load()), // D29: reload the profile so permissions catch up
    onMfaRequired: () => requireMfa(core), // D54: the router's guard sends the person to enrol
  });
  const rotate = tokenRotation(core, client);
  const { load, loadProfile, profileAskedAt } = createLoader(core, client, rotate);

  // D64: only a signed-in tab in an organization, its session up, has permissions to catch up with.
  const signedInHere = () => {
    const s = store.getState();
    return s.isAuthenticated && !s.expired && !s.loading && s.currentOrg !== null;
  };
  const recheckPermissions = recheckAtMost(loadProfile, profileAskedAt, signedInHere);
  /** D65: screens that show a completed one-time action, kept through another tab's session change. */
  let keptScreens = 0;

  // D9: the checks really check.
  const can = (permission: Permission) => store.getState().permissions.includes(permission);

  return {
    store,
    client,
    /** For the session's own modules (watchers.ts); nothing else reads or writes its keys. */
    storage,
    load,
    /** SPEC §2/§3 (sign-in.ts): sign in, load the session, go on; D54: or the challenge of the second step. */
    login: (payload: LoginPayload, signal?: AbortSignal) => logIn({ core, client, load }, payload, signal),
    /** D54 (mfa-sign-in.ts): the second step with a code or a recovery code, then on as a login. */
    completeMfa: (pending: MfaPending, answer: MfaCode, signal?: AbortSignal) => completeMfa({ core, client, load }, pending, answer, signal),
    /** D54: two-step sign-in was turned on or off on the account page. */
    markMfa: (enabled: boolean) => markMfa(core, enabled),
    /** A token answer from outside a login (an accepted invitation, D28) becomes the signed-in session. */
    adopt: (tokens: TokenResponse) => adoptTokens(storage, tokens),
    /** D51: the name or email the account page saved, into the session (the user menu shows it). */
    updateUser: (changes: Partial<User>) => {
      const user = store.getState().user;
      if (user) core.set({ user: { ...user, ...changes } });
    },
    /** SPEC §4 Logout (sign-out.ts). */
    logout: () => logOut(core, client),
    /** Refreshes through the client's single flight; a failed refresh expires the session (SPEC §8). */
    refresh: () => client.refresh(),
    /** SPEC §4 (sign-in.ts): store the organization, load the session, go on. */
    selectOrg: (id: number, opts?: { ignoreReturnPath?: boolean }) => selectOrg({ core, load }, id, opts),
    /** SPEC §2 user menu: set the organization and reload the app at /dashboard. */
    switchOrg: (id: number) => {
      core.setTabOrg(id);
      deps.assign('/dashboard');
    },
    can,
    /** D64: a tab became visible, or the person navigated: ask for the current permissions (at most every 30 s). */
    recheckPermissions,
    /**
     * D65: the Session Expired dialog was closed (either button): nobody is signed in here any more. The
     * pages say so (router/guards.tsx) instead of spinning or retrying; `expired` stays, so drafts are kept (D41).
     */
    closeExpired: () => {
      if (store.getState().expired) core.setLoggedOut({ expired: true, signedOut: true });
    },
    /**
     * D65: while a screen shows a completed one-time action (a reset link used), another tab's session
     * change does not reload this tab (watchers.ts), which would ask for the used link again. Returns the release.
     */
    keepScreen: () => {
      keptScreens++;
      let released = false;
      return () => {
        if (!released) keptScreens--;
        released = true;
      };
    },
    screenKept: () => keptScreens > 0,
    /** D21: the organization this tab sends as X-Organization-ID. */
    tabOrgId: core.tabOrgId,
    /** SPEC §2: the stored toast reason, once (the login screen shows it). */
    takeToastReason: () => takeToastReason(storage),
    /** D6: come back to `path` after the next login (login.ts). */
    returnAfterLogin: (path: string, opts?: { anyone?: boolean }) => returnAfterLogin(storage, path, opts),
    /** D6: the path a login will go on to, if one is stored (read, not taken). */
    returnPath: () => readRedirect(storage)?.path ?? null,
    /** A session is stored (a token of either kind), so its load will most likely show the current page. */
    hasStoredTokens: () => Boolean(storage.get(KEYS.accessToken) || storage.get(KEYS.refreshToken)),
  };
}

export type Session = ReturnType<typeof createSession>;
