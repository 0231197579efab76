// D34: whose turn an operation waits for at the database gate (db-gate.ts). The request path names it
// as it learns who calls: `anon` for every request (login, refresh, invitation look-ups), `user:<id>`
// once an access token is verified (the caller look-up itself included, so a member naming another
// organization in X-Organization-ID never waits in that organization's queue), and `org:<id>` once the
// caller's membership there is confirmed. Repository code never passes it: it flows with the request
// (AsyncLocalStorage). Work outside any request (start-up, housekeeping) waits as `system`.
import { AsyncLocalStorage } from 'node:async_hooks';

export const ANON_KEY = 'anon';
export const SYSTEM_KEY = 'system';
export const userKey = (userId: number) => `user:${userId}`;
export const orgKey = (orgId: number) => `org:${orgId}`;

const scope = new AsyncLocalStorage<{ key: string }>();

/** Runs a request's handling with its gate key, `anon` until the caller is known. */
export function withGateKey<T>(fn: () => T, key = ANON_KEY): T {
  return scope.run({ key }, fn);
}

/** Names the current request's key from here on (a verified token, a confirmed membership). */
export function setGateKey(key: string): void {
  const store = scope.getStore();
  if (store) store.key = key;
}

export function currentGateKey(): string {
  return scope.getStore()?.key ?? SYSTEM_KEY;
}
