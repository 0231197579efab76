// SPEC §2 the route table (STYLE "Routes are data"): each page's path, title, D9/D10 permission, place
// in the sidebar and lazily loaded code. The router matches it in this order (D12: 'customers/new' before
// 'customers/:id'); the sidebar (nav.ts), titles, guards and preload hints (build.mjs) all read it.
import type { ComponentType } from 'react';
import type { Permission } from '../../contract/permissions';
import { findRoute } from '../router/match';
import { keep } from '../ui/preloaded';
import type { IconName } from '../ui/icon';

export interface Route {
  path: string;
  title: string;
  /** D9/D10: the permission a person needs to open the page; a failed check leads to /forbidden. */
  permission?: Permission;
  /**
   * SPEC §2 sidebar: its section (null above the first) and icon; D54 `owner`: shown to owners only; D61
   * `permission`: shown only with this one (the others open the page read-only from another page).
   */
  nav?: { section: 'Communication' | 'CRM' | 'Admin' | null; icon: IconName; owner?: true; permission?: Permission };
  load: () => Promise<{ default: ComponentType }>;
  /** Lazily loaded pieces the page shows at once (paths as its import() names them): build.mjs adds their files to the page's preload hints. */
  parts?: readonly string[];
}

// build.mjs reads each route's path, the import() after it and its `parts` for the preload hints.
export const ROUTES = [
  {
    path: '/dashboard',
    title: 'Dashboard',
    permission: 'dashboard:view',
    nav: { section: null, icon: 'dashboard' },
    load: () => import('../pages/dashboard/DashboardPage'),
  },
  { path: '/sms', title: 'SMS', permission: 'sms:view', nav: { section: 'Communication', icon: 'sms' }, load: () => import('../pages/sms/SmsPage') },
  { path: '/email', title: 'Email', permission: 'email:view', nav: { section: 'Communication', icon: 'email' }, load: () => import('../pages/email/EmailPage') },
  { path: '/calls', title: 'Calls', permission: 'calls:view', nav: { section: 'Communication', icon: 'calls' }, load: () => import('../pages/calls/CallsPage') },
  {
    path: '/customers',
    title: 'Customers',
    permission: 'customers:view',
    nav: { section: 'CRM', icon: 'customers' },
    load: () => import('../pages/customers/CustomersPage'),
    parts: ['../pages/customers/views/ViewsBar', '../pages/customers/custom-columns/CustomListControls'], // D57 D56: beside the list
  },
  { path: '/customers/new', title: 'Add Customer', permission: 'customers:create', load: () => import('../pages/customers/AddCustomerPage') },
  { path: '/customers/import', title: 'Import Customers', permission: 'customers:create', load: () => import('../pages/customers/ImportCustomersPage') },
  { path: '/customers/merge', title: 'Merge Customers', permission: 'customers:merge', load: () => import('../pages/customers/merge/MergePage') }, // D49
  { path: '/customers/:id', title: 'Customer Dashboard', permission: 'customers:view', load: () => import('../pages/customers/CustomerDashboardPage') },
  { path: '/customers/:id/edit', title: 'Edit Customer', permission: 'customers:update', load: () => import('../pages/customers/EditCustomerPage') },
  { path: '/jobs', title: 'Jobs', permission: 'jobs:view', nav: { section: 'CRM', icon: 'jobs' }, load: () => import('../pages/jobs/JobsPage') },
  { path: '/team', title: 'Team', permission: 'team:view', nav: { section: 'Admin', icon: 'team' }, load: () => import('../pages/team/TeamPage') },
  {
    path: '/permissions',
    title: 'Permissions',
    permission: 'permissions:view',
    nav: { section: 'Admin', icon: 'permissions' },
    load: () => import('../pages/permissions/PermissionsPage'),
  },
  { path: '/activity', title: 'Activity', permission: 'audit:view', nav: { section: 'Admin', icon: 'activity' }, load: () => import('../pages/activity/ActivityPage') }, // D10, D30
  { path: '/settings', title: 'Settings', nav: { section: 'Admin', icon: 'settings', owner: true }, load: () => import('../pages/settings/SettingsPage') }, // D54: all read, an owner changes
  {
    path: '/settings/fields',
    title: 'Custom fields',
    permission: 'customers:view',
    nav: { section: 'Admin', icon: 'fields', permission: 'fields:manage' },
    load: () => import('../pages/settings/fields/FieldsPage'),
  }, // D56 D61: all who see customers read, fields:manage changes; linked from Settings
  { path: '/account', title: 'My account', load: () => import('../pages/account/AccountPage') }, // D51: with or without an organization
  { path: '/forbidden', title: 'Access denied', load: () => import('../pages/forbidden/ForbiddenPage') },
] as const satisfies readonly Route[];

/** The preload hints build.mjs writes into the page: each route's files, and '*' those of the shell around every route. */
const HINTS_ID = 'route-files';
let hints: Record<string, string[] | undefined> | undefined;

/**
 * Asks now for the code of the route at `pathname` and of the shell, every file at once (a file's imports
 * would otherwise be found only once it has arrived): a reload with a stored session, or Log In pressed (D6).
 */
export function preloadRoute(pathname: string): void {
  const path = pathname.replace(/[?#].*$/, '').replace(/(.)\/$/, '$1');
  const route = findRoute(ROUTES, path === '/' || path === '' ? '/dashboard' : path)?.route;
  if (!route) return;
  void keep(route.load).catch(() => undefined); // the page's own load shows a failure (D40)
  try {
    hints ??= JSON.parse(document.getElementById(HINTS_ID)?.textContent || '{}') as Record<string, string[]>;
  } catch {
    hints = {};
  }
  const have = new Set([...document.querySelectorAll<HTMLLinkElement>('link[rel=modulepreload]')].map((l) => l.getAttribute('href')));
  for (const href of [...(hints['*'] ?? []), ...(hints[route.path] ?? [])]) {
    if (have.has(href)) continue;
    have.add(href);
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.href = href;
    document.head.append(link);
  }
}
