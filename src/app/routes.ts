// Routes are data (STYLE): the shell's pages with their titles, permissions (SPEC §2 route table,
// D10) and lazy loaders.
import type { ComponentType } from 'react';
import type { Permission } from '../../contract/permissions';

type Screens = typeof import('./lazy');
/** Loads a screen from the lazy group (see lazy.ts). */
export const screen = (name: keyof Screens) => () => import('./lazy').then((m) => ({ default: m[name] as ComponentType }));

export interface ShellRoute {
  path: string;
  title: string;
  /** D9/D10: the permission a person needs to open the page; a failed check leads to /forbidden. */
  permission?: Permission;
  load: () => Promise<{ default: ComponentType }>;
}

/**
 * D12: 'customers/new' and 'customers/import' are listed (and so matched) before 'customers/:id'.
 * The customers list, the customer page, the import and the dashboard are chunks of their own (in the
 * lazy group they would take that past 10 KB gzip).
 */
export const SHELL_ROUTES: readonly ShellRoute[] = [
  { path: '/dashboard', title: 'Dashboard', permission: 'dashboard:view', load: () => import('../pages/dashboard/DashboardPage') },
  { path: '/sms', title: 'SMS', permission: 'sms:view', load: screen('SmsPage') },
  { path: '/email', title: 'Email', permission: 'email:view', load: screen('EmailPage') },
  { path: '/calls', title: 'Calls', permission: 'calls:view', load: screen('CallsPage') },
  { path: '/customers', title: 'Customers', permission: 'customers:view', load: () => import('../pages/customers/CustomersPage') },
  { path: '/customers/new', title: 'Add Customer', permission: 'customers:create', load: () => import('../pages/customers/AddCustomerPage') },
  { path: '/customers/import', title: 'Import Customers', permission: 'customers:create', load: () => import('../pages/customers/ImportCustomersPage') },
  { path: '/customers/:id', title: 'Customer Dashboard', permission: 'customers:view', load: () => import('../pages/customers/CustomerDashboardPage') },
  { path: '/customers/:id/edit', title: 'Edit Customer', permission: 'customers:update', load: () => import('../pages/customers/EditCustomerPage') },
  { path: '/jobs', title: 'Jobs', permission: 'jobs:view', load: screen('JobsPage') },
  // D28–D30: the admin pages are chunks of their own, like the customers list (each would take the group past 10 KB gzip).
  { path: '/team', title: 'Team', permission: 'team:view', load: () => import('../pages/team/TeamPage') },
  { path: '/permissions', title: 'Permissions', permission: 'permissions:view', load: () => import('../pages/permissions/PermissionsPage') },
  { path: '/activity', title: 'Activity', permission: 'audit:view', load: () => import('../pages/activity/ActivityPage') },
  { path: '/forbidden', title: 'Access denied', load: screen('ForbiddenPage') },
];
