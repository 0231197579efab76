// D28: what an invitation link that cannot be used says, and the accept call's refusals as what the page
// shows instead of the invitation.
import { INVITATION_UNKNOWN, INVITATION_UNUSABLE } from '../../../contract/team';
import { isHttpError, isNetworkError } from '../../http/errors';

/** D28: what a link that cannot be used says, by why. */
export const MSG_UNKNOWN = INVITATION_UNKNOWN;
export const MSG_GONE = INVITATION_UNUSABLE;
export const MSG_FAILED = 'Something went wrong. Please try again.';
const MSG_OFFLINE = 'Could not reach the server. Check your connection and try again.';

/** A failed look-up or join in words: no connection, the server's own detail, or that it failed. */
export const failureText = (error: unknown): string => (isNetworkError(error) ? MSG_OFFLINE : (isHttpError(error) && error.detail) || MSG_FAILED);

/** The token of /invite/{token}, or null for a malformed path. */
export function inviteToken(pathname: string): string | null {
  const m = /^\/invite\/([^/]+)\/?$/.exec(pathname);
  try {
    return m?.[1] ? decodeURIComponent(m[1]) : null;
  } catch {
    return null; // a broken %-escape is an unknown link
  }
}

/** What the page shows besides the invitation itself: why it cannot be used, or who must sign in. */
export type Outcome = { kind: 'gone'; message: string } | { kind: 'mismatch'; detail: string | null } | { kind: 'sign-in' } | null;

/** A refusal of the accept call as an outcome; null when it is not one of the D28 refusals. */
export function outcomeOf(error: unknown): Outcome {
  if (!isHttpError(error)) return null;
  if (error.status === 404) return { kind: 'gone', message: MSG_UNKNOWN };
  if (error.status === 410) {
    const status = error.code?.replace('invitation_', '') as keyof typeof MSG_GONE;
    return { kind: 'gone', message: MSG_GONE[status] ?? error.detail ?? MSG_UNKNOWN };
  }
  if (error.status === 403 && error.code === 'email_mismatch') return { kind: 'mismatch', detail: error.detail };
  if (error.status === 409 && error.code === 'account_exists') return { kind: 'sign-in' };
  return null;
}
