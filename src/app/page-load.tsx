// D40 A page whose code cannot load (offline, or a deployment removed the old file): the shell stays
// and the page area says so with Retry; coming back online retries by itself. A file the server no
// longer has (404) reloads the app once at the same address (a sessionStorage mark stops a loop).
// Anything else thrown while rendering goes on to the full-screen error (SPEC §2, ui/error-boundary).
import { Component, Fragment, type ReactNode } from 'react';
import { isChunkError, PAGE_LOAD_FAILED } from '../lib/chunk-error';
import { currentPath, page } from '../router/location';
import { LoadFailed } from '../ui/load-failed';
/** sessionStorage: the address reloaded once for a missing file (D40); cleared when a page loads. */
export const RELOAD_MARK = 'page_reload';

export { isChunkError, PAGE_LOAD_FAILED };

const mark = {
  get: () => {
    try {
      return sessionStorage.getItem(RELOAD_MARK);
    } catch {
      return null;
    }
  },
  set: (v: string) => {
    try {
      sessionStorage.setItem(RELOAD_MARK, v);
    } catch {
      /* no storage: no reload either */
    }
  },
};

/** A page's code has loaded: a later deployment may reload once again. */
export function pageLoaded(): void {
  try {
    sessionStorage.removeItem(RELOAD_MARK);
  } catch {
    /* nothing to clear */
  }
}

/** Reloads at the same address unless this address was reloaded for the same reason already. */
function reloadOnce(): boolean {
  const here = currentPath();
  if (mark.get() === here) return false;
  mark.set(here);
  if (mark.get() !== here) return false; // a mark that cannot be kept could loop
  page.reload();
  return true;
}

/** True when the server answers 404 for the file the import named (it was removed by a deployment). */
async function fileGone(error: unknown): Promise<boolean> {
  const url = error instanceof Error && /(https?:\/\/\S+?\.m?js)\b/.exec(error.message)?.[1];
  if (!url || new URL(url).origin !== window.location.origin) return false;
  return fetch(url, { method: 'HEAD', cache: 'no-store' }).then(
    (r) => r.status === 404,
    () => false,
  );
}

interface Props {
  /** The page, made anew on each attempt (a failed lazy import stays failed). */
  children: () => ReactNode;
  /** Forgets the failed import, so the next render asks for the file again. */
  onRetry: () => void;
}

export class PageLoadBoundary extends Component<Props, { error: unknown; attempt: number }> {
  override state = { error: null as unknown, attempt: 0 };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  override componentDidCatch(error: unknown) {
    if (!isChunkError(error)) return;
    if (navigator.onLine !== false) void fileGone(error).then((gone) => gone && reloadOnce());
  }

  retry = () => {
    this.props.onRetry();
    this.setState((s) => ({ error: null, attempt: s.attempt + 1 }));
  };

  override render() {
    const { error, attempt } = this.state;
    if (error === null) return <Fragment key={attempt}>{this.props.children()}</Fragment>;
    if (!isChunkError(error)) throw error; // a rendering crash: the app's own error screen (SPEC §2)
    return <LoadFailed onRetry={this.retry} />;
  }
}
