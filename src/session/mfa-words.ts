// D54: two-step sign-in's refusals in words, shared by the session's second step (mfa-sign-in.ts) and
// the screens (the login's code step, the account page's section); none of it loads before the login form.
import { LoginError } from './login';

/** A wrong (or replayed) code, a wrong or used recovery code, the challenge's 5 minutes gone. */
export const MSG_MFA_INVALID = 'That code did not work. Check the time on your phone and try again.';
export const MSG_RECOVERY_INVALID = 'That recovery code did not work. Check it, or use another one.';
export const MSG_MFA_EXPIRED = 'Signing in took too long. Please enter your password again.';

/** The second step's challenge expired (410): the person starts again at the password. */
export class MfaExpiredError extends LoginError {
  override name = 'MfaExpiredError';
}
