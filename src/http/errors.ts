// Typed errors with one base (STYLE, after ky). The layer that can recover handles them.

export class RequestError extends Error {
  override name = 'RequestError';
}

/** The server answered with a non-2xx status; `data` is the parsed body ({detail, code} from our API). */
export class HttpError extends RequestError {
  override name = 'HttpError';
  constructor(
    readonly status: number,
    readonly data: unknown,
    readonly path: string,
    /** Retry-After in seconds, when the server sent one (429, 503). */
    readonly retryAfterS: number | null = null,
  ) {
    super(`HTTP ${status} on ${path}`);
  }
  /** The server's human-readable `detail`, when it sent one. */
  get detail(): string | null {
    return this.text('detail');
  }
  /** D19: the machine-readable `code` ('duplicate_email', 'conflict', 'permission_denied'…). */
  get code(): string | null {
    return this.text('code');
  }
  /** D19: the input field a 400 (or a 409 duplicate_email) is about, so a form can put it there. */
  get field(): string | null {
    return this.text('field');
  }
  private text(key: string): string | null {
    const v = (this.data as Record<string, unknown> | null)?.[key];
    return typeof v === 'string' ? v : null;
  }
}

/** No response at all: offline, DNS, connection reset. */
export class NetworkError extends RequestError {
  override name = 'NetworkError';
  constructor(
    readonly path: string,
    override readonly cause: unknown,
  ) {
    super(`Network error on ${path}`);
  }
}

/** The request was cancelled: by its AbortSignal, or before sending (no access token, SPEC §5). */
export class AbortError extends RequestError {
  override name = 'AbortError';
  constructor(
    readonly path: string,
    readonly reason: 'aborted' | 'no-token',
  ) {
    super(reason === 'no-token' ? `Cancelled ${path}: not signed in` : `Aborted ${path}`);
  }
}

export const isHttpError = (e: unknown, status?: number): e is HttpError => e instanceof HttpError && (status === undefined || e.status === status);
export const isNetworkError = (e: unknown): e is NetworkError => e instanceof NetworkError;
export const isAbortError = (e: unknown): e is AbortError => e instanceof AbortError;
/**
 * D2, D35: the server is busy (503, its database busy or unreachable) or asks this client to slow down
 * (429, with Retry-After). Neither says anything about the session.
 */
export const isBusy = (e: unknown): e is HttpError => isHttpError(e, 503) || isHttpError(e, 429);
/**
 * D2: no answer, or a busy server (isBusy: a 429 is treated like a 503). Such a failure says nothing
 * about the session: it is kept and the call tried again later.
 */
export const isTransient = (e: unknown): boolean => isNetworkError(e) || isBusy(e);

/** D35: what a person is told when the server is busy or asks to slow down: to wait, then try again. */
export function busyMessage(e: HttpError): string {
  const wait = e.retryAfterS;
  return wait !== null && wait > 1 ? `The server is busy. Please wait ${wait} seconds and try again.` : 'The server is busy. Please wait a moment and try again.';
}

/** Retry-After as whole seconds (a date form is not used by our server and reads as null). */
export function parseRetryAfter(value: string | null): number | null {
  return value !== null && /^\d{1,6}$/.test(value.trim()) ? Number(value.trim()) : null;
}
