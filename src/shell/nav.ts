// SPEC §2 Sidebar links and sections, in SPEC's order: each routes.ts route with a place in the sidebar,
// with its title, path and D9/D10 permission. Pure data.
import type { Permission } from '../../contract/permissions';
import type { IconName } from '../ui/icon';
import { ROUTES, type Route } from './routes';

export interface NavLink {
  label: string;
  to: string;
  icon: IconName;
  /** D9/D10: the permission a person needs to see the link (D61: the route's own, or the link's); none on an owner's link. */
  permission?: Permission;
  /** D54: shown to owners only (the organization's settings: others may open them, read-only). */
  owner?: boolean;
}
export interface NavSection {
  /** null for the links above the first section (Dashboard). */
  title: string | null;
  links: NavLink[];
}

function navOf(routes: readonly Route[]): NavSection[] {
  const sections: NavSection[] = [];
  for (const { path, title, permission, nav } of routes) {
    if (!nav) continue;
    if (!nav.owner && !permission) throw new Error(`The sidebar links to ${path}, which needs a permission`);
    let section = sections.find((s) => s.title === nav.section);
    if (!section) sections.push((section = { title: nav.section, links: [] }));
    section.links.push(
      nav.owner ? { label: title, to: path, icon: nav.icon, owner: true } : { label: title, to: path, icon: nav.icon, permission: nav.permission ?? permission },
    );
  }
  return sections;
}

export const NAV: readonly NavSection[] = navOf(ROUTES);

/** D9: the sidebar hides links the user may not open, and sections left empty; D54: owners' links from others. */
export function visibleNav(permissions: readonly string[], nav: readonly NavSection[] = NAV, role: string | null = null): NavSection[] {
  const shown = (l: NavLink) => (l.owner ? role === 'owner' : l.permission !== undefined && permissions.includes(l.permission));
  return nav.map((s) => ({ ...s, links: s.links.filter(shown) })).filter((s) => s.links.length > 0);
}
