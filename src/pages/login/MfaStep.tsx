// D54: the login's second step, after a password the server answered 202: the 6-digit code from the
// authenticator app, or one of the recovery codes; 'Back' returns to the password. The session completes
// the sign-in (session/sign-in.ts) exactly as a login; this screen only asks and words the refusals.
// It loads when first needed (LoginPage), so the login form does not wait for it.
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { isAbortError } from '../../http/errors';
import { MSG_LOGIN_FAILED } from '../../session/login';
import { MfaExpiredError } from '../../session/mfa-words';
import type { MfaPending } from '../../session/types';
import { useSessionActions } from '../../session/use-session';

export const MSG_CODE_REQUIRED = 'Enter the 6-digit code from your authenticator app.';
export const MSG_RECOVERY_REQUIRED = 'Enter one of your recovery codes.';

interface Props {
  pending: MfaPending;
  /** Back to the password step; with the reason when the challenge expired. */
  onBack: (message?: string) => void;
}

export default function MfaStep({ pending, onBack }: Props) {
  const session = useSessionActions();
  const id = useId();
  const [recovery, setRecovery] = useState(false);
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const ctrl = useRef<AbortController | null>(null);

  useEffect(() => () => ctrl.current?.abort(), []);
  // D15: the focus goes to the input on arrival, on switching between code and recovery code, and after a refusal.
  useEffect(() => input.current?.focus(), [recovery, error]);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (busy) return;
    const typed = recovery ? value.trim() : value.replace(/\s/g, '');
    if (recovery ? !typed : !/^\d{6}$/.test(typed)) {
      setError(recovery ? MSG_RECOVERY_REQUIRED : MSG_CODE_REQUIRED);
      return;
    }
    setBusy(true);
    setError(null);
    const c = (ctrl.current = new AbortController());
    try {
      // On success the session navigates away.
      await session.completeMfa(pending, recovery ? { recovery_code: typed } : { code: typed }, c.signal);
    } catch (failure) {
      if (c.signal.aborted || isAbortError(failure)) return;
      const message = failure instanceof Error && failure.message ? failure.message : MSG_LOGIN_FAILED;
      if (failure instanceof MfaExpiredError) return onBack(message);
      setError(message); // what was typed stays, to correct
    }
    setBusy(false);
  }

  const switchInput = () => {
    setRecovery((r) => !r);
    setValue('');
    setError(null);
  };

  const label = recovery ? 'Recovery code' : '6-digit code';
  return (
    <form className="card auth-card" onSubmit={submit} noValidate aria-labelledby={`${id}t`}>
      <h1 id={`${id}t`}>Two-step sign-in</h1>
      <p id={`${id}h`} className="muted mfa-hint">
        {recovery
          ? 'Enter one of the recovery codes you saved when you turned on two-step sign-in. Each works once.'
          : 'Enter the 6-digit code your authenticator app shows for this account.'}
      </p>
      <div className="field">
        <label htmlFor={`${id}c`}>{label}</label>
        <input
          ref={input}
          id={`${id}c`}
          name={recovery ? 'recovery_code' : 'code'}
          value={value}
          onChange={(e) => {
            setValue(e.target.value);
            setError(null);
          }}
          autoComplete={recovery ? 'off' : 'one-time-code'}
          inputMode={recovery ? 'text' : 'numeric'}
          maxLength={recovery ? 64 : 7}
          spellCheck={false}
          autoCapitalize="off"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}h ${id}e` : `${id}h`}
        />
        {error && (
          <p id={`${id}e`} className="field-error" role="alert">
            {error}
          </p>
        )}
      </div>
      <button type="submit" className="btn btn-primary btn-block" aria-disabled={busy || undefined} aria-busy={busy || undefined}>
        {busy ? 'Checking…' : 'Verify'}
      </button>
      <div className="mfa-links">
        <button type="button" className="link-btn" onClick={switchInput}>
          {recovery ? 'Use the code from my app' : 'Use a recovery code'}
        </button>
        <button type="button" className="link-btn" onClick={() => onBack()}>
          Back
        </button>
      </div>
    </form>
  );
}
