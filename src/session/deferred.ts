// The session's code that drawing the login form does not need, as one chunk: the sign-in (sign-in.ts),
// the checks of the current-user answer (profile.ts, D4), the token rotation under the cross-tab lock
// (lock.ts, D8), logging out (sign-out.ts), the sliding refresh and cross-tab listeners (watchers.ts), D54's second step (mfa-sign-in.ts).
// app/start.tsx loads it once the browser is idle after the first screen; the controller loads it on
// first use if that comes sooner.
export { takeProfile } from './profile';
export { defaultLock, rotateTokens } from './lock';
export { startSessionWatchers } from './watchers';
export { logIn, selectOrg } from './sign-in';
export { logOut } from './sign-out';
export { completeMfa, markMfa, requireMfa } from './mfa-sign-in';
