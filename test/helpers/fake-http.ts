// What the fake API's parts share: an unsigned JWT, the record of one call, a JSON answer.
const b64url = (s: string) => btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

/** An unsigned JWT with the given payload (the client never checks signatures). */
export function jwt(payload: Record<string, unknown>): string {
  return `${b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }))}.${b64url(JSON.stringify(payload))}.sig`;
}

let serial = 0;
/** An access token for `sub` that expires `inSec` seconds from now. */
export function accessToken(inSec = 900, sub = '1'): string {
  return jwt({ sub, sid: 1, exp: Math.floor(Date.now() / 1000) + inSec, n: ++serial });
}

export interface Call {
  method: string;
  path: string;
  /** The query string, e.g. '?q=ann&page=2' ('' when none). */
  search: string;
  headers: Record<string, string>;
  /** JSON bodies parsed; a Blob's text as it is (see `blobType`). */
  body: unknown;
  /** The type of a Blob body: fetch sends it as the Content-Type. */
  blobType?: string;
  credentials: RequestCredentials | undefined;
}

export const json = (status: number, body: unknown) =>
  new Response(body === null ? null : JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
