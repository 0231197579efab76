// D54: the account page's two-step sign-in section. Off → 'Turn on' → setup (the QR code and the key
// typed out, TwoStepSetup, loaded when asked for) → confirmed with a code → the recovery codes shown once
// (TwoStepCodes) → on; on → 'Turn off' with the password and a code (TwoStepOff). The session learns each
// change (markMfa), so an organization that requires it (RequireOrg) lets the person on at once.
import { lazy, Suspense, useEffect, useRef, useState, type ReactNode } from 'react';
import type { MfaSetup } from '../../../contract/account';
import { isHttpError } from '../../http/errors';
import { setupMfa } from '../../api/mfa';
import { mustEnrolMfa } from '../../session/mfa';
import { useSession, useSessionActions } from '../../session/use-session';
import { errorWords } from '../../ui/error-words';
import { Spinner } from '../../ui/spinner';
import TwoStepCodes from './TwoStepCodes';
import TwoStepOff from './TwoStepOff';
import type { SectionProps } from './kit';

const TwoStepSetup = lazy(() => import('./TwoStepSetup'));

export const MSG_ALREADY_ON = 'Two-step sign-in is already on for your account.';

type Step = { at: 'off' } | { at: 'setup'; setup: MfaSetup } | { at: 'codes'; codes: string[] } | { at: 'on' } | { at: 'turning-off' };

/** On when the account (GET /v1/account/) says so; the session's copy of it when not given. */
export default function TwoStepSection({ account }: Partial<SectionProps>) {
  const session = useSessionActions();
  const s = useSession();
  const on = account?.mfa_enabled ?? s.user?.mfa_enabled === true;
  const [step, setStep] = useState<Step>({ at: on ? 'on' : 'off' });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const moved = useRef(false);
  // D15: after each change of step the focus goes to the section's heading (not on first render).
  useEffect(() => {
    if (moved.current) heading.current?.focus();
    moved.current = true;
  }, [step.at]);

  const go = (next: Step) => {
    setError(null);
    setStep(next);
  };

  async function turnOn() {
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      go({ at: 'setup', setup: await setupMfa(session.client) });
    } catch (e) {
      if (isHttpError(e, 409)) {
        void session.markMfa(true);
        go({ at: 'on' });
        setError(MSG_ALREADY_ON);
      } else setError(errorWords(e));
    }
    setBusy(false);
  }

  let body: ReactNode;
  if (step.at === 'setup') {
    body = (
      <Suspense fallback={<Spinner />}>
        <TwoStepSetup
          setup={step.setup}
          onConfirmed={(codes) => {
            void session.markMfa(true);
            go({ at: 'codes', codes });
          }}
          onCancel={() => go({ at: 'off' })}
        />
      </Suspense>
    );
  } else if (step.at === 'codes') {
    body = <TwoStepCodes codes={step.codes} onDone={() => go({ at: 'on' })} />;
  } else if (step.at === 'turning-off') {
    body = (
      <TwoStepOff
        onDone={() => {
          void session.markMfa(false);
          go({ at: 'off' });
        }}
        onCancel={() => go({ at: 'on' })}
      />
    );
  } else if (step.at === 'on') {
    body = (
      <>
        <p>
          <strong>On.</strong> After your password, you also enter a code from your authenticator app.
        </p>
        <button type="button" className="btn" onClick={() => go({ at: 'turning-off' })}>
          Turn off
        </button>
      </>
    );
  } else {
    body = (
      <>
        <p>
          <strong>Off.</strong> Turn it on to be asked, after your password, for a code from an authenticator app on your phone: someone who learns your password still
          cannot sign in.
        </p>
        <button type="button" className="btn btn-primary" onClick={turnOn} aria-disabled={busy || undefined} aria-busy={busy || undefined}>
          {busy ? 'Starting…' : 'Turn on'}
        </button>
      </>
    );
  }

  return (
    <section className="card two-step" aria-labelledby="two-step-title">
      <h2 id="two-step-title" ref={heading} tabIndex={-1}>
        Two-step sign-in
      </h2>
      {mustEnrolMfa(s) && step.at !== 'codes' && (
        <p className="two-step-required" role="status">
          {s.currentOrg?.name} requires two-step sign-in. Turn it on to continue to its pages.
        </p>
      )}
      {body}
      {error && (
        <p className="write-error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
