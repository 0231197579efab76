// SPEC §2 Login screen, §5 validation, §8 login failures. Kept small: it is on the first screen,
// so the inputs are uncontrolled and read from the form on submit.
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { isAbortError } from '../../http/errors';
import { KEYS } from '../../lib/storage';
import { MSG_LOGIN_FAILED } from '../../session/controller';
import { useSessionActions } from '../../session/use-session';
import { toast } from '../../ui/toast';

type Errors = { email?: string; password?: string };
interface LoginFields extends HTMLFormControlsCollection {
  email: HTMLInputElement;
  password: HTMLInputElement;
  remember_me: HTMLInputElement;
}

/** SPEC §5: 'Email is required', 'Password is required'. */
export function validateLogin(email: string, password: string): Errors {
  const errors: Errors = {};
  if (!email.trim()) errors.email = 'Email is required';
  if (!password) errors.password = 'Password is required';
  return errors;
}

export default function LoginPage() {
  const { login, storage } = useSessionActions();
  const id = useId();
  const [errors, setErrors] = useState<Errors>({});
  const [submitting, setSubmitting] = useState(false);
  const busy = useRef(false); // a second press before the re-render must not send twice
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

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (busy.current) return;
    const { email, password, remember_me } = e.currentTarget.elements as LoginFields;
    const found = validateLogin(email.value, password.value);
    setErrors(found);
    if (found.email || found.password) return (found.email ? email : password).focus();
    busy.current = true;
    setSubmitting(true);
    const ctrl = (pending.current = new AbortController());
    try {
      // SPEC §3: remember_me is sent as ticked (ticked by default). On success the session navigates.
      await login({ email: email.value.trim(), password: password.value, remember_me: remember_me.checked }, ctrl.signal);
    } catch (error) {
      if (ctrl.signal.aborted || isAbortError(error)) return;
      // SPEC §8: the session layer's message is the one to show; the email stays, the password goes.
      toast.error(error instanceof Error && error.message ? error.message : MSG_LOGIN_FAILED);
      password.value = '';
      password.focus();
    } finally {
      busy.current = false;
      if (!ctrl.signal.aborted) setSubmitting(false);
    }
  }

  const field = (name: keyof Errors, label: string, type: string, autoComplete: string) => (
    <div className="field">
      <label htmlFor={id + name}>{label}</label>
      <input
        id={id + name}
        name={name}
        type={type}
        autoComplete={autoComplete}
        aria-invalid={errors[name] ? true : undefined}
        aria-describedby={errors[name] ? id + name + 'e' : undefined}
      />
      {errors[name] && (
        <p id={id + name + 'e'} className="field-error">
          {errors[name]}
        </p>
      )}
    </div>
  );

  return (
    <main className="auth-screen">
      <form
        className="card auth-card"
        onSubmit={submit}
        // An error goes away as soon as its field is edited.
        onChange={(e) => {
          const name = (e.target as unknown as HTMLInputElement).name as keyof Errors;
          if (errors[name]) setErrors({ ...errors, [name]: undefined });
        }}
        noValidate
        aria-labelledby={id + 'h'}
      >
        <h1 id={id + 'h'}>Login</h1>
        {field('email', 'Email', 'email', 'username')}
        {field('password', 'Password', 'password', 'current-password')}
        <label className="check">
          <input type="checkbox" name="remember_me" defaultChecked />
          Remember Me
        </label>
        <button type="submit" className="btn btn-primary btn-block" disabled={submitting} aria-busy={submitting || undefined}>
          {submitting ? 'Logging in…' : 'Log In'}
        </button>
      </form>
    </main>
  );
}
