// D51–D54: the person's own account, their sessions, reset links, two-step sign-in and the
// organization's settings, as the API answers them (shared by the server and the app).

import { MINUTE_MS } from './time';

export { PASSWORD_MIN_LENGTH } from './team';

/** GET/PATCH /v1/account/. */
export interface AccountView {
  id: number;
  email: string;
  first_name: string;
  mfa_enabled: boolean;
  created_at: string;
}

/** PATCH /v1/account/: the first name, and/or the email with the current password. */
export interface AccountPatch {
  first_name?: string;
  email?: string;
  current_password?: string;
}

/** POST /v1/account/password/. */
export interface PasswordChange {
  current_password: string;
  new_password: string;
}

/** POST /v1/account/password/ and /v1/account/sessions/revoke-others/ (D51 D52). */
export interface EndedSessions {
  ended_sessions: number;
}

/** D52: one live session of the person (GET /v1/account/sessions/: current first, then by last active). */
export interface SessionView {
  id: number;
  browser: string | null;
  system: string | null;
  address: string | null;
  started_at: string;
  last_active_at: string;
  current: boolean;
}

/** D53: POST /v1/team/members/{user_id}/reset-link/ → 201, shown once. */
export interface IssuedResetLink {
  token: string;
  expires_at: string;
}

/** D53: GET /v1/password-resets/{token}/ (public). */
export interface ResetLookup {
  email: string;
  first_name: string;
  expires_at: string;
}

/** D53: POST /v1/password-resets/{token}/ → the email to sign in with (no tokens). */
export interface ResetDone {
  email: string;
}

/** D53: a reset link lives this long. */
export const RESET_LINK_LIFETIME_MINUTES = 60;

/** D54: POST /v1/account/mfa/setup/. */
export interface MfaSetup {
  secret: string;
  otpauth_uri: string;
}

/** D54: POST /v1/account/mfa/confirm/ → 10 recovery codes, shown once. */
export interface MfaConfirmed {
  recovery_codes: string[];
}

/** D54: DELETE /v1/account/mfa/ body. */
export interface MfaDisable {
  password: string;
  code: string;
}

/** D54: the login call's answer for a person with two-step sign-in (202, no tokens). */
export interface MfaChallenge {
  mfa_required: true;
  challenge: string;
}

/** D54: POST /v1/auth/mfa/: a code or a recovery code; answers exactly as a login does. */
export type MfaAnswer = { challenge: string; code: string } | { challenge: string; recovery_code: string };

/** D54: GET/PATCH /v1/organization/settings/ (PATCH by an owner only). */
export interface OrganizationSettings {
  require_mfa: boolean;
}

/** D54: digits in a code from an authenticator app. */
export const MFA_CODE_LENGTH = 6;
/** D54: recovery codes given at enrolment. */
export const RECOVERY_CODE_COUNT = 10;
/** D54: how long a login waits for its second step. */
export const MFA_CHALLENGE_LIFETIME_MS = 5 * MINUTE_MS;
