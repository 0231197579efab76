// SPEC §3 entities as the client holds them.

/** SPEC §5: a profile without a user or organizations, or a malformed token answer, is 'Session invalid'. */
export class SessionInvalidError extends Error {
  override name = 'SessionInvalidError';
  constructor() {
    super('Session invalid');
  }
}

export interface User {
  email: string;
  first_name: string;
  avatar_url: string | null;
  /** D54: two-step sign-in is on (when the server says). */
  mfa_enabled?: boolean;
}

export interface Organization {
  id: number;
  name: string;
  logo_url: string | null;
  /** D54: the organization requires two-step sign-in of its members (when the server says so). */
  require_mfa?: boolean;
}

/** SPEC §3 Current-user response (GET /v1/auth/me/), after validation. */
export interface Profile {
  user: User;
  organizations: Organization[];
  permissions: string[];
  features: string[];
  role: string | null;
  /** D59: what the role sees of customers in this organization ('all' when the server does not say). */
  customers_scope?: 'all' | 'assigned';
  prefs: Record<string, unknown>;
  favorite_org_id: number | null;
}

/** SPEC §3 session state plus the profile it was loaded with. */
export interface SessionState {
  isAuthenticated: boolean;
  currentOrg: Organization | null;
  loading: boolean;
  hydrationComplete: boolean;
  hydrationError: string | null;
  /** The refresh failed while signed in: storage is cleared, the Session Expired dialog is up. */
  expired: boolean;
  /** D65: the Session Expired dialog was closed: nobody is signed in, and every page says so. */
  signedOut: boolean;
  /** A login is handing over to its destination (post_login_triggered); /login must not redirect. */
  postLogin: boolean;
  user: User | null;
  /** D24: the signed-in person's id, the access token's subject (the profile carries none). */
  userId: number | null;
  organizations: Organization[];
  permissions: string[];
  features: string[];
  role: string | null;
  /** D59: what this person's role sees of customers in the current organization (absent: 'all'). */
  customersScope?: 'all' | 'assigned';
  prefs: Record<string, unknown>;
  favoriteOrgId: number | null;
}

export const LOGGED_OUT: Omit<SessionState, 'loading' | 'hydrationComplete' | 'hydrationError'> = {
  isAuthenticated: false,
  currentOrg: null,
  expired: false,
  signedOut: false,
  postLogin: false,
  user: null,
  userId: null,
  organizations: [],
  permissions: [],
  features: [],
  role: null,
  customersScope: 'all',
  prefs: {},
  favoriteOrgId: null,
};

export interface LoginPayload {
  email: string;
  password: string;
  /** SPEC §3: defaults to true. */
  remember_me?: boolean;
}

/** D36: the login call's body: the payload and, when this browser has one, its device token. */
export interface LoginRequest extends Required<LoginPayload> {
  device_token?: string;
}

/** D54: a login answered 202: the challenge for the second step, and the first step's remember-me (D36). */
export interface MfaPending {
  challenge: string;
  remember_me: boolean;
}

/** D54: the second step's answer: a 6-digit code, or one of the recovery codes. */
export type MfaCode = { code: string } | { recovery_code: string };

/** A login goes on to its destination, or (D54) asks for the second step. */
export type LoginResult = { to: string; mfa?: undefined } | { to?: undefined; mfa: MfaPending };

/** POST /v1/auth/login/ and /v1/auth/refresh/ answers (SPEC §7); refresh_expires_at is our server's extra. */
export interface TokenResponse {
  access_token: string;
  refresh_token: string;
  session_id?: number;
  refresh_expires_at?: string;
  /** D36: login only. */
  device_token?: string;
}
