// What the API's test files share: the D10 permission table, the servers' environment, the paths and
// the shape every error answer has.
import { expect } from 'vitest';
import type { Reply } from './helpers';

/** D10, in the order a reader checks them. */
const ALL = [
  'dashboard:view',
  'customers:view',
  'customers:create',
  'customers:update',
  'customers:delete',
  'customers:export',
  'customers:merge', // D55
  'fields:manage', // D61
  'views:manage', // D61
  'jobs:view',
  'sms:view',
  'email:view',
  'calls:view',
  'team:view',
  'team:manage',
  'permissions:view',
  'permissions:manage',
  'audit:view',
];
export const D10: Record<string, string[]> = {
  owner: ALL,
  admin: ALL.filter((p) => p !== 'permissions:manage'),
  member: ['dashboard:view', 'customers:view', 'customers:create', 'customers:update', 'jobs:view', 'sms:view', 'email:view', 'calls:view'],
  viewer: ['dashboard:view', 'customers:view'],
};
export const sorted = (list: unknown) => [...(list as string[])].sort();

export const SUITE_ENV = {
  TRUST_PROXY: '1', // each test speaks from its own X-Forwarded-For address
  LOGIN_MAX_FAILURES_PER_EMAIL: '3',
  LOGIN_MAX_FAILURES_PER_CLIENT: '5',
  LOGIN_THROTTLE_WINDOW: '600',
};

export const LOGIN = '/api/v1/auth/login/';
export const REFRESH = '/api/v1/auth/refresh/';
export const LOGOUT = '/api/v1/auth/logout/';
export const ME = '/api/v1/auth/me/';
export const CUSTOMERS = '/api/v1/customers/';

export function expectError(r: Pick<Reply, 'status' | 'body' | 'headers'>, status: number, code?: string) {
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  expect(r.headers.get('content-type')).toMatch(/^application\/json/);
  expect(typeof r.body.detail).toBe('string');
  expect(typeof r.body.code).toBe('string');
  if (code) expect(r.body.code).toBe(code);
}
