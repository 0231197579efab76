// SPEC §4 Session load (hydration): restore the stored session, refresh first when the access token is
// unusable, load the current user and the organization this tab shows (D4); offline, wait (D7).
import type { Client } from '../http/client';
import { isTransient } from '../http/errors';
import { isExpired, isWellFormed, subject } from '../lib/jwt';
import { KEYS, storeRedirect } from '../lib/storage';
import { singleLoad } from './single-load';
import { takeProfile } from './profile';
import type { SessionCore } from './state';

/** A load that failed for lack of network is tried again after this long (or when back online). */
export const LOAD_RETRY_MS = 5_000;
/** SPEC §8 message. */
export const MSG_SESSION_NOT_LOADED = 'Session could not be loaded. Please log in again.';
export const ME_PATH = '/v1/auth/me/';

export interface Loader {
  /** SPEC §4 Session load, single-flight (single-load.ts). */
  load(): Promise<void>;
  /** SPEC §4: the current user and this tab's organization into the store. */
  loadProfile(): Promise<void>;
  /** When the current-user call was last sent (Date.now()), for D64's throttle. */
  profileAskedAt(): number;
}

export function createLoader(core: SessionCore, client: Pick<Client, 'get'>, rotateTokens: () => Promise<void>): Loader {
  const { deps, storage, win, set } = core;
  const online = deps.online ?? (() => win.navigator.onLine !== false);

  let askedAt = -Infinity;
  /** SPEC §4 / D4: the current-user call, its answer checked and taken in (profile.ts). */
  async function loadProfile(): Promise<void> {
    askedAt = Date.now();
    const me = () => client.get(ME_PATH);
    await takeProfile(core, me, me());
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
    core.restoreTabOrg();
    const access = storage.get(KEYS.accessToken);
    const refreshToken = storage.get(KEYS.refreshToken);
    if (!isWellFormed(access) && !refreshToken) {
      core.clear(); // SPEC §4: no valid token
      return core.setLoggedOut();
    }
    if (!online()) return loadWhenOnline(); // D7: no call, keep the stored session
    const refreshExpiry = storage.getInt(KEYS.refreshExpiresAt);
    if (refreshToken && refreshExpiry !== null && refreshExpiry <= Date.now()) {
      // SPEC §4: the refresh lifetime has passed.
      storeRedirect(storage, deps.currentPath(), subject(access));
      core.clear();
      core.setLoggedOut();
      return deps.navigate('/login', { replace: true });
    }
    try {
      if (!isWellFormed(access) || isExpired(access)) {
        if (!refreshToken) {
          core.clear();
          return core.setLoggedOut();
        }
        await rotateTokens();
      }
      await loadProfile();
      set({ loading: false, hydrationComplete: true });
    } catch (error) {
      if (isTransient(error)) return loadWhenOnline(); // D7, D2: keep the session and try again
      // SPEC §4 / D4: the current-user call (or its refresh) failed, or the profile is unusable.
      core.clear();
      storage.set(KEYS.toastReason, MSG_SESSION_NOT_LOADED);
      core.setLoggedOut({ hydrationError: MSG_SESSION_NOT_LOADED });
      deps.navigate('/login', { replace: true });
    }
  }

  // `loading` means the first restore of the stored session only: later loads (after login, an
  // organization choice, back online) keep the current screen.
  const load = singleLoad(hydrate, (message) => deps.log?.warn(message));
  return { load, loadProfile, profileAskedAt: () => askedAt };
}
