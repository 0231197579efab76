// Window events that cross layers without imports flowing backwards (STYLE: the HTTP layer
// fires events; the app wires them to the UI in one place).

/** SPEC §2: the global Session Expired dialog opens on this window event. */
export const SESSION_EXPIRED_EVENT = 'sessionExpired';

/** Fired after a successful token refresh (D14: the query cache refetches idle queries once). */
export const TOKENS_REFRESHED_EVENT = 'app:tokens-refreshed';

export function emit(name: string, target: EventTarget | undefined = globalThis.window): void {
  target?.dispatchEvent(new Event(name));
}

/** Fired when the session is cleared (logout, expiry, failed load): the query cache empties itself. */
export const SESSION_CLEARED_EVENT = 'app:session-cleared';
