// Work that must not compete with the first screen: it runs once the browser is idle after it.

/** The longest `whenIdle` waits for an idle moment (a page that is never idle still gets the work done). */
export const IDLE_TIMEOUT_MS = 3_000;
/** Without requestIdleCallback (Safari), this long after the call instead. */
export const IDLE_FALLBACK_MS = 1_000;

type IdleWindow = Pick<Window, 'setTimeout'> & { requestIdleCallback?: (cb: () => void, opts?: { timeout: number }) => number };

/**
 * Runs `fn` when the browser is next idle (requestIdleCallback, at most IDLE_TIMEOUT_MS later), else
 * IDLE_FALLBACK_MS later: after the first screen has been drawn and can take input, not as it loads.
 */
export function whenIdle(fn: () => void, win: IdleWindow = window): void {
  if (typeof win.requestIdleCallback === 'function') win.requestIdleCallback(() => fn(), { timeout: IDLE_TIMEOUT_MS });
  else win.setTimeout(fn, IDLE_FALLBACK_MS);
}
