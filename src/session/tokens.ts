// Token persistence (SPEC §4 Refresh, §9 lifetimes); the rotation under the cross-tab lock is in lock.ts (D8).
import { REMEMBER_ME_LIFETIME_MS, SHORT_SESSION_LIFETIME_MS } from '../../contract/session';
import { isWellFormed } from '../lib/jwt';
import { KEYS, type AppStorage } from '../lib/storage';
import { SessionInvalidError, type TokenResponse } from './types';

/** SPEC §9: session lifetime with and without remember me (the server's own figures). */
export { REMEMBER_ME_LIFETIME_MS, SHORT_SESSION_LIFETIME_MS as SESSION_LIFETIME_MS } from '../../contract/session';

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
  const lifetime = storage.get(KEYS.rememberMe) === 'false' ? SHORT_SESSION_LIFETIME_MS : REMEMBER_ME_LIFETIME_MS;
  storage.set(KEYS.refreshExpiresAt, String(Number.isFinite(fromServer) ? fromServer : Date.now() + lifetime));
}
