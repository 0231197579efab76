// SPEC §3 Browser storage keys.

/** Every browser-storage key the app uses (SPEC §3, and D36's device_token). */
export const KEYS = {
  accessToken: 'access_token',
  refreshToken: 'refresh_token',
  sessionId: 'session_id',
  refreshExpiresAt: 'refresh_expires_at',
  rememberMe: 'remember_me',
  currentOrgId: 'current_org_id',
  postLoginRedirect: 'post_login_redirect',
  hydrationFailed: 'hydration_failed',
  toastReason: 'toast_reason',
  postLoginTriggered: 'post_login_triggered',
  theme: 'theme',
  /** D36: this browser signed in before (not a session; kept on logout, see docs/behaviour.md). */
  deviceToken: 'device_token',
} as const;

export type StorageKey = (typeof KEYS)[keyof typeof KEYS];
