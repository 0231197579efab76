// Whether a save can reach the server. The connectivity store follows the browser's online and offline
// events (startConnectivity) and the client's last request: a network error sets it offline, any answer
// back online (src/http/connectivity.ts).
import { useEffect, useRef, useSyncExternalStore } from 'react';
import { connectivity } from '../../../http/connectivity';

/** While only the last request failed (the browser says it is online), ask the server this often. */
export const RECONNECT_CHECK_MS = 5_000;

/**
 * Whether a save can reach the server. Save waits for the connection; when only the last request
 * failed, nothing else would notice it is back, so `ping` asks the server again now and then.
 */
export function useOnline(ping?: () => Promise<unknown>): boolean {
  const online = useSyncExternalStore(connectivity.subscribe, connectivity.getState, connectivity.getState);
  const latest = useRef(ping);
  latest.current = ping;
  useEffect(() => {
    if (online) return;
    const timer = setInterval(() => {
      if (onlyRequestFailed()) latest.current?.().catch(() => undefined);
    }, RECONNECT_CHECK_MS);
    return () => clearInterval(timer);
  }, [online]);
  return online;
}

/** Offline only by the client's last failure (the browser thinks it is online): worth asking again. */
export const onlyRequestFailed = (): boolean => !connectivity.getState() && navigator.onLine !== false;
