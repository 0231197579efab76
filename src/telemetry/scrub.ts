// D13: tokens, passwords, refresh tokens, Authorization headers and the bodies of /v1/auth/ calls (and
// D54 /v1/account/ calls: one-time codes, TOTP secrets, recovery codes, login challenges)
// never leave the browser in error events, breadcrumbs or spans. Pure and Sentry-free, so it is
// testable on its own and costs nothing until the error-reporting chunk loads.
// D37: the token of a secret-bearing path (/invite/{token}…, contract/secret-paths.ts) is redacted too.
import { redactSecretPaths } from '../../contract/secret-paths';

export const FILTERED = '[Filtered]';
/** Object keys whose values are secrets wherever they appear (headers, bodies, extras, contexts). */
const SECRET_KEY = /token|passw|secret|authorization|cookie|api[-_]?key|credential|challenge|recovery|otpauth/i;
/** Keys that hold a request or response body. */
const BODY_KEY = /^(data|body|request_body|response_body|requestBody|responseBody)$/;
/** A JWT anywhere in a string: base64url JSON header ('{"' → 'eyJ'), payload, signature. */
const JWT = /eyJ[\w-]*\.[\w-]+\.[\w-]*/g;
const BEARER = /(Bearer\s+)[^\s"',;]+/gi;
/** key=value (URLs, logged text) and "key":"value" (JSON held in a string) for secret-looking keys. */
const SECRET_PAIR = /(\b[\w-]*(?:token|password|secret|challenge)=)[^&#\s"',;]*/gi;
const SECRET_JSON = /("[\w-]*(?:token|password|secret|authorization|challenge|recovery_code)[\w-]*"\s*:\s*)"(?:[^"\\]|\\.)*"/gi;
/** SPEC §7: the auth calls, whose bodies carry credentials and tokens; D54: the account's, codes and secrets. */
const AUTH_CALL = /\/v1\/(auth|account)\//;
const MAX_DEPTH = 12;

export function scrubString(s: string): string {
  return redactSecretPaths(s).replace(JWT, FILTERED).replace(BEARER, `$1${FILTERED}`).replace(SECRET_PAIR, `$1${FILTERED}`).replace(SECRET_JSON, `$1"${FILTERED}"`);
}

const isAuthUrl = (v: unknown) => typeof v === 'string' && AUTH_CALL.test(v);

/**
 * A scrubbed deep copy: secret keys filtered, JWT-looking strings replaced, and in any object that
 * names an auth call (`url`), the body fields dropped.
 */
export function scrub<T>(value: T, depth = 0, seen = new WeakSet<object>()): T {
  if (typeof value === 'string') return scrubString(value) as T;
  if (value === null || typeof value !== 'object') return value;
  if (depth > MAX_DEPTH || seen.has(value)) return FILTERED as T;
  seen.add(value);
  if (Array.isArray(value)) return value.map((v) => scrub(v, depth + 1, seen)) as T;
  const auth = isAuthUrl((value as Record<string, unknown>).url);
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    out[key] = SECRET_KEY.test(key) || (auth && BODY_KEY.test(key)) ? FILTERED : scrub(v, depth + 1, seen);
  }
  return out as T;
}

/** Every string in a value with its secret path segments redacted (D37); nothing else changes. */
function redactStrings<T>(value: T, depth = 0): T {
  if (typeof value === 'string') return redactSecretPaths(value) as T;
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH * 2) return value;
  if (Array.isArray(value)) return value.map((v) => redactStrings(v, depth + 1)) as T;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactStrings(v, depth + 1)])) as T;
}

/** rrweb's event types that carry URLs: Meta (4: the page's href) and Custom (5: breadcrumbs, navigation spans). */
const URL_BEARING_RECORDING = new Set([4, 5]);

/**
 * D37 session replay: the recorded URLs (the page's href, navigation spans and breadcrumbs) lose their
 * secret path segments. DOM snapshots are left alone: text and inputs are masked already.
 */
export function scrubRecordingEvent<E extends { type: number }>(event: E): E {
  return URL_BEARING_RECORDING.has(event.type) ? redactStrings(event) : event;
}

/** D37: the replay event's own URL list (`urls`) and any other string in it. */
export const scrubReplayEvent = <E>(event: E): E => redactStrings(event);

interface BreadcrumbLike {
  category?: string;
  data?: Record<string, unknown>;
  message?: string;
}

/** beforeBreadcrumb: auth-call breadcrumbs keep only method, URL and status; everything is scrubbed. */
export function scrubBreadcrumb<B extends BreadcrumbLike>(crumb: B): B {
  const data = crumb.data;
  if (data && isAuthUrl(data.url)) {
    const { method, url, status_code } = data;
    return scrub({ ...crumb, data: { method, url, status_code } });
  }
  return scrub(crumb);
}
