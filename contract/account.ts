// D51–D54: the person's own account, as the API answers it, shared by the server and the app: the
// account, its sessions, reset links (D53) and two-step sign-in (D54).
import { PASSWORD_MIN_LENGTH } from './team';
import { HOUR_MS, MINUTE_MS } from './time';

export { PASSWORD_MIN_LENGTH };

/** D51 GET /v1/account/ (and PATCH's answer). */
export interface AccountView {
  id: number;
  email: string;
  first_name: string;
  mfa_enabled: boolean;
  /** D54: unused recovery codes; null while two-step sign-in is off. */
  recovery_codes_left: number | null;
  created_at: string;
}

/** D51 PATCH /v1/account/: a first name, and/or an email with the current password. */
export interface AccountPatch {
  first_name?: string;
  email?: string;
  current_password?: string;
}

/** D51 POST /v1/account/password/. */
export interface PasswordChange {
  current_password: string;
  new_password: string;
}

/** POST /v1/account/password/ and …/sessions/revoke-others/: how many sessions were ended. */
export interface EndedSessions {
  ended_sessions: number;
}

/** D52: last active is written at most once per session in this long. */
export const LAST_ACTIVE_WRITE_INTERVAL_MS = MINUTE_MS;

/** D52 one live session, as GET /v1/account/sessions/ lists it. */
export interface SessionView {
  id: number;
  /** From the User-Agent: 'Chrome', 'Firefox', 'Safari', 'Edge'; null when not recognised. */
  browser: string | null;
  /** From the User-Agent: 'Windows', 'macOS', 'iOS', 'Android', 'Linux'; null when not recognised. */
  system: string | null;
  address: string | null;
  started_at: string;
  last_active_at: string | null;
  /** The session of the call that asked ('This browser'). */
  current: boolean;
}

/** GET /v1/account/sessions/: live ones only, the current first, then by last active. */
export interface SessionList {
  results: SessionView[];
}

/** D53 POST /v1/team/members/{user_id}/reset-link/ → 201: the token, shown once; the app opens /reset/{token}. */
export interface IssuedResetLink {
  token: string;
  expires_at: string;
}

/** D53 GET /v1/password-resets/{token}/ (public). */
export interface ResetLookup {
  email: string;
  first_name: string;
  expires_at: string;
}

/** D53 POST /v1/password-resets/{token}/ { password } → 200: no tokens; the person then signs in. */
export interface ResetDone {
  email: string;
}

/** D53: a reset link is valid this long. */
export const RESET_LINK_LIFETIME_MS = HOUR_MS;

/** The words a refused field carries (`errors` of a 400 validation_error). */
export const PASSWORD_TOO_SHORT = `Use at least ${PASSWORD_MIN_LENGTH} characters.`;

// D54 two-step sign-in.

/** D54 POST /v1/account/mfa/setup/ and …/recovery-codes/ body: the current password. */
export interface MfaPassword {
  password: string;
}

/** POST /v1/account/mfa/setup/ → the base32 secret and its otpauth:// address (for the QR code). */
export interface MfaSetup {
  secret: string;
  otpauth_uri: string;
}

/** POST /v1/account/mfa/confirm/ { code } and …/recovery-codes/ { password } → 10 recovery codes, shown once. */
export interface MfaConfirmed {
  recovery_codes: string[];
}

/** DELETE /v1/account/mfa/ body. */
export interface MfaDisable {
  password: string;
  code: string;
}

/** D54 the challenge of a login lives this long (410 challenge_expired after). */
export const MFA_CHALLENGE_LIFETIME_MS = 5 * MINUTE_MS;
/** D54: recovery codes given at enrolment. */
export const RECOVERY_CODE_COUNT = 10;

/** GET/PATCH /v1/organization/settings/. */
export interface OrganizationSettings {
  require_mfa: boolean;
}
