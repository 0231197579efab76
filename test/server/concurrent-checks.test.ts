// D38: a change re-reads the caller's membership, role and permission inside its own transaction, under
// the organization's lock, so a member demoted a moment earlier cannot act: a change by the person
// being demoted either committed before the demotion or is refused 403, never committed after it.
// Each backend gets an interleaving that, without the re-read, commits the change after the demotion.
import { beforeAll, expect, test } from 'vitest';
import { withGateKey } from '../../server/gate-key';
import { CUSTOMERS } from './api-common';
import { forEachBackend } from './backends';
import type { Reply, TestServer } from './helpers';
import { people } from './people';
import { untilReleased } from './until-released';

const memberPath = (id: number) => `/api/v1/team/members/${id}/`;

forEachBackend('D38 checks under concurrency', (backend, label) => {
  let server: TestServer;
  beforeAll(() => {
    ({ server } = backend());
  });

  const { newOrg, person } = people(backend, 'D38 Org');
  /** A fresh organization with an owner and a member, and a customer the member made. */
  async function setUp() {
    const org = await newOrg();
    const orgId = org.id;
    const owner = await person(org, 'owner');
    const member = await person(org, 'member');
    const made = await member.call('POST', CUSTOMERS, { name: 'Raced Customer' });
    expect(made.status).toBe(201);
    const customer = made.body as unknown as { id: number; version: number };
    return { orgId, owner, member, customer };
  }

  /** Another transaction holding the customer's row (select … for update) until `release()`; `hold` is that transaction. */
  async function holdRow(customerId: number) {
    const { done: released, release } = untilReleased();
    const { done: isLocked, release: locked } = untilReleased();
    const hold = withGateKey(
      () =>
        server.db.transaction(async (tx) => {
          await tx.query('select id from customers where id = $1 for update', [customerId]);
          locked();
          await released;
        }),
      'test',
    );
    await isLocked;
    return { hold, release };
  }

  /** The invariant: the member's change was refused 403, or its audit entry precedes the demotion's. */
  async function expectNeverAfter(orgId: number, change: Reply, demotion: Reply) {
    expect(demotion.status).toBe(200);
    const rows = await server.db.query<{ id: unknown; action: string }>(
      `select id, action from audit_log where org_id = $1 and action in ('customer.updated', 'member.role_changed') order by id`,
      [orgId],
    );
    const order = rows.map((r) => r.action);
    if (change.status === 403) expect(order).toEqual(['member.role_changed']);
    else {
      expect(change.status).toBe(200);
      expect(order).toEqual(['customer.updated', 'member.role_changed']); // committed before the demotion
    }
    return change.status;
  }

  if (label === 'PGlite') {
    test('D38 a change whose caller check passed, queued behind a demotion, is refused 403 in its own transaction', async () => {
      const { orgId, owner, member, customer } = await setUp();
      // The one slot is held, so both callers' checks wait for it.
      const { done: released, release } = untilReleased();
      const hold = withGateKey(() => server.db.transaction(() => released), 'test');
      const demotion = owner.call('PATCH', memberPath(member.id), { role: 'viewer' });
      await expect.poll(() => server.db.queueStats().queued).toBe(1);
      const change = member.call('PATCH', `${CUSTOMERS}${customer.id}/`, { version: customer.version, city: 'Raced' });
      await expect.poll(() => server.db.queueStats().queued).toBe(2);
      // Served in turn: the owner's look-up, the member's look-up (still a member), then the demotion,
      // which was queued first; the member's change comes after it.
      release();
      await hold;
      const status = await expectNeverAfter(orgId, await change, await demotion);
      expect(status).toBe(403);
    });

    test('D38 an import, whose write runs in a transaction of its own, is refused 403 when its caller was demoted meanwhile', async () => {
      const { orgId, owner, member } = await setUp();
      const { done: released, release } = untilReleased();
      const hold = withGateKey(() => server.db.transaction(() => released), 'test');
      const demotion = owner.call('PATCH', memberPath(member.id), { role: 'viewer' });
      await expect.poll(() => server.db.queueStats().queued).toBe(1);
      const csv = 'name,email\nImported After Demotion,after-demotion@example.test\n';
      const change = member.raw('POST', '/api/v1/customers/import/?on_duplicate=skip', csv, 'text/csv');
      await expect.poll(() => server.db.queueStats().queued).toBe(2);
      release();
      await hold;
      expect((await demotion).status).toBe(200);
      expect((await change).status).toBe(403);
      const rows = await server.db.query('select id from customers where org_id = $1 and name = $2', [orgId, 'Imported After Demotion']);
      expect(rows).toHaveLength(0);
    });
  } else {
    test("D38 a demotion waits for a change already acting under the organization's lock; the change commits first", async () => {
      const { orgId, owner, member, customer } = await setUp();
      // Another transaction holds the customer's row: the member's change waits for it inside its transaction.
      const { hold, release } = await holdRow(customer.id);
      const waiting = async () =>
        Number(
          (
            await withGateKey(
              () => server.db.query<{ n: unknown }>("select count(*) as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'"),
              'probe',
            )
          )[0]?.n,
        );
      const change = member.call('PATCH', `${CUSTOMERS}${customer.id}/`, { version: customer.version, city: 'Raced' });
      await expect.poll(waiting).toBe(1);
      // The demotion needs the organization's lock alone: it waits for the member's change.
      let demoted = false;
      const demotion = owner.call('PATCH', memberPath(member.id), { role: 'viewer' }).then((r) => ((demoted = true), r));
      await expect.poll(waiting).toBe(2);
      expect(demoted).toBe(false);
      release();
      await hold;
      const status = await expectNeverAfter(orgId, await change, await demotion);
      expect(status).toBe(200);
      // And from now on the demoted member cannot act.
      expect((await member.call('PATCH', `${CUSTOMERS}${customer.id}/`, { version: customer.version + 1, city: 'Again' })).status).toBe(403);
    });

    test('PostgreSQL never JIT-compiles a statement, on any pooled connection', async () => {
      const jit = () => withGateKey(async () => (await server.db.query<{ v: string }>("select current_setting('jit') as v"))[0]?.v, 'test');
      // More calls at once than the pool has connections, so every one of them answers.
      expect(new Set(await Promise.all(Array.from({ length: 12 }, jit)))).toEqual(new Set(['off']));
    });

    test('D34 PostgreSQL cancels an ordinary statement after 5 s: 503 statement_timeout JSON, not 500; bulk work may ask for longer', async () => {
      const timeout = async (opts?: { statementTimeoutMs: number }) =>
        withGateKey(() => server.db.transaction(async (tx) => (await tx.query<{ t: string }>("select current_setting('statement_timeout') as t"))[0]?.t, opts), 'test');
      expect(await timeout()).toBe('5s');
      expect(await timeout({ statementTimeoutMs: 60_000 })).toBe('1min');
      expect(await timeout()).toBe('5s'); // `set local`: the longer limit ended with its transaction
      const { member, customer } = await setUp();
      // The customer's row is held until the answer has come: the update can only end at its timeout.
      const { hold, release } = await holdRow(customer.id);
      const r = await member.call('PATCH', `${CUSTOMERS}${customer.id}/`, { version: customer.version, city: 'Too Late' });
      release();
      await hold;
      expect(r.status).toBe(503);
      expect(r.body).toMatchObject({ code: 'statement_timeout' });
      expect(r.headers.get('retry-after')).toBe('5');
      const [row] = await server.db.query<{ city: string | null }>('select city from customers where id = $1', [customer.id]);
      expect(row?.city).toBeNull(); // nothing was written
    });
  }
});
