import { describe, expect, test } from 'vitest';
import { findRoute, matchPath } from '../../src/router/match';
import { PAGES } from '../../src/router/paths';
import { ROUTES, type Route } from '../../src/shell/routes';
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
  const titleAt = (pathname: string) => findRoute(ROUTES, pathname)?.route.title;

  test('D12 customers/new is matched before customers/{id}', () => {
    expect(titleAt('/customers/new')).toBe('Add Customer');
    expect(titleAt('/customers/5')).toBe('Customer Dashboard');
    expect(titleAt('/customers/5/edit')).toBe('Edit Customer');
  });

  test('SPEC §2 every page other pages link to (router/paths.ts) is a route of the table', () => {
    const paths: string[] = ROUTES.map((r) => r.path);
    expect(Object.values(PAGES).filter((p) => !paths.includes(p))).toEqual([]);
  });

  test('D12 an id is a positive integer', () => {
    for (const ok of ['1', '42', '9007199254740']) expect(isPositiveId(ok), ok).toBe(true);
    for (const bad of ['0', '-1', '01', '1.5', 'abc', '', ' 1', '1e3', undefined]) expect(isPositiveId(bad), String(bad)).toBe(false);
  });

  test('SPEC §2 + D10 the route table carries each page and its permission', () => {
    const table = Object.fromEntries((ROUTES as readonly Route[]).map((r) => [r.path, r.permission ?? null]));
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
      '/settings/fields': 'customers:view', // D56: all who see customers read; fields:manage changes
      '/account': null,
      '/forbidden': null,
    });
  });
});
