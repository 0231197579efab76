// Guards are components that render <Navigate replace/> or their children (STYLE, SPEC §2, D9).
// The permission guard is in require-permission.tsx.
import { useEffect, useLayoutEffect, useRef, type ReactNode } from 'react';
import { mustEnrolMfa } from '../session/mfa';
import { useSession, useSessionActions } from '../session/use-session';
import { toast } from '../ui/toast';
import { Link, Navigate } from './Link';
import { currentPath } from './location';
import { PAGES } from './paths';
import { useDocumentTitle } from './title';

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

/** D9: not authenticated → /login with the current path stored as post_login_redirect. */
function ToLogin() {
  const session = useSessionActions();
  const from = currentPath(); // read during render: <Navigate> changes the URL in its own effect first
  useLayoutEffect(() => session.returnAfterLogin(from), [session, from]);
  return <Navigate to="/login" />;
}

export const MSG_SIGNED_OUT = 'You are signed out.';

/**
 * D65: after the Session Expired dialog, the page at this address says so instead of the screen that can
 * no longer load; 'Log In Again' comes back here (D6: the path is kept for whoever was signed in).
 */
function SignedOut() {
  const session = useSessionActions();
  const heading = useRef<HTMLHeadingElement>(null);
  useDocumentTitle('Signed out');
  useEffect(() => heading.current?.focus(), []); // D15: what was focused went with the page
  return (
    <main className="auth-screen">
      <section className="card auth-card invite-card" aria-labelledby="signed-out-title">
        <h1 id="signed-out-title" ref={heading} tabIndex={-1}>
          {MSG_SIGNED_OUT}
        </h1>
        <p className="invite-message">Your session has ended. Log in again to carry on where you were.</p>
        <Link to="/login" className="btn btn-primary btn-block" onClick={() => session.returnAfterLogin(currentPath())}>
          Log In Again
        </Link>
      </section>
    </main>
  );
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
  if (s.signedOut) return <SignedOut />;
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
  if (s.signedOut) return <SignedOut />;
  if (s.hydrationError || !s.isAuthenticated) return <ToLogin />;
  if (!s.currentOrg) return <Navigate to="/org-picker" />;
  if (mustEnrolMfa(s) && currentPath() !== ACCOUNT_PATH) return <ToEnrol org={s.currentOrg.name} />;
  return <>{children}</>;
}

/** SPEC §2 Organization picker: signed in, no load error, no organization chosen. */
export function OrgPickerGuard({ children }: Children) {
  const s = useSession();
  if (s.loading) return null;
  if (s.signedOut) return <SignedOut />;
  if (s.isAuthenticated && !s.hydrationError && !s.currentOrg) return <>{children}</>;
  return <Navigate to={s.isAuthenticated && !s.hydrationError ? '/dashboard' : '/login'} />;
}
