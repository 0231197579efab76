// D16: the caller of an auth call proved by a live session, and fresh access tokens.
import type { IncomingMessage } from 'node:http';
import type { Ctx } from '../context';
import { sessionEnded, verifyBearer, type TokenPrincipal } from './access';
import { signAccessToken } from './jwt';
import { isSessionLive, type IssuedSession } from './sessions';

/** The caller's user and session, or a 401. */
export async function authenticate(req: IncomingMessage, ctx: Ctx): Promise<TokenPrincipal> {
  const principal = verifyBearer(req, ctx);
  if (!(await isSessionLive(ctx.db, principal.sessionId, principal.userId, ctx.now()))) throw sessionEnded();
  return principal;
}

/** SPEC §7 the tokens of a session, as login, refresh and an accepted invitation answer them. */
export interface TokenAnswer {
  access_token: string;
  refresh_token: string;
  refresh_expires_at: string;
  /** Not in a refresh's answer: the client already holds it. */
  session_id?: number;
}

/** SPEC §7: a session's token answer; `withSessionId` false for a refresh (same session). */
export function tokenAnswer(ctx: Ctx, session: IssuedSession, withSessionId = true): TokenAnswer {
  return {
    access_token: issueAccessToken(ctx, session.userId, session.sessionId, session.expiresAt),
    refresh_token: session.refreshToken,
    ...(withSessionId ? { session_id: session.sessionId } : {}),
    refresh_expires_at: session.expiresAt.toISOString(),
  };
}

/** D16: a fresh access token for the session, never outliving the session itself. */
function issueAccessToken(ctx: Ctx, userId: number, sessionId: number, sessionExpiresAt: Date): string {
  const nowS = Math.floor(ctx.now() / 1000);
  const exp = Math.min(nowS + ctx.config.accessTokenTtlS, Math.floor(sessionExpiresAt.getTime() / 1000));
  return signAccessToken({ sub: String(userId), sid: sessionId, iat: nowS, exp }, ctx.jwtSecret);
}
