// SPEC §2 the route table as data (STYLE "Routes are data"): each page's path, its title and the
// permission it needs (D9, D10). No page code here: app/routes.ts gives each path its loader, in this
// order; the shell (app/shell-screen.tsx, shell/nav.ts) takes titles and permissions from here, so they
// load with it rather than before the login form.
import type { Permission } from '../../contract/permissions';

export interface RouteData {
  path: string;
  title: string;
  /** D9/D10: the permission a person needs to open the page; a failed check leads to /forbidden. */
  permission?: Permission;
}

/** D12: 'customers/new', 'customers/import' and 'customers/merge' are listed (and so matched) before 'customers/:id'. */
export const ROUTES = [
  { path: '/dashboard', title: 'Dashboard', permission: 'dashboard:view' },
  { path: '/sms', title: 'SMS', permission: 'sms:view' },
  { path: '/email', title: 'Email', permission: 'email:view' },
  { path: '/calls', title: 'Calls', permission: 'calls:view' },
  { path: '/customers', title: 'Customers', permission: 'customers:view' },
  { path: '/customers/new', title: 'Add Customer', permission: 'customers:create' },
  { path: '/customers/import', title: 'Import Customers', permission: 'customers:create' },
  { path: '/customers/merge', title: 'Merge Customers', permission: 'customers:merge' }, // D49
  { path: '/customers/:id', title: 'Customer Dashboard', permission: 'customers:view' },
  { path: '/customers/:id/edit', title: 'Edit Customer', permission: 'customers:update' },
  { path: '/jobs', title: 'Jobs', permission: 'jobs:view' },
  { path: '/team', title: 'Team', permission: 'team:view' },
  { path: '/permissions', title: 'Permissions', permission: 'permissions:view' },
  { path: '/activity', title: 'Activity', permission: 'audit:view' }, // D10, D30
  { path: '/settings', title: 'Settings' }, // D54: every member reads them, an owner changes them
  { path: '/account', title: 'My account' }, // D51: with or without an organization (app/App.tsx)
  { path: '/forbidden', title: 'Access denied' },
] as const satisfies readonly RouteData[];

export type RoutePath = (typeof ROUTES)[number]['path'];
