// The API's one wrapper around every route (STYLE "Routes are data"): match the path and method (HEAD
// runs GET, OPTIONS and 405 list what the path allows), then authenticate → organization → permission
// → input → transaction (changes; D38 the caller checked again inside it) → handler → audit entry in the
// same transaction (D30) → JSON.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { writeAudit, type AuditEntry } from './audit';
import { recheckMember, requireMember, requireUser, verifyBearer, type Caller, type OrgCaller } from './auth/access';
import { touchSession } from './auth/last-active';
import type { Ctx } from './context';
import type { Queryable } from './db';
import { HttpError, readBytes, readJsonObject, readText, refuseBody, sendJson, sendJsonText } from './http';
import { assertSeen, scopeOf, withoutUnseen } from './customer-scope';
import { isJsonText, isReply, RAW, runsInTransaction, unhonoured, type Method, type RouteDef } from './route';
import { parseShape, queryParams, queryValues, type Shape } from './schema';

const BODY_METHODS = new Set<string>(['POST', 'PUT', 'PATCH', 'DELETE']);
/** D38: changes needing these may change who can do what (roles, removal, the matrix): they hold the organization's lock alone. */
const ACCESS_PERMISSIONS = new Set<string>(['team:manage', 'permissions:manage']);
/** D59: the routes of one customer and of what it holds (notes, locations, contacts, timeline, restore). */
const CUSTOMER_PATH = /^\/v1\/customers\/:id\//;

interface Compiled {
  segments: string[];
  slash: boolean;
  /** Static segments first, so /customers/duplicates/ wins over /customers/:id/. */
  rank: string;
  methods: Map<Method, RouteDef>;
}

/** Splits '/v1/customers/:id/' into ['v1', 'customers', ':id']. */
const split = (path: string) => path.split('/').filter(Boolean);

export interface Router {
  /** Answers one API request; `path` is the raw path under the API base. */
  handle(req: IncomingMessage, res: ServerResponse, path: string): Promise<void>;
  /** The route table, for documentation and the hostile-input suites. */
  routes: readonly RouteDef[];
}

export function createRouter(ctx: Ctx, routes: readonly RouteDef[]): Router {
  const byPath = new Map<string, Compiled>();
  for (const route of routes) {
    // SPEC §7: paths end with a slash; a file download names its file instead (export.csv).
    if (!route.path.endsWith('/') && !/\.[a-z]+$/.test(route.path)) throw new Error(`route ${route.path}: paths end with a slash or a file name`);
    if (route.access === 'org' && !route.permission) throw new Error(`route ${route.method} ${route.path}: an organization route needs a permission`);
    const refused = unhonoured(route); // what it would otherwise drop silently
    if (refused.length) throw new Error(`route ${route.method} ${route.path} cannot be honoured: ${refused.join('; ')}`);
    const segments = split(route.path);
    const key = segments.map((s) => (s.startsWith(':') ? ':' : s)).join('/');
    const compiled = byPath.get(key) ?? {
      segments,
      slash: route.path.endsWith('/'),
      rank: segments.map((s) => (s.startsWith(':') ? '1' : '0')).join(''),
      methods: new Map(),
    };
    if (compiled.methods.has(route.method)) throw new Error(`route ${route.method} ${route.path} is declared twice`);
    compiled.methods.set(route.method, route);
    byPath.set(key, compiled);
  }
  const table = [...byPath.values()].sort((a, b) => (a.rank < b.rank ? -1 : a.rank > b.rank ? 1 : 0));
  // Looked up once per request, not scanned: a path without parameters by its spelling (it wins over any
  // with parameters), the others among those of its segment count, static segments first.
  const exact = new Map<string, Compiled>();
  const bySize = new Map<number, Compiled[]>();
  for (const compiled of table) {
    if (!compiled.rank.includes('1')) exact.set(`/${compiled.segments.join('/')}${compiled.slash && compiled.segments.length ? '/' : ''}`, compiled);
    else bySize.set(compiled.segments.length, [...(bySize.get(compiled.segments.length) ?? []), compiled]);
  }
  const NO_PARAMS: Record<string, string> = Object.freeze({}) as Record<string, string>;

  function match(path: string): { compiled: Compiled; params: Record<string, string> } | null {
    if (path.includes('//')) return null; // one spelling per route: single slashes, trailing as declared
    const known = exact.get(path);
    if (known) return { compiled: known, params: NO_PARAMS };
    const parts = split(path);
    for (const compiled of bySize.get(parts.length) ?? []) {
      if (compiled.slash !== path.endsWith('/')) continue;
      const params: Record<string, string> = {};
      const ok = compiled.segments.every((seg, i) => {
        const part = parts[i] ?? '';
        if (seg.startsWith(':')) {
          params[seg.slice(1)] = part;
          return true;
        }
        return seg === part;
      });
      if (ok) return { compiled, params };
    }
    return null;
  }

  async function run(route: RouteDef, req: IncomingMessage, res: ServerResponse, rawParams: Record<string, string>, search: URLSearchParams) {
    // Who: a dead session is a 401 before anything about the input is said.
    const caller: Caller | OrgCaller | null =
      route.access === 'org' ? await requireMember(req, ctx, route.permission!) : route.access === 'user' ? await requireUser(req, ctx) : null;
    const principal = route.access === 'token' ? verifyBearer(req, ctx) : null;
    const params = parseShape((route.params ?? {}) as Shape, rawParams, { where: 'path parameter' });
    const query = parseShape((route.query ?? {}) as Shape, queryValues(search, route.query ?? {}), { where: 'query parameter' });
    // D35: a refusal the headers already decide is answered before the body is read (Node discards it).
    const early = route.refuseEarly?.(req, ctx);
    if (early) throw early;
    let body: Record<string, unknown> = {};
    let text = '';
    let bytes: Buffer = Buffer.alloc(0);
    const raw = route.textBody?.raw;
    if (route.textBody && raw) bytes = await readBytes(req, route.textBody.maxBytes, route.textBody.accepts, route.textBody.expected, raw.charsets);
    else if (route.textBody) text = await readText(req, route.textBody.maxBytes, route.textBody.accepts, route.textBody.expected);
    else if (route.body)
      body = parseShape(route.body, await readJsonObject(req, route.maxBodyBytes ?? ctx.config.maxBodyBytes), {
        partial: route.partialBody ?? false,
        ignoreUnknown: route.ignoreUnknownFields ?? false,
      });
    else if (BODY_METHODS.has(route.method)) await refuseBody(req);

    const entries: AuditEntry[] = [];
    const inTransaction = runsInTransaction(route);
    const audit = (entry: AuditEntry) => {
      // D30: an entry is written in the route's transaction; without one it would be lost.
      if (!inTransaction) throw new Error(`route ${route.method} ${route.path} runs in no transaction: it cannot record an audit entry`);
      entries.push(entry);
    };
    const invoke = async (tx: Queryable, current = caller) => {
      const who = principal ? { principal } : current ? { caller: current } : {};
      // D59: a customer outside what the caller sees is a 404 before any route under it runs (customer-scope.ts).
      if (route.access !== 'org') return route.handler({ req, res, ctx, params, query, body, text, bytes, tx, audit, ...who } as never);
      const scope = scopeOf(current as OrgCaller);
      if (CUSTOMER_PATH.test(route.path)) await assertSeen(tx, scope, Number(params.id));
      try {
        return await route.handler({ req, res, ctx, params, query, body, text, bytes, tx, audit, ...who } as never);
      } catch (err) {
        throw await withoutUnseen(tx, scope, err); // D59: a 409 names no customer the caller cannot see
      }
    };
    const result = !inTransaction
      ? await invoke(ctx.db)
      : await ctx.db.transaction(
          async (tx) => {
            // D38: a change acts on the caller's membership, role and permission as they are now, under the organization's lock.
            const current =
              route.access === 'org' ? await recheckMember(tx, caller as OrgCaller, route.permission!, ctx.now(), ACCESS_PERMISSIONS.has(route.permission!)) : caller;
            const out = await invoke(tx, current);
            if (route.audit && entries.length === 0) throw new Error(`route ${route.method} ${route.path} made no ${route.audit} audit entry`);
            const orgId = caller && 'org' in caller ? (caller as OrgCaller).org.id : null;
            const at = new Date(ctx.now());
            const actor = caller ? { id: caller.userId, label: caller.firstName } : { id: null, label: 'system' };
            for (const entry of entries) {
              const org = entry.orgId ?? orgId;
              if (org === null) throw new Error(`route ${route.method} ${route.path}: an audit entry without an organization`);
              const action = entry.action ?? route.audit;
              if (!action) throw new Error(`route ${route.method} ${route.path}: an audit entry without an action`);
              await writeAudit(tx, org, actor, action, entry, at);
            }
            return out;
          },
          route.shareReads ? { shareReads: route.shareReads } : {},
        );
    // D52: a session that was used: its last activity, at most one write a minute, not waited for (after
    // the handler, so a `token` route's dead session, which only its handler finds, is never touched).
    const session = caller ?? principal;
    if (session) void touchSession(ctx, req, session);
    if (result === RAW) return;
    if (isJsonText(result)) return sendJsonText(res, 200, result.json);
    if (isReply(result)) return sendJson(res, result.status, result.body, result.headers);
    sendJson(res, 200, result);
  }

  return {
    routes,
    async handle(req, res, path) {
      const found = match(path);
      if (!found) {
        const hint = match(`${path}/`) ? `; did you mean ${ctx.config.apiBase}${path}/ ?` : '';
        throw new HttpError(404, 'not_found', `No such endpoint${hint}`);
      }
      const { methods } = found.compiled;
      const allow = () => [...methods.keys(), ...(methods.has('GET') ? ['HEAD'] : []), 'OPTIONS'].join(', ');
      if (req.method === 'OPTIONS') return sendJson(res, 204, null, { Allow: allow() });
      // HEAD runs the GET handler; Node leaves the body out (health checks often use HEAD).
      const route = methods.get((req.method === 'HEAD' ? 'GET' : req.method) as Method);
      if (!route) throw new HttpError(405, 'method_not_allowed', `Method ${req.method ?? ''} not allowed; use ${allow()}`, { Allow: allow() });
      const search = queryParams(req.url); // D39: text that is not Unicode is a 400, not U+FFFD
      await run(route, req, res, found.params, search);
    },
  };
}
