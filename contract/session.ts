// SPEC §9 D16 D8: how long a session lives, shared by the server (which ends it) and the app (which
// expects its end when the server does not say).
import { DAY_MS } from './time';

/** SPEC §9 D16: a session with "remember me", and without. Each refresh slides the expiry this far. */
export const REMEMBER_ME_LIFETIME_MS = 30 * DAY_MS;
export const SHORT_SESSION_LIFETIME_MS = DAY_MS;
/** D16: sliding, but never past 90 days from the login. */
export const MAX_SESSION_AGE_MS = 90 * DAY_MS;
/** D8: a refresh token rotated out less than this long ago gives the same successor again (not reuse). */
export const REFRESH_GRACE_MS = 10_000;
