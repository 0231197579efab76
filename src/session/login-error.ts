// SPEC §8 a failed login and its message when nothing more is known.

export const MSG_LOGIN_FAILED = 'Login failed. Please try again.';

/** A failed login; `message` is the text to show the person. */
export class LoginError extends Error {
  override name = 'LoginError';
}
