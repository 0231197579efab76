// Paths of the pages other pages link to, with href builders (each one a path of the route table,
// shell/routes.ts: test/router/match.test.ts).

/** The pages other pages link to, by name. */
export const PAGES = {
  dashboard: '/dashboard',
  customers: '/customers',
  newCustomer: '/customers/new',
  importCustomers: '/customers/import',
  mergeCustomers: '/customers/merge',
  activity: '/activity',
  team: '/team',
  permissions: '/permissions',
  settings: '/settings',
  customFields: '/settings/fields',
  account: '/account',
} as const;
export const customerHref = (id: number) => `/customers/${id}`;
export const editCustomerHref = (id: number) => `/customers/${id}/edit`;
/** D53: the public page a reset link opens (like an invitation's /invite/{token}). */
export const resetHref = (token: string) => `/reset/${encodeURIComponent(token)}`;
/**
 * D49: the merge screen for two customers: `survivor` is kept, `merged` is merged into it, once the person
 * has `chosen` so (Swap); until then the screen proposes the one with more history (D66).
 */
export const mergeCustomersHref = (survivor: number, merged: number, chosen = false) =>
  `/customers/merge?survivor=${survivor}&merged=${merged}${chosen ? '&chosen=1' : ''}`;
