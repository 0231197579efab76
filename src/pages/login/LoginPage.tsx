// SPEC §2 Login screen, §5 validation, §8 login failures. Kept small: it is on the first screen.
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { isAbortError } from '../../http/errors';
import { KEYS } from '../../lib/storage';
import { MSG_LOGIN_FAILED } from '../../session/controller';
import { useSessionActions } from '../../session/use-session';
import { toast } from '../../ui/toast';

type Errors = { email?: string; password?: string };

/** SPEC §5: 'Email is required', 'Password is required'. */
export function validateLogin(email: string, password: string): Errors {
  const errors: Errors = {};
  if (!email.trim()) errors.email = 'Email is required';
  if (!password) errors.password = 'Password is required';
  return errors;
}

export default function LoginPage() {
  const session = useSessionActions();
  const { storage } = session;
  const id = useId();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [remember, setRemember] = useState(true); // SPEC §3: remember_me defaults to true
  const [errors, setErrors] = useState<Errors>({});
  const [submitting, setSubmitting] = useState(false);
  const busy = useRef(false); // a second press before the re-render must not send twice
  const emailRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const pending = useRef<AbortController | null>(null);

  useEffect(() => {
    // SPEC §2: a stored toast reason is shown as an error on load, then cleared.
    const reason = storage.get(KEYS.toastReason);
    if (reason) {
      storage.remove(KEYS.toastReason);
      toast.error(reason);
    }
    return () => pending.current?.abort();
  }, [storage]);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (busy.current) return;
    const found = validateLogin(email, password);
    setErrors(found);
    if (found.email || found.password) return (found.email ? emailRef : passwordRef).current?.focus();
    busy.current = true;
    setSubmitting(true);
    const ctrl = (pending.current = new AbortController());
    try {
      await session.login({ email: email.trim(), password, remember_me: remember }, ctrl.signal);
    } catch (error) {
      if (ctrl.signal.aborted || isAbortError(error)) return;
      // SPEC §8: the session layer's message is the one to show; the email stays, the password goes.
      toast.error(error instanceof Error && error.message ? error.message : MSG_LOGIN_FAILED);
      setPassword('');
      passwordRef.current?.focus();
    } finally {
      busy.current = false;
      if (!ctrl.signal.aborted) setSubmitting(false);
    }
  }

  const field = (name: keyof Errors) => ({
    id: id + name,
    'aria-invalid': errors[name] ? true : undefined,
    'aria-describedby': errors[name] ? id + name + 'e' : undefined,
  });
  const error = (name: keyof Errors) =>
    errors[name] && (
      <p id={id + name + 'e'} className="field-error">
        {errors[name]}
      </p>
    );

  return (
    <main className="auth-screen">
      <form className="card auth-card" onSubmit={submit} noValidate aria-labelledby={id + 'h'}>
        <h1 id={id + 'h'}>Login</h1>
        <div className="field">
          <label htmlFor={id + 'email'}>Email</label>
          <input
            ref={emailRef}
            {...field('email')}
            type="email"
            name="email"
            autoComplete="username"
            value={email}
            onChange={(e) => {
              setEmail(e.target.value);
              if (errors.email) setErrors({ ...errors, email: undefined });
            }}
          />
          {error('email')}
        </div>
        <div className="field">
          <label htmlFor={id + 'password'}>Password</label>
          <input
            ref={passwordRef}
            {...field('password')}
            type="password"
            name="password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => {
              setPassword(e.target.value);
              if (errors.password) setErrors({ ...errors, password: undefined });
            }}
          />
          {error('password')}
        </div>
        <label className="check">
          <input type="checkbox" name="remember_me" checked={remember} onChange={(e) => setRemember(e.target.checked)} />
          Remember Me
        </label>
        <button type="submit" className="btn btn-primary btn-block" disabled={submitting} aria-busy={submitting || undefined}>
          {submitting ? 'Logging in…' : 'Log In'}
        </button>
      </form>
    </main>
  );
}
