// SPEC §4 Sliding refresh and Cross-tab, D21: timers and window listeners around a session.
import { isExpired, isWellFormed } from '../lib/jwt';
import { KEYS } from '../lib/storage';
import type { Session } from './controller';

/** SPEC §9: check every 10 s; refresh when the refresh expiry is under 30 s away. */
export const REFRESH_CHECK_MS = 10_000;
export const REFRESH_MARGIN_MS = 30_000;
/** SPEC §9: the tab-visibility check runs at most once per 10 s. */
export const VISIBILITY_THROTTLE_MS = 10_000;

export interface WatchDeps {
  win?: Window;
  reload?: () => void;
}

export function startSessionWatchers(session: Session, { win = window, reload = () => win.location.reload() }: WatchDeps = {}): () => void {
  const { storage, store } = session;
  const expiryNear = () => {
    const at = storage.getInt(KEYS.refreshExpiresAt);
    return at !== null && at - Date.now() < REFRESH_MARGIN_MS;
  };
  const refresh = () => session.refresh().catch(() => undefined); // failures are handled by the client

  // SPEC §4 Sliding refresh.
  const interval = setInterval(() => {
    if (store.getState().isAuthenticated && !store.getState().expired && expiryNear()) void refresh();
  }, REFRESH_CHECK_MS);

  // SPEC §4: when the tab becomes visible (throttled), refresh if the access token is unusable or time is short.
  let lastVisibleCheck = -Infinity;
  const onVisible = () => {
    if (win.document.visibilityState !== 'visible' || !store.getState().isAuthenticated || store.getState().expired) return;
    if (Date.now() - lastVisibleCheck < VISIBILITY_THROTTLE_MS) return;
    lastVisibleCheck = Date.now();
    const access = storage.get(KEYS.accessToken);
    // D64: a refresh reloads the profile; without one, the permissions are asked for (at most every 30 s).
    if (!isWellFormed(access) || isExpired(access) || expiryNear()) void refresh();
    else session.recheckPermissions();
  };

  // SPEC §4 Cross-tab: another tab removing a token reloads this one. D21: so does another tab
  // switching organization, so this tab never writes to an organization it does not show.
  const onStorage = (e: StorageEvent) => {
    if (session.screenKept()) return; // D65: a completed one-time action stays on screen
    if (e.key === null) return reload(); // storage.clear() in another tab
    if ((e.key === KEYS.accessToken || e.key === KEYS.refreshToken) && e.newValue === null) return reload();
    if (e.key === KEYS.currentOrgId && e.newValue !== null && e.newValue !== String(session.tabOrgId())) return reload();
  };

  win.document.addEventListener('visibilitychange', onVisible);
  win.addEventListener('storage', onStorage);
  // The watchers start once the browser is idle after the first screen: what another tab did before
  // then (a logout, an organization switch) is caught up with now, as its event would have been.
  const state = store.getState();
  if (state.isAuthenticated && !state.expired && !session.screenKept()) {
    const stored = storage.get(KEYS.currentOrgId);
    const tabOrg = session.tabOrgId();
    if (storage.get(KEYS.accessToken) === null || storage.get(KEYS.refreshToken) === null) reload();
    else if (tabOrg !== null && stored !== null && stored !== String(tabOrg)) reload();
  }
  return () => {
    clearInterval(interval);
    win.document.removeEventListener('visibilitychange', onVisible);
    win.removeEventListener('storage', onStorage);
  };
}
