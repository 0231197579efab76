// Routing: the API under API_BASE (D1), the dev reload stream, and the built app for everything else.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { Ctx } from './context';
import { isConnectionError, isStatementTimeout } from './db';
import { FairShareError, SaturatedError } from './db-gate-types';
import { DEV_RELOAD_PATH } from './dev-reload';
import { accountRoutes } from './features/account/routes';
import { passwordResetRoutes } from './features/account/reset-routes';
import { authRoutes } from './features/auth/routes';
import { customerRoutes } from './features/customers/routes';
import { customFieldRoutes } from './features/custom-fields/routes';
import { viewRoutes } from './features/views/routes';
import { auditRoutes } from './features/audit/routes';
import { dashboardRoutes } from './features/dashboard/routes';
import { permissionRoutes } from './features/permissions/routes';
import { systemRoutes } from './features/system/routes';
import { mfaRoutes } from './features/mfa/routes';
import { organizationRoutes } from './features/organization/routes';
import { teamMfaRoutes } from './features/team/mfa-routes';
import { teamRoutes } from './features/team/routes';
import { redactSecretPaths } from '../contract/secret-paths';
import { HttpError, requestPath, sendError } from './http';
import { describeError } from './log';
import type { RouteDef } from './route';
import { createRouter } from './router';
import { withGateKey } from './gate-key';
import { answerRefusal } from './refusals';

/** Every API route (SPEC §7 and the CRM), as data. */
export const API_ROUTES: readonly RouteDef[] = [
  ...authRoutes,
  ...accountRoutes,
  ...passwordResetRoutes,
  ...customerRoutes,
  ...customFieldRoutes,
  ...viewRoutes,
  ...dashboardRoutes,
  ...teamRoutes,
  ...teamMfaRoutes,
  ...mfaRoutes,
  ...organizationRoutes,
  ...permissionRoutes,
  ...auditRoutes,
  ...systemRoutes,
];

const MAX_LOGGED_PATH = 200;
/** D37: a request path as the logs may show it: secrets replaced (contract/secret-paths.ts), then shortened. */
export const loggablePath = (raw: string | undefined) => redactSecretPaths(redactSecretPaths(raw ?? '?').slice(0, MAX_LOGGED_PATH)); // a cut `[redacted]` is whole again

export interface AppParts {
  serveStatic: (req: IncomingMessage, res: ServerResponse, decodedPath: string) => Promise<void>;
  devReload: { handle(req: IncomingMessage, res: ServerResponse): void } | null;
}

export function createApp(ctx: Ctx, parts: AppParts) {
  const base = ctx.config.apiBase;
  const router = createRouter(ctx, API_ROUTES);
  // D34: every request waits at the database gate as `anon` until the caller is known (gate-key.ts).
  return (req: IncomingMessage, res: ServerResponse): Promise<void> => withGateKey(() => handle(req, res));
  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = performance.now();
    const path = requestPath(req.url);
    // Access log: method, path without query string, status, time. Never headers or bodies (tokens).
    res.on('finish', () => {
      const shown = loggablePath(path?.raw);
      ctx.log.info(`${new Date().toISOString()} ${req.method ?? '?'} ${shown} ${res.statusCode} ${(performance.now() - started).toFixed(1)}ms`);
    });
    try {
      if (!path) throw new HttpError(400, 'bad_request', 'Malformed request path');
      // RFC 9112 §3.2: an HTTP/1.1 request must name its Host (the server turns off Node's bodiless refusal).
      if (req.httpVersion === '1.1' && req.headers.host === undefined) throw new HttpError(400, 'bad_request', 'Host header is required');
      if (path.raw === base || path.raw.startsWith(`${base}/`)) return await router.handle(req, res, path.raw.slice(base.length) || '/');
      if (parts.devReload && path.raw === DEV_RELOAD_PATH && req.method === 'GET') return parts.devReload.handle(req, res);
      await parts.serveStatic(req, res, path.decoded);
    } catch (err) {
      // D35: a 429 is a flood's answer: written in a bounded batch per loop turn (refusals.ts).
      if (err instanceof HttpError) return err.status === 429 ? answerRefusal(() => sendError(res, err)) : sendError(res, err);
      // D2: a saturated server says so at once rather than letting the request wait many seconds.
      if (err instanceof SaturatedError) return sendError(res, new HttpError(503, 'server_busy', 'The server is busy; try again shortly', { 'Retry-After': '1' }));
      // D34: this caller's (or organization's) own queue is full; nobody else waits for it.
      if (err instanceof FairShareError)
        return sendError(res, new HttpError(429, 'too_many_requests', 'Too many requests at once; try again shortly', { 'Retry-After': '1' }));
      // D34: a statement past PostgreSQL's statement timeout was cancelled; nothing was written.
      if (isStatementTimeout(err)) {
        ctx.log.error(`${req.method ?? '?'} ${loggablePath(path?.raw)}: statement timeout`);
        return sendError(res, new HttpError(503, 'statement_timeout', 'The request took too long; try again shortly', { 'Retry-After': '5' }));
      }
      if (isConnectionError(err)) {
        ctx.log.error(`database unavailable: ${err instanceof Error ? err.message : String(err)}`);
        return sendError(res, new HttpError(503, 'service_unavailable', 'The service is temporarily unavailable', { 'Retry-After': '5' }));
      }
      ctx.log.error(`${req.method ?? '?'} ${loggablePath(path?.raw)} failed: ${describeError(err)}`);
      sendError(res, new HttpError(500, 'internal_error', 'Internal server error'));
    }
  }
}
