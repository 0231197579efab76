// D54: the account page's two-step sign-in section. Off → the password and 'Turn on' (TwoStepStart) →
// setup (the QR code and the key typed out, TwoStepSetup, loaded when asked for) → confirmed with a code
// → the recovery codes shown once (TwoStepCodes) → on, with how many codes are left; on → a new set with
// the password (TwoStepRenew), or 'Turn off' with the password and a code (TwoStepOff). The session learns
// each change (markMfa), so an organization that requires it (RequireOrg) lets the person on at once.
import { lazy, Suspense, useEffect, useRef, useState, type ReactNode } from 'react';
import type { MfaSetup } from '../../../contract/account';
import { mustEnrolMfa } from '../../session/mfa';
import { useSession, useSessionActions } from '../../session/use-session';
import { Spinner } from '../../ui/spinner';
import TwoStepCodes from './TwoStepCodes';
import TwoStepOff from './TwoStepOff';
import TwoStepRenew from './TwoStepRenew';
import TwoStepStart from './TwoStepStart';
import type { SectionProps } from './kit';

const TwoStepSetup = lazy(() => import('./TwoStepSetup'));

export const MSG_ALREADY_ON = 'Two-step sign-in is already on for your account.';

/** D54: the count the section keeps announced (a live region) while two-step sign-in is on. */
export const codesLeftWords = (n: number): string => (n === 0 ? 'No recovery codes left: make new ones.' : `${n} recovery code${n === 1 ? '' : 's'} left.`);

type Step =
  | { at: 'off' }
  | { at: 'setup'; setup: MfaSetup }
  | { at: 'codes'; codes: string[]; renewed: boolean }
  | { at: 'on' }
  | { at: 'renewing' }
  | { at: 'turning-off' };

/** On when the account (GET /v1/account/) says so; the session's copy of it when not given. */
export default function TwoStepSection({ account }: Partial<SectionProps>) {
  const session = useSessionActions();
  const s = useSession();
  const on = account?.mfa_enabled ?? s.user?.mfa_enabled === true;
  const [step, setStep] = useState<Step>({ at: on ? 'on' : 'off' });
  const [left, setLeft] = useState<number | null>(on ? (account?.recovery_codes_left ?? null) : null);
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
  const shown = (codes: string[], renewed: boolean) => {
    setLeft(codes.length);
    go({ at: 'codes', codes, renewed });
  };

  let body: ReactNode;
  if (step.at === 'setup') {
    body = (
      <Suspense fallback={<Spinner />}>
        <TwoStepSetup
          setup={step.setup}
          onConfirmed={(codes) => {
            void session.markMfa(true);
            shown(codes, false);
          }}
          onCancel={() => go({ at: 'off' })}
        />
      </Suspense>
    );
  } else if (step.at === 'codes') {
    body = <TwoStepCodes codes={step.codes} email={account?.email ?? s.user?.email ?? ''} renewed={step.renewed} onDone={() => go({ at: 'on' })} />;
  } else if (step.at === 'renewing') {
    body = <TwoStepRenew onRenewed={(codes) => shown(codes, true)} onCancel={() => go({ at: 'on' })} />;
  } else if (step.at === 'turning-off') {
    body = (
      <TwoStepOff
        onDone={() => {
          void session.markMfa(false);
          setLeft(null);
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
        <div className="two-step-actions">
          <button type="button" className="btn" onClick={() => go({ at: 'renewing' })}>
            Make new recovery codes
          </button>
          <button type="button" className="btn" onClick={() => go({ at: 'turning-off' })}>
            Turn off
          </button>
        </div>
      </>
    );
  } else {
    body = (
      <TwoStepStart
        onStarted={(setup) => go({ at: 'setup', setup })}
        onAlreadyOn={() => {
          void session.markMfa(true);
          go({ at: 'on' });
          setError(MSG_ALREADY_ON);
        }}
      />
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
      {/* D54: in the document from the first render, so a change of the count is announced. */}
      <p className="two-step-left" role="status" aria-label="Recovery codes left">
        {left !== null && step.at !== 'off' && step.at !== 'setup' ? codesLeftWords(left) : ''}
      </p>
      {body}
      {error && (
        <p className="write-error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
