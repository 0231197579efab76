// Login orchestration (SPEC §2 Login, §3 payload, §8 login failures; D6 return after login), apart
// from the session controller so each stays small. React-free, like the controller that wires it.
import type { Client } from '../http/client';
import { isAbortError, isHttpError } from '../http/errors';
import { subject } from '../lib/jwt';
import { KEYS, readRedirect, type AppStorage } from '../lib/storage';
import { patch, type Store } from '../lib/store';
import { saveTokens } from './tokens';
import type { LoginPayload, LoginRequest, SessionState, TokenResponse } from './types';

/** SPEC §8 messages. */
export const MSG_LOGIN_BAD_CREDENTIALS = 'Login failed. Check your credentials.';
export const MSG_LOGIN_FAILED = 'Login failed. Please try again.';

export const LOGIN_PATH = '/v1/auth/login/';

/** A failed login; `message` is the text to show the person. */
export class LoginError extends Error {
  override name = 'LoginError';
}

/** What a login needs from the session controller. */
export interface LoginContext {
  client: Pick<Client, 'post'>;
  storage: AppStorage;
  store: Store<SessionState>;
  /** SPEC §4 Session load (single-flight). */
  load: () => Promise<void>;
  /** Clears stored tokens and tells the app (the query cache empties itself). */
  clearSession: () => void;
  navigate: (to: string, opts?: { replace?: boolean }) => void;
}

/** D6: the stored redirect target, once, when it is in-app and was stored by this user. */
function takeRedirect(storage: AppStorage): string | null {
  const target = readRedirect(storage);
  const sub = subject(storage.get(KEYS.accessToken));
  storage.remove(KEYS.postLoginRedirect);
  return target && (target.sub === null || target.sub === sub) ? target.path : null;
}

/** Where a signed-in person goes next: the D6 target when an organization is chosen. */
export function destination({ store, storage }: Pick<LoginContext, 'store' | 'storage'>): string {
  if (!store.getState().currentOrg) return '/org-picker';
  return takeRedirect(storage) ?? '/dashboard';
}

/** SPEC §2/§3: signs in, loads the session and goes on to its destination; rejects with LoginError. */
export async function logIn(ctx: LoginContext, { email, password, remember_me = true }: LoginPayload, signal?: AbortSignal): Promise<{ to: string }> {
  const { client, storage, store } = ctx;
  const set = (partial: Partial<SessionState>) => patch(store, partial);
  try {
    // D36: the device token says this browser signed in before, so others' guesses do not lock it out.
    const device = storage.get(KEYS.deviceToken);
    const body: LoginRequest = { email, password, remember_me, ...(device ? { device_token: device } : {}) };
    const res = await client.post<TokenResponse>(LOGIN_PATH, body, { signal });
    storage.set(KEYS.rememberMe, String(remember_me));
    saveTokens(storage, res);
    if (typeof res.device_token === 'string' && res.device_token) storage.set(KEYS.deviceToken, res.device_token);
  } catch (error) {
    ctx.clearSession(); // SPEC §8: stored tokens are cleared on either failure
    if (isAbortError(error)) throw error;
    const status = isHttpError(error) ? error.status : 0;
    // SPEC §8: a 429 (throttled, D18) is an 'other login failure' and keeps that message.
    throw new LoginError(status === 400 || status === 401 ? MSG_LOGIN_BAD_CREDENTIALS : MSG_LOGIN_FAILED);
  }
  storage.remove(KEYS.hydrationFailed);
  storage.set(KEYS.postLoginTriggered, 'true');
  set({ postLogin: true });
  try {
    await ctx.load();
    const { hydrationError, isAuthenticated } = store.getState();
    if (!isAuthenticated) {
      const reason = storage.get(KEYS.toastReason) ?? hydrationError ?? MSG_LOGIN_FAILED;
      storage.remove(KEYS.toastReason);
      throw new LoginError(reason);
    }
    const to = destination(ctx);
    ctx.navigate(to, { replace: true });
    return { to };
  } finally {
    storage.remove(KEYS.postLoginTriggered);
    set({ postLogin: false });
  }
}
