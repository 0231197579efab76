// SPEC §2 the route table as data (STYLE "Routes are data"): each page's path, its title and the
// permission it needs (D9, D10), with href builders. No page code here: app/routes.ts adds each route's
// loader; the sidebar (shell/nav.ts) takes its links' names, paths and permissions from here.
import type { Permission } from '../../contract/permissions';

export interface RouteData {
  path: string;
  title: string;
  /** D9/D10: the permission a person needs to open the page; a failed check leads to /forbidden. */
  permission?: Permission;
}

/** D12: 'customers/new' and 'customers/import' are listed (and so matched) before 'customers/:id'. */
export const ROUTES = [
  { path: '/dashboard', title: 'Dashboard', permission: 'dashboard:view' },
  { path: '/sms', title: 'SMS', permission: 'sms:view' },
  { path: '/email', title: 'Email', permission: 'email:view' },
  { path: '/calls', title: 'Calls', permission: 'calls:view' },
  { path: '/customers', title: 'Customers', permission: 'customers:view' },
  { path: '/customers/new', title: 'Add Customer', permission: 'customers:create' },
  { path: '/customers/import', title: 'Import Customers', permission: 'customers:create' },
  { path: '/customers/:id', title: 'Customer Dashboard', permission: 'customers:view' },
  { path: '/customers/:id/edit', title: 'Edit Customer', permission: 'customers:update' },
  { path: '/jobs', title: 'Jobs', permission: 'jobs:view' },
  { path: '/team', title: 'Team', permission: 'team:view' },
  { path: '/permissions', title: 'Permissions', permission: 'permissions:view' },
  { path: '/activity', title: 'Activity', permission: 'audit:view' }, // D10, D30
  { path: '/forbidden', title: 'Access denied' },
] as const satisfies readonly RouteData[];

export type RoutePath = (typeof ROUTES)[number]['path'];

/** The pages other pages link to, by name. */
export const PAGES = {
  dashboard: '/dashboard',
  customers: '/customers',
  newCustomer: '/customers/new',
  importCustomers: '/customers/import',
  activity: '/activity',
  team: '/team',
  permissions: '/permissions',
} as const satisfies Record<string, RoutePath>;
export const customerHref = (id: number) => `/customers/${id}`;
export const editCustomerHref = (id: number) => `/customers/${id}/edit`;
