// Routes are data (STYLE): each path of the route table (router/route-table.ts, SPEC §2, D10) with its
// page's lazy loader, in the table's order (D12). The titles and permissions load with the shell.
import type { ComponentType } from 'react';
import type { RoutePath } from '../router/paths';

type Screens = typeof import('./lazy');
/** Loads a screen from the lazy group (see lazy.ts). */
export const screen = (name: keyof Screens) => () => import('./lazy').then((m) => ({ default: m[name] as ComponentType }));

export interface ShellRoute {
  path: RoutePath;
  load: () => Promise<{ default: ComponentType }>;
}

/**
 * The customers list, the customer page, the import and the dashboard are chunks of their own (in the
 * lazy group they would take that past 10 KB gzip).
 */
const LOADERS: Record<RoutePath, ShellRoute['load']> = {
  '/dashboard': () => import('../pages/dashboard/DashboardPage'),
  '/sms': screen('SmsPage'),
  '/email': screen('EmailPage'),
  '/calls': screen('CallsPage'),
  '/customers': () => import('../pages/customers/CustomersPage'),
  '/customers/new': () => import('../pages/customers/AddCustomerPage'),
  '/customers/import': () => import('../pages/customers/ImportCustomersPage'),
  '/customers/merge': () => import('../pages/customers/merge/MergePage'), // D49
  '/customers/:id': () => import('../pages/customers/CustomerDashboardPage'),
  '/customers/:id/edit': () => import('../pages/customers/EditCustomerPage'),
  '/jobs': screen('JobsPage'),
  // D28–D30: the admin pages are chunks of their own, like the customers list (each would take the group past 10 KB gzip).
  '/team': () => import('../pages/team/TeamPage'),
  '/permissions': () => import('../pages/permissions/PermissionsPage'),
  '/activity': () => import('../pages/activity/ActivityPage'),
  '/settings': () => import('../pages/settings/SettingsPage'),
  '/account': () => import('../pages/account/AccountPage'),
  '/forbidden': screen('ForbiddenPage'),
};

export const SHELL_ROUTES: readonly ShellRoute[] = (Object.keys(LOADERS) as RoutePath[]).map((path) => ({ path, load: LOADERS[path] }));
