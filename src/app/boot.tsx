// The rest of the app's start, loaded by the first bundle (start.tsx) as it draws the frame: the session
// and its load, the connection's state, the code of the screen a stored session will show, the toast
// region; then, once the browser is idle, error reporting and the session's timers.
import { startConnectivity } from '../http/connectivity';
import { whenIdle } from '../lib/idle';
import { currentPath, navigate, page } from '../router/location';
import { createSession } from '../session/controller';
import { startTelemetry } from '../telemetry';
import { keep } from '../ui/preloaded';
import { APP_PARTS } from './App';
import { appConfig } from './config';
import type { Loaded } from './frame';
import { loadToaster, preloadScreen } from './preload';

/** Starts the session and the app's background work; the frame shows what it returns. */
export function boot(): Loaded {
  const config = appConfig();
  const session = createSession({ base: () => config.apiBase, navigate, currentPath, assign: page.assign });

  startConnectivity();
  // A stored session most likely shows the page at this path: its code loads beside the session's calls.
  if (session.hasStoredTokens()) preloadScreen(currentPath(), session);
  void session.load();
  void keep(loadToaster); // SPEC §9: the toast region is not needed to draw the login form

  // D13: error reporting loads after first render, as its own chunk, and only with a DSN: once the
  // browser is idle, so its 85 KB (brotli) never share the network or the main thread with the first screen
  // (errors before then are kept by bufferEarlyErrors and reported when it has loaded).
  // SPEC §4 sliding refresh and cross-tab, D21: the session's timers and listeners start then too,
  // with the rest of the session's code a signed-out person does not need (session/deferred.ts).
  whenIdle(() => {
    void startTelemetry();
    import('../session/deferred').then(
      (d) => d.startSessionWatchers(session, { reload: page.reload }),
      () => undefined,
    );
  });
  return { session, parts: APP_PARTS };
}
