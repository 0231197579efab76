// SPEC §2 Sidebar links and sections, in SPEC's order. Each link's name, path and D9/D10 permission are
// its route's (router/route-table.ts); the sidebar adds only the sections and icons. Pure data.
import type { Permission } from '../../contract/permissions';
import { ROUTES, type RoutePath } from '../router/route-table';
import type { IconName } from '../ui/icon';

export interface NavLink {
  label: string;
  to: string;
  icon: IconName;
  /** D9/D10: the permission a person needs to see the link; none on an owner's link. */
  permission?: Permission;
  /** D54: shown to owners only (the organization's settings: others may open them, read-only). */
  owner?: boolean;
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
      ['/settings', 'settings'],
    ],
  }, // D10, D30, D54
];

/** D54: links an owner sees (their routes need no permission: anyone may open them). */
const OWNER_LINKS: readonly RoutePath[] = ['/settings'];

/** A sidebar link from its route: the route's title and permission. */
function link(path: RoutePath, icon: IconName): NavLink {
  const route = ROUTES.find((r) => r.path === path);
  if (route && OWNER_LINKS.includes(path)) return { label: route.title, to: path, icon, owner: true };
  if (!route || !('permission' in route)) throw new Error(`The sidebar links to ${path}, which needs a route with a permission`);
  return { label: route.title, to: path, icon, permission: route.permission };
}

export const NAV: readonly NavSection[] = SIDEBAR.map((s) => ({ title: s.title, links: s.links.map(([path, icon]) => link(path, icon)) }));

/** D9: the sidebar hides links the user may not open, and sections left empty; D54: owners' links from others. */
export function visibleNav(permissions: readonly string[], nav: readonly NavSection[] = NAV, role: string | null = null): NavSection[] {
  const shown = (l: NavLink) => (l.owner ? role === 'owner' : l.permission !== undefined && permissions.includes(l.permission));
  return nav.map((s) => ({ ...s, links: s.links.filter(shown) })).filter((s) => s.links.length > 0);
}
