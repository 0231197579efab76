// D9: a failed permission or role check leads to /forbidden. It sits inside RequireAuth and
// RequireOrg (app/shell-screen.tsx), which send a signed-out person to /login first. Only screens
// behind the login form use it, so it loads with them, apart from the guards of the first bundle.
import type { Permission } from '../../contract/permissions';
import { useCan, useSessionActions } from '../session/use-session';
import type { Children } from './guards';
import { useHeldPath } from './hold';
import { Navigate } from './Link';
import { useLocation } from './location';

export function RequirePermission({ permission, role, children }: Children & { permission?: Permission; role?: string }) {
  const allowed = useCan(permission);
  const { hasRole } = useSessionActions();
  // D41: a form refused with 403 permission_denied on save keeps its page (router/hold.ts).
  const held = useHeldPath() === useLocation().pathname;
  if (!held && (!allowed || (role && !hasRole(role)))) return <Navigate to="/forbidden" />;
  return <>{children}</>;
}
