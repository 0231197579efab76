// D53 the reset-link page (/reset/{token}): public, outside the shell, like an invitation's. It says
// whose password is set, takes a new one (PASSWORD_MIN_LENGTH, typed twice), then offers to sign in;
// an unknown, used or expired link says so in words. The token is in contract/secret-paths.ts, so it
// never reaches a log or an error report.
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { PASSWORD_MIN_LENGTH, type ResetLookup } from '../../../contract/account';
import { resetApi } from '../../api/account';
import { isAbortError, isHttpError } from '../../http/errors';
import { Link } from '../../router/Link';
import { useLocation } from '../../router/location';
import { useDocumentTitle } from '../../router/title';
import { useSessionActions } from '../../session/use-session';
import { errorWords } from '../../ui/error-words';
import { FormError, SubmitButton, useForm, type FormErrors } from '../../ui/form';
import { NewPasswordFields } from '../../ui/password-fields';
import { Spinner } from '../../ui/spinner';

export const MSG_RESET_UNKNOWN = 'This reset link is not valid. Check that you copied all of it, or ask for a new one.';
export const MSG_RESET_USED = 'This link was already used';
export const MSG_RESET_EXPIRED = 'This link has expired — ask for a new one';
export const MSG_RESET_SHORT = `Use at least ${PASSWORD_MIN_LENGTH} characters`;
export const MSG_RESET_MISMATCH = 'The passwords do not match';
export const MSG_RESET_DONE = 'Your password is set. Every session that was signed in as you has been signed out.';

/** The token of /reset/{token}, or null for a malformed path. */
export function resetToken(pathname: string): string | null {
  const m = /^\/reset\/([^/]+)\/?$/.exec(pathname);
  try {
    return m?.[1] ? decodeURIComponent(m[1]) : null;
  } catch {
    return null;
  }
}

/** Why a link cannot be used, in words; null when the error is not one of those. */
function goneWords(error: unknown): string | null {
  if (isHttpError(error, 404) || isHttpError(error, 400)) return MSG_RESET_UNKNOWN;
  if (isHttpError(error, 410)) return error.code === 'reset_used' ? MSG_RESET_USED : MSG_RESET_EXPIRED;
  return null;
}

const Screen = ({ children }: { children: ReactNode }) => (
  <main className="auth-screen">
    <section className="card auth-card invite-card" aria-labelledby="reset-title">
      {children}
    </section>
  </main>
);

interface ResetValues {
  [k: string]: string;
  password: string;
  password_again: string;
}

const validate = ({ password, password_again }: ResetValues): FormErrors<ResetValues> => ({
  password: password.length < PASSWORD_MIN_LENGTH ? MSG_RESET_SHORT : undefined,
  password_again: password_again !== password ? MSG_RESET_MISMATCH : undefined,
});

export default function ResetPage() {
  const { pathname } = useLocation();
  const token = resetToken(pathname);
  const session = useSessionActions();
  const api = useMemo(() => resetApi(session.client), [session.client]);
  const [lookup, setLookup] = useState<ResetLookup | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [attempt, setAttempt] = useState(0);
  const [done, setDone] = useState<string | null>(null);
  useDocumentTitle('Set a new password');

  useEffect(() => {
    if (!token) return;
    const ctrl = new AbortController();
    setError(null);
    api.lookup(token, ctrl.signal).then(setLookup, (e: unknown) => {
      if (!isAbortError(e)) setError(e);
    });
    return () => ctrl.abort();
  }, [api, token, attempt]);

  const form = useForm<ResetValues>({
    initial: { password: '', password_again: '' },
    validate,
    async submit({ password }) {
      if (!token) return;
      try {
        setDone((await api.reset(token, password)).email);
      } catch (e) {
        if (!goneWords(e)) throw e; // the form shows it (a 400 on its field, a network error)
        setError(e);
      }
    },
  });

  // D65: 'Password set' stays through another tab's session ending (this very reset may end it).
  const set = done !== null;
  useEffect(() => (set ? session.keepScreen() : undefined), [session, set]);

  const gone = token ? goneWords(error) : MSG_RESET_UNKNOWN;
  // D15: a screen that replaces the form (set, or the link refused on submit) takes the focus at its heading.
  const ended = done !== null || gone !== null;
  useEffect(() => {
    if (ended) document.getElementById('reset-title')?.focus();
  }, [ended]);
  if (gone) {
    return (
      <Screen>
        <h1 id="reset-title" tabIndex={-1}>
          Set a new password
        </h1>
        <p className="invite-message" role="alert">
          {gone}
        </p>
        <Link to="/login">Go to the login page</Link>
      </Screen>
    );
  }
  if (done !== null) {
    return (
      <Screen>
        <h1 id="reset-title" tabIndex={-1}>
          Password set
        </h1>
        <p className="invite-message" role="status">
          {MSG_RESET_DONE}
        </p>
        <Link
          to="/login"
          className="btn btn-primary btn-block"
          onClick={(e) => {
            // Whoever is signed in here goes first (that person's sessions have just ended, or it is someone else).
            if (!session.store.getState().isAuthenticated) return;
            e.preventDefault();
            void session.logout();
          }}
        >
          Sign in as {done}
        </Link>
      </Screen>
    );
  }
  if (error) {
    return (
      <Screen>
        <h1 id="reset-title">Set a new password</h1>
        <p className="invite-message" role="alert">
          {errorWords(error)}
        </p>
        <button type="button" className="btn" onClick={() => setAttempt((n) => n + 1)}>
          Retry
        </button>
      </Screen>
    );
  }
  if (!lookup) {
    return (
      <main className="center-screen">
        <Spinner label="Loading the reset link…" showLabel />
      </main>
    );
  }
  return (
    <Screen>
      <h1 id="reset-title">Set a new password</h1>
      <p className="invite-message">
        A new password for <strong>{lookup.first_name || lookup.email}</strong> ({lookup.email}).
      </p>
      <form className="invite-form" onSubmit={form.onSubmit} noValidate aria-labelledby="reset-title">
        <input type="email" value={lookup.email} readOnly hidden autoComplete="username" />
        <NewPasswordFields form={form} name="password" again="password_again" hintClass="invite-hint" />
        <FormError text={form.formError} className="field-error invite-error" />
        <SubmitButton busy={form.submitting} label="Set password" busyLabel="Saving…" className="btn btn-primary btn-block" />
      </form>
    </Screen>
  );
}
