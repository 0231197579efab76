// D28 the invitation page (/invite/{token}): public, outside the shell, signed in or not. It shows the
// organization and role; 'Join' for a signed-in person with the invited email; a sign-up form for a
// new person (first name, password twice, PASSWORD_MIN_LENGTH); 'Sign in as … to join' when the email
// has an account; a clear message for a used, revoked, expired or unknown link, and for a signed-in
// person with another email (offering to sign out). After joining: that organization's dashboard.
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { FIRST_NAME_MAX_LENGTH, INVITATION_UNKNOWN, INVITATION_UNUSABLE, PASSWORD_MIN_LENGTH, type AcceptedInvitation, type InvitationLookup } from '../../../contract/team';
import { invitationApi } from '../../api/team';
import { isAbortError, isHttpError, isNetworkError } from '../../http/errors';
import { KEYS, storeRedirect } from '../../lib/storage';
import { Link } from '../../router/Link';
import { navigate, useLocation } from '../../router/location';
import { useDocumentTitle } from '../../router/route-focus';
import { saveTokens } from '../../session/tokens';
import type { TokenResponse } from '../../session/types';
import { useSession, useSessionActions } from '../../session/use-session';
import { Field, useForm, type FormErrors } from '../../ui/form';
import { OrgAvatar } from '../../ui/org-avatar';
import { Spinner } from '../../ui/spinner';

export const INVITE_PREFIX = '/invite/';

/** D28: what a link that cannot be used says, by why. */
export const MSG_UNKNOWN = INVITATION_UNKNOWN;
export const MSG_GONE = INVITATION_UNUSABLE;
export const MSG_FIRST_NAME_REQUIRED = 'First name is required';
export const MSG_PASSWORD_SHORT = `Use at least ${PASSWORD_MIN_LENGTH} characters`;
export const MSG_PASSWORD_MISMATCH = 'The passwords do not match';
const MSG_FAILED = 'Something went wrong. Please try again.';

/** The token of /invite/{token}, or null for a malformed path. */
export function inviteToken(pathname: string): string | null {
  const m = /^\/invite\/([^/]+)\/?$/.exec(pathname);
  try {
    return m?.[1] ? decodeURIComponent(m[1]) : null;
  } catch {
    return null; // a broken %-escape is an unknown link
  }
}

interface SignUpValues {
  [k: string]: string;
  first_name: string;
  password: string;
  password_again: string;
}

export function validateSignUp({ first_name, password, password_again }: SignUpValues): FormErrors<SignUpValues> {
  const name = first_name.trim();
  return {
    first_name: !name ? MSG_FIRST_NAME_REQUIRED : name.length > FIRST_NAME_MAX_LENGTH ? `Use at most ${FIRST_NAME_MAX_LENGTH} characters` : undefined,
    password: password.length < PASSWORD_MIN_LENGTH ? MSG_PASSWORD_SHORT : undefined,
    password_again: password_again !== password ? MSG_PASSWORD_MISMATCH : undefined,
  };
}

/** What the page shows besides the invitation itself: why it cannot be used, or who must sign in. */
type Outcome = { kind: 'gone'; message: string } | { kind: 'mismatch'; detail: string | null } | { kind: 'sign-in' } | null;

/** A refusal of the accept call as an outcome; null when it is not one of the D28 refusals. */
function outcomeOf(error: unknown): Outcome {
  if (!isHttpError(error)) return null;
  if (error.status === 404) return { kind: 'gone', message: MSG_UNKNOWN };
  if (error.status === 410) {
    const status = error.code?.replace('invitation_', '') as keyof typeof MSG_GONE;
    return { kind: 'gone', message: MSG_GONE[status] ?? error.detail ?? MSG_UNKNOWN };
  }
  if (error.status === 403 && error.code === 'email_mismatch') return { kind: 'mismatch', detail: error.detail };
  if (error.status === 409 && error.code === 'account_exists') return { kind: 'sign-in' };
  return null;
}

const Screen = ({ children, org }: { children: ReactNode; org?: InvitationLookup['organization'] }) => (
  <main className="auth-screen">
    <section className="card auth-card invite-card" aria-labelledby="invite-title">
      {org && <OrgAvatar org={org} size="lg" />}
      {children}
    </section>
  </main>
);

function SignUpForm({ invitation, onAccept }: { invitation: InvitationLookup; onAccept: (values: SignUpValues) => Promise<void> }) {
  const form = useForm<SignUpValues>({ initial: { first_name: '', password: '', password_again: '' }, validate: validateSignUp, submit: onAccept });
  return (
    <form className="invite-form" onSubmit={form.onSubmit} noValidate aria-label="Create your account">
      <p className="invite-step">Create your account to join.</p>
      <div className="field">
        <label htmlFor="invite-email">Email</label>
        <input id="invite-email" type="email" value={invitation.email} readOnly autoComplete="username" />
      </div>
      <Field form={form} name="first_name" label="First name" autoComplete="given-name" maxLength={FIRST_NAME_MAX_LENGTH} />
      <Field
        form={form}
        name="password"
        label={
          <>
            Password <span className="invite-hint">(at least {PASSWORD_MIN_LENGTH} characters)</span>
          </>
        }
        type="password"
        autoComplete="new-password"
      />
      <Field form={form} name="password_again" label="Password again" type="password" autoComplete="new-password" />
      {form.formError && (
        <p className="field-error invite-error" role="alert">
          {form.formError}
        </p>
      )}
      <button type="submit" className="btn btn-primary btn-block" disabled={form.submitting} aria-busy={form.submitting || undefined}>
        {form.submitting ? 'Joining…' : `Create account and join ${invitation.organization.name}`}
      </button>
    </form>
  );
}

export default function InvitePage() {
  const { pathname } = useLocation();
  const token = inviteToken(pathname);
  const session = useSessionActions();
  const s = useSession();
  const api = useMemo(() => invitationApi(session.client), [session.client]);
  const [invitation, setInvitation] = useState<InvitationLookup | null>(null);
  const [loadError, setLoadError] = useState<unknown>(null);
  const [attempt, setAttempt] = useState(0);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [joining, setJoining] = useState(false);
  const [joinError, setJoinError] = useState<string | null>(null);
  useDocumentTitle(invitation ? `Invitation to ${invitation.organization.name}` : 'Invitation');

  useEffect(() => {
    if (!token) return;
    const ctrl = new AbortController();
    setLoadError(null);
    api.lookup(token, ctrl.signal).then(setInvitation, (e: unknown) => {
      if (!isAbortError(e)) setLoadError(e);
    });
    return () => ctrl.abort();
  }, [api, token, attempt]);

  const signedIn = s.isAuthenticated && !s.hydrationError && s.user !== null;

  /** D6: sign in, then come back here (whoever was signed in before: this page is for the next person). */
  const comeBackAfterLogin = () => {
    session.storage.remove(KEYS.postLoginRedirect);
    storeRedirect(session.storage, pathname, null);
  };

  /** Joined: store a new account's tokens as a login does, choose that organization, land on its dashboard. */
  async function enter(res: AcceptedInvitation) {
    const { storage } = session;
    if (res.access_token) {
      storage.set(KEYS.rememberMe, 'true'); // the server made a remembered session (D16)
      saveTokens(storage, res as TokenResponse);
      storage.remove(KEYS.hydrationFailed);
    }
    storage.remove(KEYS.postLoginRedirect); // D28: after joining, the dashboard, not a path stored earlier
    await session.selectOrg(res.org_id);
    // selectOrg goes to the dashboard once the organization is chosen; should it not be, the guards decide.
    if (session.store.getState().currentOrg?.id !== res.org_id) navigate('/dashboard', { replace: true });
  }

  async function join() {
    if (!token) return;
    setJoining(true);
    setJoinError(null);
    try {
      await enter(await api.accept(token));
    } catch (error) {
      const o = outcomeOf(error);
      if (o) setOutcome(o);
      else setJoinError(isNetworkError(error) ? 'Could not reach the server. Check your connection and try again.' : (isHttpError(error) && error.detail) || MSG_FAILED);
      setJoining(false);
    }
  }

  async function signUp({ first_name, password }: SignUpValues) {
    if (!token) return;
    try {
      await enter(await api.accept(token, { first_name: first_name.trim(), password }));
    } catch (error) {
      const o = outcomeOf(error);
      if (!o) throw error; // the form shows it (a 400 on its field)
      setOutcome(o);
    }
  }

  async function signOut() {
    await session.logout();
    navigate(pathname, { replace: true }); // back here, signed out, to sign up or sign in as the invited person
  }

  if (!token || isHttpError(loadError, 404) || isHttpError(loadError, 400)) {
    return (
      <Screen>
        <h1 id="invite-title">Invitation not found</h1>
        <p className="invite-message">{MSG_UNKNOWN}</p>
        <Link to={signedIn ? '/dashboard' : '/login'}>{signedIn ? 'Go to your dashboard' : 'Go to the login page'}</Link>
      </Screen>
    );
  }
  if (loadError) {
    return (
      <Screen>
        <h1 id="invite-title">Invitation</h1>
        <p className="invite-message" role="alert">
          {isNetworkError(loadError) ? 'Could not reach the server. Check your connection and try again.' : (isHttpError(loadError) && loadError.detail) || MSG_FAILED}
        </p>
        <button type="button" className="btn" onClick={() => setAttempt((n) => n + 1)}>
          Retry
        </button>
      </Screen>
    );
  }
  if (!invitation) {
    return (
      <main className="center-screen">
        <Spinner label="Loading the invitation…" showLabel />
      </main>
    );
  }

  const org = invitation.organization;
  const role = invitation.role;
  const gone = outcome?.kind === 'gone' ? outcome.message : invitation.status !== 'pending' ? MSG_GONE[invitation.status] : null;
  if (gone) {
    return (
      <Screen org={org}>
        <h1 id="invite-title">Invitation to {org.name}</h1>
        <p className="invite-message" role="alert">
          {gone}
        </p>
        <Link to={signedIn ? '/dashboard' : '/login'}>{signedIn ? 'Go to your dashboard' : 'Go to the login page'}</Link>
      </Screen>
    );
  }

  const sameEmail = signedIn && s.user!.email.toLowerCase() === invitation.email.toLowerCase();
  let action: ReactNode;
  if (signedIn && (!sameEmail || outcome?.kind === 'mismatch')) {
    action = (
      <div className="invite-action" role="alert">
        <p>
          This invitation is for <strong>{invitation.email}</strong>, but you are signed in as <strong>{s.user!.email}</strong>. Sign out, then
          join as {invitation.email}.
        </p>
        <button type="button" className="btn" onClick={() => void signOut()}>
          Sign out
        </button>
      </div>
    );
  } else if (signedIn) {
    action = (
      <div className="invite-action">
        {joinError && (
          <p className="field-error" role="alert">
            {joinError}
          </p>
        )}
        <button type="button" className="btn btn-primary btn-block" onClick={() => void join()} disabled={joining} aria-busy={joining || undefined}>
          {joining ? 'Joining…' : 'Join'}
        </button>
      </div>
    );
  } else if (invitation.has_account || outcome?.kind === 'sign-in') {
    action = (
      <div className="invite-action">
        <p>An account for {invitation.email} exists: sign in with it, then join.</p>
        <Link to="/login" className="btn btn-primary btn-block" onClick={comeBackAfterLogin}>
          Sign in as {invitation.email} to join
        </Link>
      </div>
    );
  } else {
    action = <SignUpForm invitation={invitation} onAccept={signUp} />;
  }

  return (
    <Screen org={org}>
      <h1 id="invite-title">Join {org.name}</h1>
      <p className="invite-message">
        {invitation.inviter ? `${invitation.inviter} invited you` : 'You are invited'} to join <strong>{org.name}</strong> as{' '}
        {role === 'admin' || role === 'owner' ? 'an' : 'a'} <strong>{role}</strong>.
      </p>
      <p className="invite-for muted">Invitation for {invitation.email}</p>
      {action}
    </Screen>
  );
}
