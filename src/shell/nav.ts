// SPEC §2 Sidebar links and sections, in SPEC's order. Each link's name, path and D9/D10 permission are
// its route's (router/paths.ts); the sidebar adds only the sections and icons. Pure data.
import type { Permission } from '../../contract/permissions';
import { ROUTES, type RoutePath } from '../router/paths';
import type { IconName } from '../ui/icon';

export interface NavLink {
  label: string;
  to: string;
  icon: IconName;
  permission: Permission;
}
export interface NavSection {
  /** null for the links above the first section (Dashboard). */
  title: string | null;
  links: NavLink[];
}

const SIDEBAR: readonly { title: string | null; links: readonly (readonly [RoutePath, IconName])[] }[] = [
  { title: null, links: [['/dashboard', 'dashboard']] },
  {
    title: 'Communication',
    links: [
      ['/sms', 'sms'],
      ['/email', 'email'],
      ['/calls', 'calls'],
    ],
  },
  {
    title: 'CRM',
    links: [
      ['/customers', 'customers'],
      ['/jobs', 'jobs'],
    ],
  },
  {
    title: 'Admin',
    links: [
      ['/team', 'team'],
      ['/permissions', 'permissions'],
      ['/activity', 'activity'],
    ],
  }, // D10, D30
];

/** A sidebar link from its route: the route's title and permission. */
function link(path: RoutePath, icon: IconName): NavLink {
  const route = ROUTES.find((r) => r.path === path);
  if (!route || !('permission' in route)) throw new Error(`The sidebar links to ${path}, which needs a route with a permission`);
  return { label: route.title, to: path, icon, permission: route.permission };
}

export const NAV: readonly NavSection[] = SIDEBAR.map((s) => ({ title: s.title, links: s.links.map(([path, icon]) => link(path, icon)) }));

/** D9: the sidebar hides links the user may not open, and sections left empty. */
export function visibleNav(permissions: readonly string[], nav: readonly NavSection[] = NAV): NavSection[] {
  return nav.map((s) => ({ ...s, links: s.links.filter((l) => permissions.includes(l.permission)) })).filter((s) => s.links.length > 0);
}
