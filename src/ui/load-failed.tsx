// D40: what the page area says when code could not load, with Retry: a page's (app/page-load.tsx) or
// the rest of the styles (app/App.tsx). Coming back online retries by itself.
import { useEffect } from 'react';
import { PAGE_LOAD_FAILED } from '../lib/chunk-error';

export function LoadFailed({ onRetry }: { onRetry: () => void }) {
  useEffect(() => {
    window.addEventListener('online', onRetry);
    return () => window.removeEventListener('online', onRetry);
  }, [onRetry]);
  return (
    <div className="card list-message page-load-failed" role="alert">
      <p>{PAGE_LOAD_FAILED}</p>
      <p className="muted">{navigator.onLine === false ? 'You are offline. It loads by itself when the connection is back.' : 'Check your connection and try again.'}</p>
      <button type="button" className="btn" onClick={onRetry}>
        Retry
      </button>
    </div>
  );
}
