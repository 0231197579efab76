// SPEC §4 Connectivity: offline shows the banner and puts an offline class on <body>; a
// network error does the same, and a later response hides it again.
import { createStore } from '../lib/store';

export const OFFLINE_BODY_CLASS = 'offline';

export const connectivity = createStore<boolean>(typeof navigator === 'undefined' ? true : navigator.onLine !== false);

export function setOnline(online: boolean): void {
  connectivity.setState(online);
}

/** Mirrors the browser's online/offline events into the store and the store into <body>'s class. */
export function startConnectivity(win: Window = window): () => void {
  const sync = () => win.document.body?.classList.toggle(OFFLINE_BODY_CLASS, !connectivity.getState());
  const on = () => setOnline(true);
  const off = () => setOnline(false);
  win.addEventListener('online', on);
  win.addEventListener('offline', off);
  if (win.navigator.onLine === false) setOnline(false);
  const unsub = connectivity.subscribe(sync);
  sync();
  return () => {
    win.removeEventListener('online', on);
    win.removeEventListener('offline', off);
    unsub();
  };
}
