// The app: providers, global layers and the route switch (SPEC §2 routes and guards).
import { lazy, Suspense, useEffect, useState, useSyncExternalStore, type ComponentType } from 'react';
import LoginPage from '../pages/login/LoginPage';
import { CHECKING_SESSION, OrgPickerGuard, PublicOnly, RequireAuth, RequireOrg } from '../router/guards';
import { Navigate } from '../router/Link';
import { useLocation } from '../router/location';
import { PAGES } from '../router/paths';
import { findRoute } from '../router/match';
import { RouteFocus } from '../router/route-focus';
import type { Session } from '../session/controller';
import { SessionProvider, useSession } from '../session/use-session';
import { ErrorBoundary } from '../ui/error-boundary';
import { OfflineBanner } from '../ui/offline-banner';
import { SessionExpiredDialog } from '../ui/session-expired';
import { Spinner } from '../ui/spinner';
import { toast, toasts } from '../ui/toast';
import { loadShell, loadToaster, preloadScreen } from './preload';
import { lazyLoaded } from '../ui/preloaded';
import { SHELL_ROUTES } from './routes';

// Everything behind the login form comes from the lazy group (lazy.ts).
const ShellScreen = lazyLoaded(loadShell, (m) => m.ShellScreen);
const SessionExpiredView = lazyLoaded(loadShell, (m) => m.SessionExpiredView);
const OrgPickerPage = lazyLoaded(loadShell, (m) => m.OrgPickerPage);
// D28: the public invitation page, outside the shell, signed in or not; a chunk of its own.
const InvitePage = lazy(() => import('../pages/invite/InvitePage'));
// D53: the public reset-link page likewise.
const ResetPage = lazy(() => import('../pages/reset/ResetPage'));
// D51: the account page before an organization is chosen: the page alone, outside the shell.
const AccountAlone = lazy(() => import('../pages/account/AccountAlone'));
// SPEC §9: the toast region loads beside the session's calls (start.tsx); toasts wait in their store.
const Toaster = lazyLoaded(loadToaster, (m) => m?.Toaster ?? ToasterLater);

/** The region's code failed to load: the next toast tries again. */
function ToasterLater() {
  const count = useSyncExternalStore(toasts.subscribe, () => toasts.getState().length);
  const [Region, setRegion] = useState<ComponentType | null>(null);
  useEffect(() => {
    if (count > 0 && !Region) loadToaster().then((m) => m && setRegion(() => m.Toaster));
  }, [count, Region]);
  return Region ? <Region /> : null;
}

const Centered = ({ label }: { label?: string }) => (
  <div className="center-screen">
    <Spinner label={label} showLabel={label !== undefined} />
  </div>
);

export const MSG_NO_SUCH_PAGE = 'That page does not exist';

/** SPEC §2: an unknown path goes to the dashboard, and says why (a silent redirect puzzles). */
function UnknownPath() {
  useEffect(() => void toast.info(MSG_NO_SUCH_PAGE), []);
  return <Navigate to={PAGES.dashboard} />;
}

/** SPEC §2: which screen a path shows, behind which guards. */
export function AppRoutes() {
  const { pathname } = useLocation();
  const s = useSession();
  // SPEC §2: while the session loads a centred spinner replaces all routes; on protected routes it
  // reads 'Checking session...', on /login nothing else is rendered.
  if (s.loading) return <Centered label={pathname === '/login' ? undefined : CHECKING_SESSION} />;
  if (pathname === '/login') {
    return (
      <PublicOnly>
        <LoginPage preloadScreen={preloadScreen} />
      </PublicOnly>
    );
  }
  if (pathname === '/org-picker') {
    return (
      <OrgPickerGuard>
        <Suspense fallback={<Centered />}>
          <OrgPickerPage />
        </Suspense>
      </OrgPickerGuard>
    );
  }
  if (pathname.startsWith('/invite/')) {
    return (
      <Suspense fallback={<Centered />}>
        <InvitePage />
      </Suspense>
    );
  }
  if (pathname.startsWith('/reset/')) {
    return (
      <Suspense fallback={<Centered />}>
        <ResetPage />
      </Suspense>
    );
  }
  if (pathname === '/' || pathname === '') return <Navigate to={PAGES.dashboard} />; // SPEC §2: the index of / is the dashboard
  const match = findRoute(SHELL_ROUTES, pathname.replace(/(.)\/$/, '$1'));
  // SPEC §2: an unknown path goes to /dashboard when signed in (the shell's guards take it on from
  // there), otherwise to /login.
  if (!match) return s.isAuthenticated && !s.hydrationError ? <UnknownPath /> : <Navigate to="/login" />;
  if (match.route.path === '/account' && !s.currentOrg) {
    return (
      <RequireAuth>
        <Suspense fallback={<Centered />}>
          <AccountAlone />
        </Suspense>
      </RequireAuth>
    );
  }
  return (
    <RequireAuth>
      <RequireOrg>
        <Suspense fallback={<Centered />}>
          <ShellScreen route={match.route} params={match.params} />
        </Suspense>
      </RequireOrg>
    </RequireAuth>
  );
}

export function App({ session, onError }: { session: Session; onError?: (e: unknown) => void }) {
  return (
    <ErrorBoundary onError={onError}>
      <SessionProvider session={session}>
        <OfflineBanner />
        <AppRoutes />
        <Suspense fallback={null}>
          <Toaster />
        </Suspense>
        <RouteFocus />
        <SessionExpiredDialog View={SessionExpiredView} />
      </SessionProvider>
    </ErrorBoundary>
  );
}
