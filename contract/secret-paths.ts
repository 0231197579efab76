// D37: the paths that carry a secret, listed once. The server's access and error logs, the app's
// error-report scrubber and the secrets tests all read this list, so a new secret-bearing path is
// redacted everywhere by adding it here.

/** What a secret path segment is written as. */
export const REDACTED = '[redacted]';

/**
 * Each entry is the part of a path just before a secret segment; the segment after it (up to the next
 * `/`, `?`, `#` or the end) is the secret. Matched anywhere in a text, so an API base or an origin in
 * front changes nothing.
 */
export const SECRET_PATH_PREFIXES: readonly string[] = [
  '/invite/', // D28 the invitation page: /invite/{token}
  '/v1/invitations/', // D28 its API calls: /v1/invitations/{token}/ and …/accept/
  '/reset/', // D53 the password-reset page: /reset/{token}
  '/v1/password-resets/', // D53 its API calls: /v1/password-resets/{token}/
];

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A secret segment stops where a URL or a logged text would end it. */
const SECRET_SEGMENT = String.raw`[^/?#\s"'<>\\]+`;

/** A fresh global pattern (lastIndex is per use) matching a listed prefix and the secret after it. */
export const secretPathPattern = (): RegExp => new RegExp(`(${SECRET_PATH_PREFIXES.map(escape).join('|')})${SECRET_SEGMENT}`, 'g');

/** One compiled pattern for redacting: replace() starts a global pattern from index 0 every time. */
const SECRET_PATHS = secretPathPattern();

/** D37: the text with every secret path segment replaced by [redacted]. */
export function redactSecretPaths(text: string): string {
  return text.replace(SECRET_PATHS, (_m, prefix: string) => `${prefix}${REDACTED}`);
}

/** D37: the secret path segments left in a text (empty when every one is redacted). */
export function unredactedSecretPaths(text: string): string[] {
  return [...text.matchAll(secretPathPattern())].filter((m) => m[0] !== `${m[1]}${REDACTED}`).map((m) => m[1] ?? '');
}
