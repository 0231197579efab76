// Test helpers: a controllable clock, a small built-app fixture, a server started on an ephemeral port,
// and HTTP helpers that talk to it as a client would.
import { createHash, createHmac } from 'node:crypto';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { hashPassword, type ScryptCost } from '../../server/auth/passwords';
import type { Db } from '../../server/db';
import { num, openDb } from '../../server/db';
import { migrate, MIGRATIONS } from '../../server/migrations';
import type { Logger } from '../../server/log';
import { startServer, type RunningServer, type StartOptions } from '../../server/server';

/** Cheap scrypt for speed; one test proves the default is OWASP's. */
export const TEST_SCRYPT: ScryptCost = { log2N: 10, r: 8, p: 1 };
export const DEMO_PASSWORD = 'demo-password';
export const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const DAY = 24 * 3600 * SECOND;

export interface Clock {
  now: () => number;
  advance: (ms: number) => void;
}

export function makeClock(start = Date.now()): Clock {
  let t = start;
  return { now: () => t, advance: (ms) => void (t += ms) };
}

export function tempDir(prefix: string): string {
  return mkdtempSync(path.join(os.tmpdir(), `crm-${prefix}-`));
}

const pgliteVersion = () => (JSON.parse(readFileSync(path.resolve('node_modules/@electric-sql/pglite/package.json'), 'utf8')) as { version: string }).version;

/**
 * A copy of the template `name` in the temp directory, which `make` fills in (a data directory's
 * parent, holding pgdata/) the first time. The template is shared by the suite's processes and runs.
 */
async function fromTemplate(prefix: string, name: string, make: (dir: string) => Promise<void>): Promise<string> {
  const template = path.join(os.tmpdir(), name);
  if (!existsSync(path.join(template, 'pgdata', 'PG_VERSION'))) {
    const staging = tempDir('pglite-staging');
    try {
      await make(staging);
    } catch (err) {
      removeDir(staging);
      throw err;
    }
    try {
      renameSync(staging, template); // atomic: a half-made template is never seen
    } catch {
      removeDir(staging); // another process was quicker
    }
  }
  const dir = tempDir(prefix);
  cpSync(template, dir, { recursive: true });
  return dir;
}

/**
 * A fresh, empty PGlite data directory. PGlite's initdb takes seconds, so the first caller makes a
 * pristine template (per PGlite version, shared by the suite's processes) and every caller gets a copy:
 * a database no server has touched; migrations and seeding still run on it.
 */
export async function freshDataDir(prefix: string): Promise<string> {
  return fromTemplate(prefix, `crm-pglite-template-${pgliteVersion()}`, async (staging) => {
    const db = await PGlite.create(path.join(staging, 'pgdata'));
    await db.close();
  });
}

/**
 * A fresh PGlite data directory with the schema in place (every migration applied by migrate(), no
 * data): what the per-feature servers start on. Migrating takes PGlite seconds, every file over; the
 * template is keyed by the PGlite version and the migrations' text, so a new migration makes a new one.
 * Migrating an empty database is still tested: freshDataDir's, and every PostgreSQL database.
 */
export async function migratedDataDir(prefix: string): Promise<string> {
  const key = createHash('sha256').update(pgliteVersion()).update(JSON.stringify(MIGRATIONS)).digest('hex').slice(0, 16);
  return fromTemplate(prefix, `crm-pglite-migrated-${key}`, async (staging) => {
    const pristine = await freshDataDir('pglite-migrating');
    cpSync(pristine, staging, { recursive: true });
    removeDir(pristine);
    const db = await openDb({ databaseUrl: null, dataDir: staging });
    try {
      await migrate(db);
    } finally {
      await db.close();
    }
  });
}

export const THEME_SCRIPT = 'document.documentElement.dataset.theme="light"';
export const ASSET_JS = '/assets/main-ABC123.js';

/** A dist/ like build.mjs writes: index.html with an inline script, hashed assets, build output. */
export function makeDist(dir: string): string {
  mkdirSync(path.join(dir, 'assets/chunks'), { recursive: true });
  mkdirSync(path.join(dir, 'server'), { recursive: true });
  mkdirSync(path.join(dir, 'logos'), { recursive: true });
  writeFileSync(
    path.join(dir, 'index.html'),
    `<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>CRM</title>\n<script>${THEME_SCRIPT}</script>\n` +
      `<link rel="stylesheet" href="/assets/app-DEF456.css">\n<script type="module" src="${ASSET_JS}"></script>\n</head>\n<body><div id="root"></div></body>\n</html>\n`,
  );
  writeFileSync(path.join(dir, ASSET_JS), `export const app = ${JSON.stringify('x'.repeat(4000))};\n`);
  writeFileSync(path.join(dir, 'assets/app-DEF456.css'), 'body { margin: 0 }\n');
  writeFileSync(path.join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  copyFileSync(path.resolve('static/logos/acme.svg'), path.join(dir, 'logos/acme.svg'));
  writeFileSync(path.join(dir, 'server/main.mjs'), '// server code, never served\n');
  writeFileSync(path.join(dir, 'meta.json'), '{}');
  return dir;
}

export interface TestServer extends RunningServer {
  logs: string[];
  dist: string;
}

export function collectingLogger(logs: string[]): Logger {
  return { info: (m) => logs.push(m), error: (m) => logs.push(m) };
}

/** The real server on 127.0.0.1:0 with a fresh PGlite in a temp dir unless told otherwise. */
export async function startTestServer(opts: StartOptions & { logs?: string[] } = {}): Promise<TestServer> {
  const logs = opts.logs ?? [];
  const ownDist = opts.distDir ? null : makeDist(tempDir('dist'));
  const ownData = opts.databaseUrl || opts.dataDir ? null : await freshDataDir('data');
  const dist = opts.distDir ?? (ownDist as string);
  const removeOwn = () => {
    for (const dir of [ownDist, ownData]) if (dir) removeDir(dir);
  };
  const server = await startServer({
    port: 0,
    host: '127.0.0.1',
    scryptCost: TEST_SCRYPT,
    log: collectingLogger(logs),
    ...opts,
    ...(ownData ? { dataDir: ownData } : {}),
    env: opts.env ?? {},
    distDir: dist,
  }).catch((err: unknown) => {
    removeOwn();
    throw err;
  });
  const close = server.close;
  return Object.assign(server, {
    logs,
    dist,
    close: async () => {
      await close();
      removeOwn();
    },
  });
}

export interface Reply {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
  text: string;
}

async function reply(res: Response): Promise<Reply> {
  const text = await res.text();
  let body: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) body = parsed as Record<string, unknown>;
  } catch {
    // not JSON: callers look at text
  }
  return { status: res.status, headers: res.headers, body, text };
}

let addressCounter = 0;
/** A fresh client address, honoured when the server runs with TRUST_PROXY. */
export function newAddress(): string {
  addressCounter += 1;
  return `10.${(addressCounter >> 16) & 255}.${(addressCounter >> 8) & 255}.${addressCounter & 255}`;
}

/**
 * A client of one server. With an address, every request comes from it (X-Forwarded-For, believed
 * with TRUST_PROXY); without, each request from a fresh one, so throttling never spills between tests.
 */
export function client(baseUrl: string, address?: string) {
  const url = (p: string) => new URL(p.replace(/^\//, ''), baseUrl).toString();
  const common = () => ({ 'X-Forwarded-For': address ?? newAddress() });
  return {
    async post(p: string, body: unknown, headers: Record<string, string> = {}): Promise<Reply> {
      return reply(
        await fetch(url(p), {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', ...common(), ...headers },
          body: typeof body === 'string' ? body : JSON.stringify(body),
        }),
      );
    },
    async get(p: string, headers: Record<string, string> = {}): Promise<Reply> {
      return reply(await fetch(url(p), { headers: { ...common(), ...headers } }));
    },
    async request(p: string, init: RequestInit): Promise<Reply> {
      return reply(await fetch(url(p), { ...init, headers: { ...common(), ...(init.headers as Record<string, string> | undefined) } }));
    },
    login(email: string, password = DEMO_PASSWORD, extra: Record<string, unknown> = {}) {
      return this.post('/api/v1/auth/login/', { email, password, ...extra });
    },
    refresh(refreshToken: unknown) {
      return this.post('/api/v1/auth/refresh/', { refresh_token: refreshToken });
    },
    me(accessToken: string, orgId?: string | number) {
      return this.get('/api/v1/auth/me/', {
        Authorization: `Bearer ${accessToken}`,
        ...(orgId === undefined ? {} : { 'X-Organization-ID': String(orgId) }),
      });
    },
    logout(body: Record<string, unknown>, accessToken?: string) {
      return this.post('/api/v1/auth/logout/', body, accessToken ? { Authorization: `Bearer ${accessToken}` } : {});
    },
  };
}

export interface Tokens {
  access_token: string;
  refresh_token: string;
  session_id: number;
  refresh_expires_at: string;
}

export function tokens(r: Reply): Tokens {
  if (r.status !== 200) throw new Error(`expected 200, got ${r.status}: ${r.text}`);
  return r.body as unknown as Tokens;
}

/** The JSON parts of a JWT. */
export function decodeJwt(token: string): { header: Record<string, unknown>; payload: Record<string, unknown> } {
  const [h = '', p = ''] = token.split('.');
  const part = (s: string) => JSON.parse(Buffer.from(s, 'base64url').toString('utf8')) as Record<string, unknown>;
  return { header: part(h), payload: part(p) };
}

export function forgeJwt(header: object, payload: object, secret: string | null): string {
  const enc = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const input = `${enc(header)}.${enc(payload)}`;
  return `${input}.${secret === null ? '' : createHmac('sha256', secret).update(input).digest('base64url')}`;
}

export const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

let userCounter = 0;
/** A user of our own (so tests can fail logins without locking the shared demo accounts). */
export async function createUser(
  db: Db,
  opts: { password?: string; memberships?: [orgName: string, role: string][]; favorite?: string } = {},
): Promise<{ email: string; password: string; id: number; name: string }> {
  userCounter += 1;
  const name = `Tester${userCounter}`;
  const email = `user${userCounter}.${process.pid}.${Math.random().toString(36).slice(2, 8)}@test.example`;
  const password = opts.password ?? `pw-${userCounter}-secret`;
  const [row] = await db.query<{ id: unknown }>('insert into users (email, first_name, password_hash) values ($1, $2, $3) returning id', [
    email,
    name,
    await hashPassword(password, TEST_SCRYPT),
  ]);
  const id = num(row?.id);
  for (const [org, role] of opts.memberships ?? []) {
    await db.query('insert into memberships (user_id, org_id, role) select $1, id, $3 from organizations where name = $2', [id, org, role]);
  }
  if (opts.favorite) await db.query('update users set favorite_org_id = (select id from organizations where name = $2) where id = $1', [id, opts.favorite]);
  return { email, password, id, name };
}

export async function orgId(db: Db, name: string): Promise<number> {
  const [row] = await db.query<{ id: unknown }>('select id from organizations where name = $1', [name]);
  return num(row?.id);
}

/** Sends raw bytes (for requests fetch will not send) and returns the raw answer. */
export function rawRequest(port: number, data: string | Buffer, timeoutMs = 5000): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(Buffer.concat(chunks).toString('utf8'));
    }, timeoutMs);
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', (e) => (chunks.length ? undefined : reject(e)));
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks).toString('utf8'));
    });
    socket.write(data);
  });
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}
