// D28 the invitation page (/invite/{token}): public, outside the shell, signed in or not. It shows the
// organization and role; 'Join' for a signed-in person with the invited email; a sign-up form for a
// new person (first name, password twice, PASSWORD_MIN_LENGTH); 'Sign in as … to join' when the email
// has an account; a clear message for a used, revoked, expired or unknown link, and for a signed-in
// person with another email (offering to sign out). After joining: that organization's dashboard.
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import type { AcceptedInvitation, InvitationLookup } from '../../../contract/team';
import { invitationApi } from '../../api/team';
import { isAbortError, isHttpError } from '../../http/errors';
import { Link } from '../../router/Link';
import { navigate, useLocation } from '../../router/location';
import { useDocumentTitle } from '../../router/title';
import type { TokenResponse } from '../../session/types';
import { useSession, useSessionActions } from '../../session/use-session';
import { OrgAvatar } from '../../ui/org-avatar';
import { Spinner } from '../../ui/spinner';
import { errorWords } from '../../ui/error-words';
import { inviteToken, MSG_GONE, MSG_UNKNOWN, outcomeOf, type Outcome } from './invitation';
import { SignUpForm, type SignUpValues } from './SignUpForm';

export { inviteToken, MSG_GONE, MSG_UNKNOWN } from './invitation';
export { MSG_PASSWORD_MISMATCH, MSG_PASSWORD_SHORT } from './SignUpForm';

const Screen = ({ children, org }: { children: ReactNode; org?: InvitationLookup['organization'] }) => (
  <main className="auth-screen">
    <section className="card auth-card invite-card" aria-labelledby="invite-title">
      {org && <OrgAvatar org={org} size="lg" />}
      {children}
    </section>
  </main>
);

/** Out of a link that cannot be used: to the dashboard, or to the login page. */
const AwayLink = ({ signedIn }: { signedIn: boolean }) => (
  <Link to={signedIn ? '/dashboard' : '/login'}>{signedIn ? 'Go to your dashboard' : 'Go to the login page'}</Link>
);

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
  const comeBackAfterLogin = () => session.returnAfterLogin(pathname, { anyone: true });

  /** Joined: a new account's tokens become the session as a login's do, then that organization's dashboard. */
  async function enter(res: AcceptedInvitation) {
    if (res.access_token) session.adopt(res as TokenResponse); // a remembered session, as the server made it (D16)
    await session.selectOrg(res.org_id, { ignoreReturnPath: true }); // D28: not a path stored earlier
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
      else setJoinError(errorWords(error));
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
        <AwayLink signedIn={signedIn} />
      </Screen>
    );
  }
  if (loadError) {
    return (
      <Screen>
        <h1 id="invite-title">Invitation</h1>
        <p className="invite-message" role="alert">
          {errorWords(loadError)}
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
        <AwayLink signedIn={signedIn} />
      </Screen>
    );
  }

  const sameEmail = signedIn && s.user!.email.toLowerCase() === invitation.email.toLowerCase();
  let action: ReactNode;
  if (signedIn && (!sameEmail || outcome?.kind === 'mismatch')) {
    action = (
      <div className="invite-action" role="alert">
        <p>
          This invitation is for <strong>{invitation.email}</strong>, but you are signed in as <strong>{s.user!.email}</strong>. Sign out, then join as {invitation.email}
          .
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
