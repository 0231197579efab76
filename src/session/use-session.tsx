// The one React binding of the session store (STYLE: small core, one hook), and useCan.
import { createContext, useContext, useSyncExternalStore, type ReactNode } from 'react';
import type { Permission } from '../../contract/permissions';
import type { Session } from './controller';
import type { SessionState } from './types';

const SessionContext = createContext<Session | null>(null);

export function SessionProvider({ session, children }: { session: Session; children: ReactNode }) {
  return <SessionContext.Provider value={session}>{children}</SessionContext.Provider>;
}

/** The session controller: login, logout, selectOrg, switchOrg, can, client… */
export function useSessionActions(): Session {
  const s = useContext(SessionContext);
  if (!s) throw new Error('the session hooks need a <SessionProvider>');
  return s;
}

/** The session state, re-rendering on change. */
export function useSession(): SessionState {
  const { store } = useSessionActions();
  return useSyncExternalStore(store.subscribe, store.getState, store.getState);
}

/** D9: the one permission check for screens; re-renders when the answer changes. No permission: allowed. */
export function useCan(permission?: Permission): boolean {
  const { store, can } = useSessionActions();
  const allowed = () => !permission || can(permission);
  return useSyncExternalStore(store.subscribe, allowed, allowed);
}
