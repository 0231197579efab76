// SPEC §8: a screen or a part that could not load says so where it would be, announced (role=alert),
// with Retry; while the retry runs the button stays focusable and says it is busy (D15). Pages use it
// through ui/page.tsx, which loads this code when first needed.
import { loadWords } from './error-words';

export interface LoadErrorProps {
  /** What could not be loaded, as the sentence names it ("the team", "customers"). */
  what: string;
  error: unknown;
  onRetry: () => void;
  /** A retry is under way. */
  busy?: boolean;
  /** How a 403 names it, when that differs from `what`. */
  forbidden?: string;
  /** Show the server's own words for the failure (its detail) rather than "Please try again.". */
  explained?: boolean;
  /** A line inside a section instead of a card. */
  inline?: boolean;
}

export function LoadError({ what, error, onRetry, busy = false, forbidden, explained, inline = false }: LoadErrorProps) {
  const text = loadWords(error, what, { forbidden, explained });
  const retry = (
    <button type="button" className={inline ? 'link-btn' : 'btn'} onClick={busy ? undefined : onRetry} aria-disabled={busy || undefined} aria-busy={busy || undefined}>
      Retry
    </button>
  );
  if (inline) {
    return (
      <p className="write-error" role="alert">
        {text} {retry}
      </p>
    );
  }
  return (
    <div className="card list-message" role="alert">
      <p>{text}</p>
      {retry}
    </div>
  );
}
