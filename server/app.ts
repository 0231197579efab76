// Routing: the API under API_BASE (D1), the dev reload stream, and the built app for everything else.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { me } from './auth/me';
import { login, logout, refresh } from './auth/routes';
import type { Ctx, Handler } from './context';
import { listCustomers } from './customers';
import { isConnectionError } from './db';
import { SaturatedError } from './db-gate';
import { DEV_RELOAD_PATH } from './dev-reload';
import { HttpError, requestPath, sendError, sendJson } from './http';
import { describeError } from './log';

type Method = 'GET' | 'POST';
type Routes = Record<string, Partial<Record<Method, Handler>>>;

const health: Handler = async (_req, res, ctx) => {
  await ctx.db.ping(); // D2: not queued behind requests, so a busy server still answers its health check
  sendJson(res, 200, { status: 'ok' });
};

/** SPEC §7: paths end with a slash, as the client calls them. */
export const API_ROUTES: Routes = {
  '/v1/auth/login/': { POST: login },
  '/v1/auth/refresh/': { POST: refresh },
  '/v1/auth/logout/': { POST: logout },
  '/v1/auth/me/': { GET: me },
  '/v1/customers/': { GET: listCustomers }, // D9: needs X-Organization-ID and customers:view
  '/health/': { GET: health }, // for load balancers: 200 when this instance can reach the database
};

const MAX_LOGGED_PATH = 200;

async function api(req: IncomingMessage, res: ServerResponse, ctx: Ctx, route: string): Promise<void> {
  const methods = API_ROUTES[route];
  if (!methods) {
    const hint = API_ROUTES[`${route}/`] ? `; did you mean ${ctx.config.apiBase}${route}/ ?` : '';
    throw new HttpError(404, 'not_found', `No such endpoint${hint}`);
  }
  const allow = [...Object.keys(methods), ...(methods.GET ? ['HEAD'] : []), 'OPTIONS'].join(', ');
  if (req.method === 'OPTIONS') return sendJson(res, 204, null, { Allow: allow });
  // HEAD runs the GET handler; Node leaves the body out (health checks often use HEAD).
  const handler = methods[(req.method === 'HEAD' ? 'GET' : req.method) as Method];
  if (!handler) throw new HttpError(405, 'method_not_allowed', `Method ${req.method ?? ''} not allowed; use ${allow}`, { Allow: allow });
  await handler(req, res, ctx);
}

export interface AppParts {
  serveStatic: (req: IncomingMessage, res: ServerResponse, decodedPath: string) => Promise<void>;
  devReload: { handle(req: IncomingMessage, res: ServerResponse): void } | null;
}

export function createApp(ctx: Ctx, parts: AppParts) {
  const base = ctx.config.apiBase;
  return async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = performance.now();
    const path = requestPath(req.url);
    // Access log: method, path without query string, status, time. Never headers or bodies (tokens).
    res.on('finish', () => {
      const shown = (path?.raw ?? '?').slice(0, MAX_LOGGED_PATH);
      ctx.log.info(`${new Date().toISOString()} ${req.method ?? '?'} ${shown} ${res.statusCode} ${(performance.now() - started).toFixed(1)}ms`);
    });
    try {
      if (!path) throw new HttpError(400, 'bad_request', 'Malformed request path');
      // RFC 9112 §3.2: an HTTP/1.1 request must name its Host (the server turns off Node's bodiless refusal).
      if (req.httpVersion === '1.1' && req.headers.host === undefined) throw new HttpError(400, 'bad_request', 'Host header is required');
      if (path.raw === base || path.raw.startsWith(`${base}/`)) return await api(req, res, ctx, path.raw.slice(base.length) || '/');
      if (parts.devReload && path.raw === DEV_RELOAD_PATH && req.method === 'GET') return parts.devReload.handle(req, res);
      await parts.serveStatic(req, res, path.decoded);
    } catch (err) {
      if (err instanceof HttpError) return sendError(res, err);
      // D2: a saturated server says so at once rather than letting the request wait many seconds.
      if (err instanceof SaturatedError) return sendError(res, new HttpError(503, 'server_busy', 'The server is busy; try again shortly', { 'Retry-After': '1' }));
      if (isConnectionError(err)) {
        ctx.log.error(`database unavailable: ${err instanceof Error ? err.message : String(err)}`);
        return sendError(res, new HttpError(503, 'service_unavailable', 'The service is temporarily unavailable', { 'Retry-After': '5' }));
      }
      ctx.log.error(`${req.method ?? '?'} ${path?.raw.slice(0, MAX_LOGGED_PATH) ?? '?'} failed: ${describeError(err)}`);
      sendError(res, new HttpError(500, 'internal_error', 'Internal server error'));
    }
  };
}
