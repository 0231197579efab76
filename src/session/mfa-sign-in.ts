// D54 two-step sign-in: the login's second step, and the store's record of who has it on and which
// organization requires it. Its words are mfa-words.ts (the screens share them); the guard's test is mfa.ts.
import { isAbortError, isHttpError } from '../http/errors';
import { adoptTokens, LoginError, MSG_LOGIN_FAILED } from './login';
import { MfaExpiredError, MSG_MFA_EXPIRED, MSG_MFA_INVALID, MSG_RECOVERY_INVALID } from './mfa-words';
import { goOn, type LoginContext } from './sign-in';
import type { SessionCore } from './state';
import type { MfaCode, MfaPending, TokenResponse } from './types';

export const MFA_PATH = '/v1/auth/mfa/';

/**
 * D54: the second step: the challenge with a code (or a recovery code) answers exactly as a login does,
 * and the sign-in goes on from there with the first step's remember-me (D36). A 410 means the challenge
 * expired (MfaExpiredError: back to the password); a 429 is login's 'other failure' (SPEC §8, D18).
 */
export async function completeMfa(ctx: LoginContext, { challenge, remember_me }: MfaPending, answer: MfaCode, signal?: AbortSignal): Promise<{ to: string }> {
  const { core, client } = ctx;
  try {
    adoptTokens(core.storage, await client.post<TokenResponse>(MFA_PATH, { challenge, ...answer }, { signal }), remember_me);
  } catch (error) {
    core.clear();
    if (isAbortError(error)) throw error;
    if (isHttpError(error, 410)) throw new MfaExpiredError(MSG_MFA_EXPIRED);
    if (isHttpError(error, 400)) throw new LoginError('recovery_code' in answer ? MSG_RECOVERY_INVALID : MSG_MFA_INVALID);
    throw new LoginError(MSG_LOGIN_FAILED);
  }
  return goOn(ctx);
}

/** D54: two-step sign-in turned on or off (the account page), so the guard lets the person on (or not). */
export function markMfa({ store, set }: SessionCore, enabled: boolean): void {
  const { user } = store.getState();
  if (user) set({ user: { ...user, mfa_enabled: enabled } });
}

/**
 * D54: an organization's call answered 403 mfa_enrolment_required: the server says this organization
 * requires two-step sign-in and the person has it off; the store says so too, and the guard acts on it.
 */
export function requireMfa({ store, set }: SessionCore): void {
  const { user, currentOrg, organizations } = store.getState();
  if (!user || !currentOrg) return;
  const org = { ...currentOrg, require_mfa: true };
  set({ user: { ...user, mfa_enabled: false }, currentOrg: org, organizations: organizations.map((o) => (o.id === org.id ? org : o)) });
}
