// D29: a 403 permission_denied means this person's permissions changed under them (the matrix was
// edited, or their role). The session then reloads its profile so menus and buttons catch up; a
// burst of refusals (a screen's several calls) costs one reload.

/** D29: refusals this close together are one burst, answered by one reload. */
export const PERMISSION_RELOAD_DELAY_MS = 250;

/**
 * A trigger that runs `reload` once, `delayMs` after the first call of a burst; calls made while that
 * reload waits or runs join it.
 */
export function reloadOncePerBurst(reload: () => Promise<unknown>, delayMs = PERMISSION_RELOAD_DELAY_MS): () => void {
  let pending = false;
  return () => {
    if (pending) return;
    pending = true;
    setTimeout(() => {
      void reload()
        .catch(() => undefined) // the load reports its own failures (SPEC §4)
        .finally(() => (pending = false));
    }, delayMs);
  };
}

/** D64: a tab becoming visible or a navigation asks for the current permissions at most this often. */
export const PERMISSION_RECHECK_MS = 30_000;

/**
 * D64: runs `ask` (the current-user call) unless it was last sent under PERMISSION_RECHECK_MS ago
 * (`askedAt`: a load, a refresh or an earlier check all count) or `due()` says there is nothing to ask for.
 */
export function recheckAtMost(ask: () => Promise<unknown>, askedAt: () => number, due: () => boolean, everyMs = PERMISSION_RECHECK_MS): () => void {
  return () => {
    if (!due() || Date.now() - askedAt() < everyMs) return;
    void ask().catch(() => undefined); // a refresh that fails expires the session itself (SPEC §8); anything else waits for the next check
  };
}
