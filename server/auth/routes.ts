// SPEC §7 authentication calls: login, refresh, logout. The current-user call is in me.ts.
import type { Handler } from '../context';
import { num } from '../db';
import { clientAddress, fieldError, HttpError, readJsonObject, sendJson } from '../http';
import { optionalBoolean, optionalPositiveInt, optionalString, requiredString } from '../validate';
import { authenticate, issueAccessToken } from './authenticate';
import { burnPasswordTime, hashPassword, needsRehash, verifyPassword } from './passwords';
import { createSession, revokeSession, rotateRefreshToken, sessionOfRefreshToken } from './sessions';
import { clientKey, emailKey, markAttemptSucceeded, startAttempt } from './throttle';

const MAX_EMAIL_CHARS = 254; // RFC 5321 path limit
const MAX_PASSWORD_CHARS = 1024;
const MAX_REFRESH_TOKEN_CHARS = 512;
// No spaces and no control characters: PostgreSQL text cannot hold NUL, so it must never reach a query (D19).
const EMAIL_SHAPE = /^[^\s@\u0000-\u001f\u007f]+@[^\s@\u0000-\u001f\u007f]+$/;

const invalidCredentials = () => new HttpError(401, 'invalid_credentials', 'Invalid email or password');

/** POST /v1/auth/login/ { email, password, remember_me = true } → access_token, refresh_token, session_id. */
export const login: Handler = async (req, res, ctx) => {
  const body = await readJsonObject(req, ctx.config.maxBodyBytes);
  const email = requiredString(body, 'email', MAX_EMAIL_CHARS).trim();
  if (!EMAIL_SHAPE.test(email)) throw fieldError('email', 'must be an email address');
  const password = requiredString(body, 'password', MAX_PASSWORD_CHARS);
  const rememberMe = optionalBoolean(body, 'remember_me', true); // SPEC §3, §9: defaults to on

  // D18: throttled before any password work, per email and per client address; the attempt counts as a
  // failure from here on unless the password proves right.
  const ekey = emailKey(email);
  const ckey = clientKey(clientAddress(req, ctx.config.trustProxy));
  const attempt = await startAttempt(ctx.db, ctx.config.throttle, ekey, ckey, ctx.now());
  if (attempt.kind === 'throttled') {
    const wait = attempt.retryAfterS;
    throw new HttpError(429, 'too_many_attempts', `Too many failed logins; try again in ${wait} s`, { 'Retry-After': String(wait) });
  }

  const [user] = await ctx.db.query<{ id: unknown; password_hash: string }>(
    'select id, password_hash from users where lower(email) = $1',
    [ekey],
  );
  // D17: an unknown email costs one scrypt too, so timing does not tell which emails have accounts.
  const ok = user ? await verifyPassword(password, user.password_hash, ctx.scryptCost) : await burnPasswordTime(password, ctx.scryptCost);
  if (!user || !ok) throw invalidCredentials();
  await markAttemptSucceeded(ctx.db, attempt.attemptId);

  const userId = num(user.id);
  if (needsRehash(user.password_hash, ctx.scryptCost)) {
    // D17: bring an old hash up to today's parameters; the login does not wait for it.
    hashPassword(password, ctx.scryptCost)
      .then((hash) => ctx.db.query('update users set password_hash = $2 where id = $1 and password_hash = $3', [userId, hash, user.password_hash]))
      .catch((err: unknown) => ctx.log.error(`password rehash for user ${userId} failed: ${err instanceof Error ? err.message : String(err)}`));
  }
  const session = await createSession(ctx.db, userId, rememberMe, ctx.now());
  sendJson(res, 200, {
    access_token: issueAccessToken(ctx, userId, session.sessionId, session.expiresAt),
    refresh_token: session.refreshToken,
    session_id: session.sessionId,
    refresh_expires_at: session.expiresAt.toISOString(),
  });
};

/** POST /v1/auth/refresh/ { refresh_token } → access_token, refresh_token (rotated, D8). */
export const refresh: Handler = async (req, res, ctx) => {
  const body = await readJsonObject(req, ctx.config.maxBodyBytes);
  const token = requiredString(body, 'refresh_token', MAX_REFRESH_TOKEN_CHARS);
  const result = await rotateRefreshToken(ctx.db, token, ctx.now());
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
      sendJson(res, 200, {
        access_token: issueAccessToken(ctx, result.userId, result.sessionId, result.expiresAt),
        refresh_token: result.refreshToken,
        refresh_expires_at: result.expiresAt.toISOString(),
      });
  }
};

/**
 * POST /v1/auth/logout/ { refresh_token, session_id } → 204. Revokes the session the caller proves to
 * hold, by its refresh token or else by a valid access token; a bare session_id proves nothing.
 */
export const logout: Handler = async (req, res, ctx) => {
  const body = await readJsonObject(req, ctx.config.maxBodyBytes);
  const token = optionalString(body, 'refresh_token', MAX_REFRESH_TOKEN_CHARS);
  optionalPositiveInt(body, 'session_id'); // checked for type; the session comes from the proof
  const sessionId = (token ? await sessionOfRefreshToken(ctx.db, token) : null) ?? (await authenticate(req, ctx)).sessionId;
  await revokeSession(ctx.db, sessionId, 'logout', ctx.now());
  sendJson(res, 204, null);
};
