// SPEC §7 authentication calls: login, refresh, logout, and the current user (me.ts).
import { issueAccessToken, authenticate } from '../../auth/authenticate';
import { burnPasswordTime, hashPassword, needsRehash, verifyPassword } from '../../auth/passwords';
import { createSession, revokeSession, rotateRefreshToken, sessionOfRefreshToken } from '../../auth/sessions';
import { clientKey, emailKey, markAttemptSucceeded, startAttempt } from '../../auth/throttle';
import { num } from '../../db';
import { clientAddress, HttpError } from '../../http';
import { defineRoute, reply } from '../../route';
import { bool, int, optional, rawText, text, withDefault } from '../../schema';
import { me } from './me';

const MAX_EMAIL_CHARS = 254; // RFC 5321 path limit
const MAX_PASSWORD_CHARS = 1024;
const MAX_REFRESH_TOKEN_CHARS = 512;
/** Sign-in accepts any address an account may have been given: one @, no spaces. */
const LOGIN_EMAIL = /^[^\s@]+@[^\s@]+$/;

const invalidCredentials = () => new HttpError(401, 'invalid_credentials', 'Invalid email or password');

/** POST /v1/auth/login/ { email, password, remember_me = true } → access_token, refresh_token, session_id. */
const login = defineRoute({
  method: 'POST', path: '/v1/auth/login/', access: 'public', transaction: false, ignoreUnknownFields: true,
  body: {
    email: text({ max: MAX_EMAIL_CHARS, pattern: LOGIN_EMAIL, patternMessage: 'must be an email address' }),
    password: rawText({ max: MAX_PASSWORD_CHARS }),
    remember_me: withDefault(bool(), true), // SPEC §3, §9: defaults to on
  },
  async handler({ req, ctx, body }) {
    // D18: throttled before any password work, per email and per client address; the attempt counts as a
    // failure from here on unless the password proves right.
    const ekey = emailKey(body.email);
    const ckey = clientKey(clientAddress(req, ctx.config.trustProxy));
    const attempt = await startAttempt(ctx.db, ctx.config.throttle, ekey, ckey, ctx.now());
    if (attempt.kind === 'throttled') {
      const wait = attempt.retryAfterS;
      throw new HttpError(429, 'too_many_attempts', `Too many failed logins; try again in ${wait} s`, { 'Retry-After': String(wait) });
    }
    const [user] = await ctx.db.query<{ id: unknown; password_hash: string }>('select id, password_hash from users where lower(email) = $1', [ekey]);
    // D17: an unknown email costs one scrypt too, so timing does not tell which emails have accounts.
    const ok = user ? await verifyPassword(body.password, user.password_hash, ctx.scryptCost) : await burnPasswordTime(body.password, ctx.scryptCost);
    if (!user || !ok) throw invalidCredentials();
    await markAttemptSucceeded(ctx.db, attempt.attemptId);

    const userId = num(user.id);
    if (needsRehash(user.password_hash, ctx.scryptCost)) {
      // D17: bring an old hash up to today's parameters; the login does not wait for it.
      hashPassword(body.password, ctx.scryptCost)
        .then((hash) => ctx.db.query('update users set password_hash = $2 where id = $1 and password_hash = $3', [userId, hash, user.password_hash]))
        .catch((err: unknown) => ctx.log.error(`password rehash for user ${userId} failed: ${err instanceof Error ? err.message : String(err)}`));
    }
    const session = await createSession(ctx.db, userId, body.remember_me, ctx.now());
    return {
      access_token: issueAccessToken(ctx, userId, session.sessionId, session.expiresAt),
      refresh_token: session.refreshToken,
      session_id: session.sessionId,
      refresh_expires_at: session.expiresAt.toISOString(),
    };
  },
});

/** POST /v1/auth/refresh/ { refresh_token } → access_token, refresh_token (rotated, D8). */
const refresh = defineRoute({
  method: 'POST', path: '/v1/auth/refresh/', access: 'public', transaction: false, ignoreUnknownFields: true,
  body: { refresh_token: rawText({ max: MAX_REFRESH_TOKEN_CHARS }) },
  async handler({ ctx, body }) {
    const result = await rotateRefreshToken(ctx.db, body.refresh_token, ctx.now());
    switch (result.kind) {
      case 'unknown':
        throw new HttpError(401, 'invalid_refresh_token', 'Refresh token is not valid');
      case 'revoked':
        throw new HttpError(401, 'session_revoked', 'The session has been logged out');
      case 'expired':
        throw new HttpError(401, 'session_expired', 'The session has expired; log in again');
      case 'reused':
        ctx.log.info(`session ${result.sessionId} revoked: a rotated-out refresh token was presented after the grace window`);
        throw new HttpError(401, 'refresh_token_reused', 'Refresh token was already used; the session has been ended');
      case 'rotated':
      case 'grace':
        return {
          access_token: issueAccessToken(ctx, result.userId, result.sessionId, result.expiresAt),
          refresh_token: result.refreshToken,
          refresh_expires_at: result.expiresAt.toISOString(),
        };
    }
  },
});

/**
 * POST /v1/auth/logout/ { refresh_token, session_id } → 204. Revokes the session the caller proves to
 * hold, by its refresh token or else by a valid access token; a bare session_id proves nothing.
 */
const logout = defineRoute({
  method: 'POST', path: '/v1/auth/logout/', access: 'public', transaction: false, ignoreUnknownFields: true,
  body: {
    refresh_token: optional(rawText({ max: MAX_REFRESH_TOKEN_CHARS })),
    session_id: optional(int({ max: Number.MAX_SAFE_INTEGER })), // checked for type; the session comes from the proof
  },
  async handler({ req, ctx, body }) {
    const token = body.refresh_token;
    const sessionId = (token ? await sessionOfRefreshToken(ctx.db, token) : null) ?? (await authenticate(req, ctx)).sessionId;
    await revokeSession(ctx.db, sessionId, 'logout', ctx.now());
    return reply(204);
  },
});

export const authRoutes = [login, refresh, logout, me];
