// D28: what the team page's parts share: a refusal in words, a date, a list that could not load.
import { isHttpError, isNetworkError } from '../../http/errors';

/** A refusal or failure in words: the server's own (D19 detail) when it gave one. */
export function reason(error: unknown): string {
  if (isNetworkError(error)) return 'Could not reach the server. Check your connection and try again.';
  return (isHttpError(error) && error.detail) || 'Something went wrong. Please try again.';
}

export const day = (iso: string) => new Date(iso).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });

export function LoadError({ what, error, retry }: { what: string; error: unknown; retry: () => void }) {
  return (
    <div className="card list-message" role="alert">
      <p>{isHttpError(error, 403) ? `You do not have permission to view ${what}.` : `Could not load ${what}. ${reason(error)}`}</p>
      <button type="button" className="btn" onClick={retry}>
        Retry
      </button>
    </div>
  );
}
