// Boot: the theme is already on <html> (inline script, D11). This is all the first bundle runs (main.tsx
// calls start(); build.mjs, firstBundleShared, keeps it in one file with React): it draws the frame
// (frame.tsx) with the login form and asks for the rest of the app (boot.tsx) and of its styles
// (lib/styles.ts). A cold load of /login with no stored session has a usable form before the rest
// arrives; anything else shows the spinner until it has (the page asked for that code and those styles
// beside this bundle: src/boot/preload.js).
import { StrictMode, useSyncExternalStore } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { isChunkError } from '../lib/chunk-error';
import { createStore, type Store } from '../lib/store';
import { loadStyles } from '../lib/styles';
import { earlySession, sessionStored } from '../session/early';
import { bufferEarlyErrors, captureError } from '../telemetry';
import { AppFrame, type FrameProps, type Loaded } from './frame';

type View = Store<{ loaded: Loaded | null; failed: boolean }>;

/** The frame, drawn again when the rest of the app has loaded (or could not). */
function AppRoot({ view, early, load }: { view: View } & Pick<FrameProps, 'early' | 'load'>) {
  const { loaded, failed } = useSyncExternalStore(view.subscribe, view.getState, view.getState);
  return <AppFrame early={early} loaded={loaded} failed={failed} load={load} onError={captureError} />;
}

/** Boots the app into #root; returns the React root (a test unmounts it). */
export function start(): Root {
  bufferEarlyErrors(); // D13: errors before error reporting loads are kept, then reported

  const view: View = createStore<{ loaded: Loaded | null; failed: boolean }>({ loaded: null, failed: false });
  let loading: Promise<Loaded> | undefined;
  /** The rest of the app and its styles, once (D40: again after either could not load). */
  const load = (): Promise<Loaded> =>
    (loading ??= Promise.all([import('./boot'), loadStyles()])
      .then(([m]) => {
        const loaded = m.boot();
        view.setState({ loaded, failed: false });
        return loaded;
      })
      .catch((error: unknown) => {
        loading = undefined;
        if (!isChunkError(error)) captureError(error);
        view.setState({ loaded: null, failed: true });
        throw error;
      }));

  // SPEC §4: with no token stored the session's load will find nobody signed in: the form is drawn now.
  const early = earlySession(!sessionStored(), () => load().then((l) => l.session));

  // D40: a page whose code could not load is shown in the page area (app/page-load.tsx), an expected
  // state rather than an error to log; every other caught error is logged as React would.
  const root = createRoot(document.getElementById('root')!, {
    onCaughtError: (error, info) => {
      if (!isChunkError(error)) console.error(error, info.componentStack);
    },
  });
  root.render(
    <StrictMode>
      <AppRoot view={view} early={early} load={load} />
    </StrictMode>,
  );
  void load().catch(() => undefined); // a failure is the frame's to show (D40)
  return root;
}
