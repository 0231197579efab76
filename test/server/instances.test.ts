// D2 D16 D18 what only matters on PostgreSQL: several instances on one database share the JWT secret,
// the sessions and the login throttling, and migrate and seed it once between them.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { CUSTOMERS, SUITE_ENV } from './api-common';
import { describePostgres } from './backends';
import { client, createUser, orgId, startTestServer, tokens, type TestServer } from './helpers';

describePostgres('D2 D16 D18 several instances on one PostgreSQL', (databaseUrl) => {
  let a: TestServer;
  let b: TestServer;
  beforeAll(async () => {
    // A database of its own (empty, like a fresh deployment), started together: migrations and seeding
    // must happen exactly once.
    [a, b] = await Promise.all([startTestServer({ databaseUrl: databaseUrl(), env: SUITE_ENV }), startTestServer({ databaseUrl: databaseUrl(), env: SUITE_ENV })]);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  test('D2 instances starting together migrate and seed the database once', async () => {
    expect([a.seeded, b.seeded].filter(Boolean)).toHaveLength(1);
    const [row] = await a.db.query<{ n: unknown }>("select count(*)::int as n from users where email like '%@demo.test'");
    expect(Number(row?.n)).toBe(6); // D3: owner, solo, viewer, nobody, beacon and (D59) tech
  });

  test('D16 a session started on one instance is refreshed, used and ended on the other', async () => {
    const t = tokens(await client(a.url).login('owner@demo.test'));
    expect((await client(b.url).me(t.access_token)).status).toBe(200); // shared JWT secret
    const n = tokens(await client(b.url).refresh(t.refresh_token));
    expect(tokens(await client(a.url).refresh(t.refresh_token)).refresh_token).toBe(n.refresh_token); // D8 grace, across instances
    expect((await client(a.url).logout({ refresh_token: n.refresh_token })).status).toBe(204);
    expect((await client(b.url).me(n.access_token)).status).toBe(401);
  });

  test('D16 a session ended on one instance: the other refuses its very next me (nothing kept to serve stale)', async () => {
    for (let i = 0; i < 10; i++) {
      const t = tokens(await client(a.url).login('solo@demo.test'));
      for (let j = 0; j < 3; j++) expect((await client(b.url).me(t.access_token)).status).toBe(200); // the same call, answered before
      expect((await client(a.url).logout({ refresh_token: t.refresh_token })).status).toBe(204);
      const r = await client(b.url).me(t.access_token); // at once: no wait for any notification
      expect(r.status).toBe(401);
      expect(r.body.code).toBe('session_ended');
    }
  });

  test("a change made on one instance is in the other's very next answer, however often that was asked before", async () => {
    const t = tokens(await client(a.url).login('owner@demo.test'));
    const h = { Authorization: `Bearer ${t.access_token}`, 'X-Organization-ID': String(await orgId(a.db, 'Acme Plumbing')) };
    const list = `${CUSTOMERS}?q=kept+across+instances`;
    for (let i = 0; i < 3; i++) expect((await client(b.url).get(list, h)).body.count).toBe(0);
    expect((await client(a.url).post(CUSTOMERS, { name: 'Kept Across Instances' }, h)).status).toBe(201);
    expect((await client(b.url).get(list, h)).body.count).toBe(1);
    // Access too: the owner's customers:view taken away on a (straight in the database) refuses b's next list.
    const org = Number(h['X-Organization-ID']);
    await a.db.query("delete from role_permissions where org_id = $1 and role = 'owner' and permission = 'customers:view'", [org]);
    try {
      const r = await client(b.url).get(list, h);
      expect(r.status).toBe(403);
      expect(r.body.code).toBe('permission_denied');
    } finally {
      await a.db.query("insert into role_permissions (org_id, role, permission) values ($1, 'owner', 'customers:view')", [org]);
    }
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
