// SPEC §7 D36 D54: the answer of a finished sign-in, the same whether the password alone finished it
// (login) or a second step did (POST /v1/auth/mfa/): a new session's tokens and the browser's device token.
import type { IncomingMessage } from 'node:http';
import type { Ctx } from '../context';
import { tokenAnswer, type TokenAnswer } from './authenticate';
import { deviceTokenFor, issueDeviceToken } from './device';
import { dueForWrite, requestOrigin } from './last-active';
import { createSession } from './sessions';

export interface SignIn {
  userId: number;
  rememberMe: boolean;
  /** The email the login used (lower-cased): device tokens are signed for it. */
  emailKey: string;
  /** D36: the id of the valid device token the login presented for this user; null to issue a new one. */
  deviceId: string | null;
}

/** A session for the person, and the device token the browser keeps (its own while it names this user). */
export async function signedIn(ctx: Ctx, req: IncomingMessage, s: SignIn): Promise<TokenAnswer & { device_token: string }> {
  const session = await createSession(ctx.db, s.userId, s.rememberMe, ctx.now(), requestOrigin(ctx, req));
  dueForWrite(ctx, session.sessionId, ctx.now()); // D52: just written, so the next minute's calls write nothing
  return {
    ...tokenAnswer(ctx, session),
    device_token: s.deviceId !== null ? deviceTokenFor(ctx.jwtSecret, s.userId, s.deviceId, s.emailKey) : issueDeviceToken(ctx.jwtSecret, s.userId, s.emailKey),
  };
}
