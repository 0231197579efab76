// SPEC §2 Login screen, §5 validation, §8 login failures. It is on the first screen, so it is built
// from the same tiny useForm and Field as every other form (bundle budget).
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { useDocumentTitle } from '../../router/title';
import { MSG_LOGIN_FAILED } from '../../session/login';
import type { MfaPending } from '../../session/types';
import { useSessionActions } from '../../session/use-session';
import { Field, useForm, type FormErrors } from '../../ui/form';
import { Spinner } from '../../ui/spinner';
import { dismissToast, toast } from '../../ui/toast';

// D54: the second step, loaded when a login asks for it.
const MfaStep = lazy(() => import('./MfaStep'));

interface LoginValues {
  [k: string]: string | boolean;
  email: string;
  password: string;
  remember_me: boolean;
}

/** http/errors.ts's AbortError, known by its name. */
const aborted = (error: unknown) => error instanceof Error && error.name === 'AbortError';

/** SPEC §5: 'Email is required', 'Password is required'. */
export function validateLogin({ email, password }: LoginValues): FormErrors<LoginValues> {
  return { email: email.trim() ? undefined : 'Email is required', password: password ? undefined : 'Password is required' };
}

/** D53: what 'Forgot password?' explains. */
export const MSG_FORGOT_PASSWORD = 'Ask an owner or admin of your organization for a password reset link.';

/** `preloadNext` starts loading the code of the screen a login goes on to (D6; the app gives it). */
export default function LoginPage({ preloadNext = () => undefined }: { preloadNext?: () => void }) {
  const session = useSessionActions();
  const pending = useRef<AbortController | null>(null);
  useDocumentTitle('Login');
  /** The last failure's toast: a sign-in that then succeeds takes it away (it would cover the next screen's top bar). */
  const failure = useRef<number | null>(null);
  /** D54: the password was right and the server asks for the second step. */
  const [mfa, setMfa] = useState<MfaPending | null>(null);

  useEffect(() => {
    // SPEC §2: a stored toast reason is shown as an error on load, then cleared.
    const reason = session.takeToastReason();
    if (reason) toast.error(reason);
  }, [session]);
  useEffect(() => () => pending.current?.abort(), []);

  const form = useForm<LoginValues>({
    initial: { email: '', password: '', remember_me: true }, // SPEC §3: Remember Me ticked by default
    validate: validateLogin,
    async submit({ email, password, remember_me }) {
      const ctrl = (pending.current = new AbortController());
      // The screen after the login (D6: the stored target, else the dashboard) loads beside its calls.
      preloadNext();
      try {
        // On success the session navigates away (D54: or asks for the second step; the password goes).
        const { mfa: step } = await session.login({ email: email.trim(), password, remember_me }, ctrl.signal);
        if (failure.current !== null) dismissToast(failure.current);
        if (step) {
          form.set('password', '');
          setMfa(step);
        }
      } catch (error) {
        if (ctrl.signal.aborted || aborted(error)) return;
        // SPEC §8: the session layer's message, as a toast; the email stays, the password goes.
        failure.current = toast.error(error instanceof Error && error.message ? error.message : MSG_LOGIN_FAILED);
        form.set('password', '');
        form.focus('password');
      }
    },
  });

  if (mfa) {
    const back = (message?: string) => {
      setMfa(null);
      if (message) failure.current = toast.error(message);
      setTimeout(() => form.focus('password'));
    };
    return (
      <main className="auth-screen">
        <Suspense fallback={<Spinner />}>
          <MfaStep pending={mfa} onBack={back} />
        </Suspense>
      </main>
    );
  }

  return (
    <main className="auth-screen">
      <form className="card auth-card" onSubmit={form.onSubmit} noValidate aria-labelledby="login-title">
        <h1 id="login-title">Login</h1>
        <Field form={form} name="email" label="Email" type="email" autoComplete="username" />
        <Field form={form} name="password" label="Password" type="password" autoComplete="current-password" />
        <label className="check">
          <input type="checkbox" name="remember_me" checked={form.values.remember_me} onChange={(e) => form.set('remember_me', e.target.checked)} />
          Remember Me
        </label>
        <button type="submit" className="btn btn-primary btn-block" disabled={form.submitting} aria-busy={form.submitting || undefined}>
          {form.submitting ? 'Logging in…' : 'Log In'}
        </button>
        {/* D53: the product sends no email: a forgotten password is reset with a link a person who can vouch makes */}
        <details className="forgot-password">
          <summary>Forgot password?</summary>
          <p>{MSG_FORGOT_PASSWORD}</p>
        </details>
      </form>
    </main>
  );
}
