// The API suite on a real PostgreSQL server that this file starts and stops, plus what only matters
// there: several instances on one database share the JWT secret, sessions and throttling.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { defineApiSuite, SUITE_ENV } from './api-suite';
import { client, createUser, startTestServer, tokens, type TestServer } from './helpers';
import { findPostgresBin, startCluster, type Cluster } from './postgres-cluster';

const bin = findPostgresBin();
const MISSING =
  'PostgreSQL server binaries (initdb, pg_ctl, postgres) not found: install PostgreSQL (e.g. apt-get install -y postgresql) or set PG_BIN';

if (!bin) {
  // Under CI a missing PostgreSQL is a failure, not a silent skip.
  if (process.env.CI === 'true') test('PostgreSQL is installed', () => expect.fail(MISSING));
  else test.skip(`PostgreSQL suite skipped: ${MISSING}`, () => {});
} else {
  let cluster: Cluster | null = null;
  const clusterReady = (async () => (cluster = await startCluster(bin)))();
  clusterReady.catch(() => {}); // reported by the hooks that await it, not as an unhandled rejection
  afterAll(async () => {
    await clusterReady.catch(() => {});
    await cluster?.stop();
  });

  defineApiSuite('PostgreSQL', async () => ({ options: { databaseUrl: (await clusterReady).url }, cleanup: async () => {} }));

  describe('D2 D16 D18 several instances on one PostgreSQL', () => {
    let a: TestServer;
    let b: TestServer;
    beforeAll(async () => {
      const { url } = await clusterReady;
      // A database of its own, so this starts from empty like a fresh deployment.
      const admin = await startTestServer({ databaseUrl: url, seed: 'none' });
      await admin.db.query('create database crm_instances');
      await admin.close();
      const databaseUrl = url.replace(/\/postgres$/, '/crm_instances');
      // Started together: migrations and seeding must happen exactly once.
      [a, b] = await Promise.all([startTestServer({ databaseUrl, env: SUITE_ENV }), startTestServer({ databaseUrl, env: SUITE_ENV })]);
    });
    afterAll(async () => {
      await a?.close();
      await b?.close();
    });

    test('D2 instances starting together migrate and seed the database once', async () => {
      expect([a.seeded, b.seeded].filter(Boolean)).toHaveLength(1);
      const [row] = await a.db.query<{ n: unknown }>("select count(*)::int as n from users where email like '%@demo.test'");
      expect(Number(row?.n)).toBe(4);
    });

    test('D16 a session started on one instance is refreshed, used and ended on the other', async () => {
      const t = tokens(await client(a.url).login('owner@demo.test'));
      expect((await client(b.url).me(t.access_token)).status).toBe(200); // shared JWT secret
      const n = tokens(await client(b.url).refresh(t.refresh_token));
      expect(tokens(await client(a.url).refresh(t.refresh_token)).refresh_token).toBe(n.refresh_token); // D8 grace, across instances
      expect((await client(a.url).logout({ refresh_token: n.refresh_token })).status).toBe(204);
      expect((await client(b.url).me(n.access_token)).status).toBe(401);
    });

    test('D8 D16 a refresh with a rotated-out token racing a logout of its session waits for it, never deadlocks', async () => {
      const t = tokens(await client(a.url).login('solo@demo.test'));
      const n = tokens(await client(a.url).refresh(t.refresh_token)); // t is rotated out: a second tab still holds it
      const { late } = await a.db.transaction(async (tx) => {
        // A logout's first step: the session row.
        await tx.query('update sessions set revoked_reason = revoked_reason where id = $1', [t.session_id]);
        const late = client(b.url).refresh(t.refresh_token); // D8: the second tab refreshes on the other instance
        for (let i = 0; i < 250; i++) {
          const waiting = await a.db.query("select 1 from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database()");
          if (waiting.length > 0) break;
          await new Promise((r) => setTimeout(r, 20));
        }
        // Its second step: the session's token rows. A refresh holding its token row while waiting for the
        // session row would close a cycle here, and PostgreSQL would end one side with "deadlock detected".
        await tx.query('update refresh_tokens set successor_sealed = successor_sealed where session_id = $1', [t.session_id]);
        return { late }; // wrapped: awaiting it inside the transaction would wait for our own lock
      });
      const r = await late;
      expect(r.status, r.text).toBe(200);
      expect(tokens(r).refresh_token).toBe(n.refresh_token);
    });

    test('D18 failures counted on one instance throttle the other', async () => {
      const user = await createUser(a.db);
      for (let i = 0; i < 3; i++) await client(i % 2 ? a.url : b.url).login(user.email, 'wrong');
      expect((await client(b.url).login(user.email, user.password)).status).toBe(429);
      expect((await client(a.url).login(user.email, user.password)).status).toBe(429);
    });
  });
}
