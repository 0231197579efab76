// The one React binding of the session store (STYLE: small core, one hook), and useCan.
import { createContext, useContext, useSyncExternalStore, type ReactNode } from 'react';
import type { Permission } from '../../contract/permissions';
import type { Session } from './controller';
import type { LoginSession } from './early';
import type { SessionState } from './types';

// Until the app's code has arrived on a cold load, the login screen's session (early.ts); then the real one.
const SessionContext = createContext<Session | LoginSession | null>(null);

export function SessionProvider({ session, children }: { session: Session | LoginSession; children: ReactNode }) {
  return <SessionContext.Provider value={session}>{children}</SessionContext.Provider>;
}

function useAnySession(): Session | LoginSession {
  const s = useContext(SessionContext);
  if (!s) throw new Error('the session hooks need a <SessionProvider>');
  return s;
}

/**
 * The session controller: login, logout, selectOrg, switchOrg, can, client… Only screens drawn once the
 * app's code has arrived use it (the login screen before then has useLoginSession).
 */
export function useSessionActions(): Session {
  const s = useAnySession();
  if (!('client' in s)) throw new Error("useSessionActions before the app's session has arrived (useLoginSession)");
  return s;
}

/** SPEC §2 Login: what the login screen uses, from the first bundle's session or the app's (early.ts). */
export const useLoginSession = (): LoginSession => useAnySession();

/** The session state, re-rendering on change. */
export function useSession(): SessionState {
  const { store } = useAnySession();
  return useSyncExternalStore(store.subscribe, store.getState, store.getState);
}

/** D9: the one permission check for screens; re-renders when the answer changes. No permission: allowed. */
export function useCan(permission?: Permission): boolean {
  const { store, can } = useSessionActions();
  const allowed = () => !permission || can(permission);
  return useSyncExternalStore(store.subscribe, allowed, allowed);
}
