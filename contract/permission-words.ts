// D55: the permissions matrix's words for each permission, apart from the matrix's defaults so the
// activity log says a change in them at little cost to its chunk.
import type { CustomerScope, Permission } from './permissions';

/** D55: each permission in words a business owner understands, shown first; the code comes second. */
export const PERMISSION_WORDS: Readonly<Record<Permission, string>> = {
  'dashboard:view': 'View the dashboard',
  'customers:view': 'View customers and their notes',
  'customers:create': 'Add and import customers',
  'customers:update': 'Edit customers and notes',
  'customers:delete': 'Delete and restore customers',
  'customers:export': 'Export customers to a spreadsheet (CSV)',
  'customers:merge': 'Merge duplicate customers',
  'fields:manage': 'Manage custom fields', // D61
  'views:manage': 'Share saved views with everyone', // D61
  'jobs:view': 'View jobs',
  'sms:view': 'View text messages (SMS)',
  'email:view': 'View email',
  'calls:view': 'View calls',
  'team:view': 'View the team',
  'team:manage': 'Invite and remove members, change their roles',
  'permissions:view': 'View what each role may do',
  'permissions:manage': 'Change what each role may do',
  'audit:view': 'View the activity log',
};

/** D61 D59: the matrix's words for what a role sees of customers. */
export const CUSTOMER_SCOPE_WORDS: Readonly<Record<CustomerScope, string>> = {
  all: 'Sees: all customers',
  assigned: 'Sees: only customers assigned to them',
};
