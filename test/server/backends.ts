// D2: every API test file runs on both databases. PGlite gets a fresh data directory (a copy of one with
// the schema in place: helpers' migratedDataDir); PostgreSQL a fresh database in the run's one cluster
// (global-setup.ts), so files never see each other's data. Without PostgreSQL its half is skipped with a
// notice, and under CI=true it fails instead.
import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import type { StartOptions } from '../../server/server';
import { SUITE_ENV } from './api-common';
import { client, makeClock, migratedDataDir, removeDir, startTestServer, type Clock, type TestServer } from './helpers';

export type BackendLabel = 'PGlite' | 'PostgreSQL';
export const BACKENDS: readonly BackendLabel[] = ['PGlite', 'PostgreSQL'];

/** An HTTP client of one server (helpers' `client`). */
export type Api = ReturnType<typeof client>;

/** What a test gets: the running server, its fake clock and a client of it. */
export interface Backend {
  label: BackendLabel;
  server: TestServer;
  clock: Clock;
  api: Api;
}

export interface BackendOptions {
  /** The server's environment; SUITE_ENV by default. */
  env?: Record<string, string>;
}

/** The database options of one fresh database and how to remove it once the server is closed. */
interface FreshDatabase {
  options: Pick<StartOptions, 'dataDir' | 'databaseUrl'>;
  cleanup: () => Promise<void>;
}

async function freshPglite(): Promise<FreshDatabase> {
  const dataDir = await migratedDataDir('pglite');
  return { options: { dataDir }, cleanup: async () => removeDir(dataDir) };
}

/** A new, empty database in the shared cluster, under a name no other file or run uses. */
export async function freshPostgresDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const adminUrl = inject('postgresUrl');
  const name = `crm_test_${process.pid}_${randomBytes(6).toString('hex')}`;
  const admin = () => postgres(adminUrl, { max: 1, onnotice: () => {} });
  const sql = admin();
  try {
    await sql.unsafe(`create database ${name}`);
  } finally {
    await sql.end({ timeout: 5 });
  }
  return {
    url: adminUrl.replace(/\/postgres$/, `/${name}`),
    drop: async () => {
      const end = admin();
      try {
        await end.unsafe(`drop database if exists ${name} with (force)`);
      } finally {
        await end.end({ timeout: 5 });
      }
    },
  };
}

async function freshPostgres(): Promise<FreshDatabase> {
  const { url, drop } = await freshPostgresDatabase();
  return { options: { databaseUrl: url }, cleanup: drop };
}

function postgresAvailable(): boolean {
  return Boolean(inject('postgresUrl'));
}

/**
 * Without PostgreSQL a describe gets this in place of its tests: a loud skip locally, a failure under
 * CI, where a missing PostgreSQL must never pass as green.
 */
function postgresMissing(): void {
  const missing = inject('postgresMissing') || 'the server project was run without its global setup';
  if (process.env.CI === 'true') test('PostgreSQL is installed', () => expect.fail(missing));
  else test.skip(`PostgreSQL suite skipped: ${missing}`, () => {});
}

/** Starts a server on a fresh database of the given backend; `stop` closes it and removes the database. */
async function startBackend(label: BackendLabel, options: BackendOptions): Promise<{ backend: Backend; stop: () => Promise<void> }> {
  const db = label === 'PGlite' ? await freshPglite() : await freshPostgres();
  const clock = makeClock();
  const server = await startTestServer({ ...db.options, now: clock.now, env: options.env ?? SUITE_ENV }).catch(async (err: unknown) => {
    await db.cleanup();
    throw err;
  });
  let stopping: Promise<void> | null = null;
  const stop = () =>
    (stopping ??= (async () => {
      try {
        await server.close();
      } finally {
        await db.cleanup();
      }
    })());
  return { backend: { label, server, clock, api: client(server.url) }, stop };
}

/**
 * One describe per backend, `${name} (PGlite)` and `${name} (PostgreSQL)`, each with its own server
 * (demo data, a fake clock, SUITE_ENV) on a fresh database, closed and removed after the describe.
 * `backend()` gives the running server to hooks and tests; call it from them, not while defining.
 */
export function forEachBackend(name: string, body: (backend: () => Backend, label: BackendLabel) => void, options: BackendOptions = {}): void {
  const labels = BACKENDS.filter((label) => label !== 'PostgreSQL' || postgresAvailable());
  const started = new Map<BackendLabel, ReturnType<typeof startBackend>>();
  const start = (label: BackendLabel) => {
    let starting = started.get(label);
    if (!starting) {
      starting = startBackend(label, options);
      starting.catch(() => {}); // reported by the describe that awaits it, not as an unhandled rejection
      started.set(label, starting);
    }
    return starting;
  };
  // Both servers start at once: PGlite works in this process while PostgreSQL works in its own.
  beforeAll(() => {
    for (const label of labels) void start(label);
  });
  // Whatever a describe did not stop (one filtered out, or failing), stopped with the file.
  afterAll(async () => {
    for (const starting of started.values()) await (await starting.catch(() => null))?.stop();
  });

  for (const label of BACKENDS) {
    describe(`${name} (${label})`, () => {
      if (!labels.includes(label)) return postgresMissing();
      let current: Backend | null = null;
      beforeAll(async () => {
        current = (await start(label)).backend;
      });
      afterAll(async () => {
        await (await started.get(label)?.catch(() => null))?.stop();
      });
      body(() => {
        if (!current) throw new Error(`the ${label} server for "${name}" has not started`);
        return current;
      }, label);
    });
  }
}

/**
 * A describe for what only PostgreSQL has (several instances on one database). `databaseUrl()` is a
 * fresh, empty database of its own, dropped after the describe's own afterAll hooks have run.
 */
export function describePostgres(name: string, body: (databaseUrl: () => string) => void): void {
  describe(name, () => {
    if (!postgresAvailable()) return postgresMissing();
    let database: Awaited<ReturnType<typeof freshPostgresDatabase>> | null = null;
    beforeAll(async () => {
      database = await freshPostgresDatabase();
    });
    afterAll(async () => {
      await database?.drop();
    });
    body(() => {
      if (!database) throw new Error(`the database for "${name}" has not been made`);
      return database.url;
    });
  });
}
