// Boot: the theme is already on <html> (inline script, D11); render, then start the background work.
// main.tsx only calls start(): build.mjs (firstBundleShared) keeps everything the login form needs
// (React DOM too) in one file shared with the lazily loaded screens (see there).
import { StrictMode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { startConnectivity } from '../http/connectivity';
import { isChunkError } from '../lib/chunk-error';
import { whenIdle } from '../lib/idle';
import { currentPath, navigate, page } from '../router/location';
import { createSession } from '../session/controller';
import { bufferEarlyErrors, captureError, startTelemetry } from '../telemetry';
import { App } from './App';
import { appConfig } from './config';
import { loadToaster, preloadScreen } from './preload';
import { keep } from '../ui/preloaded';

/** Boots the app into #root; returns the React root (a test unmounts it). */
export function start(): Root {
  bufferEarlyErrors(); // D13: errors before error reporting loads are kept, then reported

  const config = appConfig();
  const session = createSession({ base: () => config.apiBase, navigate, currentPath, assign: page.assign });

  startConnectivity();
  // A stored session most likely shows the page at this path: its code loads beside the session's calls.
  if (session.hasStoredTokens()) preloadScreen(currentPath(), session);
  void session.load();
  void keep(loadToaster); // SPEC §9: the toast region is not needed to draw the login form

  // D40: a page whose code could not load is shown in the page area (app/page-load.tsx), an expected
  // state rather than an error to log; every other caught error is logged as React would.
  const root = createRoot(document.getElementById('root')!, {
    onCaughtError: (error, info) => {
      if (!isChunkError(error)) console.error(error, info.componentStack);
    },
  });
  root.render(
    <StrictMode>
      <App session={session} onError={captureError} />
    </StrictMode>,
  );
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
  return root;
}
