// The server as `npm start` runs it: OWASP scrypt cost, a generated JWT secret kept in the database,
// X-Forwarded-For ignored; and what happens across restarts on one data directory.
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parseHash, scryptLoad, type ScryptCost } from '../../server/auth/passwords';
import { openDb } from '../../server/db';
import { MIGRATIONS } from '../../server/migrations';
import { startServer } from '../../server/server';
import { client, createUser, DEMO_PASSWORD, freshDataDir, removeDir, startTestServer, TEST_SCRYPT, tokens, type TestServer } from './helpers';

const OWASP = undefined; // startTestServer's scryptCost: undefined → the server's default

describe('defaults and restarts', () => {
  let dataDir = '';
  let server: TestServer;
  /** Restarts on the same data directory; `cost` cheapens password work for tests that are not about it. */
  const start = async (env: Record<string, string> = {}, cost: ScryptCost | undefined = OWASP) => {
    await server?.close();
    server = await startTestServer({ dataDir, env, scryptCost: cost });
  };
  let quick: { email: string; password: string };
  const signIn = () => client(server.url).login(quick.email, quick.password);
  beforeAll(async () => {
    dataDir = await freshDataDir('defaults');
    await start();
    quick = await createUser(server.db); // hashed cheaply: for tests that only need a session
  });
  afterAll(async () => {
    await server?.close();
    removeDir(dataDir);
  });

  test('D17 stored password hashes use scrypt N=2^17, r=8, p=1 by default, each with its own salt', async () => {
    const rows = await server.db.query<{ password_hash: string }>("select password_hash from users where email like '%@demo.test'");
    expect(rows).toHaveLength(6);
    const parsed = rows.map((r) => parseHash(r.password_hash));
    for (const p of parsed) {
      expect(p?.cost).toEqual({ log2N: 17, r: 8, p: 1 });
      expect(p?.salt.length).toBe(16);
    }
    expect(new Set(parsed.map((p) => p?.salt.toString('hex'))).size).toBe(6);
    expect(rows[0]?.password_hash).toMatch(/^\$scrypt\$ln=17,r=8,p=1\$/);
  });

  test('D3 the demo accounts sign in with demo-password', async () => {
    expect(server.seeded).toBe(true);
    expect(server.demoAccounts.join('\n')).toContain('owner@demo.test');
    expect(server.demoAccounts.join('\n')).toContain('beacon@demo.test   Beacon Electric (owner)'); // D3: listed with the others
    expect(server.demoAccounts.join('\n')).toContain('tech@demo.test     Beacon Electric (member)'); // D59
    expect((await client(server.url).login('owner@demo.test', DEMO_PASSWORD)).status).toBe(200);
  });

  test('D17 an unknown email runs one scrypt, as a wrong password does', async () => {
    // Counts, not durations (the durations are bench/server.mjs's login figure): while each login is
    // answered, the process's scrypt work is watched; without the dummy scrypt an unknown email runs none.
    const scryptsDuring = async (email: string) => {
      let answered = false;
      const login = client(server.url)
        .login(email, 'wrong-password')
        .finally(() => (answered = true));
      let seen = 0;
      while (!answered) {
        seen = Math.max(seen, scryptLoad().running);
        await new Promise((resolve) => setImmediate(resolve));
      }
      expect((await login).status).toBe(401);
      return seen;
    };
    expect(await scryptsDuring('viewer@demo.test')).toBe(1);
    expect(await scryptsDuring(`unknown-${Date.now()}@test.example`)).toBe(1);
  });

  test('D17 a weaker stored hash is upgraded to the OWASP parameters at the next login', async () => {
    const user = await createUser(server.db); // hashed at the cheap test cost
    expect((await client(server.url).login(user.email, user.password)).status).toBe(200);
    const storedHash = async () => (await server.db.query<{ password_hash: string }>('select password_hash from users where id = $1', [user.id]))[0]?.password_hash ?? '';
    let hash = await storedHash();
    // The upgrade runs after the login has answered, at the full cost: wait for it however long a busy
    // machine takes (the test's own timeout bounds it), never for a fixed time.
    while (!hash.startsWith('$scrypt$ln=17')) {
      await new Promise((r) => setTimeout(r, 50));
      hash = await storedHash();
    }
    expect(parseHash(hash)?.cost).toEqual({ log2N: 17, r: 8, p: 1 });
    expect((await client(server.url).login(user.email, user.password)).status).toBe(200);
  }, 120_000);

  test('D16 the generated JWT secret is kept in the database: access tokens survive a restart', async () => {
    const [row] = await server.db.query<{ value: string }>("select value from app_settings where key = 'jwt_secret'");
    expect(row?.value.length).toBeGreaterThanOrEqual(43);
    const t = tokens(await signIn());
    expect(t.access_token.split('.')[2]).toBe(
      createHmac('sha256', row?.value ?? '')
        .update(t.access_token.split('.').slice(0, 2).join('.'))
        .digest('base64url'),
    );
    await start();
    expect((await client(server.url).me(t.access_token)).status).toBe(200);
    expect((await client(server.url).refresh(t.refresh_token)).status).toBe(200);
  });

  test('D2 a restart on an existing database applies no migration and seeds nothing', async () => {
    await start();
    expect(server.seeded).toBe(false);
    const [users] = await server.db.query<{ n: unknown }>('select count(*)::int as n from users');
    const migrations = await server.db.query('select version from schema_migrations');
    expect(migrations).toHaveLength(MIGRATIONS.length);
    expect(Number(users?.n)).toBeGreaterThanOrEqual(4);
  });

  test('D16 JWT_SECRET from the environment signs the access tokens', async () => {
    const secret = 'an-operator-chosen-secret-of-enough-length-0123456789';
    const before = tokens(await signIn());
    await start({ JWT_SECRET: secret }, TEST_SCRYPT);
    const t = tokens(await signIn());
    const [h, p, s] = t.access_token.split('.');
    expect(s).toBe(createHmac('sha256', secret).update(`${h}.${p}`).digest('base64url'));
    expect((await client(server.url).me(t.access_token)).status).toBe(200);
    expect((await client(server.url).me(before.access_token)).status).toBe(401); // signed with the old key
  });

  test('D18 without TRUST_PROXY, X-Forwarded-For does not change the client address', async () => {
    await start({ LOGIN_MAX_FAILURES_PER_CLIENT: '2' }, TEST_SCRYPT);
    await server.db.query('delete from login_attempts'); // earlier tests' failures, all from 127.0.0.1
    try {
      for (let i = 0; i < 2; i++) expect((await client(server.url).login(`spoof${i}@test.example`, 'x')).status).toBe(401);
      const r = await signIn();
      expect(r.status).toBe(429); // each request claimed a fresh X-Forwarded-For; all counted for 127.0.0.1
    } finally {
      await server.db.query('delete from login_attempts');
      await start();
    }
  });

  test('D2 a second server on the same data directory is refused', async () => {
    await expect(startServer({ dataDir, port: 0, host: '127.0.0.1', env: {}, log: { info() {}, error() {} } })).rejects.toThrow(/in use by process/);
    expect((await signIn()).status).toBe(200);
  });

  // Three PGlite start-ups: a starved machine takes longer than the suite's 30 s bound for a test.
  test('D2 a database schema newer than the server is refused at start', { timeout: 120_000 }, async () => {
    await server.db.query("insert into schema_migrations (version, name) values (999, 'from the future')");
    await server.close();
    await expect(startTestServer({ dataDir, env: {} })).rejects.toThrow(/newer than this server/);
    const db = await openDb({ databaseUrl: null, dataDir }); // the failed start released the data directory
    await db.query('delete from schema_migrations where version = 999');
    await db.close();
    await start();
    expect((await signIn()).status).toBe(200);
  });
});
