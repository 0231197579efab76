// D16: a bearer access token counts only while its session is live, so logout and revocation take
// effect at once rather than when the token expires.
import type { IncomingMessage } from 'node:http';
import type { Ctx } from '../context';
import { HttpError } from '../http';
import { signAccessToken, verifyAccessToken } from './jwt';
import { isSessionLive } from './sessions';

export interface Principal {
  userId: number;
  sessionId: number;
}

const unauthorized = (code: string, detail: string) =>
  new HttpError(401, code, detail, { 'WWW-Authenticate': `Bearer error="invalid_token", error_description="${detail}"` });

/** The caller's user and session, or a 401. */
export async function authenticate(req: IncomingMessage, ctx: Ctx): Promise<Principal> {
  const header = req.headers.authorization;
  if (!header) throw new HttpError(401, 'not_authenticated', 'Authentication required', { 'WWW-Authenticate': 'Bearer' });
  const m = /^Bearer +(\S+) *$/i.exec(header);
  if (!m?.[1]) throw unauthorized('invalid_token', 'Authorization must be "Bearer <access token>"');
  const result = verifyAccessToken(m[1], ctx.jwtSecret, Math.floor(ctx.now() / 1000));
  if (!result.ok) {
    throw result.reason === 'expired'
      ? unauthorized('token_expired', 'Access token has expired')
      : unauthorized('invalid_token', 'Access token is not valid');
  }
  const principal = { userId: Number(result.claims.sub), sessionId: result.claims.sid };
  if (!(await isSessionLive(ctx.db, principal.sessionId, principal.userId, ctx.now()))) {
    throw unauthorized('session_ended', 'The session has ended; log in again');
  }
  return principal;
}

/** D16: a fresh access token for the session, never outliving the session itself. */
export function issueAccessToken(ctx: Ctx, userId: number, sessionId: number, sessionExpiresAt: Date): string {
  const nowS = Math.floor(ctx.now() / 1000);
  const exp = Math.min(nowS + ctx.config.accessTokenTtlS, Math.floor(sessionExpiresAt.getTime() / 1000));
  return signAccessToken({ sub: String(userId), sid: sessionId, iat: nowS, exp }, ctx.jwtSecret);
}
