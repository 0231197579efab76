// SPEC §2 the login form's guard, apart from guards.tsx: the login form is drawn by the first bundle
// (app/frame.tsx), the other guards only once the rest of the app's code has arrived.
import type { ReactNode } from 'react';
import { useSession } from '../session/use-session';
import { Navigate } from './Link';

export type Children = { children: ReactNode };

/** SPEC §2: what protected routes show while the session loads. */
export const CHECKING_SESSION = 'Checking session...';

/** SPEC §2 Login: only for signed-out users; nothing renders until the stored session has loaded. */
export function PublicOnly({ children }: Children) {
  const s = useSession();
  if (s.loading) return null;
  if (s.isAuthenticated && !s.expired && !s.postLogin && !s.hydrationError) {
    return <Navigate to={s.currentOrg ? '/dashboard' : '/org-picker'} />;
  }
  return <>{children}</>;
}
