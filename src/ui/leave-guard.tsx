// Nothing typed is lost by leaving: while the form holds unsaved changes, an in-app navigation (a Link,
// navigate(), D42 Back and Forward) waits for "Leave without saving?", and the browser's own unload (reload, close, another
// address) asks through beforeunload.
import { lazy, Suspense, useEffect, useLayoutEffect, useRef, useState, type ComponentType, type ReactNode } from 'react';
import { blockNavigation } from '../router/location';

type LeaveProps = { onStay: () => void; onLeave: () => void; what?: string };

/** The browser's own question, should the app's dialog fail to load. */
function AskTheBrowser({ onStay, onLeave }: LeaveProps) {
  useEffect(() => (window.confirm('Leave without saving? Your changes have not been saved.') ? onLeave() : onStay()), []);
  return null;
}

// The dialog is rarely shown, so it loads when first needed and costs the form page nothing.
const LeaveDialog = lazy<ComponentType<LeaveProps>>(() => import('./leave-dialog').catch(() => ({ default: AskTheBrowser })));

/**
 * `onLeave`: the person chose to leave without saving (D41: their draft goes too); `what` names what was
 * changed in the question ('this customer', 'the permissions').
 */
export function useLeaveGuard(dirty: boolean, onLeave?: () => void, what?: string): { allowLeave: () => void; prompt: ReactNode } {
  const dirtyNow = useRef(dirty);
  dirtyNow.current = dirty;
  const leaving = useRef(false);
  const [pending, setPending] = useState<(() => void) | null>(null);

  // A layout effect: a form the app removes (D9: its permission lost) stops blocking before the
  // redirect that removed it runs, so the redirect is not held up by a question nobody can answer.
  useLayoutEffect(
    () =>
      blockNavigation((retry) => {
        if (!dirtyNow.current || leaving.current) return false;
        setPending(() => retry);
        return true;
      }),
    [],
  );

  useEffect(() => {
    if (!dirty) return;
    const ask = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      e.returnValue = ''; // older browsers ask only when this is set
    };
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [dirty]);

  const prompt = pending && (
    <Suspense fallback={null}>
      <LeaveDialog
        what={what}
        onStay={() => setPending(null)}
        onLeave={() => {
          leaving.current = true;
          setPending(null);
          onLeave?.();
          pending();
        }}
      />
    </Suspense>
  );

  /** Lets the next navigation through without asking (after a successful save). */
  const allowLeave = () => {
    leaving.current = true;
  };
  return { allowLeave, prompt };
}
