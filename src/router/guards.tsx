// Guards are components that render <Navigate replace/> or their children (STYLE, SPEC §2, D9).
// The permission guard is in require-permission.tsx: only screens behind the login form use it.
import { useEffect, useLayoutEffect } from 'react';
import { mustEnrolMfa } from '../session/mfa';
import { useSession, useSessionActions } from '../session/use-session';
import { toast } from '../ui/toast';
import { Navigate } from './Link';
import { currentPath } from './location';
import { PAGES } from './paths';
import { CHECKING_SESSION, type Children } from './public-only';

export { CHECKING_SESSION, PublicOnly, type Children } from './public-only';

/** D9: not authenticated → /login with the current path stored as post_login_redirect. */
function ToLogin() {
  const session = useSessionActions();
  const from = currentPath(); // read during render: <Navigate> changes the URL in its own effect first
  useLayoutEffect(() => session.returnAfterLogin(from), [session, from]);
  return <Navigate to="/login" />;
}

/** SPEC §2 Other routes: 'Checking session...' while loading; /login when loading failed or signed out. */
export function RequireAuth({ children }: Children) {
  const s = useSession();
  if (s.loading)
    return (
      <p className="checking" role="status">
        {CHECKING_SESSION}
      </p>
    );
  if (s.hydrationError || !s.isAuthenticated) return <ToLogin />;
  return <>{children}</>;
}

/** D54: the account page, where two-step sign-in is turned on (reachable without an organization). */
export const ACCOUNT_PATH = PAGES.account;

/** D54: the organization requires two-step sign-in: to the account page to turn it on, saying why. */
function ToEnrol({ org }: { org: string }) {
  useEffect(() => void toast.info(`${org} requires two-step sign-in. Turn it on to continue.`), [org]);
  return <Navigate to={ACCOUNT_PATH} />;
}

/**
 * SPEC §2 Application shell: needs a chosen organization and no session-load error; D54: and, where the
 * organization requires it, two-step sign-in on (me's flags, or an organization call's 403
 * mfa_enrolment_required, session/mfa-sign-in.ts) before any of its pages.
 */
export function RequireOrg({ children }: Children) {
  const s = useSession();
  if (s.hydrationError || !s.isAuthenticated) return <ToLogin />;
  if (!s.currentOrg) return <Navigate to="/org-picker" />;
  if (mustEnrolMfa(s) && currentPath() !== ACCOUNT_PATH) return <ToEnrol org={s.currentOrg.name} />;
  return <>{children}</>;
}

/** SPEC §2 Organization picker: signed in, no load error, no organization chosen. */
export function OrgPickerGuard({ children }: Children) {
  const s = useSession();
  if (s.loading) return null;
  if (s.isAuthenticated && !s.hydrationError && !s.currentOrg) return <>{children}</>;
  return <Navigate to={s.isAuthenticated && !s.hydrationError ? '/dashboard' : '/login'} />;
}
