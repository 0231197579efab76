// Server configuration: every environment variable the server reads, parsed and checked once at start.
// docs/operations.md has the table; keep both in step.
import path from 'node:path';
import { DEFAULT_API_BASE } from '../contract/config';
import { LIST_COUNT_BOUND } from '../contract/customers';

export const DEFAULT_PORT = 8080; // D2
export const DEFAULT_HOST = 'localhost';
export const DEFAULT_DATA_DIR = './data'; // D2
export const DEFAULT_ACCESS_TOKEN_TTL_S = 15 * 60; // D16: 15 minutes
export const DEFAULT_MAX_BODY_BYTES = 16 * 1024; // auth payloads are a few hundred bytes
export const DEFAULT_THROTTLE_WINDOW_S = 15 * 60; // D18
export const DEFAULT_MAX_FAILURES_PER_EMAIL = 5; // D18
export const DEFAULT_MAX_FAILURES_PER_CLIENT = 50; // D18: offices share one address, so higher than per email
export const MIN_JWT_SECRET_LENGTH = 32; // 256 bits of base64 text or more

export type SeedMode = 'demo' | 'none';

export interface Config {
  port: number;
  host: string;
  /** PGlite data lives in dataDir/pgdata; ignored when databaseUrl is set. */
  dataDir: string;
  databaseUrl: string | null;
  jwtSecret: string | null;
  /** D54: the key two-step sign-in secrets are sealed under (MFA_KEY); null: derived from the JWT secret. */
  mfaKey: string | null;
  seed: SeedMode;
  sentryDsn: string | null;
  /** Path prefix of the API, no trailing slash (D1). */
  apiBase: string;
  /** Number of reverse proxies in front of the server whose X-Forwarded-For is believed; 0 = none. */
  trustProxy: number;
  accessTokenTtlS: number;
  maxBodyBytes: number;
  throttle: { windowS: number; maxFailuresPerEmail: number; maxFailuresPerClient: number };
  /** DEV_RELOAD=1: serve GET /esbuild, the live-reload event stream of `npm run dev`. */
  devReload: boolean;
  /** D26: LIST_COUNT_BOUND, how far a customers search counts before it says 'more than' (tests lower it). */
  listCountBound: number;
}

export type Env = Readonly<Record<string, string | undefined>>;

export class ConfigError extends Error {
  override name = 'ConfigError';
}

function int(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(`${name} must be a whole number, got "${raw}"`);
  const n = Number(raw);
  if (n < min || n > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${n}`);
  return n;
}

function str(env: Env, name: string): string | null {
  const raw = env[name]?.trim();
  return raw ? raw : null;
}

function flag(env: Env, name: string): boolean {
  const raw = env[name]?.trim().toLowerCase();
  return raw === '1' || raw === 'true' || raw === 'yes';
}

function parseApiBase(raw: string | null): string {
  const base = (raw ?? DEFAULT_API_BASE).replace(/\/+$/, '');
  // D1: a same-origin path; '/' alone would hide the app behind the API.
  if (!/^\/[A-Za-z0-9._~\-/]+$/.test(base) || base.includes('//')) {
    throw new ConfigError(`API_BASE must be a path such as /api, got "${raw}"`);
  }
  return base;
}

function parseTrustProxy(raw: string | null): number {
  if (raw === null) return 0;
  const v = raw.toLowerCase();
  if (v === 'false' || v === 'no') return 0;
  if (v === 'true' || v === 'yes') return 1;
  if (/^\d{1,2}$/.test(v)) return Number(v);
  throw new ConfigError(`TRUST_PROXY must be true, false or a number of proxies, got "${raw}"`);
}

function parseSeed(raw: string | null): SeedMode {
  if (raw === null || raw === 'demo') return 'demo';
  if (raw === 'none') return 'none';
  throw new ConfigError(`SEED must be "demo" or "none", got "${raw}"`);
}

function parseDatabaseUrl(raw: string | null): string | null {
  if (raw === null) return null;
  if (!/^postgres(ql)?:\/\//.test(raw)) throw new ConfigError('DATABASE_URL must start with postgres:// or postgresql://');
  return raw;
}

function parseSentryDsn(raw: string | null): string | null {
  if (raw === null) return null;
  sentryOrigin(raw); // throws when malformed
  return raw;
}

/** The origin the browser's Sentry SDK sends to (D20 connect-src). */
export function sentryOrigin(dsn: string): string {
  let url: URL;
  try {
    url = new URL(dsn);
  } catch {
    throw new ConfigError('SENTRY_DSN is not a URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new ConfigError('SENTRY_DSN must be an http(s) URL');
  return url.origin;
}

/** Reads the configuration from environment variables; throws ConfigError on a bad value. */
export function loadConfig(env: Env): Config {
  const jwtSecret = str(env, 'JWT_SECRET');
  if (jwtSecret !== null && jwtSecret.length < MIN_JWT_SECRET_LENGTH) {
    throw new ConfigError(`JWT_SECRET must be at least ${MIN_JWT_SECRET_LENGTH} characters (e.g. openssl rand -base64 48)`);
  }
  const mfaKey = str(env, 'MFA_KEY');
  if (mfaKey !== null && mfaKey.length < MIN_JWT_SECRET_LENGTH) {
    throw new ConfigError(`MFA_KEY must be at least ${MIN_JWT_SECRET_LENGTH} characters (e.g. openssl rand -base64 48)`);
  }
  return {
    port: int(env, 'PORT', DEFAULT_PORT, 0, 65535),
    host: str(env, 'HOST') ?? DEFAULT_HOST,
    dataDir: path.resolve(str(env, 'DATA_DIR') ?? DEFAULT_DATA_DIR),
    databaseUrl: parseDatabaseUrl(str(env, 'DATABASE_URL')),
    jwtSecret,
    mfaKey,
    seed: parseSeed(str(env, 'SEED')),
    sentryDsn: parseSentryDsn(str(env, 'SENTRY_DSN')),
    apiBase: parseApiBase(str(env, 'API_BASE')),
    trustProxy: parseTrustProxy(str(env, 'TRUST_PROXY')),
    accessTokenTtlS: int(env, 'ACCESS_TOKEN_TTL', DEFAULT_ACCESS_TOKEN_TTL_S, 30, 24 * 3600),
    maxBodyBytes: int(env, 'MAX_BODY_BYTES', DEFAULT_MAX_BODY_BYTES, 1024, 1024 * 1024),
    throttle: {
      windowS: int(env, 'LOGIN_THROTTLE_WINDOW', DEFAULT_THROTTLE_WINDOW_S, 1, 7 * 24 * 3600),
      maxFailuresPerEmail: int(env, 'LOGIN_MAX_FAILURES_PER_EMAIL', DEFAULT_MAX_FAILURES_PER_EMAIL, 1, 1_000_000),
      maxFailuresPerClient: int(env, 'LOGIN_MAX_FAILURES_PER_CLIENT', DEFAULT_MAX_FAILURES_PER_CLIENT, 1, 1_000_000),
    },
    devReload: flag(env, 'DEV_RELOAD'),
    listCountBound: int(env, 'LIST_COUNT_BOUND', LIST_COUNT_BOUND, 1, 1_000_000),
  };
}
