// Login's messages (SPEC §8 login failures), D6 return after login, and the one place a token answer is
// taken in (a login's, or an accepted invitation's, D28). The sign-in itself is sign-in.ts. React-free.
import { subject } from '../lib/jwt';
import { KEYS, storeRedirect, type AppStorage } from '../lib/storage';
import { saveTokens } from './tokens';
import type { TokenResponse } from './types';

/** SPEC §8 a failed login and its message when nothing more is known. */
export const MSG_LOGIN_FAILED = 'Login failed. Please try again.';

/** A failed login; `message` is the text to show the person. */
export class LoginError extends Error {
  override name = 'LoginError';
}

/** SPEC §8 messages. */
export const MSG_LOGIN_BAD_CREDENTIALS = 'Login failed. Check your credentials.';

export const LOGIN_PATH = '/v1/auth/login/';

/**
 * SPEC §3/§4: stores a token answer as the signed-in session (remember_me, the tokens, D36's device
 * token) and forgets an earlier failed load. A malformed answer throws SessionInvalidError.
 */
export function adoptTokens(storage: AppStorage, res: TokenResponse, rememberMe = true): void {
  storage.set(KEYS.rememberMe, String(rememberMe));
  saveTokens(storage, res);
  if (typeof res.device_token === 'string' && res.device_token) storage.set(KEYS.deviceToken, res.device_token);
  storage.remove(KEYS.hydrationFailed);
}

/** SPEC §2: the reason the last session ended, for the login screen to show once. */
export function takeToastReason(storage: AppStorage): string | null {
  const reason = storage.get(KEYS.toastReason);
  if (reason !== null) storage.remove(KEYS.toastReason);
  return reason;
}

/**
 * D6: come back to `path` after the next login. It belongs to whoever is signed in now; with `anyone`
 * (the invitation page is for the next person) it is handed to whoever signs in.
 */
export function returnAfterLogin(storage: AppStorage, path: string, { anyone = false } = {}): void {
  if (anyone) storage.remove(KEYS.postLoginRedirect);
  storeRedirect(storage, path, anyone ? null : subject(storage.get(KEYS.accessToken)));
}
