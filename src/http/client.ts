// SPEC §7 and §8: the fetch wrapper. Headers, cancellation, the 401 → one refresh → replay-once
// rule, connectivity signals. It knows nothing of React or the session store: the session layer
// hands it token readers and the refresh operation (imports flow lib → http → session).
import { isWellFormed } from '../lib/jwt';
import { setOnline } from './connectivity';
import { AbortError, HttpError, isTransient, NetworkError, parseRetryAfter } from './errors';

/** SPEC §7: paths under this prefix are auth calls: no token needed, no refresh on 401. */
export const AUTH_PREFIX = '/v1/auth/';
/** D54: an organization's call refused because it requires two-step sign-in and this person has it off. */
export const MFA_ENROLMENT_REQUIRED = 'mfa_enrolment_required';

export interface ClientDeps {
  /** D1: the API base path, e.g. '/api'. */
  base: () => string;
  accessToken: () => string | null;
  /** D21: the organization this tab shows. */
  orgId: () => number | null;
  /** Rotates the tokens (and whatever else a refresh does); rejects when it fails. */
  refresh: () => Promise<void>;
  /** SPEC §8: the refresh failed (HTTP error): clear the session, flag it, fire sessionExpired. */
  onRefreshFailed: (error: unknown) => void;
  /** SPEC §5: a non-auth request had no access token and was cancelled before sending. */
  onMissingToken: (path: string) => void;
  /** D29: a 403 permission_denied means the person's permissions changed; the session will reload them. */
  onPermissionDenied?: (error: HttpError) => void;
  /** D54: a 403 mfa_enrolment_required: the organization requires two-step sign-in and this person has not turned it on. */
  onMfaRequired?: (error: HttpError) => void;
  fetch?: typeof fetch;
  log?: Pick<Console, 'warn' | 'error'>;
}

export interface RequestOptions {
  /** Sent as JSON; a Blob is sent as it is, and fetch labels it with the Blob's type (D27: a CSV file). */
  body?: unknown;
  signal?: AbortSignal;
  headers?: Record<string, string>;
  /**
   * D28: a public call that also serves signed-in people (an invitation's look-up and accept): sent
   * without a token when there is none, with it (and the 401 refresh) when there is.
   */
  optionalAuth?: boolean;
  /** D51–D54: a call about the person, not an organization (the account's): sent without X-Organization-ID. */
  noOrg?: boolean;
  /** D67: a file's bytes (a ZIP), answered as a Blob instead of parsed; errors are still JSON. */
  blob?: boolean;
}

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export function createClient(deps: ClientDeps) {
  const log = deps.log ?? console;
  let refreshing: Promise<void> | null = null;

  // STYLE single-flight: one refresh at a time; later callers await the same promise. A request
  // whose token is already stale (someone refreshed meanwhile) just replays.
  function refreshOnce(tokenUsed: string | null): Promise<void> {
    if (refreshing) return refreshing;
    if (deps.accessToken() !== tokenUsed) return Promise.resolve();
    refreshing = deps
      .refresh()
      .catch((error: unknown) => {
        if (!isTransient(error)) deps.onRefreshFailed(error);
        throw error;
      })
      .finally(() => {
        refreshing = null;
      });
    return refreshing;
  }

  async function send(method: Method, path: string, opts: RequestOptions, replayed: boolean): Promise<Response> {
    const isAuth = path.startsWith(AUTH_PREFIX);
    const token = deps.accessToken();
    if (opts.signal?.aborted) throw new AbortError(path, 'aborted');
    if (!isAuth && !token && !opts.optionalAuth) {
      deps.onMissingToken(path);
      throw new AbortError(path, 'no-token');
    }
    const headers: Record<string, string> = { Accept: 'application/json', ...opts.headers };
    if (isWellFormed(token)) headers.Authorization = `Bearer ${token}`; // SPEC §5
    const org = deps.orgId();
    if (org != null && !opts.noOrg) headers['X-Organization-ID'] = String(org);
    let body: BodyInit | undefined;
    if (opts.body instanceof Blob) body = opts.body;
    else if (opts.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(opts.body);
    }
    let res: Response;
    try {
      res = await (deps.fetch ?? fetch)(deps.base() + path, {
        method,
        headers,
        body,
        signal: opts.signal,
        credentials: 'omit', // D1: no cookies or credentials
      });
    } catch (cause) {
      if (opts.signal?.aborted || (cause instanceof DOMException && cause.name === 'AbortError')) throw new AbortError(path, 'aborted');
      setOnline(false); // SPEC §8: no response → offline banner
      throw new NetworkError(path, cause);
    }
    // SPEC §4: a later success hides the banner; unless the browser says it is offline (a response already
    // on its way when the connection went): its word stands until its online event.
    setOnline(navigator.onLine);
    // A call sent without a token (optionalAuth) has no session to refresh.
    if (res.status === 401 && !isAuth && token && !replayed) {
      await refreshOnce(token);
      return send(method, path, opts, true);
    }
    return res;
  }

  /** Sends a request and parses the JSON answer; non-2xx statuses reject with HttpError. */
  async function request<T>(method: Method, path: string, opts: RequestOptions = {}): Promise<T> {
    const res = await send(method, path, opts, false);
    if (opts.blob && res.ok) return (await res.blob()) as T;
    const data = await parseBody(res);
    if (res.ok) return data as T;
    const error = new HttpError(res.status, data, path, parseRetryAfter(res.headers.get('retry-after')));
    // SPEC §8: 403 logged and passed on; 5xx logged (the banner is already hidden). Never log tokens.
    // D35: a 429 is the server asking to slow down, handled like a 503 (isTransient); logged like one.
    if (res.status === 429) log.warn(`429 Too Many Requests: ${method} ${path}`);
    else if (res.status === 403) {
      log.warn(`403 Forbidden: ${method} ${path}`);
      if (error.code === 'permission_denied') deps.onPermissionDenied?.(error);
      else if (error.code === MFA_ENROLMENT_REQUIRED) deps.onMfaRequired?.(error);
    } else if (res.status >= 500) log.error(`${res.status} from server: ${method} ${path}`);
    throw error;
  }

  const withBody =
    (method: Method) =>
    <T>(path: string, body?: unknown, opts?: RequestOptions) =>
      request<T>(method, path, { ...opts, body });

  return {
    request,
    get: <T>(path: string, opts?: Omit<RequestOptions, 'body'>) => request<T>('GET', path, opts),
    post: withBody('POST'),
    put: withBody('PUT'),
    patch: withBody('PATCH'),
    delete: <T = null>(path: string, opts?: Omit<RequestOptions, 'body'>) => request<T>('DELETE', path, opts),
    /** Joins or starts the single-flight refresh (timers use it too, so failures are handled once). */
    refresh: () => refreshOnce(deps.accessToken()),
  };
}

export type Client = ReturnType<typeof createClient>;

async function parseBody(res: Response): Promise<unknown> {
  const text = await res.text().catch(() => '');
  if (!text) return null;
  if ((res.headers.get('content-type') ?? '').includes('json')) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}
