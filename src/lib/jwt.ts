// JWT inspection for the client: shape and expiry only; the server verifies signatures.

/** D5: an access token whose exp is less than this far away counts as expired. */
export const EXPIRY_LEEWAY_MS = 10_000;

/** SPEC §5: a bearer token is well-formed only with three non-empty dot-separated parts. */
export function isWellFormed(token: string | null | undefined): token is string {
  if (typeof token !== 'string') return false;
  const parts = token.split('.');
  return parts.length === 3 && parts.every((p) => /^[A-Za-z0-9_-]+=*$/.test(p));
}

function base64UrlDecode(part: string): string | null {
  try {
    const b64 = part.replace(/-/g, '+').replace(/_/g, '/');
    const bin = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
    return new TextDecoder().decode(Uint8Array.from(bin, (c) => c.charCodeAt(0)));
  } catch {
    return null;
  }
}

/** The token's payload as an object, or null for anything malformed. Never throws. */
export function decodePayload(token: string | null | undefined): Record<string, unknown> | null {
  if (!isWellFormed(token)) return null;
  const json = base64UrlDecode(token.split('.')[1] ?? '');
  if (json == null) return null;
  try {
    const v: unknown = JSON.parse(json);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** The expiry claim in epoch milliseconds, or null when absent or not a finite number. */
export function expiresAt(token: string | null | undefined): number | null {
  const exp = decodePayload(token)?.exp;
  return typeof exp === 'number' && Number.isFinite(exp) ? exp * 1000 : null;
}

/** SPEC §4 + D5: expired when malformed, without exp, or within the leeway of exp. */
export function isExpired(token: string | null | undefined, now = Date.now()): boolean {
  const at = expiresAt(token);
  return at == null || at - now < EXPIRY_LEEWAY_MS;
}

/** The subject claim as a string, or null. */
export function subject(token: string | null | undefined): string | null {
  const sub = decodePayload(token)?.sub;
  return typeof sub === 'string' || typeof sub === 'number' ? String(sub) : null;
}
