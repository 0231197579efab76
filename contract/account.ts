// D51–D54: the person's own account, sessions, reset links and two-step sign-in, as the API answers them.
// Shared by the server and the app.
export { PASSWORD_MIN_LENGTH } from './team';

/** GET/PATCH /v1/account/ (D51). */
export interface AccountView {
  id: number;
  email: string;
  first_name: string;
  mfa_enabled: boolean;
  created_at: string;
}

/** PATCH /v1/account/: `first_name`, and/or `email` with `current_password`. */
export interface AccountUpdate {
  first_name?: string;
  email?: string;
  current_password?: string;
}

/** POST /v1/account/password/ (D51): every other session of the person ends. */
export interface PasswordChange {
  current_password: string;
  new_password: string;
}

/** POST /v1/account/password/ and /v1/account/sessions/revoke-others/. */
export interface EndedSessions {
  ended_sessions: number;
}

/** GET /v1/account/sessions/ (D52): live ones only, current first, then by last active. */
export interface SessionView {
  id: number;
  browser: string | null;
  system: string | null;
  address: string | null;
  started_at: string;
  last_active_at: string;
  current: boolean;
}

/** POST /v1/team/members/{user_id}/reset-link/ (D53): the token, shown once; the app's path is /reset/{token}. */
export interface ResetLink {
  token: string;
  expires_at: string;
}

/** GET /v1/password-resets/{token}/ (public). */
export interface PasswordResetLookup {
  email: string;
  first_name: string;
  expires_at: string;
}

/** POST /v1/account/mfa/setup/ (D54): a base32 secret and its otpauth:// URI. */
export interface MfaSetup {
  secret: string;
  otpauth_uri: string;
}

/** POST /v1/account/mfa/confirm/ (D54): 10 one-time recovery codes, shown once. */
export interface MfaConfirmed {
  recovery_codes: string[];
}

/** DELETE /v1/account/mfa/ body (D54). */
export interface MfaDisable {
  password: string;
  code: string;
}

/** POST /v1/auth/login/ for a person with two-step sign-in: 202, no tokens (D54). */
export interface MfaChallenge {
  mfa_required: true;
  challenge: string;
}

/** POST /v1/auth/mfa/ (D54): a code or a recovery code; answers exactly as a login does. */
export type MfaAnswer = { challenge: string; code: string } | { challenge: string; recovery_code: string };

/** GET/PATCH /v1/organization/settings/ (D54; PATCH owner only). */
export interface OrganizationSettings {
  require_mfa: boolean;
}
