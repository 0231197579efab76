// D19 D25: a change (or a look-up) that failed, in words: its own module beside error-words.ts because
// only the customer page's parts say it, and what every page loads stays small.
import { isHttpError, isNetworkError } from '../http/errors';
import { MSG_TRY_AGAIN } from './error-words';

/**
 * "Could not {doing}: …" for a change or a look-up that failed: the server's words for a 400 or a 409
 * (D25's 409 names who has the email), a 404 as gone, a 403 as not allowed.
 */
export function failedWords(error: unknown, doing: string): string {
  if (isHttpError(error) && (error.status === 400 || error.status === 409) && error.detail) return `Could not ${doing}: ${error.detail}.`;
  if (isHttpError(error, 404)) return `Could not ${doing}: it no longer exists.`;
  if (isHttpError(error, 403)) return `You do not have permission to ${doing}.`;
  if (isNetworkError(error)) return `Could not ${doing}: the server could not be reached. Check your connection and try again.`;
  return `Could not ${doing}. ${MSG_TRY_AGAIN}`;
}
