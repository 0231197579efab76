import { describe, expect, test } from 'vitest';
import { SHELL_ROUTES } from '../../src/app/routes';
import { findRoute, matchPath } from '../../src/router/match';
import { ROUTES, type RouteData } from '../../src/router/route-table';
import { isPositiveId } from '../../src/router/params';

describe('route matching', () => {
  test('patterns match whole paths and decode params', () => {
    expect(matchPath('/customers/:id', '/customers/12')).toEqual({ id: '12' });
    expect(matchPath('/customers/:id', '/customers/a%20b')).toEqual({ id: 'a b' });
    expect(matchPath('/customers/:id', '/customers')).toBeNull();
    expect(matchPath('/customers/:id', '/customers/1/edit')).toBeNull();
    expect(matchPath('/customers/:id', '/customers/%E0%A4%A')).toBeNull(); // malformed escape: no crash
  });

  /** The title of the shell route `pathname` matches (its title is the route table's). */
  const titleAt = (pathname: string) => ROUTES.find((r) => r.path === findRoute(SHELL_ROUTES, pathname)?.route.path)?.title;

  test('D12 customers/new is matched before customers/{id}', () => {
    expect(titleAt('/customers/new')).toBe('Add Customer');
    expect(titleAt('/customers/5')).toBe('Customer Dashboard');
    expect(titleAt('/customers/5/edit')).toBe('Edit Customer');
  });

  test("D12 the app's loaders follow the route table's paths in its order (the first match wins)", () => {
    expect(SHELL_ROUTES.map((r) => r.path)).toEqual(ROUTES.map((r) => r.path));
  });

  test('D12 an id is a positive integer', () => {
    for (const ok of ['1', '42', '9007199254740']) expect(isPositiveId(ok), ok).toBe(true);
    for (const bad of ['0', '-1', '01', '1.5', 'abc', '', ' 1', '1e3', undefined]) expect(isPositiveId(bad), String(bad)).toBe(false);
  });

  test('SPEC §2 + D10 the route table carries each page and its permission', () => {
    const table = Object.fromEntries(SHELL_ROUTES.map((r) => [r.path, (ROUTES as readonly RouteData[]).find((d) => d.path === r.path)?.permission ?? null]));
    expect(table).toEqual({
      '/dashboard': 'dashboard:view',
      '/sms': 'sms:view',
      '/email': 'email:view',
      '/calls': 'calls:view',
      '/customers': 'customers:view',
      '/customers/new': 'customers:create',
      '/customers/import': 'customers:create',
      '/customers/merge': 'customers:merge',
      '/customers/:id': 'customers:view',
      '/customers/:id/edit': 'customers:update',
      '/jobs': 'jobs:view',
      '/team': 'team:view',
      '/permissions': 'permissions:view',
      '/activity': 'audit:view',
      '/settings': null,
      '/account': null,
      '/forbidden': null,
    });
  });
});
