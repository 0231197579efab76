// SPEC §2 Login on a cold load: the login form is drawn by the first bundle alone (app/start.tsx), before
// the session's code has arrived. This is the session it has until then: a store that already says what
// the session's load will find (nobody signed in, or still loading), and a login that waits for the real
// session and hands it the call. The app then puts the real session in its place (app/frame.tsx).
import { KEYS } from '../lib/keys';
import { createStore } from '../lib/store';
import type { Session } from './controller';
import { LoginError, MSG_LOGIN_FAILED } from './login-error';
import { LOGGED_OUT, type SessionState } from './types';

/** SPEC §3: a token of either kind is stored, so the session's load has something to restore (controller.ts hasStoredTokens). */
export function sessionStored(): boolean {
  try {
    return Boolean(localStorage.getItem(KEYS.accessToken) || localStorage.getItem(KEYS.refreshToken));
  } catch {
    return false; // storage that cannot be read holds no session (lib/storage.ts reads it so too)
  }
}

/** What the login screen uses of the session: all a person can reach before the app's code has arrived. */
export type LoginSession = Pick<Session, 'store' | 'login' | 'takeToastReason'>;

/**
 * `signedOut`: no token is stored, so the session's load will find nobody (SPEC §4) and the login form
 * can be drawn at once; otherwise the store says loading. `real` loads the app's session (again after a
 * failure). A login pressed meanwhile goes out once it has loaded; code that cannot load is a failed
 * login (SPEC §8), as in the session itself.
 */
export function earlySession(signedOut: boolean, real: () => Promise<Session>): LoginSession {
  const state: SessionState = signedOut
    ? { ...LOGGED_OUT, loading: false, hydrationComplete: true, hydrationError: null }
    : { ...LOGGED_OUT, loading: true, hydrationComplete: false, hydrationError: null };
  return {
    store: createStore(state),
    login: (payload, signal) =>
      real().then(
        (session) => session.login(payload, signal),
        () => {
          throw new LoginError(MSG_LOGIN_FAILED);
        },
      ),
    // The stored toast reason is the real session's to take: the login screen asks again when it arrives.
    takeToastReason: () => null,
  };
}
