// Token persistence and rotation (SPEC §4 Refresh, §9 lifetimes, D8 one refresh across tabs).
import { isExpired, isWellFormed } from '../lib/jwt';
import { KEYS, type AppStorage } from '../lib/storage';
import { sleep } from '../lib/time';
import type { WithLock } from './lock';
import { SessionInvalidError } from './profile';
import type { TokenResponse } from './types';

/** SPEC §9: session lifetime with and without remember me. */
export const REMEMBER_ME_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;
export const SESSION_LIFETIME_MS = 24 * 60 * 60 * 1000;

/** Stores a login or refresh answer; a malformed one is 'Session invalid'. */
export function saveTokens(storage: AppStorage, res: TokenResponse): void {
  if (!isWellFormed(res.access_token) || typeof res.refresh_token !== 'string' || !res.refresh_token) {
    throw new SessionInvalidError();
  }
  storage.set(KEYS.accessToken, res.access_token);
  storage.set(KEYS.refreshToken, res.refresh_token);
  if (typeof res.session_id === 'number') storage.set(KEYS.sessionId, String(res.session_id));
  // SPEC §4: the refresh extends the refresh expiry; the server's own figure wins when it sends one.
  const fromServer = res.refresh_expires_at ? Date.parse(res.refresh_expires_at) : NaN;
  const lifetime = storage.get(KEYS.rememberMe) === 'false' ? SESSION_LIFETIME_MS : REMEMBER_ME_LIFETIME_MS;
  storage.set(KEYS.refreshExpiresAt, String(Number.isFinite(fromServer) ? fromServer : Date.now() + lifetime));
}

/**
 * D8: how long a tab that waited for the lock gives the previous holder's new tokens to show up in
 * its storage. Browsers deliver another tab's localStorage writes and the lock grant separately, so
 * the grant can arrive first; without this pause the tab would refresh again with the old token.
 */
export const HANDOFF_MS = 1_000;
const HANDOFF_POLL_MS = 20;

/**
 * D8: rotates the tokens under the cross-tab lock. A tab that waited re-reads storage and skips
 * the call when another tab rotated meanwhile (the refresh token changed and the access token is good).
 */
export async function rotateTokens(storage: AppStorage, lock: WithLock, refresh: (token: string) => Promise<TokenResponse>): Promise<void> {
  const seen = storage.get(KEYS.refreshToken);
  await lock(async (waited) => {
    let current = storage.get(KEYS.refreshToken);
    for (let t = 0; waited && current === seen && t < HANDOFF_MS; t += HANDOFF_POLL_MS) {
      await sleep(HANDOFF_POLL_MS);
      current = storage.get(KEYS.refreshToken);
    }
    const access = storage.get(KEYS.accessToken);
    if (current && current !== seen && isWellFormed(access) && !isExpired(access)) return;
    if (!current) throw new SessionInvalidError();
    saveTokens(storage, await refresh(current));
  });
}
