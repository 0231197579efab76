// SPEC §2 / §8: while the connection is lost a banner says so (the body's offline class is set by
// startConnectivity in src/http/connectivity.ts).
import { useSyncExternalStore } from 'react';
import { connectivity } from '../http/connectivity';

export const OFFLINE_TEXT = 'Connection lost. Changes may not save.';

/** Mount once, near the root. The status region stays in the page so the text is announced when it appears. */
export function OfflineBanner() {
  const online = useSyncExternalStore(connectivity.subscribe, connectivity.getState, connectivity.getState);
  return (
    <div className="offline-banner" role="status" data-visible={online ? undefined : ''}>
      {online ? null : OFFLINE_TEXT}
    </div>
  );
}
