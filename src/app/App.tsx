// The rest of the app the frame (frame.tsx, in the first bundle) is waiting for: every route but the login
// form (SPEC §2 routes and guards), and the global layers: the offline banner, toasts, the route
// announcer, the session-expired dialog. boot.tsx hands them to the frame; tests render App.
import { lazy, Suspense, useEffect, useMemo, useState, useSyncExternalStore, type ComponentType } from 'react';
import { OrgPickerGuard, RequireAuth, RequireOrg } from '../router/guards';
import { Navigate } from '../router/Link';
import { useLocation } from '../router/location';
import { PAGES } from '../router/paths';
import { findRoute } from '../router/match';
import { RouteFocus } from '../router/route-focus';
import type { Session } from '../session/controller';
import { useSession, useSessionActions } from '../session/use-session';
import { OfflineBanner } from '../ui/offline-banner';
import { SessionExpiredDialog } from '../ui/session-expired';
import { toast, toasts } from '../ui/toast';
import { AppFrame, Centered, FrameRoutes, type AppParts, type Loaded } from './frame';
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
// SPEC §9: the toast region loads beside the session's calls (boot.tsx); toasts wait in their store.
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

export const MSG_NO_SUCH_PAGE = 'That page does not exist';

/** SPEC §2: an unknown path goes to the dashboard, and says why (a silent redirect puzzles). */
function UnknownPath() {
  useEffect(() => void toast.info(MSG_NO_SUCH_PAGE), []);
  return <Navigate to={PAGES.dashboard} />;
}

/** SPEC §2: which screen a path other than /login shows, behind which guards (the frame has drawn the spinner while the session loads). */
function OtherRoutes() {
  const { pathname } = useLocation();
  const s = useSession();
  const session = useSessionActions();
  useEffect(() => session.recheckPermissions(), [session, pathname]); // D64: on navigation (at most every 30 s)
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

function After() {
  const session = useSessionActions();
  return (
    <>
      <Suspense fallback={null}>
        <Toaster />
      </Suspense>
      <RouteFocus />
      <SessionExpiredDialog View={SessionExpiredView} onClosed={session.closeExpired} />
    </>
  );
}

/** What the frame waits for (boot.tsx). */
export const APP_PARTS: AppParts = {
  Before: OfflineBanner,
  Routes: OtherRoutes,
  After,
  preloadNext: (session) => preloadScreen(session.returnPath() ?? PAGES.dashboard),
};

/** The loaded app of `session` for the frame's `loaded`, and its `load`. */
function useLoaded(session: Session): [Loaded, () => Promise<Loaded>] {
  return useMemo(() => {
    const loaded = { session, parts: APP_PARTS };
    return [loaded, () => Promise.resolve(loaded)];
  }, [session]);
}

/** SPEC §2: which screen a path shows, behind which guards (inside a SessionProvider of the app's session). */
export function AppRoutes() {
  const [loaded, load] = useLoaded(useSessionActions());
  return <FrameRoutes loaded={loaded} failed={false} load={load} />;
}

/** The whole app with its code loaded, as the frame shows it once boot.tsx has run. */
export function App({ session, onError }: { session: Session; onError?: (e: unknown) => void }) {
  const [loaded, load] = useLoaded(session);
  return <AppFrame early={session} loaded={loaded} failed={false} load={load} onError={onError} />;
}
