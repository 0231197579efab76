// The app: the error boundary, the session, which screen a path shows behind which guards (SPEC §2), and
// the global layers: the offline banner, toasts, the route announcer, the session-expired dialog. The login
// form is in the first bundle; every other screen loads lazily (shell/routes.ts).
import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { loadStyles, stylesApplied } from '../lib/styles';
import LoginPage from '../pages/login/LoginPage';
import { CHECKING_SESSION, OrgPickerGuard, PublicOnly, RequireAuth, RequireOrg } from '../router/guards';
import { Navigate } from '../router/Link';
import { useLocation } from '../router/location';
import { findRoute } from '../router/match';
import { PAGES } from '../router/paths';
import { RouteFocus } from '../router/route-focus';
import type { Session } from '../session/controller';
import { SessionProvider, useSession, useSessionActions } from '../session/use-session';
import { preloadRoute, ROUTES } from '../shell/routes';
import { ErrorBoundary } from '../ui/error-boundary';
import { LoadFailed } from '../ui/load-failed';
import { OfflineBanner } from '../ui/offline-banner';
import { keep, lazyLoaded } from '../ui/preloaded';
import { SessionExpiredDialog } from '../ui/session-expired';
import { Spinner } from '../ui/spinner';
import { toast } from '../ui/toast';
import { Toaster } from '../ui/toaster';

/** The shell around every route's page (D40: its own chunk, asked for with the page's). */
export const loadShell = () => import('./shell-screen');
const ShellScreen = lazyLoaded(loadShell, (m) => m.ShellScreen);
const SessionExpiredView = lazy(() => import('../ui/session-expired-view'));
const OrgPickerPage = lazy(() => import('../pages/org-picker/OrgPickerPage'));
// D28, D53: the public invitation and reset-link pages, outside the shell, signed in or not.
const InvitePage = lazy(() => import('../pages/invite/InvitePage'));
const ResetPage = lazy(() => import('../pages/reset/ResetPage'));
// D51: the account page before an organization is chosen: the page alone, outside the shell.
const AccountAlone = lazy(() => import('../pages/account/AccountAlone'));

/** Starts loading the shell and the page at `path` now, every file at once (a reload, or Log In pressed: D6). */
export function preloadScreen(path: string): void {
  if (navigator.onLine === false) return; // D7: a failed import could stay failed in the module map
  void keep(loadShell).catch(() => undefined); // the real load shows a failure
  preloadRoute(path);
}

export const MSG_NO_SUCH_PAGE = 'That page does not exist';

/** SPEC §2: an unknown path goes to the dashboard, and says why (a silent redirect puzzles). */
function UnknownPath() {
  useEffect(() => void toast.info(MSG_NO_SUCH_PAGE), []);
  return <Navigate to={PAGES.dashboard} />;
}

const Centered = ({ label }: { label?: string }) => (
  <div className="center-screen">
    <Spinner label={label} showLabel={label !== undefined} />
  </div>
);

const Lazy = ({ children }: { children: ReactNode }) => <Suspense fallback={<Centered />}>{children}</Suspense>;

/** Every screen but the login form waits for the rest of the styles (lib/styles.ts); D40 when they cannot load. */
function WithStyles({ children }: { children: ReactNode }) {
  const [state, setState] = useState<'loading' | 'ready' | 'failed'>(() => (stylesApplied() ? 'ready' : 'loading'));
  useEffect(() => {
    if (state !== 'loading') return undefined;
    let live = true;
    loadStyles().then(
      () => live && setState('ready'),
      () => live && setState('failed'),
    );
    return () => void (live = false);
  }, [state]);
  if (state === 'failed') {
    return (
      <main className="center-screen">
        <LoadFailed onRetry={() => setState('loading')} />
      </main>
    );
  }
  return state === 'ready' ? children : <Centered label={CHECKING_SESSION} />;
}

/** SPEC §2: which screen a path shows, behind which guards. */
export function AppRoutes() {
  const { pathname } = useLocation();
  const s = useSession();
  const session = useSessionActions();
  useEffect(() => session.recheckPermissions(), [session, pathname]); // D64: on navigation (at most every 30 s)
  const login = pathname === '/login';
  // SPEC §2: while the session loads a centred spinner replaces all routes; on protected routes it
  // reads 'Checking session...', on /login nothing else is rendered.
  if (s.loading) return <Centered label={login ? undefined : CHECKING_SESSION} />;
  if (login) {
    return (
      <PublicOnly>
        <LoginPage preloadNext={() => preloadScreen(session.returnPath() ?? PAGES.dashboard)} />
      </PublicOnly>
    );
  }
  return (
    <WithStyles>
      <OtherRoutes pathname={pathname} />
    </WithStyles>
  );
}

function OtherRoutes({ pathname }: { pathname: string }) {
  const s = useSession();
  if (pathname === '/org-picker') {
    return (
      <OrgPickerGuard>
        <Lazy>
          <OrgPickerPage />
        </Lazy>
      </OrgPickerGuard>
    );
  }
  if (pathname.startsWith('/invite/')) return <Lazy>{<InvitePage />}</Lazy>;
  if (pathname.startsWith('/reset/')) return <Lazy>{<ResetPage />}</Lazy>;
  if (pathname === '/' || pathname === '') return <Navigate to={PAGES.dashboard} />; // SPEC §2: the index of / is the dashboard
  const match = findRoute(ROUTES, pathname.replace(/(.)\/$/, '$1'));
  // SPEC §2: an unknown path goes to /dashboard when signed in (the shell's guards take it on from
  // there), otherwise to /login.
  if (!match) return s.isAuthenticated && !s.hydrationError ? <UnknownPath /> : <Navigate to="/login" />;
  if (match.route.path === '/account' && !s.currentOrg) {
    return (
      <RequireAuth>
        <Lazy>
          <AccountAlone />
        </Lazy>
      </RequireAuth>
    );
  }
  return (
    <RequireAuth>
      <RequireOrg>
        <Lazy>
          <ShellScreen route={match.route} params={match.params} />
        </Lazy>
      </RequireOrg>
    </RequireAuth>
  );
}

/** The whole app of `session`. */
export function App({ session, onError }: { session: Session; onError?: (e: unknown) => void }) {
  return (
    <ErrorBoundary onError={onError}>
      <SessionProvider session={session}>
        <OfflineBanner />
        <AppRoutes />
        <Toaster />
        <RouteFocus />
        <SessionExpiredDialog View={SessionExpiredView} onClosed={session.closeExpired} />
      </SessionProvider>
    </ErrorBoundary>
  );
}
