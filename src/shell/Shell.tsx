// SPEC §2 Application shell: a 15rem sidebar beside the page; under 1024px the sidebar is a drawer
// opened from the top bar's menu button. Choosing a link or Escape closes it; D15: while open it
// traps focus, and focus returns to the menu button.
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useDocumentTitle } from '../router/title';
import { useSession } from '../session/use-session';
import { useFocusTrap } from '../ui/focus-trap';
import { Icon } from '../ui/icon';
import { Sidebar } from './Sidebar';
import { TopBar } from './TopBar';

/** SPEC §9: the narrow (drawer) layout is used under this width. Keep in step with app.css. */
export const NARROW_MAX_PX = 1023.98;
const DRAWER_ID = 'app-sidebar';

export interface ShellProps {
  /** The page title for the top bar (from the route table). */
  title: string;
  children: ReactNode;
}

export default function Shell({ title, children }: ShellProps) {
  const { currentOrg, permissions, role } = useSession();
  const [open, setOpen] = useState(false);
  const drawer = useRef<HTMLElement>(null);
  const menuButton = useRef<HTMLButtonElement>(null);
  const close = () => setOpen(false);
  useFocusTrap(drawer, open, close, menuButton);

  useDocumentTitle(title);

  // Widening the window past the breakpoint turns the drawer back into the sidebar.
  useEffect(() => {
    if (!open || typeof window.matchMedia !== 'function') return;
    const mq = window.matchMedia(`(max-width: ${NARROW_MAX_PX}px)`);
    const onChange = () => {
      if (!mq.matches) setOpen(false);
    };
    mq.addEventListener?.('change', onChange);
    return () => mq.removeEventListener?.('change', onChange);
  }, [open]);

  if (!currentOrg) return null; // RequireOrg guards the shell; this only satisfies the types
  return (
    <div className="shell" data-drawer={open ? 'open' : undefined}>
      <a className="skip-link" href="#main">
        Skip to main content
      </a>
      <aside ref={drawer} id={DRAWER_ID} className="sidebar" aria-label="Sidebar" data-open={open ? '' : undefined}>
        <button type="button" className="icon-btn drawer-close" aria-label="Close menu" onClick={close}>
          <Icon name="close" />
        </button>
        <Sidebar org={currentOrg} permissions={permissions} role={role} onNavigate={close} />
      </aside>
      {open && <div className="drawer-backdrop" onClick={close} />}
      <div className="shell-main" inert={open || undefined}>
        <TopBar title={title} drawerOpen={open} drawerId={DRAWER_ID} onMenu={() => setOpen(true)} menuButton={menuButton} />
        <main id="main" className="content" tabIndex={-1}>
          {children}
        </main>
      </div>
    </div>
  );
}
