// SPEC §2 / §8: the global Session Expired dialog opens on the `sessionExpired` window event.
// Only this listener is in the first bundle; the dialog itself loads when the event fires.
import { lazy, Suspense, useEffect, useState } from 'react';
import { SESSION_EXPIRED_EVENT } from '../lib/events';

const View = lazy(() => import('./session-expired-view'));

/** Mount once, near the root. */
export function SessionExpiredDialog() {
  const [open, setOpen] = useState(false);
  useEffect(() => {
    const show = () => setOpen(true);
    window.addEventListener(SESSION_EXPIRED_EVENT, show);
    return () => window.removeEventListener(SESSION_EXPIRED_EVENT, show);
  }, []);
  if (!open) return null;
  return (
    <Suspense fallback={null}>
      <View onClose={() => setOpen(false)} />
    </Suspense>
  );
}
