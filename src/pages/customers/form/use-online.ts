// Whether a save can reach the server. The connectivity store follows the browser's online and offline
// events (startConnectivity) and the client's last request: a network error sets it offline, any answer
// back online (src/http/connectivity.ts).
import { useSyncExternalStore } from 'react';
import { connectivity } from '../../../http/connectivity';

export function useOnline(): boolean {
  return useSyncExternalStore(connectivity.subscribe, connectivity.getState, connectivity.getState);
}

/** Offline only by the client's last failure (the browser thinks it is online): worth asking again. */
export const onlyRequestFailed = (): boolean => !connectivity.getState() && navigator.onLine !== false;
