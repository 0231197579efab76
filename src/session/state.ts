// The session's core, shared by its parts (load.ts, refresh.ts, login.ts, controller.ts): the store React
// reads (lib/store.ts), the browser storage that holds tokens (SPEC §3), and the organization this tab shows (D21).
import { emit, SESSION_CLEARED_EVENT } from '../lib/events';
import { clearSessionStorage, createStorage, KEYS, type AppStorage } from '../lib/storage';
import { createStore, patch, type Store } from '../lib/store';
import type { WithLock } from './lock';
import { LOGGED_OUT, type SessionState } from './types';

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

export interface SessionCore {
  deps: SessionDeps;
  storage: AppStorage;
  win: Window;
  store: Store<SessionState>;
  set(partial: Partial<SessionState>): void;
  /** Nobody signed in, the load done. */
  setLoggedOut(extra?: Partial<SessionState>): void;
  /** Removes the stored session and tells the app (cached data must not outlive it); D41: logout also drops drafts. */
  clear(logout?: boolean): void;
  /** D21: the organization this tab shows; another tab changing the stored one reloads this tab (watchers.ts). */
  tabOrgId(): number | null;
  /** D21: this tab's organization, stored for the next load (null forgets it). */
  setTabOrg(id: number | null): void;
  /** SPEC §4 Session load: a tab without an organization takes the stored one. */
  restoreTabOrg(): void;
}

const initialState = (): SessionState => ({ ...LOGGED_OUT, loading: true, hydrationComplete: false, hydrationError: null });

export function createCore(deps: SessionDeps): SessionCore {
  const storage = deps.storage ?? createStorage();
  const win = deps.win ?? window;
  const store = createStore<SessionState>(initialState());
  let tabOrgId = storage.getInt(KEYS.currentOrgId);
  const set = (partial: Partial<SessionState>) => patch(store, partial);
  return {
    deps,
    storage,
    win,
    store,
    set,
    setLoggedOut: (extra = {}) => set({ ...LOGGED_OUT, loading: false, hydrationComplete: true, hydrationError: null, ...extra }),
    clear(logout = false) {
      clearSessionStorage(storage, undefined, logout);
      emit(SESSION_CLEARED_EVENT, win);
    },
    tabOrgId: () => tabOrgId,
    setTabOrg(id) {
      tabOrgId = id;
      if (id === null) storage.remove(KEYS.currentOrgId);
      else storage.set(KEYS.currentOrgId, String(id));
    },
    restoreTabOrg() {
      tabOrgId ??= storage.getInt(KEYS.currentOrgId);
    },
  };
}
