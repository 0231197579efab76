// SPEC §2/§3 Login and §4 choosing an organization, with D6's return after them: in the session's
// deferred chunk (deferred.ts), with the rest of what only a signing-in or signed-in person runs. The
// messages and token answers stay in login.ts.
import type { Client } from '../http/client';
import { isAbortError, isHttpError } from '../http/errors';
import { subject } from '../lib/jwt';
import { KEYS, readRedirect, type AppStorage } from '../lib/storage';
import { adoptTokens, LOGIN_PATH, LoginError, MSG_LOGIN_BAD_CREDENTIALS, MSG_LOGIN_FAILED, takeToastReason } from './login';
import type { SessionCore } from './state';
import type { LoginPayload, LoginRequest, TokenResponse } from './types';

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

/**
 * SPEC §4: selecting an organization stores its id and re-runs the load; then on to the dashboard, or
 * to the D6 target unless `ignoreReturnPath` (D28: after joining, that organization's dashboard).
 */
export async function selectOrg({ core, load }: Omit<LoginContext, 'client'>, id: number, { ignoreReturnPath = false } = {}): Promise<void> {
  if (ignoreReturnPath) core.storage.remove(KEYS.postLoginRedirect);
  core.setTabOrg(id);
  await load();
  if (core.store.getState().currentOrg?.id === id) core.deps.navigate(destination(core), { replace: true });
}
