// D2, D26: the per-status customer counts under concurrent writes on PostgreSQL (migration 7). PGlite
// runs one transaction at a time, so only PostgreSQL can make writers wait for each other. The waits are
// observed, not timed: a backend of this database waiting on a lock shows in pg_stat_activity.
import postgres from 'postgres';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { SUITE_ENV } from './api-common';
import { describePostgres, type Backend } from './backends';
import { ACME, customerPath, signIn, type Actor } from './customers-common';
import { client, makeClock, startTestServer, type Reply, type TestServer } from './helpers';

const POLL_MS = 10;

describePostgres('D26 customer counts under concurrent writes (PostgreSQL)', (databaseUrl) => {
  let server: TestServer;
  let owner: Actor;
  let org: number;
  /** Another connection, standing for a writer that holds count rows. */
  let holder: postgres.Sql;
  /** A third one, to look at who waits. */
  let observer: postgres.Sql;

  beforeAll(async () => {
    server = await startTestServer({ databaseUrl: databaseUrl(), env: SUITE_ENV });
    const b: Backend = { label: 'PostgreSQL', server, clock: makeClock(), api: client(server.url) };
    owner = await signIn(b, 'owner@demo.test', ACME);
    org = owner.org;
    holder = postgres(databaseUrl(), { max: 1, onnotice: () => {} });
    observer = postgres(databaseUrl(), { max: 1, onnotice: () => {} });
  });
  afterAll(async () => {
    await holder?.end({ timeout: 5 });
    await observer?.end({ timeout: 5 });
    await server?.close();
  });

  /** How many backends of this database wait on a lock now. */
  const waiting = async () => Number((await observer`select count(*) as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`)[0]?.n);

  /** Resolves 'answered' once `reply` settles, or 'waits' once `n` backends wait on a lock, whichever comes first. */
  async function answeredOrWaiting(reply: Promise<Reply>, n = 1): Promise<'answered' | 'waits'> {
    let settled = false;
    void reply.finally(() => (settled = true)).catch(() => {});
    for (;;) {
      if (settled) return 'answered';
      if ((await waiting()) >= n) return 'waits';
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }

  /** Runs `body` while the holder keeps the organization's count rows of `statuses` locked. */
  async function whileHeld(statuses: string[], body: () => Promise<void>): Promise<void> {
    await holder.begin(async (tx) => {
      await tx`select 1 from customer_counts where org_id = ${org} and status = any(${statuses}) order by status for update`;
      await body();
    });
  }

  test('D2 an update that moves no count takes no count row: writes of an organization do not queue behind one row', async () => {
    const c = await owner.create({ status: 'active' });
    let status: Promise<Reply> | null = null;
    await whileHeld(['lead', 'active', 'inactive'], async () => {
      const city = owner.patch(customerPath(c.id), { version: c.version, city: 'Elsewhere' });
      expect(await answeredOrWaiting(city)).toBe('answered');
      expect((await city).status).toBe(200);
      // A status change does move two counts: it waits for the holder, then goes through.
      status = owner.patch(customerPath(c.id), { version: c.version + 1, status: 'inactive' });
      expect(await answeredOrWaiting(status)).toBe('waits');
    });
    expect((await status!).status).toBe(200);
  });

  test('D2 two status changes in opposite directions wait for each other in turn, never in a deadlock (no 500)', async () => {
    const toActive = await owner.create({ status: 'lead' });
    const toLead = await owner.create({ status: 'active' });
    let first: Promise<Reply> | null = null;
    let second: Promise<Reply> | null = null;
    // The holder keeps `lead`: the first change waits for it; the second starts while the first waits.
    // Count rows taken one at a time in each change's own order (old status, then new) deadlock here.
    await whileHeld(['lead'], async () => {
      first = owner.patch(customerPath(toActive.id), { version: toActive.version, status: 'active' });
      expect(await answeredOrWaiting(first, 1)).toBe('waits');
      second = owner.patch(customerPath(toLead.id), { version: toLead.version, status: 'lead' });
      expect(await answeredOrWaiting(second, 2)).toBe('waits');
    });
    const [a, b] = await Promise.all([first!, second!]);
    expect([a.status, b.status], `${a.text} ${b.text}`).toEqual([200, 200]);
    const counts = await owner.get('/api/v1/dashboard/');
    const [row] = await server.db.query<{ n: unknown }>(`select count(*) as n from customers where org_id = $1 and deleted_at is null and status = 'lead'`, [org]);
    expect((counts.body as { customers: { by_status: { lead: number } } }).customers.by_status.lead).toBe(Number(row?.n));
  });
});
