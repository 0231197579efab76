// D16: the caller of an auth call proved by a live session, and fresh access tokens.
import type { IncomingMessage } from 'node:http';
import type { Ctx } from '../context';
import { sessionEnded, verifyBearer, type TokenPrincipal } from './access';
import { signAccessToken } from './jwt';
import { isSessionLive } from './sessions';

/** The caller's user and session, or a 401. */
export async function authenticate(req: IncomingMessage, ctx: Ctx): Promise<TokenPrincipal> {
  const principal = verifyBearer(req, ctx);
  if (!(await isSessionLive(ctx.db, principal.sessionId, principal.userId, ctx.now()))) throw sessionEnded();
  return principal;
}

/** D16: a fresh access token for the session, never outliving the session itself. */
export function issueAccessToken(ctx: Ctx, userId: number, sessionId: number, sessionExpiresAt: Date): string {
  const nowS = Math.floor(ctx.now() / 1000);
  const exp = Math.min(nowS + ctx.config.accessTokenTtlS, Math.floor(sessionExpiresAt.getTime() / 1000));
  return signAccessToken({ sub: String(userId), sid: sessionId, iat: nowS, exp }, ctx.jwtSecret);
}
