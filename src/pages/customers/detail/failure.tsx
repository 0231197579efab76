// Why a call on the customer page failed, in words a person can act on: the server's own words when it
// explains (a 400 about the text, D25's 409 naming who has the email), else what to do next.
// Said where it happened and announced (role=alert).
import { isHttpError, isNetworkError } from '../../../http/errors';

/** "Could not {doing}: …" for a failed load, delete, restore or note save. */
export function failureMessage(error: unknown, doing: string): string {
  if (isHttpError(error) && (error.status === 400 || error.status === 409) && error.detail) return `Could not ${doing}: ${error.detail}.`;
  if (isHttpError(error, 404)) return `Could not ${doing}: it no longer exists.`;
  if (isHttpError(error, 403)) return `You do not have permission to ${doing}.`;
  if (isNetworkError(error)) return `Could not ${doing}: the server could not be reached. Check your connection and try again.`;
  return `Could not ${doing}. Please try again.`;
}

/** An error said where it happened, announced (role=alert); `id` ties it to its control. */
export function Problem({ text, id }: { text: string | null; id?: string }) {
  return (
    text && (
      <p id={id} className="write-error" role="alert">
        {text}
      </p>
    )
  );
}
