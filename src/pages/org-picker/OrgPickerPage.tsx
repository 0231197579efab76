// SPEC §2 Organization picker. The route guard (OrgPickerGuard) already ensures: signed in, no
// load error, no organization chosen. Here: none → /login, one → chosen at once, several → buttons.
import { useEffect, useRef, useState } from 'react';
import { Link } from '../../router/Link';
import { PAGES } from '../../router/paths';
import { useDocumentTitle } from '../../router/title';
import { useSession, useSessionActions } from '../../session/use-session';
import { OrgAvatar } from '../../ui/org-avatar';
import { Spinner } from '../../ui/spinner';

export default function OrgPickerPage() {
  const { organizations } = useSession();
  const session = useSessionActions();
  const [choosing, setChoosing] = useState<number | null>(null);
  const started = useRef(false);
  const only = organizations.length === 1 ? organizations[0] : undefined;
  useDocumentTitle('Select Your Organization');

  const choose = (id: number) => {
    setChoosing(id);
    // selectOrg stores the id, reloads the session and goes on to the dashboard (or /login on failure).
    session.selectOrg(id).catch(() => setChoosing(null));
  };

  useEffect(() => {
    if (started.current || organizations.length > 1) return;
    started.current = true;
    if (only) choose(only.id);
    // No organization cannot be worked with: sign out, which clears the session and goes to /login.
    else void session.logout();
  });

  if (organizations.length < 2) return <Spinner label="Opening your organization…" />;

  return (
    <main className="auth-screen">
      <section className="card auth-card org-picker" aria-labelledby="org-picker-title">
        <h1 id="org-picker-title">Select Your Organization</h1>
        <p className="muted">You're a member of multiple organizations. Choose one to continue:</p>
        <ul className="org-list">
          {organizations.map((org) => (
            <li key={org.id}>
              <button type="button" className="org-choice" disabled={choosing !== null} aria-busy={choosing === org.id || undefined} onClick={() => choose(org.id)}>
                <OrgAvatar org={org} />
                <span>{org.name}</span>
              </button>
            </li>
          ))}
        </ul>
        {/* D51: the person's own account needs no organization */}
        <p className="org-picker-account">
          <Link to={PAGES.account}>My account</Link>
        </p>
      </section>
    </main>
  );
}
