// SPEC §7 authentication calls: login, refresh, logout, and the current user (me.ts).
import { EMAIL_MAX_LENGTH as MAX_EMAIL_CHARS } from '../../../contract/customers';
import { PASSWORD_MAX_LENGTH as MAX_PASSWORD_CHARS } from '../../../contract/team';
import { authenticate, tokenAnswer } from '../../auth/authenticate';
import { MAX_DEVICE_TOKEN_CHARS, verifyDeviceToken } from '../../auth/device';
import { admitted, hashingRefusal, knownSession, refusedEarly, tooMany } from '../../auth/guards';
import { createChallenge, mfaEnabled } from '../../auth/mfa';
import { burnPasswordTime, hashPassword, needsRehash, verifyPassword } from '../../auth/passwords';
import { revokeSession, rotateRefreshToken, sessionOfRefreshToken } from '../../auth/sessions';
import { signedIn } from '../../auth/sign-in';
import { cancelAttempt, emailKey, markAttemptSucceeded, recordClientFailure, startAttempt, type AttemptKeys } from '../../auth/throttle';
import { num } from '../../db';
import { HttpError } from '../../http';
import { defineRoute, reply } from '../../route';
import { bool, int, optional, rawText, text, withDefault } from '../../schema';
import { me } from './me';
import { loginAccount, replacePasswordHash } from './repo';

const MAX_REFRESH_TOKEN_CHARS = 512;
/** Sign-in accepts any address an account may have been given: one @, no spaces. */
const LOGIN_EMAIL = /^[^\s@]+@[^\s@]+$/;

const invalidCredentials = () => new HttpError(401, 'invalid_credentials', 'Invalid email or password');

/**
 * POST /v1/auth/login/ { email, password, remember_me = true, device_token? } → access_token,
 * refresh_token, session_id, refresh_expires_at and device_token (D36); D54: 202 { mfa_required, challenge }
 * instead for a person with two-step sign-in on.
 */
const login = defineRoute({
  method: 'POST',
  path: '/v1/auth/login/',
  access: 'public',
  transaction: false,
  ignoreUnknownFields: true,
  body: {
    email: text({ max: MAX_EMAIL_CHARS, pattern: LOGIN_EMAIL, patternMessage: 'must be an email address' }),
    password: rawText({ max: MAX_PASSWORD_CHARS }),
    remember_me: withDefault(bool(), true), // SPEC §3, §9: defaults to on
    device_token: optional(rawText({ max: MAX_DEVICE_TOKEN_CHARS })), // D36
  },
  // D35: an address with its share of logins in flight is refused unread (whether a device token in the
  // body would pass a throttled address cannot be known before reading it).
  refuseEarly: (req, ctx) => refusedEarly(ctx, req, 'login', 'whatever'),
  async handler({ req, ctx, body }) {
    const ekey = emailKey(body.email);
    // D36: a browser that signed in with this email before is judged on its own failures, not on the
    // email's or its address's; any other token (forged, another email's) counts as no token.
    const device = verifyDeviceToken(ctx.jwtSecret, body.device_token, ekey);
    // D35: a throttled address, or one with its share of logins in flight, is refused before the database.
    return admitted(
      ctx,
      req,
      'login',
      async ({ address, limiter }) => {
        const keys: AttemptKeys = device
          ? { subject: `device:${device.id}`, client: address, checkClient: false }
          : { subject: ekey, client: address, checkClient: true };
        // D18: throttled before any password work; the attempt counts as a failure from here on unless the
        // password proves right.
        const attempt = await startAttempt(ctx.db, ctx.config.throttle, keys, ctx.now());
        if (attempt.kind === 'throttled') {
          if (attempt.clientUntilMs !== null) limiter.block(address, attempt.clientUntilMs); // D35: the next ones stop here
          throw tooMany('login', attempt.retryAfterS, 'throttled');
        }
        const user = await loginAccount(ctx.db, ekey);
        let ok: boolean;
        try {
          // D17: an unknown email costs one scrypt too, so timing does not tell which emails have accounts.
          ok = user ? await verifyPassword(body.password, user.password_hash, ctx.scryptCost, address) : await burnPasswordTime(body.password, ctx.scryptCost, address);
        } catch (err) {
          const refusal = hashingRefusal(err, 'login');
          if (!refusal) throw err;
          await cancelAttempt(ctx.db, attempt.attemptId); // D35: refused unheard, it is no failed guess
          throw refusal;
        }
        if (!user || !ok) {
          limiter.fail(address, ctx.now());
          throw invalidCredentials();
        }
        await markAttemptSucceeded(ctx.db, attempt.attemptId);

        const userId = num(user.id);
        if (needsRehash(user.password_hash, ctx.scryptCost)) {
          // D17: bring an old hash up to today's parameters; the login does not wait for it.
          hashPassword(body.password, ctx.scryptCost)
            .then((hash) => replacePasswordHash(ctx.db, userId, hash, user.password_hash))
            .catch((err: unknown) => ctx.log.error(`password rehash for user ${userId} failed: ${err instanceof Error ? err.message : String(err)}`));
        }
        // D36: the browser keeps the token it has while it names this user; otherwise it gets a new one.
        const finish = { userId, rememberMe: body.remember_me, emailKey: ekey, deviceId: device && device.userId === userId ? device.id : null };
        // D54: with two-step sign-in on, the password alone opens nothing (a device token never skips this):
        // 202 with a challenge, which POST /v1/auth/mfa/ and a code finish as this login would have.
        if (await mfaEnabled(ctx.db, userId)) return reply(202, { mfa_required: true, challenge: await createChallenge(ctx.db, finish, ctx.now()) });
        return signedIn(ctx, req, finish);
      },
      device !== null,
    );
  },
});

/** The refresh answers that end in 401; each is a failure of the caller's address (D35). */
const REFRESH_REFUSALS = {
  unknown: () => new HttpError(401, 'invalid_refresh_token', 'Refresh token is not valid'),
  revoked: () => new HttpError(401, 'session_revoked', 'The session has been logged out'),
  expired: () => new HttpError(401, 'session_expired', 'The session has expired; log in again'),
  reused: () => new HttpError(401, 'refresh_token_reused', 'Refresh token was already used; the session has been ended'),
};

/**
 * POST /v1/auth/refresh/ { refresh_token } → access_token, refresh_token (rotated, D8). D35: throttled per
 * address like login: its failures are counted (in memory and in the database), and a throttled address
 * is refused before the database, unless the caller proves its session with a bearer token we signed
 * (D36, guards.ts knownSession), which is held to its own failures instead.
 */
const refresh = defineRoute({
  method: 'POST',
  path: '/v1/auth/refresh/',
  access: 'public',
  transaction: false,
  ignoreUnknownFields: true,
  body: { refresh_token: rawText({ max: MAX_REFRESH_TOKEN_CHARS }) },
  refuseEarly: (req, ctx) => refusedEarly(ctx, req, 'refresh', knownSession(ctx, req) !== null), // D35: unread
  handler: ({ req, ctx, body }) => {
    const session = knownSession(ctx, req); // D36: a caller that proves its session is judged on its own failures
    return admitted(
      ctx,
      req,
      'refresh',
      async ({ address, limiter }) => {
        const result = await rotateRefreshToken(ctx.db, body.refresh_token, ctx.now());
        if (result.kind === 'rotated' || result.kind === 'grace') return tokenAnswer(ctx, result, false);
        if (result.kind === 'reused') ctx.log.info(`session ${result.sessionId} revoked: a rotated-out refresh token was presented after the grace window`);
        limiter.fail(address, ctx.now());
        if (session) limiter.fail(session, ctx.now());
        const until = await recordClientFailure(ctx.db, ctx.config.throttle, `refresh:${address}`, ctx.now());
        if (until !== null) limiter.block(address, until); // D18: other instances' failures count too
        throw REFRESH_REFUSALS[result.kind]();
      },
      session !== null,
    );
  },
});

/**
 * POST /v1/auth/logout/ { refresh_token, session_id } → 204. Revokes the session the caller proves to
 * hold, by its refresh token or else by a valid access token; a bare session_id proves nothing.
 */
const logout = defineRoute({
  method: 'POST',
  path: '/v1/auth/logout/',
  access: 'public',
  transaction: false,
  ignoreUnknownFields: true,
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
