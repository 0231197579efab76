// SPEC §2 Sidebar: the organization (logo or initials, and name), then the links by section.
import { useId } from 'react';
import { Link } from '../router/Link';
import { useLocation } from '../router/location';
import type { Organization } from '../session/types';
import { Icon } from '../ui/icon';
import { OrgAvatar } from '../ui/org-avatar';
import { visibleNav, type NavSection } from './nav';
import { toggleSection, useCollapsed } from './sections';

interface SidebarProps {
  org: Organization;
  permissions: readonly string[];
  /** The person's role here (D54: owners' links). */
  role?: string | null;
  /** Called when a link is chosen (the drawer closes). */
  onNavigate?: () => void;
}

function Section({ section, current, onNavigate }: { section: NavSection; current: string | undefined; onNavigate?: () => void }) {
  const id = useId();
  const collapsed = useCollapsed(section.title ?? '');
  const links = (
    <ul className="nav-links" id={id} hidden={collapsed}>
      {section.links.map((l) => (
        <li key={l.to}>
          <Link to={l.to} className="nav-link" onClick={onNavigate} aria-current={l.to === current ? 'page' : undefined}>
            <Icon name={l.icon} />
            {l.label}
          </Link>
        </li>
      ))}
    </ul>
  );
  if (section.title === null) return links;
  return (
    <div className="nav-section">
      <button type="button" className="nav-section-toggle" aria-expanded={!collapsed} aria-controls={id} onClick={() => toggleSection(section.title ?? '')}>
        {section.title}
        <Icon name="chevron" />
      </button>
      {links}
    </div>
  );
}

export function Sidebar({ org, permissions, role = null, onNavigate }: SidebarProps) {
  const { pathname } = useLocation();
  const sections = visibleNav(permissions, undefined, role);
  // The current page's link, also on its sub-pages; the deepest one wins (/settings/fields marks Custom fields, not Settings).
  const current = sections
    .flatMap((s) => s.links.map((l) => l.to))
    .filter((to) => pathname === to || pathname.startsWith(`${to}/`))
    .sort((a, b) => b.length - a.length)[0];
  return (
    <>
      <div className="sidebar-org">
        <OrgAvatar org={org} />
        <span className="sidebar-org-name">{org.name}</span>
      </div>
      <nav className="sidebar-nav" aria-label="Main">
        {sections.map((s) => (
          <Section key={s.title ?? ''} section={s} current={current} onNavigate={onNavigate} />
        ))}
      </nav>
    </>
  );
}
