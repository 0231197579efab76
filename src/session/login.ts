// Login orchestration (SPEC §2 Login, §3 payload, §8 login failures; D6 return after login) and the one
// place a token answer is taken in (a login's, or an accepted invitation's, D28). React-free.
import type { Client } from '../http/client';
import { isAbortError, isHttpError } from '../http/errors';
import { subject } from '../lib/jwt';
import { KEYS, readRedirect, storeRedirect, type AppStorage } from '../lib/storage';
import type { SessionCore } from './state';
import { saveTokens } from './tokens';
import type { LoginPayload, LoginRequest, TokenResponse } from './types';

/** SPEC §8 messages. */
export const MSG_LOGIN_BAD_CREDENTIALS = 'Login failed. Check your credentials.';
export const MSG_LOGIN_FAILED = 'Login failed. Please try again.';

export const LOGIN_PATH = '/v1/auth/login/';

/** A failed login; `message` is the text to show the person. */
export class LoginError extends Error {
  override name = 'LoginError';
}

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

/** D6: the stored redirect target, once, when it is in-app and was stored by this user. */
function takeRedirect(storage: AppStorage): string | null {
  const target = readRedirect(storage);
  const sub = subject(storage.get(KEYS.accessToken));
  storage.remove(KEYS.postLoginRedirect);
  return target && (target.sub === null || target.sub === sub) ? target.path : null;
}

/** Where a signed-in person goes next: the D6 target when an organization is chosen. */
export function destination({ store, storage }: Pick<SessionCore, 'store' | 'storage'>): string {
  if (!store.getState().currentOrg) return '/org-picker';
  return takeRedirect(storage) ?? '/dashboard';
}

/** What a login needs besides the core: the client and the session load (single-flight). */
export interface LoginContext {
  core: SessionCore;
  client: Pick<Client, 'post'>;
  load: () => Promise<void>;
}

/** SPEC §2/§3: signs in, loads the session and goes on to its destination; rejects with LoginError. */
export async function logIn({ core, client, load }: LoginContext, { email, password, remember_me = true }: LoginPayload, signal?: AbortSignal): Promise<{ to: string }> {
  const { storage, store, set } = core;
  try {
    // D36: the device token says this browser signed in before, so others' guesses do not lock it out.
    const device = storage.get(KEYS.deviceToken);
    const body: LoginRequest = { email, password, remember_me, ...(device ? { device_token: device } : {}) };
    adoptTokens(storage, await client.post<TokenResponse>(LOGIN_PATH, body, { signal }), remember_me);
  } catch (error) {
    core.clear(); // SPEC §8: stored tokens are cleared on either failure
    if (isAbortError(error)) throw error;
    const status = isHttpError(error) ? error.status : 0;
    // SPEC §8: a 429 (throttled, D18) is an 'other login failure' and keeps that message.
    throw new LoginError(status === 400 || status === 401 ? MSG_LOGIN_BAD_CREDENTIALS : MSG_LOGIN_FAILED);
  }
  storage.set(KEYS.postLoginTriggered, 'true');
  set({ postLogin: true });
  try {
    await load();
    const { hydrationError, isAuthenticated } = store.getState();
    if (!isAuthenticated) throw new LoginError(takeToastReason(storage) ?? hydrationError ?? MSG_LOGIN_FAILED);
    const to = destination(core);
    core.deps.navigate(to, { replace: true });
    return { to };
  } finally {
    storage.remove(KEYS.postLoginTriggered);
    set({ postLogin: false });
  }
}
