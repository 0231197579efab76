// STYLE "Routes are data": each API route declares its method, path, the permission it needs and the
// checks for its input; router.ts does the rest (authenticate → organization → permission → input →
// transaction → handler → audit entry → JSON). A handler then reads like its specification.
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { Permission } from '../contract/permissions';
import type { AuditAction } from '../contract/audit';
import type { AuditEntry } from './audit';
import type { Caller, OrgCaller, TokenPrincipal } from './auth/access';
import type { Ctx } from './context';
import type { ShareReads } from './db-share';
import type { Queryable } from './db';
import type { HttpError } from './http';
import type { Parsed, Shape } from './schema';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Who may call a route:
 * - 'public': anyone (login, refresh, health, invitation look-ups);
 * - 'token': a valid access token, checked without the database; the handler's own query must check
 *   that the session is live (only `me` does this, to answer in one round trip);
 * - 'user': a live session, in no particular organization;
 * - 'org' (implied by `permission`): a live session of a member of the X-Organization-ID organization
 *   whose role grants the permission.
 */
export type Access = 'public' | 'token' | 'user' | 'org';

/** A handler's answer: data is sent as 200 JSON; reply() sets the status and headers; jsonText() is JSON already written; RAW means it wrote `res` itself. */
export interface Reply {
  readonly status: number;
  readonly body: unknown;
  readonly headers?: OutgoingHttpHeaders;
}
export const RAW: unique symbol = Symbol('raw response');
const REPLY = Symbol('reply');
export const reply = (status: number, body: unknown = null, headers: OutgoingHttpHeaders = {}): Reply => ({ [REPLY]: true, status, body, headers }) as Reply;
export const isReply = (v: unknown): v is Reply => typeof v === 'object' && v !== null && REPLY in v;
/** A 200 answer already written as JSON text (the database built it): sent as it is, never parsed again. */
export interface JsonText {
  readonly json: string;
}
const JSON_TEXT = Symbol('json text');
export const jsonText = (json: string): JsonText => ({ [JSON_TEXT]: true, json }) as JsonText;
export const isJsonText = (v: unknown): v is JsonText => typeof v === 'object' && v !== null && JSON_TEXT in v;

interface BaseInput<P extends Shape, Q extends Shape, B extends Shape> {
  req: IncomingMessage;
  res: ServerResponse;
  ctx: Ctx;
  params: Parsed<P>;
  query: Parsed<Q>;
  body: Parsed<B>;
  /** The body of a `textBody` route ('' otherwise). */
  text: string;
  /** The undecoded body of a `textBody` route with `raw` (empty otherwise). */
  bytes: Buffer;
  /** The transaction of a change (POST, PUT, PATCH, DELETE), or the database for a read. */
  tx: Queryable;
  /** D30: records an audit entry, written in the same transaction before it commits. */
  audit(entry: AuditEntry): void;
}

export type HandlerInput<A extends Access, P extends Shape, Q extends Shape, B extends Shape> = BaseInput<P, Q, B> &
  (A extends 'org' ? { caller: OrgCaller } : A extends 'user' ? { caller: Caller } : A extends 'token' ? { principal: TokenPrincipal } : object);

export interface RouteDef<A extends Access = Access, P extends Shape = Shape, Q extends Shape = Shape, B extends Shape = Shape> {
  method: Method;
  /** Under the API base, with `:name` segments, ending in '/' (SPEC §7). */
  path: string;
  access: A;
  /** Required when access is 'org'. */
  permission?: A extends 'org' ? Permission : never;
  params?: P;
  query?: Q;
  /** The JSON body's fields; a route with a body refuses other fields. */
  body?: B;
  /** PATCH-style bodies: absent fields stay absent. */
  partialBody?: boolean;
  /** A body that is not JSON (a CSV upload): read as UTF-8 text into `text`. */
  textBody?: {
    maxBytes: number;
    accepts: (mime: string) => boolean;
    expected: string;
    /** D43: hand the bytes over undecoded (`bytes`); the request may declare any charset this accepts. */
    raw?: { charsets: (charset: string) => boolean };
  };
  /** A JSON body larger than the server's limit (D58: up to 10,000 ids). */
  maxBodyBytes?: number;
  /** SPEC §7 auth payloads only: fields the route does not know are ignored rather than refused. */
  ignoreUnknownFields?: boolean;
  /** A change that must leave this audit action (D30); the router refuses to commit without it. */
  audit?: AuditAction;
  /** Changes run in a transaction unless this is false (auth routes manage their own). */
  transaction?: boolean;
  /** D34, PGlite: a change of many rows in several statements lends other callers' waiting reads the time between them (db-share.ts). */
  shareReads?: ShareReads;
  /**
   * D35: a refusal known from the request line and headers alone (a flooding address), answered before
   * the body is read or parsed, so refusing costs no more than it must. Null to go on as usual.
   */
  refuseEarly?: (req: IncomingMessage, ctx: Ctx) => HttpError | null;
  handler(input: HandlerInput<A, P, Q, B>): Promise<unknown>;
}

/** Every field a definition may have: the router honours each of these and nothing else. */
const KNOWN_FIELDS = new Set([
  'method',
  'path',
  'access',
  'permission',
  'params',
  'query',
  'body',
  'partialBody',
  'maxBodyBytes',
  'textBody',
  'ignoreUnknownFields',
  'audit',
  'transaction',
  'shareReads',
  'refuseEarly',
  'handler',
]);

/** Whether the router runs this route's handler in a transaction (changes, unless they opt out). */
export const runsInTransaction = (route: RouteDef) => route.method !== 'GET' && route.transaction !== false;

/**
 * STYLE "Routes are data": the reasons the router could not honour a definition as written (it would
 * drop the part silently); empty when it can. The router refuses to start with any (router.ts).
 */
export function unhonoured(route: RouteDef): string[] {
  const found: string[] = [];
  for (const key of Object.keys(route)) if (!KNOWN_FIELDS.has(key)) found.push(`'${key}' is not a route field`);
  // D30: entries are written in the route's own transaction; a read or a route managing its own has none.
  if (route.audit !== undefined && !runsInTransaction(route)) found.push(`'audit' needs a transaction, and ${route.method === 'GET' ? 'a GET' : 'this route'} has none`);
  if (route.method === 'GET' && route.transaction !== undefined) found.push("'transaction' is not for a GET: reads run outside one");
  if (route.permission !== undefined && route.access !== 'org') found.push(`'permission' needs access 'org', not '${route.access}'`);
  if (route.method === 'GET' && (route.body || route.textBody)) found.push('a GET has no body');
  if (route.body && route.textBody) found.push("'body' and 'textBody' both describe the body");
  if (!route.body && (route.partialBody !== undefined || route.ignoreUnknownFields !== undefined || route.maxBodyBytes !== undefined))
    found.push("'partialBody', 'ignoreUnknownFields' and 'maxBodyBytes' need a JSON 'body'");
  const inPath = route.path
    .split('/')
    .filter((s) => s.startsWith(':'))
    .map((s) => s.slice(1))
    .sort();
  const declared = Object.keys(route.params ?? {}).sort();
  if (inPath.join() !== declared.join()) found.push(`'params' (${declared.join(', ') || 'none'}) must name the path's parameters (${inPath.join(', ') || 'none'})`);
  return found;
}

/** Declares a route; the generic parameters are inferred so the handler sees typed input. */
export function defineRoute<A extends Access, P extends Shape = Shape, Q extends Shape = Shape, B extends Shape = Shape>(def: RouteDef<A, P, Q, B>): RouteDef {
  return def as unknown as RouteDef;
}
