// SPEC §4 Refresh and §8 expiry: the rotation under the cross-tab lock (D8, lock.ts), what follows it,
// and what a failed refresh or a missing token leaves behind. The client's single flight (http/client.ts)
// makes one refresh of many callers.
import type { Client } from '../http/client';
import { emit, SESSION_EXPIRED_EVENT, TOKENS_REFRESHED_EVENT } from '../lib/events';
import { subject } from '../lib/jwt';
import { KEYS, storeRedirect } from '../lib/storage';
import { defaultLock, rotateTokens, type WithLock } from './lock';
import type { SessionCore } from './state';
import type { TokenResponse } from './types';

export const REFRESH_PATH = '/v1/auth/refresh/';

/** D8: rotates the tokens under the cross-tab lock (see lock.ts). */
export function tokenRotation(core: SessionCore, client: Pick<Client, 'post'>): () => Promise<void> {
  const { storage } = core;
  const lock: WithLock = core.deps.lock ?? defaultLock();
  return async () => {
    const seen = storage.get(KEYS.refreshToken);
    const post = (refresh_token: string) => client.post<TokenResponse>(REFRESH_PATH, { refresh_token });
    await rotateTokens(storage, lock, post, seen);
  };
}

/** SPEC §8: 401 and the refresh fails → session cleared, hydration_failed set, sessionExpired fires. */
export function expire(core: SessionCore): void {
  const { storage } = core;
  storeRedirect(storage, core.deps.currentPath(), subject(storage.get(KEYS.accessToken)));
  core.clear();
  storage.set(KEYS.hydrationFailed, 'true');
  core.set({ expired: true });
  emit(SESSION_EXPIRED_EVENT, core.win);
}

/** SPEC §5: a non-auth request without a token is cancelled; flag it and remember the path. */
export function tokenMissing(core: SessionCore): void {
  core.storage.set(KEYS.hydrationFailed, 'true');
  storeRedirect(core.storage, core.deps.currentPath(), null);
}

/** SPEC §4 Refresh: new tokens, extended expiry, reloaded profile, idle queries refetched once. */
export async function refreshSession(core: SessionCore, rotate: () => Promise<void>, loadProfile: () => Promise<void>): Promise<void> {
  await rotate();
  await loadProfile();
  emit(TOKENS_REFRESHED_EVENT, core.win);
}
