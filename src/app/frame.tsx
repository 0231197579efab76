// The app's frame, in the first bundle with the login form (app/start.tsx): the error boundary, the
// session, and the routes' first choice. On a cold load of /login the form is drawn before the rest of
// the app's code has arrived (boot.tsx, App.tsx: the other routes, the banners, toasts and dialogs); when
// it arrives it fills the frame's empty places and the session takes the first bundle's place, so React
// keeps the form as it is: what was typed, the focus, the caret.
import type { ComponentType } from 'react';
import LoginPage from '../pages/login/LoginPage';
import { CHECKING_SESSION, PublicOnly } from '../router/public-only';
import { useLocation } from '../router/location';
import type { Session } from '../session/controller';
import type { LoginSession } from '../session/early';
import { SessionProvider, useSession } from '../session/use-session';
import { ErrorBoundary } from '../ui/error-boundary';
import { LoadFailed } from '../ui/load-failed';
import { Spinner } from '../ui/spinner';

/** What the rest of the app's code (App.tsx) brings to the frame. */
export interface AppParts {
  /** Before the routes: the offline banner. */
  Before: ComponentType;
  /** Every route but the login form. */
  Routes: ComponentType;
  /** After the routes: the toast region, the route announcer, the session-expired dialog. */
  After: ComponentType;
  /** Starts loading the code of the screen a login goes on to (D6). */
  preloadNext: (session: Session) => void;
}

/** The app's session and parts, once their code has loaded (boot.tsx). */
export interface Loaded {
  session: Session;
  parts: AppParts;
}

export interface FrameProps {
  /** The first bundle's session (session/early.ts), until `loaded`. */
  early: LoginSession;
  loaded: Loaded | null;
  /** The rest of the app's code could not be loaded (D40); `load` tries again. */
  failed: boolean;
  /** Loads the rest of the app's code (once; again after a failure). */
  load: () => Promise<Loaded>;
  onError?: (e: unknown) => void;
}

export const Centered = ({ label }: { label?: string }) => (
  <div className="center-screen">
    <Spinner label={label} showLabel={label !== undefined} />
  </div>
);

/** D40 for the app's own code: said with Retry; coming back online retries by itself. */
const AppLoadFailed = ({ retry }: { retry: () => void }) => (
  <main className="center-screen">
    <LoadFailed onRetry={retry} />
  </main>
);

/** SPEC §2: which screen a path shows; the login form is the frame's own, every other route the app's. */
export function FrameRoutes({ loaded, failed, load }: Omit<FrameProps, 'early' | 'onError'>) {
  const { pathname } = useLocation();
  const s = useSession();
  const login = pathname === '/login';
  // A login form already drawn stays through a failed load: its Log In tries again (session/early.ts).
  if (!loaded && failed && (s.loading || !login)) return <AppLoadFailed retry={() => void load().catch(() => undefined)} />;
  // SPEC §2: while the session loads a centred spinner replaces all routes; on protected routes it
  // reads 'Checking session...', on /login nothing else is rendered.
  if (s.loading) return <Centered label={login ? undefined : CHECKING_SESSION} />;
  if (login) {
    const preloadNext = () =>
      void load().then(
        (l) => l.parts.preloadNext(l.session),
        () => undefined,
      );
    return (
      <PublicOnly>
        <LoginPage preloadNext={preloadNext} />
      </PublicOnly>
    );
  }
  if (!loaded) return <Centered label={CHECKING_SESSION} />;
  return <loaded.parts.Routes />;
}

export function AppFrame({ early, loaded, failed, load, onError }: FrameProps) {
  const parts = loaded?.parts;
  // The places stay where they are while empty (null), so the routes keep theirs when the parts arrive.
  return (
    <ErrorBoundary onError={onError}>
      <SessionProvider session={loaded?.session ?? early}>
        {parts ? <parts.Before /> : null}
        <FrameRoutes loaded={loaded} failed={failed} load={load} />
        {parts ? <parts.After /> : null}
      </SessionProvider>
    </ErrorBoundary>
  );
}
