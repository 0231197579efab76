// SPEC §2 Sidebar links and sections, with the D9/D10 permission each link needs. Pure data.
import type { Permission } from '../../contract/permissions';
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

export const NAV: readonly NavSection[] = [
  { title: null, links: [{ label: 'Dashboard', to: '/dashboard', icon: 'dashboard', permission: 'dashboard:view' }] },
  {
    title: 'Communication',
    links: [
      { label: 'SMS', to: '/sms', icon: 'sms', permission: 'sms:view' },
      { label: 'Email', to: '/email', icon: 'email', permission: 'email:view' },
      { label: 'Calls', to: '/calls', icon: 'calls', permission: 'calls:view' },
    ],
  },
  {
    title: 'CRM',
    links: [
      { label: 'Customers', to: '/customers', icon: 'customers', permission: 'customers:view' },
      { label: 'Jobs', to: '/jobs', icon: 'jobs', permission: 'jobs:view' },
    ],
  },
  {
    title: 'Admin',
    links: [
      { label: 'Team', to: '/team', icon: 'team', permission: 'team:view' },
      { label: 'Permissions', to: '/permissions', icon: 'permissions', permission: 'permissions:view' },
      { label: 'Activity', to: '/activity', icon: 'activity', permission: 'audit:view' }, // D10, D30
    ],
  },
];

/** D9: the sidebar hides links the user may not open, and sections left empty. */
export function visibleNav(permissions: readonly string[], nav: readonly NavSection[] = NAV): NavSection[] {
  return nav
    .map((s) => ({ ...s, links: s.links.filter((l) => permissions.includes(l.permission)) }))
    .filter((s) => s.links.length > 0);
}
