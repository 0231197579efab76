// SPEC §2 User menu: 'Signed in as' {email}, the current organization, the user's organizations
// (choosing one sets it and reloads the app at /dashboard), My account (D51), Logout. A disclosure: Escape or a click
// outside closes it and focus goes back to its button. The button is named by the email it shows (WCAG
// 2.5.3); on a phone the email is only hidden from sight (.user-button-email in app.css), never removed.
import { useEffect, useId, useRef, useState } from 'react';
import { Link } from '../router/Link';
import { PAGES } from '../router/paths';
import { useSession, useSessionActions } from '../session/use-session';
import { Icon } from '../ui/icon';
import { OrgAvatar } from '../ui/org-avatar';

export function UserMenu() {
  const { user, currentOrg, organizations } = useSession();
  const session = useSessionActions();
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const id = useId();

  useEffect(() => {
    if (!open) return;
    const onDown = (e: PointerEvent) => {
      if (!root.current?.contains(e.target as Node)) setOpen(false);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      setOpen(false);
      button.current?.focus();
    };
    document.addEventListener('pointerdown', onDown);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onDown);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  if (!user) return null;
  const choose = (orgId: number) => {
    setOpen(false);
    if (orgId !== currentOrg?.id) session.switchOrg(orgId);
  };

  return (
    <div
      className="user-menu"
      ref={root}
      onBlur={(e) => {
        if (open && e.relatedTarget && !e.currentTarget.contains(e.relatedTarget as Node)) setOpen(false);
      }}
    >
      <button ref={button} type="button" className="user-button" aria-expanded={open} aria-controls={id} onClick={() => setOpen(!open)}>
        <span className="avatar" aria-hidden="true">
          {(user.first_name || user.email).charAt(0).toUpperCase()}
        </span>
        <span className="user-button-email">{user.email}</span>
        <Icon name="chevron" />
      </button>
      <div id={id} className="menu-panel" hidden={!open}>
        <div className="menu-block">
          <p className="menu-label">Signed in as</p>
          <p className="menu-value">{user.email}</p>
        </div>
        {currentOrg && (
          <div className="menu-block">
            <p className="menu-label">Current organization</p>
            <p className="menu-value">{currentOrg.name}</p>
          </div>
        )}
        <div className="menu-block">
          <p className="menu-label" id={id + 'o'}>
            Your organizations
          </p>
          <ul className="menu-orgs" aria-labelledby={id + 'o'}>
            {organizations.map((org) => (
              <li key={org.id}>
                <button type="button" className="menu-item" aria-current={org.id === currentOrg?.id ? 'true' : undefined} onClick={() => choose(org.id)}>
                  <OrgAvatar org={org} size="sm" />
                  <span>{org.name}</span>
                  {org.id === currentOrg?.id && <Icon name="check" />}
                </button>
              </li>
            ))}
          </ul>
        </div>
        {/* D51: the person's own account */}
        <Link to={PAGES.account} className="menu-item" onClick={() => setOpen(false)}>
          <Icon name="team" />
          My account
        </Link>
        <button type="button" className="menu-item menu-logout" onClick={() => void session.logout()}>
          <Icon name="logout" />
          Logout
        </button>
      </div>
    </div>
  );
}
