// SPEC §2 / §8: the global Session Expired dialog opens on the `sessionExpired` window event.
// The app hands it the dialog, loaded when the event fires.
import { Suspense, useEffect, useState, type ComponentType } from 'react';
import { SESSION_EXPIRED_EVENT } from '../lib/events';

/**
 * Mount once, near the root. `View` is session-expired-view.tsx (lazily loaded by the app); `onClosed`
 * runs when either of its buttons closes it (D65: the app then says the person is signed out).
 */
export function SessionExpiredDialog({ View, onClosed }: { View: ComponentType<{ onClose: () => void }>; onClosed?: () => void }) {
  const [open, setOpen] = useState(false);
  useEffect(() => {
    const show = () => setOpen(true);
    window.addEventListener(SESSION_EXPIRED_EVENT, show);
    return () => window.removeEventListener(SESSION_EXPIRED_EVENT, show);
  }, []);
  if (!open) return null;
  return (
    <Suspense fallback={null}>
      <View
        onClose={() => {
          setOpen(false);
          onClosed?.();
        }}
      />
    </Suspense>
  );
}
