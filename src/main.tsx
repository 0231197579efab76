// The entry: the theme is already on <html> (inline script, D11). Starts the session and renders the app;
// with a stored session the code of the page at this address loads beside the current-user call (SPEC §4);
// once the browser is idle, error reporting (D13) and the session's timers and cross-tab listeners.
import { StrictMode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { App, preloadScreen } from './app/App';
import { appConfig } from './app/config';
import { startConnectivity } from './http/connectivity';
import { isChunkError } from './lib/chunk-error';
import { whenIdle } from './lib/idle';
import { loadStyles } from './lib/styles';
import { currentPath, navigate, page } from './router/location';
import { createSession } from './session/controller';
import { startSessionWatchers } from './session/watchers';
import { bufferEarlyErrors, captureError, startTelemetry } from './telemetry';

function start(): Root {
  bufferEarlyErrors(); // D13: errors before error reporting loads are kept, then reported
  const config = appConfig();
  const session = createSession({ base: () => config.apiBase, navigate, currentPath, assign: page.assign });
  startConnectivity();
  void session.load(); // SPEC §4: `me` goes out at once
  if (session.hasStoredTokens()) preloadScreen(currentPath());
  void loadStyles().catch(() => undefined); // every screen but the login form waits for them (app/App.tsx)

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
  whenIdle(() => {
    void startTelemetry();
    startSessionWatchers(session, { reload: page.reload });
  });
  return root;
}

/** The app's React root (a test unmounts it). */
export const root = start();
