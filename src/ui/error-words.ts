// D19: why a call failed, in words a person can act on: the server's own (its detail) when it explains,
// else what to do next. One home for these sentences; a 400 naming a field stays with its form (form.tsx).
import { isHttpError, isNetworkError } from '../http/errors';

export const MSG_UNREACHABLE = 'Could not reach the server. Check your connection and try again.';
export const MSG_SESSION_ENDED = 'Your session has ended. Please log in again.';
export const MSG_TRY_AGAIN = 'Please try again.';

/**
 * One sentence for a failed call: offline or unreachable, a 401, else the server's detail (when
 * `explained`, the default) or `fallback`.
 */
export function errorWords(error: unknown, { fallback = `Something went wrong. ${MSG_TRY_AGAIN}`, explained = true } = {}): string {
  if (isNetworkError(error)) return MSG_UNREACHABLE;
  if (isHttpError(error, 401)) return MSG_SESSION_ENDED;
  return (explained && isHttpError(error) && error.detail) || fallback;
}

/**
 * "Could not load {what}. {why}"; a 403 as "You do not have permission to view {forbidden}." Without
 * `explained` the server's detail is left out ("Please try again.").
 */
export function loadWords(error: unknown, what: string, { forbidden = what, explained = false } = {}): string {
  if (isHttpError(error, 403)) return `You do not have permission to view ${forbidden}.`;
  if (isHttpError(error, 401)) return MSG_SESSION_ENDED;
  return `Could not load ${what}. ${errorWords(error, { fallback: MSG_TRY_AGAIN, explained })}`;
}
