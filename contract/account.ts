// D51–D54: the person's own account, shared by the server and the app: the account and its sessions,
// reset links, two-step sign-in and the organization's settings. The minimum password length is
// contract/team.ts's (D28), the same for every password.
import { HOUR_MS, MINUTE_MS } from './time';

export { PASSWORD_MIN_LENGTH } from './team';

/** GET/PATCH /v1/account/ (D51). */
export interface AccountView {
  id: number;
  email: string;
  first_name: string;
  mfa_enabled: boolean;
  created_at: string;
}

/** POST /v1/account/password/ and /v1/account/sessions/revoke-others/. */
export interface EndedSessions {
  ended_sessions: number;
}

/** GET /v1/account/sessions/ (D52): live sessions, the current one first, then by last active. */
export interface SessionView {
  id: number;
  browser: string | null;
  system: string | null;
  address: string | null;
  started_at: string;
  last_active_at: string;
  current: boolean;
}

export interface SessionList {
  results: SessionView[];
}

/** POST /v1/team/members/{user_id}/reset-link/ (D53): the token, shown once; the app builds /reset/{token}. */
export interface ResetLink {
  token: string;
  expires_at: string;
}

/** GET /v1/password-resets/{token}/ (D53). */
export interface ResetLookup {
  email: string;
  first_name: string;
  expires_at: string;
}

/** POST /v1/password-resets/{token}/: no tokens; the person then signs in. */
export interface ResetDone {
  email: string;
}

/** POST /v1/account/mfa/setup/ (D54): the base32 secret and the otpauth:// address for the QR code. */
export interface MfaSetup {
  secret: string;
  otpauth_uri: string;
}

/** POST /v1/account/mfa/confirm/ (D54): ten one-time recovery codes, shown once. */
export interface MfaConfirmed {
  recovery_codes: string[];
}

/** POST /v1/auth/login/ for a person with two-step sign-in on (D54): 202, no tokens. */
export interface MfaChallenge {
  mfa_required: true;
  challenge: string;
}

/** POST /v1/auth/mfa/: a code from the authenticator, or a recovery code. */
export type MfaAnswer = { challenge: string; code: string } | { challenge: string; recovery_code: string };

/** GET/PATCH /v1/organization/settings/ (D54: require_mfa, owner only to change). */
export interface OrganizationSettings {
  require_mfa: boolean;
}

/** D54: digits in a code from an authenticator app. */
export const MFA_CODE_LENGTH = 6;
/** D54: recovery codes given at enrolment. */
export const RECOVERY_CODE_COUNT = 10;
/** D53: how long a reset link is valid. */
export const RESET_LINK_LIFETIME_MS = HOUR_MS;
/** D54: how long a login waits for its second step. */
export const MFA_CHALLENGE_LIFETIME_MS = 5 * MINUTE_MS;
