// SPEC §2/§3 Login and §4 choosing an organization, with D6's return after them. The messages and
// token answers are login.ts.
import type { Client } from '../http/client';
import { isAbortError, isHttpError } from '../http/errors';
import { subject } from '../lib/jwt';
import { KEYS, readRedirect, type AppStorage } from '../lib/storage';
import { adoptTokens, LOGIN_PATH, LoginError, MSG_LOGIN_BAD_CREDENTIALS, MSG_LOGIN_FAILED, takeToastReason } from './login';
import type { SessionCore } from './state';
import type { LoginPayload, LoginRequest, LoginResult, TokenResponse } from './types';

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

/** D54: a login answered 202 `{ mfa_required: true, challenge }`: no tokens, a second step to come. */
const challengeOf = (answer: unknown): string | null => {
  const a = answer as { mfa_required?: unknown; challenge?: unknown } | null;
  return a?.mfa_required === true && typeof a.challenge === 'string' && a.challenge ? a.challenge : null;
};

/**
 * SPEC §2/§3: signs in, loads the session and goes on to its destination; rejects with LoginError.
 * D54: for a person with two-step sign-in it resolves with the challenge for the second step (mfa-sign-in.ts).
 */
export async function logIn({ core, client, load }: LoginContext, { email, password, remember_me = true }: LoginPayload, signal?: AbortSignal): Promise<LoginResult> {
  const { storage } = core;
  try {
    // D36: the device token says this browser signed in before, so others' guesses do not lock it out.
    const device = storage.get(KEYS.deviceToken);
    const body: LoginRequest = { email, password, remember_me, ...(device ? { device_token: device } : {}) };
    const answer = await client.post<TokenResponse>(LOGIN_PATH, body, { signal });
    const challenge = challengeOf(answer);
    if (challenge) {
      core.clear(); // no tokens yet; none of an earlier session may stay
      return { mfa: { challenge, remember_me } };
    }
    adoptTokens(storage, answer, remember_me);
  } catch (error) {
    core.clear(); // SPEC §8: stored tokens are cleared on either failure
    if (isAbortError(error)) throw error;
    const status = isHttpError(error) ? error.status : 0;
    // SPEC §8: a 429 (throttled, D18) is an 'other login failure' and keeps that message.
    throw new LoginError(status === 400 || status === 401 ? MSG_LOGIN_BAD_CREDENTIALS : MSG_LOGIN_FAILED);
  }
  return goOn({ core, client, load });
}

/** SPEC §2/§3: with the tokens stored, load the session and go on to its destination (D6). */
export async function goOn({ core, load }: LoginContext): Promise<{ to: string }> {
  const { storage, store, set } = core;
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
