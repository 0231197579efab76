// startServer(): the one programmatic entry, used by main.ts and the tests. Opens the database, migrates,
// seeds (D3), and serves the API and the built app on one port (D2).
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { createServer, STATUS_CODES } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Duplex } from 'node:stream';
import type { ScryptCost } from './auth/passwords';
import { OWASP_SCRYPT } from './auth/passwords';
import { pruneChallenges } from './auth/mfa';
import { ENDED_SESSION_RETENTION_MS, pruneSessions } from './auth/sessions';
import { pruneResets } from './password-resets';
import { pruneAttempts } from './auth/throttle';
import { purgeDeleted } from './features/customers/deleted-repo';
import { purgeDeletedFields } from './features/custom-fields/purge';
import { createApp } from './app';
import type { Config, Env, SeedMode } from './config';
import { loadConfig, sentryOrigin } from './config';
import type { Ctx } from './context';
import type { Db } from './db';
import { openDb } from './db';
import { createDevReload } from './dev-reload';
import { BASE_SECURITY_HEADERS, HttpError, sendError } from './http';
import type { Logger } from './log';
import { consoleLogger, describeError } from './log';
import { migrate } from './migrations';
import { demoAccountLines, seedDemo } from './seed';
import { createStatic } from './static';
import { ANALYZE_CHECK_MS, analyzeChanged } from './statistics';

const HEADERS_TIMEOUT_MS = 20_000; // slow-header clients are cut off
const REQUEST_TIMEOUT_MS = 60_000;
const KEEP_ALIVE_TIMEOUT_MS = 65_000; // longer than common load balancers' 60 s idle timeout
const SHUTDOWN_GRACE_MS = 2_000; // in-flight requests get this long on close()
const MAINTENANCE_INTERVAL_MS = 3600_000;
const JWT_SECRET_KEY = 'jwt_secret';
const GENERATED_SECRET_BYTES = 48;

export interface StartOptions {
  /** Environment to read the configuration from (default process.env); the options below win over it. */
  env?: Env;
  port?: number;
  host?: string;
  dataDir?: string;
  databaseUrl?: string | null;
  seed?: SeedMode;
  /** The built app (default ./dist). */
  distDir?: string;
  log?: Logger;
  /** Clock in ms since the epoch (default Date.now). */
  now?: () => number;
  /** D17: OWASP's by default; tests may pass a cheaper cost for speed. */
  scryptCost?: ScryptCost;
}

export interface RunningServer {
  url: string;
  port: number;
  config: Config;
  db: Db;
  /** True when this start seeded the demo data. */
  seeded: boolean;
  /** Banner lines for the demo accounts present (empty with SEED=none). */
  demoAccounts: string[];
  close(): Promise<void>;
}

/** D16: JWT_SECRET, or one generated on first start and kept in the database for every instance. */
async function jwtSecret(db: Db, configured: string | null): Promise<string> {
  if (configured) return configured;
  await db.query('insert into app_settings (key, value) values ($1, $2) on conflict (key) do nothing', [
    JWT_SECRET_KEY,
    randomBytes(GENERATED_SECRET_BYTES).toString('base64url'),
  ]);
  const [row] = await db.query<{ value: string }>('select value from app_settings where key = $1', [JWT_SECRET_KEY]);
  if (!row) throw new Error('could not read the generated JWT secret');
  return row.value;
}

/** D19 D20: a JSON error written straight to the socket, for requests that never reach a handler; then close. */
function rawAnswer(socket: Duplex, status: number, code: string, detail: string, headers: OutgoingHttpHeaders = {}): void {
  const body = JSON.stringify({ detail, code });
  const all: OutgoingHttpHeaders = {
    ...BASE_SECURITY_HEADERS,
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': 'no-store',
    ...headers,
    Connection: 'close',
  };
  const lines = Object.entries(all)
    .map(([name, value]) => `${name}: ${String(value)}\r\n`)
    .join('');
  socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\n${lines}\r\n${body}`);
}

/** D19: even a request Node cannot parse (e.g. headers over the limit) gets a JSON answer. */
function answerClientError(err: Error & { code?: string }, socket: Duplex): void {
  if (!socket.writable || err.code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  const [status, code, detail] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'headers_too_large', 'Request headers are too large']
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'request_timeout', 'Request took too long to arrive']
        : [400, 'bad_request', 'Malformed HTTP request'];
  rawAnswer(socket, status, code, detail);
}

/** D19: CONNECT (a proxy's method) would otherwise get the connection dropped without a word. */
function answerConnect(_req: IncomingMessage, socket: Duplex): void {
  socket.on('error', () => socket.destroy()); // Node hands the socket over without its own error handler
  rawAnswer(socket, 405, 'method_not_allowed', 'Method CONNECT not allowed', { Allow: 'GET, HEAD, POST, OPTIONS' });
}

function displayUrl(host: string, port: number): string {
  const shown = host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return `http://${shown}:${port}/`;
}

export async function startServer(options: StartOptions = {}): Promise<RunningServer> {
  const fromEnv = loadConfig(options.env ?? process.env);
  const config: Config = {
    ...fromEnv,
    port: options.port ?? fromEnv.port,
    host: options.host ?? fromEnv.host,
    dataDir: options.dataDir ? path.resolve(options.dataDir) : fromEnv.dataDir,
    databaseUrl: options.databaseUrl !== undefined ? options.databaseUrl : fromEnv.databaseUrl,
    seed: options.seed ?? fromEnv.seed,
  };
  const log = options.log ?? consoleLogger;
  const now = options.now ?? Date.now;
  const scryptCost = options.scryptCost ?? OWASP_SCRYPT;
  const distDir = path.resolve(options.distDir ?? 'dist');

  const db = await openDb(config);
  try {
    await migrate(db);
    const seeded = config.seed === 'demo' ? await seedDemo(db, scryptCost, now()) : false;
    const ctx: Ctx = { db, config, log, now, scryptCost, jwtSecret: await jwtSecret(db, config.jwtSecret) };
    const devReload = config.devReload ? createDevReload(distDir) : null;
    const serveStatic = createStatic({
      distDir,
      appConfig: { apiBase: config.apiBase, sentryDsn: config.sentryDsn }, // D1
      sentryOrigin: config.sentryDsn ? sentryOrigin(config.sentryDsn) : null,
    });
    const app = createApp(ctx, { serveStatic, devReload });

    // requireHostHeader off: Node's own refusal is an empty 400; the app refuses in JSON instead (D19).
    const server = createServer({ headersTimeout: HEADERS_TIMEOUT_MS, requestTimeout: REQUEST_TIMEOUT_MS, requireHostHeader: false }, (req, res) => {
      void app(req, res);
    });
    server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
    server.on('clientError', answerClientError);
    server.on('connect', answerConnect);
    // D19: an Expect other than 100-continue; Node's own answer is an empty 417. The body is never read.
    server.on('checkExpectation', (_req: IncomingMessage, res: ServerResponse) =>
      sendError(res, new HttpError(417, 'expectation_failed', 'Only "Expect: 100-continue" is supported', { Connection: 'close' })),
    );
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.port, config.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    server.on('error', (err) => log.error(`server error: ${describeError(err)}`));

    let maintaining: Promise<unknown> = Promise.resolve();
    const maintain = (vacuum: boolean) => {
      maintaining = Promise.all([
        pruneSessions(db, now()),
        pruneAttempts(db, config.throttle.windowS, now()),
        pruneChallenges(db, now()),
        purgeDeleted(db, now()),
        purgeDeletedFields(db), // D56: values of fields deleted before a restart
        pruneResets(db, new Date(now() - ENDED_SESSION_RETENTION_MS)),
      ])
        // PGlite has no autovacuum: without it, index-only scans (a deep page of the customers list) read
        // the table too, and the planner's statistics go stale. PostgreSQL's own autovacuum does this there.
        // Not at start: it holds PGlite's one connection, and the first requests should not wait for it.
        .then(() => (vacuum && db.kind === 'pglite' ? db.query('vacuum analyze') : undefined))
        .catch((err: unknown) => log.error(`maintenance failed: ${describeError(err)}`));
    };
    const maintenance = setInterval(() => maintain(true), MAINTENANCE_INTERVAL_MS).unref();
    maintain(false);
    // D34: the statistics of tables a large write changed, analyzed within seconds (statistics.ts).
    let analyzing: Promise<unknown> | null = null;
    const statistics = setInterval(() => {
      analyzing ??= analyzeChanged(db)
        .catch((err: unknown) => log.error(`analyze failed: ${describeError(err)}`))
        .finally(() => {
          analyzing = null;
        });
    }, ANALYZE_CHECK_MS).unref();

    const port = (server.address() as AddressInfo).port;
    let closing: Promise<void> | null = null;
    return {
      url: displayUrl(config.host, port),
      port,
      config,
      db,
      seeded,
      demoAccounts: config.seed === 'demo' ? await demoAccountLines(db) : [],
      close: () =>
        (closing ??= (async () => {
          clearInterval(maintenance);
          clearInterval(statistics);
          devReload?.close();
          const closed = new Promise<void>((resolve) => server.close(() => resolve()));
          server.closeIdleConnections();
          const force = setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS).unref();
          await closed;
          clearTimeout(force);
          await maintaining;
          await analyzing;
          await db.close();
        })()),
    };
  } catch (err) {
    await db.close().catch(() => {});
    throw err;
  }
}
