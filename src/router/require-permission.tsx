// D9: a failed permission check leads to /forbidden. It sits inside RequireAuth and
// RequireOrg (app/App.tsx), which send a signed-out person to /login first; the shell's screen
// (app/shell-screen.tsx) uses it.
import type { Permission } from '../../contract/permissions';
import { useCan } from '../session/use-session';
import type { Children } from './guards';
import { useHeldPath } from './hold';
import { Navigate } from './Link';
import { useLocation } from './location';

export function RequirePermission({ permission, children }: Children & { permission?: Permission }) {
  const allowed = useCan(permission);
  // D41: a form refused with 403 permission_denied on save keeps its page (router/hold.ts).
  const held = useHeldPath() === useLocation().pathname;
  if (!held && !allowed) return <Navigate to="/forbidden" />;
  return <>{children}</>;
}
